/** Vision: image in, dice out. The pure pipeline, usable in Node and the browser. */
export * from './types.ts';
export * from './config.ts';
export * from './letterbox.ts';
export * from './decode.ts';
export * from './detector.ts';
export * from './face-embedder.ts';
export * from './face-art.ts';
export * from './face-reader.ts';
