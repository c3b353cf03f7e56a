#!/usr/bin/env bash
# Reproduces the measurements behind README's "Left out: @tensorflow/tfjs and coco-ssd".
# Installs the two packages in a throwaway folder (never into the project) and prints:
#   - coco-ssd's classes (is there a dice class?) and what load() does without the internet;
#   - the gzipped JavaScript a page pays for tfjs alone, next to onnxruntime-web's wasm entry.
set -euo pipefail
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
echo '{ "name": "measure-tfjs", "private": true, "type": "module" }' > package.json
npm install --silent --no-audit --no-fund @tensorflow/tfjs@4.22.0 @tensorflow-models/coco-ssd@2.2.3 vite@8 onnxruntime-web@1.30.0 >/dev/null
node -e "const c=require('./node_modules/@tensorflow-models/coco-ssd/dist/classes.js'); const v=Object.values(c.CLASSES).map(x=>x.displayName); console.log('coco-ssd classes:', v.length, '| a dice class:', v.some(n=>/dice|die/.test(n)))"
cat > load.mjs <<'JS'
import '@tensorflow/tfjs';
import * as cocoSsd from '@tensorflow-models/coco-ssd';
const t0 = performance.now();
try { await cocoSsd.load(); console.log('coco-ssd load(): loaded'); }
catch (e) { console.log(`coco-ssd load(): failed after ${(performance.now() - t0).toFixed(0)} ms: ${e.message} (weights are fetched from storage.googleapis.com at run time)`); }
JS
node load.mjs 2>&1 | grep 'coco-ssd load' || true
mkdir -p tfjs ort
echo "import * as tf from '@tensorflow/tfjs'; await tf.ready(); console.log(tf.getBackend());" > tfjs/main.js
echo "import * as ort from 'onnxruntime-web/wasm'; console.log(ort.env.versions);" > ort/main.js
for d in tfjs ort; do
  echo '<script type="module" src="./main.js"></script>' > "$d/index.html"
  (cd "$d" && npx vite build --logLevel error >/dev/null)
  for f in "$d"/dist/assets/*.js; do echo "$d: JS $(stat -c%s "$f") B, gzipped $(gzip -9c "$f" | wc -c) B"; done
done
