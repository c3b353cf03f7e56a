/** Vision: image in, dice out. The pure pipeline (usable in Node and the browser) and the browser reader. */
export * from './types.ts';
export * from './config.ts';
export * from './letterbox.ts';
export * from './decode.ts';
export * from './detector.ts';
export * from './die-face-reader.ts';
export { createDiceReader, DiceReaderError, DiceReaderLost, type DiceReader, type DiceRead, type FaceRead, type KitInfo, type KitSpec, type ReaderInfo, type ReaderInitOptions, type TeachOutcome } from './dice-reader.ts';
export * from './face-embedder.ts';
export * from './face-art.ts';
export * from './face-reader.ts';
