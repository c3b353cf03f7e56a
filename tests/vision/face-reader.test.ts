import { describe, expect, it } from 'vitest';
import type { DiceKit } from '../../src/lib/dice/kit.ts';
import { renderArtOnDice, DEFAULT_ART_VIEWS } from '../../src/lib/vision/face-art.ts';
import type { DetectorConfig } from '../../src/lib/vision/config.ts';
import type { DetectOptions, Detector } from '../../src/lib/vision/detector.ts';
import {
  detectSymbolDice,
  findMissedSymbolDice,
  growSmallBoxes,
  kitSeparation,
  matchFace,
  selectPrototypes,
  learnConfirmed,
  CONFIRMED_PER_FACE,
  teachDie,
  TeachError,
  type FacePrototype,
} from '../../src/lib/vision/face-reader.ts';
import type { Die, RgbaImage } from '../../src/lib/vision/types.ts';

/** A unit vector in 3-D at `deg` degrees round the equator, lifted by `lift`. */
function v(deg: number, lift = 0): Float32Array {
  const a = (deg * Math.PI) / 180;
  const x = Math.cos(a);
  const y = Math.sin(a);
  const n = Math.hypot(x, y, lift);
  return Float32Array.from([x / n, y / n, lift / n]);
}
const proto = (faceId: string, deg: number, source: FacePrototype['source'] = 'example', lift = 0): FacePrototype => ({ faceId, source, embedding: v(deg, lift) });
const kit: DiceKit = {
  id: 'test',
  name: 'Test',
  faces: [
    { id: 'a', label: 'A', value: 1, group: null },
    { id: 'b', label: 'B', value: 2, group: null },
    { id: 'c', label: 'C', value: 3, group: null },
  ],
};
const rule = { threshold: 0.8, ambiguityMargin: 0.05 };

describe('matchFace', () => {
  const protos = [proto('a', 0), proto('a', 10), proto('b', 90), proto('c', 180)];
  it('takes the face whose prototypes\' centroid is nearest', () => {
    const m = matchFace(protos, v(12), rule);
    expect(m.faceId).toBe('a');
    // a's prototypes at 0° and 10°: their centroid lies at 5°, 7° from the die
    expect(m.similarity).toBeCloseTo(Math.cos((7 * Math.PI) / 180), 6);
    expect(m.runnerUpFaceId).toBe('b');
  });
  it('scores a face by the middle of its prototypes, not by its single nearest one', () => {
    // a taught in two far-apart looks (0° and 120°: centroid at 60°); b at 40°. A die at 15° lies
    // nearest one of a's prototypes, but nearer b than the middle of a.
    const spread = [proto('a', 0), proto('a', 120), proto('b', 40)];
    expect(matchFace(spread, v(15), { threshold: 0, ambiguityMargin: 0 }).faceId).toBe('b');
  });
  it('reads unknown when nothing is near enough, but still says what was nearest', () => {
    const m = matchFace(protos, v(52), rule);
    expect(m.faceId).toBeNull();
    expect(m.nearestFaceId).toBe('b');
  });
  it('reads unknown when two faces are too close to call', () => {
    const close = [proto('a', 0), proto('b', 6)];
    expect(matchFace(close, v(3), rule).faceId).toBeNull();
    expect(matchFace(close, v(3), { threshold: 0.8, ambiguityMargin: 0 }).faceId).not.toBeNull();
  });
  it('with no prototypes reads unknown', () => {
    expect(matchFace([], v(0), rule).faceId).toBeNull();
  });
});

