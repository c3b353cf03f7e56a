// Median latency of an ONNX model in onnxruntime-web (wasm, ONE thread) under Node.
// Usage: node models/training/latency.mjs model.onnx [runs]
import * as ort from 'onnxruntime-web';
import { readFileSync } from 'node:fs';

ort.env.wasm.numThreads = 1;
ort.env.wasm.simd = true;
const path = process.argv[2];
const runs = Number(process.argv[3] ?? 30);
const session = await ort.InferenceSession.create(readFileSync(path), { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
const inName = session.inputNames[0];
const meta = session.inputMetadata?.[0];
const size = Number(process.argv[4] ?? 512);
const data = new Float32Array(3 * size * size).map(() => Math.random());
const feeds = { [inName]: new ort.Tensor('float32', data, [1, 3, size, size]) };
for (let i = 0; i < 3; i++) await session.run(feeds);
const times = [];
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  await session.run(feeds);
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
console.log(JSON.stringify({ model: path, size, medianMs: +times[Math.floor(runs / 2)].toFixed(2), minMs: +times[0].toFixed(2) }));
