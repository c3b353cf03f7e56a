// Runs an ONNX model on a raw float32 input in onnxruntime-node and onnxruntime-web (wasm, 1 thread)
// and writes both outputs: node parity.mjs model.onnx input.bin S out-prefix
import * as ortNode from 'onnxruntime-node';
import * as ortWeb from 'onnxruntime-web';
import { readFileSync, writeFileSync } from 'node:fs';

const [model, input, size, prefix] = process.argv.slice(2);
const S = Number(size);
const buf = readFileSync(input);
const data = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
ortWeb.env.wasm.numThreads = 1;
for (const [name, ort] of [['node', ortNode], ['web', ortWeb]]) {
  const session = await ort.InferenceSession.create(readFileSync(model));
  const out = await session.run({ images: new ort.Tensor('float32', data, [1, 3, S, S]) });
  const det = out.detections;
  writeFileSync(`${prefix}-${name}.bin`, Buffer.from(det.data.buffer, det.data.byteOffset, det.data.byteLength));
  console.log(name, det.dims.join('x'));
}