describe('selectPrototypes', () => {
  it('uses art and photos together until every face has a photo, then photos only', () => {
    const art = [proto('a', 0, 'art'), proto('b', 90, 'art'), proto('c', 180, 'art')];
    const some = [...art, proto('a', 5), proto('b', 95)];
    expect(selectPrototypes(kit, some)).toHaveLength(5);
    const all = [...some, proto('c', 175)];
    expect(selectPrototypes(kit, all).map((p) => p.source)).toEqual(['example', 'example', 'example']);
  });
  it('ignores prototypes of faces the kit does not have', () => {
    expect(selectPrototypes(kit, [proto('zz', 0), proto('a', 0)]).map((p) => p.faceId)).toEqual(['a']);
  });
  it('always uses dice confirmed at the table; they do not stand for taught photos', () => {
    const art = [proto('a', 0, 'art'), proto('b', 90, 'art'), proto('c', 180, 'art')];
    const confirmed = [proto('a', 3, 'confirmed'), proto('b', 93, 'confirmed'), proto('c', 183, 'confirmed')];
    // confirmed dice of every face: the art stays (no face was taught)
    expect(selectPrototypes(kit, [...art, ...confirmed]).map((p) => p.source)).toEqual(['art', 'art', 'art', 'confirmed', 'confirmed', 'confirmed']);
    const taught = [proto('a', 5), proto('b', 95), proto('c', 175)];
    expect(selectPrototypes(kit, [...art, ...taught, ...confirmed]).map((p) => p.source)).toEqual(['example', 'example', 'example', 'confirmed', 'confirmed', 'confirmed']);
  });
});

describe('learnConfirmed (learning from play)', () => {
  it('adds a confirmed roll’s dice as prototypes of the faces read', () => {
    const learnt = learnConfirmed([], [{ faceId: 'a', embedding: v(2) }, { faceId: 'b', embedding: v(92) }, { faceId: 'a', embedding: v(358) }]);
    expect(learnt.map((p) => [p.faceId, p.source])).toEqual([['a', 'confirmed'], ['b', 'confirmed'], ['a', 'confirmed']]);
  });

  it('keeps at most CONFIRMED_PER_FACE per face, the oldest going first, other faces untouched', () => {
    let learnt: FacePrototype[] = learnConfirmed([], [{ faceId: 'b', embedding: v(90) }]);
    for (let i = 0; i < CONFIRMED_PER_FACE + 3; i++) learnt = learnConfirmed(learnt, [{ faceId: 'a', embedding: v(i) }]);
    const a = learnt.filter((p) => p.faceId === 'a');
    expect(a).toHaveLength(CONFIRMED_PER_FACE);
    expect(a[0]!.embedding).toEqual(v(3));
    expect(a.at(-1)!.embedding).toEqual(v(CONFIRMED_PER_FACE + 2));
    expect(learnt.filter((p) => p.faceId === 'b')).toHaveLength(1);
    expect(learnConfirmed(learnt, [{ faceId: 'a', embedding: v(50) }], 2).filter((p) => p.faceId === 'a').map((p) => p.embedding)).toEqual([
      v(CONFIRMED_PER_FACE + 2),
      v(50),
    ]);
  });

  it('moves a face toward how the dice at the table look', () => {
    // art drawn at 0° and 90°; the real dice of face a look like 40°, between the two
    const art = [proto('a', 0, 'art'), proto('b', 90, 'art')];
    const twoFaceKit = { ...kit, faces: kit.faces.slice(0, 2) };
    const die = v(50);
    expect(matchFace(selectPrototypes(twoFaceKit, art), die, { threshold: -1, ambiguityMargin: 0 }).faceId).toBe('b');
    const learnt = learnConfirmed([], [{ faceId: 'a', embedding: v(40) }, { faceId: 'a', embedding: v(42) }]);
    expect(matchFace(selectPrototypes(twoFaceKit, [...art, ...learnt]), die, { threshold: -1, ambiguityMargin: 0 }).faceId).toBe('a');
  });
});

