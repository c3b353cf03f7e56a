import { letterbox } from '../src/lib/vision/letterbox.ts';
const w = 1280, h = 720;
const data = new Uint8ClampedArray(w * h * 4);
for (let i = 0; i < data.length; i++) data[i] = (i * 2654435761) >>> 24;
const img = { width: w, height: h, data };
const out = new Float32Array(3 * 512 * 288);
for (let i = 0; i < 20; i++) letterbox(img, 512, 114, out, 32);
const t: number[] = [];
for (let i = 0; i < 100; i++) { const s = performance.now(); letterbox(img, 512, 114, out, 32); t.push(performance.now() - s); }
t.sort((a, b) => a - b);
console.log('median', t[50].toFixed(2), 'p95', t[95].toFixed(2));
