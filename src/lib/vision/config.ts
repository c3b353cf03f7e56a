/**
 * The detector's sidecar (`models/dice-pips.json`): input size, classes, pad value and the
 * thresholds chosen on the train splits. Parsed once, with clear errors, so a bad or
 * mismatched sidecar fails at load time instead of producing wrong dice.
 */

export interface DetectorConfig {
  /** S: the model's input side, in pixels (the frame's longer side is scaled to it). */
  inputSize: number;
  /**
   * 0: the model takes S × S (frames are letterboxed into a square). Otherwise the model's
   * input height and width are dynamic, any multiples of this stride, and a frame is padded
   * only up to the next multiple (`letterboxGeometry`): a 16:9 camera frame is read at S × 9S/16.
   */
  inputStride: number;
  /** Class names in output order: "1"…"6" read as values, anything else (e.g. "other") as null. */
  classes: string[];
  /** Letterbox fill, 0–255 (114 for Ultralytics-style models). */
  padValue: number;
  /** A candidate is kept when objectness × best class probability reaches this. */
  scoreThreshold: number;
  /** Class-agnostic NMS: a box is dropped when its IoU with a better one exceeds this. */
  iouThreshold: number;
  /** At most this many dice per image (best first). */
  maxDetections: number;
  /**
   * The share of a die's sides its box was taught at (train.py `--box-scale`; 1: the whole die).
   * A net taught smaller boxes gives touching dice boxes that overlap less, so NMS and
   * containment keep both; the decoding grows its boxes back by 1 / boxScale after them.
   */
  boxScale: number;
  /**
   * How to find symbol dice, whose top face is no pip class, or null to use the rule above.
   * Chosen for this model on symbol-only synthetic scenes (`npm run choose-symbol-rule`).
   */
  symbolDice: SymbolDiceRule | null;
}

/**
 * Finding symbol dice: the class is ignored, so a die's score is its objectness alone (the class
 * probabilities of a symbol face spread over `other` and the pip classes, which halves
 * objectness × best class); and a box lying mostly inside a better one (a side face of the same
 * die, or its symbol) is dropped.
 */
export interface SymbolDiceRule {
  /** A candidate of one read (a teach photo, or a frame read at one size) is kept when its objectness reaches this. */
  scoreThreshold: number;
  /** A box is dropped when more than this share of its area lies inside a better kept box. */
  containment: number;
  /**
   * The input sizes (long side) a frame is read at. Symbol dice are read from nearer than pip
   * dice, and a die much larger at the input than the dice the detector learnt on is found as
   * its top face and a side face; read smaller, it is found whole, and a far die is lost.
   * Defaults to `[inputSize]`.
   */
  inputSizes: number[];
  /** How the reads combine when there are several sizes (decode.ts `fuseReads`); null for one size. */
  fusion: ReadFusion | null;
  /**
   * How to look again for dice missed when the caller knows how many lie in view (face-reader.ts
   * `findMissedSymbolDice`), or null not to.
   */
  recount: SymbolRecount | null;
}

/**
 * The weaker boxes of a frame's reads, pooled as one vote suffices, that may fill a known count:
 * those down to `scoreThreshold` (objectness), the `maxCandidates` best.
 */
export interface SymbolRecount {
  scoreThreshold: number;
  maxCandidates: number;
}

/**
 * Several reads of one frame pooled into one set of dice (decode.ts `fuseReads`): each read
 * keeps the boxes whose objectness reaches `readThreshold`; boxes of different reads that
 * overlap with IoU above `sameDieIoU` are one die, kept when at least `votes` reads found it.
 */
export interface ReadFusion {
  readThreshold: number;
  sameDieIoU: number;
  votes: number;
}

const DEFAULT_MAX_DETECTIONS = 100;

export class DetectorConfigError extends Error {
  override name = 'DetectorConfigError';
}

function field(obj: Record<string, unknown>, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(obj, key) ? obj[key] : undefined;
}

function numberIn(obj: Record<string, unknown>, key: string, min: number, max: number, fallback?: number): number {
  const v = field(obj, key) ?? fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
    throw new DetectorConfigError(`detector sidecar: "${key}" must be a number in [${min}, ${max}], got ${JSON.stringify(v)}`);
  }
  return v;
}