describe('kitSeparation (the teach screen)', () => {
  it('reports missing faces and is not ready before any photo', () => {
    const s = kitSeparation(kit, [proto('a', 0, 'art')], rule);
    expect(s.score).toBeNull();
    expect(s.ready).toBe(false);
    expect(s.faces.map((f) => f.status)).toEqual(['missing', 'missing', 'missing']);
  });

  it('is ready when each face has 3 photos that read right from the others', () => {
    const photos = ['a', 'b', 'c'].flatMap((f, i) => [0, 3, 6].map((d) => proto(f, i * 120 + d)));
    const s = kitSeparation(kit, photos, rule);
    expect(s.ready).toBe(true);
    expect(s.score).toBe(1);
    expect(s.faces.every((f) => f.status === 'good' && f.examples === 3 && f.separated === 1)).toBe(true);
    expect(s.closestPair?.similarity).toBeLessThan(0);
  });

  it('asks for more photos below three, and names the face a confusable one resembles', () => {
    const photos = [proto('a', 0), proto('a', 4), proto('a', 8), proto('b', 90), proto('c', 2), proto('c', 6), proto('c', 180)];
    const s = kitSeparation(kit, photos, rule);
    const byId = Object.fromEntries(s.faces.map((f) => [f.faceId, f]));
    expect(byId.b!.status).toBe('needs-more');
    expect(byId.b!.separated).toBeNull();
    expect(byId.c!.status).toBe('confusable');
    expect(byId.c!.closestFaceId).toBe('a');
    expect(s.ready).toBe(false);
    expect(s.closestPair?.faceIds.sort()).toEqual(['a', 'c']);
    expect(s.score).toBeLessThan(1);
  });
});

describe('teachDie', () => {
  const die = (x: number, side: number, score: number): Die => ({ value: null, box: { x, y: 0, w: side, h: side }, score, classIndex: 6 });
  it('takes the only die, or the one clearly biggest and surest', () => {
    expect(teachDie([die(0, 40, 0.9)]).box.x).toBe(0);
    expect(teachDie([die(0, 10, 0.5), die(50, 60, 0.9)]).box.x).toBe(50);
  });
  it('refuses a photo with no die, or with two alike dice', () => {
    expect(() => teachDie([])).toThrow(TeachError);
    expect(() => teachDie([])).toThrow('no die found');
    expect(() => teachDie([die(0, 40, 0.9), die(50, 38, 0.9)])).toThrow('2 dice found in this photo: show one die at a time');
  });
});

describe('renderArtOnDice', () => {
  // a 4×4 art: red face on a transparent corner
  const art: RgbaImage = { width: 4, height: 4, data: new Uint8Array(4 * 4 * 4) };
  for (let i = 0; i < 16; i++) art.data.set([200, 20, 20, 255], i * 4);
  art.data.set([0, 0, 0, 0], 0);

  it('renders one crop per view: the art in the middle, table at the corners', () => {
    const k = 32;
    const out = renderArtOnDice(art, k, 1.15);
    expect(out.length).toBe(DEFAULT_ART_VIEWS.length * 3 * k * k);
    const px = (view: number, c: number, x: number, y: number): number => out[view * 3 * k * k + c * k * k + y * k + x]!;
    expect(px(0, 0, 16, 16)).toBeCloseTo(200 / 255, 2);
    expect(px(0, 1, 16, 16)).toBeCloseTo(20 / 255, 2);
    expect(px(0, 0, 0, 0)).toBeCloseTo(0.46, 2);
    // the straight-down view fills about 1/1.15 of the crop with die
    let onDie = 0;
    for (let x = 0; x < k; x++) if (px(0, 0, x, 16) > 0.6) onDie++;
    expect(onDie / k).toBeGreaterThan(0.8);
    expect(onDie / k).toBeLessThan(0.92);
  });
});

describe('growSmallBoxes (a die found as its picture alone)', () => {
  const sq = (x: number, side: number) => ({ x, y: 0, w: side, h: side });

  it('reads a box much smaller than the frame\'s other dice at their median size, centred where it was', () => {
    const boxes = [sq(0, 40), sq(100, 44), sq(200, 20), sq(300, 42)];
    const grown = growSmallBoxes(boxes, 0.7);
    // the median side of 20, 40, 42, 44 is 42 (the upper middle); the small box's centre is (210, 10)
    expect(grown[2]).toEqual({ x: 210 - 21, y: 10 - 21, w: 42, h: 42 });
    expect([grown[0], grown[1], grown[3]]).toEqual([boxes[0], boxes[1], boxes[3]]);
  });

  it('leaves dice alone near the median, and frames of one or two dice', () => {
    const boxes = [sq(0, 40), sq(100, 30), sq(200, 42)];
    expect(growSmallBoxes(boxes, 0.7)).toEqual(boxes);
    expect(growSmallBoxes([sq(0, 40), sq(100, 10)], 0.7)).toEqual([sq(0, 40), sq(100, 10)]);
  });
});

