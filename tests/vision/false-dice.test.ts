import { describe, expect, it } from 'vitest';
import { DieFaceConfigError, parseDieFaceConfig } from '../../src/lib/vision/die-face-reader.ts';
import { dieProbabilities, FALSE_DICE_FEATURE_COUNT, falseDiceFeatures, keptDice, type FalseDiceModel, type ReadDie } from '../../src/lib/vision/false-dice.ts';

const read = (x: number, y: number, value: number | null = 3, score = 0.9, probability = 0.95, side = 20): ReadDie => ({ box: { x, y, w: side, h: side }, value, score, probability });

/** A model of one feature: the share of a die's box inside another's (feature 9), weighed down. */
function insideModel(minProbability = 0.5): FalseDiceModel {
  const zeros = Array.from({ length: FALSE_DICE_FEATURE_COUNT }, () => 0);
  const weights = [...zeros];
  weights[9] = -10;
  return { features: 'context-v1', mean: [...zeros], scale: zeros.map(() => 1), weights, bias: 2, minProbability };
}

describe('false-dice features', () => {
  it('gives each die the same number of features, and none for no dice', () => {
    expect(falseDiceFeatures([], 0.3)).toEqual([]);
    const f = falseDiceFeatures([read(0, 0), read(100, 0)], 0.3);
    expect(f).toHaveLength(2);
    for (const row of f) expect(row).toHaveLength(FALSE_DICE_FEATURE_COUNT);
  });

  it('says a lone die has no neighbour', () => {
    const [f] = falseDiceFeatures([read(0, 0, 5, 0.2, 0.7)], 0.3);
    expect(f!.slice(0, 8)).toEqual([0.2, Math.log(0.2 / 0.800001 + 1e-6), 0.7, 1, 0, 0, 0.1, 0]);
    expect(f!.slice(8, 13)).toEqual([0, 0, 0, 0, 0]);
    expect(f![13]).toBe(3); // nearest other die: none (9 sides), over 3
    expect(f!.slice(14)).toEqual(Array.from({ length: 10 }, () => 0));
  });

  it('places a box half a die off another against it', () => {
    // two dice side by side, and a third box straddling the first, half a die to its right
    const dice = [read(0, 0, 4), read(60, 0, 2), read(10, 0, 4, 0.5, 0.8)];
    const [, , f] = falseDiceFeatures(dice, 0.3);
    expect(f![8]).toBeCloseTo(1 / 3); // IoU with the first die: 200 / 600
    expect(f![9]).toBeCloseTo(0.5); // half of it inside the first die
    expect(f![14]).toBeCloseTo(0.5); // its centre half a width right of the first die's
    expect(f![15]).toBe(0);
    expect(f![19]).toBe(1); // read the same value as the die it overlaps
    expect(f![22]).toBe(1); // that die scores higher
  });
});

describe('false-dice filter', () => {
  it('drops a die lying half inside another, and keeps dice apart', () => {
    const dice = [read(0, 0), read(60, 0), read(10, 0, 3, 0.5)];
    const p = dieProbabilities(dice, 0.3, insideModel());
    expect(p[0]).toBeLessThan(0.5); // the first die has the straddling box half inside it too
    expect(p[1]).toBeGreaterThan(0.5);
    expect(keptDice(dice, 0.3, insideModel())).toEqual([1]);
    expect(keptDice([read(0, 0), read(60, 0)], 0.3, insideModel())).toEqual([0, 1]);
  });

  it('keeps every die at minProbability 0', () => {
    const dice = [read(0, 0), read(10, 0)];
    expect(keptDice(dice, 0.3, insideModel(0))).toEqual([0, 1]);
  });
});

describe('falseDice in the die-face sidecar', () => {
  const good = { inputSize: 48, cropMargin: 1.2, classes: ['1', '2', '3', '4', '5', '6', 'other', 'none'] };
  const model = insideModel(0.3);

  it('is read when whole, and absent is null', () => {
    expect(parseDieFaceConfig(good).falseDice).toBeNull();
    expect(parseDieFaceConfig({ ...good, falseDice: model }).falseDice).toEqual(model);
  });

  it('refuses a model for other features, of the wrong length, or with a bad number', () => {
    expect(() => parseDieFaceConfig({ ...good, falseDice: { ...model, features: 'context-v0' } })).toThrow(DieFaceConfigError);
    expect(() => parseDieFaceConfig({ ...good, falseDice: { ...model, weights: model.weights.slice(1) } })).toThrow(/24 numbers/);
    expect(() => parseDieFaceConfig({ ...good, falseDice: { ...model, scale: model.scale.map(() => 0) } })).toThrow(DieFaceConfigError);
    expect(() => parseDieFaceConfig({ ...good, falseDice: { ...model, bias: Number.NaN } })).toThrow(DieFaceConfigError);
    expect(() => parseDieFaceConfig({ ...good, falseDice: { ...model, minProbability: 2 } })).toThrow(DieFaceConfigError);
  });
});
