// scratch: the shipped pair reading with tiles (tiles.ts) on mosaics of held-out photos, against without
import { createNodeDetector } from './lib/node-vision.ts';
import { evaluate } from './lib/evaluate.ts';
import { withDieFaceReader, type TwoPassDetector } from '../src/lib/vision/die-face-reader.ts';
import { tiledDetector } from '../src/lib/vision/tiles.ts';

const dirs = process.argv.slice(2);
const base = (await createNodeDetector({ threads: 1 })) as unknown as TwoPassDetector;
const variants: [string, TwoPassDetector][] = [['whole', base]];
for (const t of (process.env.TILES ?? '1.5:0.25').split(',')) {
  const [tileInputs, overlap, smallDice, sureScore] = t.split(':').map(Number) as [number, number, number, number];
  variants.push([`tiles ${t}`, withDieFaceReader(tiledDetector(base.firstPass, { tileInputs, overlap, smallDice, sureScore }), base.dieFaceReader)]);
}
for (const [name, det] of variants) {
  for (const countKnown of [false, true]) {
    const r = await evaluate(det, dirs, { countKnown });
    const f = (v: number | null) => (v === null ? 'n/a' : (100 * v).toFixed(1));
    const rows = [...r.datasets.map((d) => `${d.name} ${f(d.perDie.f1)}/${f(d.detectionRecall)}/${f(d.exactRollAccuracy)} P${f(d.perDie.precision)}`), `overall ${f(r.overall.perDie.f1)}/${f(r.overall.detectionRecall)}/${f(r.overall.exactRollAccuracy)} P${f(r.overall.perDie.precision)} med ${r.overall.latencyMs?.median.toFixed(0)}ms`];
    console.log(`${name}${countKnown ? ' count' : ''}: ${rows.join(' | ')}`);
  }
}
