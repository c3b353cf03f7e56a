import * as ortWeb from 'onnxruntime-web';
import { readFileSync } from 'node:fs';
ortWeb.env.wasm.numThreads = 1;
const s = await ortWeb.InferenceSession.create(readFileSync(process.argv[2]), { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
const shapes = JSON.parse(process.argv[3]);
const feeds = shapes.map(([h,w]) => ({ images: new ortWeb.Tensor('float32', new Float32Array(3*h*w).map(()=>Math.random()), [1,3,h,w]) }));
const ts = shapes.map(() => []);
for (let r = 0; r < 40; r++) for (let k = 0; k < shapes.length; k++) { const t0=performance.now(); await s.run(feeds[k]); ts[k].push(performance.now()-t0); }
for (let k = 0; k < shapes.length; k++) { const a = ts[k].slice(3).sort((p,q)=>p-q); console.log(shapes[k], 'median', a[a.length>>1].toFixed(1), 'min', a[0].toFixed(1)); }