/** Validates a parsed sidecar; throws DetectorConfigError naming the first bad field. */
export function parseDetectorConfig(json: unknown): DetectorConfig {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new DetectorConfigError('detector sidecar: expected a JSON object');
  }
  const obj = json as Record<string, unknown>;
  const inputSize = numberIn(obj, 'inputSize', 32, 4096);
  if (!Number.isInteger(inputSize) || inputSize % 32 !== 0) {
    throw new DetectorConfigError(`detector sidecar: "inputSize" must be a multiple of 32, got ${inputSize}`);
  }
  const inputStride = numberIn(obj, 'inputStride', 0, inputSize, 0);
  if (!Number.isInteger(inputStride) || (inputStride > 0 && inputSize % inputStride !== 0)) {
    throw new DetectorConfigError(`detector sidecar: "inputStride" must be 0 or an integer dividing inputSize ${inputSize}, got ${inputStride}`);
  }
  const classes = field(obj, 'classes');
  if (!Array.isArray(classes) || classes.length === 0 || !classes.every((c) => typeof c === 'string')) {
    throw new DetectorConfigError('detector sidecar: "classes" must be a non-empty array of strings');
  }
  const maxDetections = numberIn(obj, 'maxDetections', 1, 10_000, DEFAULT_MAX_DETECTIONS);
  const symbols = field(obj, 'symbolDice');
  let symbolDice: SymbolDiceRule | null = null;
  if (symbols !== undefined && symbols !== null) {
    if (typeof symbols !== 'object' || Array.isArray(symbols)) {
      throw new DetectorConfigError('detector sidecar: "symbolDice" must be an object { scoreThreshold, containment } or absent');
    }
    const rule = symbols as Record<string, unknown>;
    const sizes = field(rule, 'inputSizes') ?? [inputSize];
    const step = inputStride || 32;
    if (!Array.isArray(sizes) || sizes.length === 0 || !sizes.every((v) => typeof v === 'number' && Number.isInteger(v) && v >= 32 && v <= inputSize && v % step === 0)) {
      throw new DetectorConfigError(`detector sidecar: "symbolDice.inputSizes" must be a non-empty array of multiples of ${step} up to inputSize ${inputSize}, got ${JSON.stringify(sizes)}`);
    }
    const fusion = field(rule, 'fusion');
    if (sizes.length > 1 && (typeof fusion !== 'object' || fusion === null || Array.isArray(fusion))) {
      throw new DetectorConfigError('detector sidecar: "symbolDice.fusion" must be an object { readThreshold, sameDieIoU, votes } when there are several inputSizes');
    }
    const f = fusion as Record<string, unknown>;
    const votes = sizes.length > 1 ? numberIn(f, 'votes', 1, sizes.length) : 1;
    if (!Number.isInteger(votes)) throw new DetectorConfigError(`detector sidecar: "votes" must be an integer, got ${votes}`);
    const recount = field(rule, 'recount');
    let symbolRecount: SymbolRecount | null = null;
    if (recount !== undefined && recount !== null) {
      if (typeof recount !== 'object' || Array.isArray(recount)) {
        throw new DetectorConfigError('detector sidecar: "symbolDice.recount" must be an object { scoreThreshold, maxCandidates } or absent');
      }
      const r = recount as Record<string, unknown>;
      const maxCandidates = numberIn(r, 'maxCandidates', 1, 1000);
      if (!Number.isInteger(maxCandidates)) throw new DetectorConfigError(`detector sidecar: "maxCandidates" must be an integer, got ${maxCandidates}`);
      symbolRecount = { scoreThreshold: numberIn(r, 'scoreThreshold', 0, 1), maxCandidates };
    }
    symbolDice = {
      scoreThreshold: numberIn(rule, 'scoreThreshold', 0, 1),
      containment: numberIn(rule, 'containment', 0, 1),
      inputSizes: sizes as number[],
      fusion: sizes.length > 1 ? { readThreshold: numberIn(f, 'readThreshold', 0, 1), sameDieIoU: numberIn(f, 'sameDieIoU', 0, 1), votes } : null,
      recount: symbolRecount,
    };
  }
  return {
    inputSize,
    inputStride,
    classes: classes as string[],
    padValue: numberIn(obj, 'padValue', 0, 255),
    scoreThreshold: numberIn(obj, 'scoreThreshold', 0, 1),
    iouThreshold: numberIn(obj, 'iouThreshold', 0, 1),
    maxDetections: Math.floor(maxDetections),
    boxScale: numberIn(obj, 'boxScale', 0.01, 1, 1),
    symbolDice,
  };
}

/** The face value a class name stands for: "1"…"6" → 1…6, any other class → null. */
export function classValue(name: string): number | null {
  return /^[1-6]$/.test(name) ? Number(name) : null;
}