describe('symbol dice with the count known (findMissedSymbolDice)', () => {
  const at = (x: number, score: number, w = 20): Die => ({ value: null, box: { x, y: 10, w, h: 20 }, score, classIndex: 6 });
  const fusion = { readThreshold: 0.35, sameDieIoU: 0.4, votes: 2 };
  const rule = { containment: 0.4, fusion };

  it('fills the count with the best boxes clear of the dice found, pooled as one read suffices', () => {
    const found = [at(0, 0.9)];
    // three reads; the die at 100 is found by one read only, the one at 200 weakly by two, 300 weakest
    const reads = [
      [at(0, 0.9), at(100, 0.5), at(200, 0.3), at(2, 0.3) /* the found die again */],
      [at(0, 0.8), at(201, 0.3), at(300, 0.12)],
      [at(1, 0.85), at(103, 0.05) /* under the threshold */],
    ];
    const recount = { scoreThreshold: 0.1, maxCandidates: 8 };
    const added = findMissedSymbolDice(reads, found, rule, recount, 3);
    expect(added.map((d) => Math.floor(d.box.x))).toEqual([200, 100]); // 200: two reads (0.6 / 3) before 100 (0.5 / 3)
    expect(findMissedSymbolDice(reads, found, rule, recount, 5)).toHaveLength(3);
    expect(findMissedSymbolDice(reads, found, rule, recount, 1)).toEqual([]);
    expect(findMissedSymbolDice(reads, found, rule, { scoreThreshold: 0.4, maxCandidates: 8 }, 5).map((d) => d.box.x)).toEqual([100]);
    expect(findMissedSymbolDice(reads, found, rule, { scoreThreshold: 0.1, maxCandidates: 1 }, 5)).toHaveLength(1);
  });

  it('detectSymbolDice looks below the read threshold only with a count and a recount rule', async () => {
    const asked: Array<{ inputSize?: number; scoreThreshold?: number }> = [];
    const boxes = [at(0, 0.9), at(100, 0.3), at(200, 0.2)];
    const symbolDice = { scoreThreshold: 0.5, containment: 0.4, inputSizes: [512, 320, 224], fusion, recount: { scoreThreshold: 0.15, maxCandidates: 4 } };
    const config = { inputSize: 512, scoreThreshold: 0.375, symbolDice } as unknown as DetectorConfig;
    const detector: Detector = {
      config,
      detect: async (_image, options?: DetectOptions) => {
        asked.push({ inputSize: options?.inputSize, scoreThreshold: options?.scoreThreshold });
        return { dice: boxes.filter((d) => d.score >= (options?.scoreThreshold ?? 0)), timing: { preprocessMs: 1, inferenceMs: 2, postprocessMs: 0 } };
      },
      release: async () => {},
    };
    const image: RgbaImage = { width: 400, height: 40, data: new Uint8Array(400 * 40 * 4) };
    const plain = await detectSymbolDice(detector, image);
    expect(plain.dice.map((d) => d.box.x)).toEqual([0]);
    expect(asked.map((a) => a.scoreThreshold)).toEqual([0.35, 0.35, 0.35]);
    expect(asked.map((a) => a.inputSize)).toEqual([512, 320, 224]);
    expect(plain.timing.inferenceMs).toBe(6);
    const counted = await detectSymbolDice(detector, image, 3);
    expect(counted.dice.map((d) => Math.round(d.box.x))).toEqual([0, 100, 200]);
    expect(asked.slice(3).map((a) => a.scoreThreshold)).toEqual([0.15, 0.15, 0.15]);
    expect((await detectSymbolDice(detector, image, 2)).dice.map((d) => Math.round(d.box.x))).toEqual([0, 100]);
    expect((await detectSymbolDice(detector, image, 1)).dice.map((d) => d.box.x)).toEqual([0]);
    const noRule = { ...detector, config: { ...config, symbolDice: { ...symbolDice, recount: null } } as DetectorConfig };
    expect((await detectSymbolDice(noRule, image, 3)).dice.map((d) => d.box.x)).toEqual([0]);
  });
});
