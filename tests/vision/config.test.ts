import { describe, expect, it } from 'vitest';
import { classValue, DetectorConfigError, parseDetectorConfig } from '../../src/lib/vision/config.ts';

const good = { inputSize: 512, classes: ['1', '2', '3', '4', '5', '6', 'other'], padValue: 114, scoreThreshold: 0.3, iouThreshold: 0.5 };

describe('parseDetectorConfig', () => {
  it('accepts the sidecar, defaulting maxDetections', () => {
    expect(parseDetectorConfig({ ...good, extra: 'ignored' })).toEqual({ ...good, inputStride: 0, maxDetections: 100, boxScale: 1, symbolDice: null });
  });

  it('reads the input stride of a model with dynamic input sides (0, a square input, when absent)', () => {
    expect(parseDetectorConfig({ ...good, inputStride: 32 }).inputStride).toBe(32);
    expect(() => parseDetectorConfig({ ...good, inputStride: 48 })).toThrow(/"inputStride"/);
    expect(() => parseDetectorConfig({ ...good, inputStride: 2.5 })).toThrow(/"inputStride"/);
  });

  it('reads the symbol-dice rule when the sidecar has one (its notes ignored)', () => {
    const symbolDice = { scoreThreshold: 0.75, containment: 0.4, chosenOn: 'notes' };
    expect(parseDetectorConfig({ ...good, symbolDice }).symbolDice).toEqual({ scoreThreshold: 0.75, containment: 0.4, inputSizes: [512], fusion: null, recount: null });
    const recount = { scoreThreshold: 0.15, maxCandidates: 8 };
    expect(parseDetectorConfig({ ...good, symbolDice: { ...symbolDice, recount } }).symbolDice?.recount).toEqual(recount);
    expect(() => parseDetectorConfig({ ...good, symbolDice: { ...symbolDice, recount: 0.15 } })).toThrow(/"symbolDice.recount" must be an object/);
    expect(() => parseDetectorConfig({ ...good, symbolDice: { ...symbolDice, recount: { ...recount, maxCandidates: 2.5 } } })).toThrow(/"maxCandidates" must be an integer/);
    expect(() => parseDetectorConfig({ ...good, symbolDice: { ...symbolDice, recount: { ...recount, scoreThreshold: -1 } } })).toThrow(/"scoreThreshold" must be a number in \[0, 1\]/);
    const fusion = { readThreshold: 0.4, sameDieIoU: 0.3, votes: 2 };
    expect(parseDetectorConfig({ ...good, symbolDice: { ...symbolDice, inputSizes: [512, 320, 224], fusion } }).symbolDice).toMatchObject({ inputSizes: [512, 320, 224], fusion });
    expect(() => parseDetectorConfig({ ...good, symbolDice: { ...symbolDice, inputSizes: [512, 320] } })).toThrow(/"symbolDice.fusion" must be an object/);
    expect(() => parseDetectorConfig({ ...good, symbolDice: { ...symbolDice, inputSizes: [512, 320], fusion: { ...fusion, votes: 3 } } })).toThrow(/"votes" must be a number in \[1, 2\]/);
    expect(() => parseDetectorConfig({ ...good, symbolDice: { ...symbolDice, inputSizes: [512, 320], fusion: { ...fusion, votes: 1.5 } } })).toThrow(/"votes" must be an integer/);
    for (const inputSizes of [[], [500], [1024], '512', [512, 0]]) {
      expect(() => parseDetectorConfig({ ...good, symbolDice: { ...symbolDice, inputSizes } })).toThrow(/"symbolDice.inputSizes" must be a non-empty array of multiples of 32 up to inputSize 512/);
    }
    expect(() => parseDetectorConfig({ ...good, symbolDice: { scoreThreshold: 0.75 } })).toThrow(/"containment"/);
    expect(() => parseDetectorConfig({ ...good, symbolDice: [0.75, 0.4] })).toThrow(/"symbolDice" must be an object/);
  });

  it.each([
    [null, /JSON object/],
    [{ ...good, inputSize: 500 }, /multiple of 32/],
    [{ ...good, inputSize: '512' }, /"inputSize"/],
    [{ ...good, classes: [] }, /"classes"/],
    [{ ...good, classes: [1, 2] }, /"classes"/],
    [{ ...good, padValue: 300 }, /"padValue"/],
    [{ ...good, scoreThreshold: undefined }, /"scoreThreshold"/],
    [{ ...good, iouThreshold: 1.5 }, /"iouThreshold"/],
  ])('rejects %j', (json, message) => {
    expect(() => parseDetectorConfig(json)).toThrow(DetectorConfigError);
    expect(() => parseDetectorConfig(json)).toThrow(message);
  });
});

describe('classValue', () => {
  it('reads "1"…"6" as values and anything else as no value', () => {
    expect(['1', '6', 'other', '7', '0', ' 1'].map(classValue)).toEqual([1, 6, null, null, null, null]);
  });
});
