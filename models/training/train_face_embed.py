"""Trains the face embedder by metric learning (supervised contrastive loss) on synthetic die crops.

Classes are random symbol faces (font glyphs, procedural shapes, small pictures) grouped in sets
of six that share a die colour and an ink colour, like a real set of dice, so the model must
tell faces apart by their symbol and not only by colour. A tenth of the sets are held out and
used to measure few-shot reading and to choose the unknown threshold and margin.

    /usr/bin/python3 models/training/train_face_embed.py --minutes 70

Writes models/face-embed.onnx and models/face-embed.json (see docs/architecture.md).
Uses one CPU thread by default (the detector's training uses the other core; --threads).
"""
import argparse
import json
import math
import os
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from die_crops import TRAINED_CROP, embedder_crop, jitter_box, paint_die  # noqa: E402
from face_embed_model import FaceEmbedder  # noqa: E402
from from_onnx import calibrate, load_onnx_weights  # noqa: E402
from symbol_faces import class_specs, draw_face, face_colours, font_glyphs, font_sets, set_fonts  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
K = 64            # default crop size (every run to step 19,342; --input-size sets another)
DIM = 64          # embedding size
CROP_MARGIN = 1.15  # the die's box, squared, times this


class Sets:
    """Face textures for every class, and each class's set (which gives its side faces): `specs`
    taken six at a time, then the ready-made `groups` (font sets), one set each."""

    def __init__(self, specs, seed, set_size=6, groups=(), box_error=(0.06, 0.1), k=K, upright=(0.0, 10.0, None)):
        rng = np.random.default_rng(seed)
        self.box_error = box_error
        # (share of renders painted by an upright camera, its roll in degrees, the crop they are cut with)
        self.upright = upright
        # the crop size, and a scene as much larger, so that a larger crop sees finer strokes
        self.k, self.canvas = k, round(112 * k / K)
        self.faces, self.set_of, self.members = [], [], []
        chunks = [specs[start:start + set_size] for start in range(0, len(specs) - set_size + 1, set_size)]
        for group in chunks + list(groups):
            colours = face_colours(rng) if rng.random() < 0.85 else None
            ids = []
            for spec in group:
                ids.append(len(self.faces))
                self.set_of.append(len(self.members))
                self.faces.append(draw_face(spec, colours=colours))
            self.members.append(ids)

    def render(self, cls, rng, upright=None):
        """One crop of a die showing face `cls`. upright None: as `self.upright`'s share decides;
        True: the camera within its roll of upright, the die cut with the app's reading crop (the
        top face above its sides, as a phone over a table sees a die); False: spun any way round,
        cut with the crop centred on the box (how the kit art's prototypes are made)."""
        share, degrees, crop = self.upright
        if upright is None:
            upright = crop is not None and share > 0 and rng.random() < share
        sides = [self.faces[i] for i in self.members[self.set_of[cls]] if i != cls]
        img, box = paint_die(self.faces[cls], rng, side_faces=sides, canvas=self.canvas, upright=degrees if upright else None)
        return embedder_crop(img, jitter_box(box, rng, *self.box_error), self.k, CROP_MARGIN, crop if upright else TRAINED_CROP)


def supcon_loss(emb, labels, temperature=0.1):
    """Supervised contrastive loss (Khosla et al. 2020): every other view of the same face is a
    positive, every view of another face a negative. Batches hold whole sets (faces sharing
    colours), so the hardest negatives are always present. Unlike a proxy loss (ArcFace, tried
    first: it barely moved from chance in 1000 steps on this CPU budget), it needs no per-class
    weights that must each be visited many times."""
    sim = emb @ emb.t() / temperature
    n = emb.shape[0]
    self_mask = torch.eye(n, dtype=torch.bool)
    sim = sim.masked_fill(self_mask, -1e9)
    pos = (labels[:, None] == labels[None, :]) & ~self_mask
    log_prob = sim - torch.logsumexp(sim, dim=1, keepdim=True)
    return -(log_prob * pos).sum(1).div(pos.sum(1).clamp(min=1)).mean()


def to_tensor(batch):
    return torch.from_numpy(np.stack(batch)).permute(0, 3, 1, 2).float() / 255


def photometric(x, gen):
    """Cheap per-sample colour jitter on top of the renderer's lighting."""
    b = x.shape[0]
    gain = torch.empty(b, 3, 1, 1).uniform_(0.85, 1.15, generator=gen)
    bright = torch.empty(b, 1, 1, 1).uniform_(0.75, 1.25, generator=gen)
    contrast = torch.empty(b, 1, 1, 1).uniform_(0.7, 1.2, generator=gen)
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    x = (x - mean) * contrast + mean
    return (x * gain * bright).clamp(0, 1)


def turned_embedding(model, crops):
    """One prototype per taught photo: the mean of the crop's embeddings at its four quarter
    turns, normalised (src/lib/vision/face-reader.ts `embedTaughtFace`). A die lands any way
    round, so a photo stands for its face at every turn."""
    views = [np.rot90(c, k).copy() for c in crops for k in range(4)]
    e = model(to_tensor(views)).view(len(crops), 4, -1).mean(1)
    return F.normalize(e, dim=1)


def face_centroids(protos):
    """A face's score is the similarity to the normalised mean of its prototypes
    (face-reader.ts `faceSimilarities`); protos: one [n, D] tensor per face."""
    return torch.stack([F.normalize(p.mean(0), dim=0) for p in protos])


@torch.no_grad()
def few_shot_embeddings(model, sets, set_ids, shots, queries, seed, upright=False):
    """For each held-out set: its faces' centroids of `shots` taught photos (turned prototypes),
    and queries embedded as taken and at their four quarter turns, with their faces. upright:
    photos and dice painted by an upright camera and cut with the reading crop (`Sets.render`)."""
    model.eval()
    rng = np.random.default_rng(seed)
    out = []
    for si in set_ids:
        ids = sets.members[si]
        protos = [turned_embedding(model, [sets.render(c, rng, upright) for _ in range(shots)]) for c in ids]
        q_imgs, q_lab = [], []
        for j, c in enumerate(ids):
            for _ in range(queries):
                q_imgs.append(sets.render(c, rng, upright)); q_lab.append(j)
        out.append((face_centroids(protos), model(to_tensor(q_imgs)), turned_embedding(model, q_imgs), torch.tensor(q_lab)))
    model.train()
    return out


def second_look(centroids, single, turned, gap):
    """The app's reading (face-reader.ts `embedForReading`): a die whose two nearest faces are
    within `gap` is looked at again, its embedding replaced by its four quarter turns' mean."""
    if gap <= 0:
        return single, torch.zeros(len(single), dtype=torch.bool)
    top2 = (single @ centroids.t()).topk(2, dim=1).values
    look = (top2[:, 0] - top2[:, 1]) < gap
    return torch.where(look[:, None], turned, single), look


def score_reads(data, gap):
    """Per-die accuracy with the second look at `gap`, the share of dice looked at twice, and the
    similarity statistics used to choose the unknown rule: best similarity of correct reads,
    runner-up leads, and the best similarity of faces that are not in the kit (open set)."""
    correct, total, looked = 0, 0, 0
    best_ok, gap_ok, best_wrong, open_best = [], [], [], []
    for centroids, single, turned, lab in data:
        q, look = second_look(centroids, single, turned, gap)
        looked += int(look.sum())
        sims = q @ centroids.t()
        top2 = sims.topk(2, dim=1)
        ok = top2.indices[:, 0] == lab
        correct += int(ok.sum()); total += len(lab)
        best_ok += top2.values[ok, 0].tolist()
        gap_ok += (top2.values[ok, 0] - top2.values[ok, 1]).tolist()
        best_wrong += top2.values[~ok, 0].tolist()
        # open set: the first face left out of the kit, its dice read against the other five
        keep = [k for k in range(len(centroids)) if k != 0]
        open_q, _ = second_look(centroids[keep], single[lab == 0], turned[lab == 0], gap)
        open_best += (open_q @ centroids[keep].t()).max(1).values.tolist()
    return {'accuracy': correct / max(1, total), 'lookedTwice': looked / max(1, total),
            'best_ok': np.array(best_ok), 'gap_ok': np.array(gap_ok), 'best_wrong': np.array(best_wrong),
            'open_best': np.array(open_best)}


def few_shot(model, sets, set_ids, shots, queries, seed, gap=0.0, upright=False):
    """Per-die accuracy with `shots` taught photos per face, read as the app reads them (turned
    prototypes, faces scored by their centroid, the second look at `gap`)."""
    return score_reads(few_shot_embeddings(model, sets, set_ids, shots, queries, seed, upright), gap)['accuracy']


def other_held_out(model, sets, font_val_sets, near_val_sets, gap):
    """The sidecar's held-out figures beside the mixed sets': the font sets and the near-twin sets
    read with 5 taught photos per face, for those a run has."""
    out = {}
    for key, ids in (('fontSetsFiveShotAccuracy', font_val_sets), ('nearTwinSetsFiveShotAccuracy', near_val_sets)):
        if ids:
            out[key] = few_shot(model, sets, ids, 5, 20, 321, gap)
    return out


SECOND_LOOK_GAPS = (0.0, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 2.0)


def unknown_rule(model, sets, val_sets):
    """The second look and the unknown rule, chosen on held-out synthetic sets (never on the
    evaluation set). The second look's gap is the smallest of SECOND_LOOK_GAPS whose accuracy is
    within 0.1 point of looking twice at every die (gap 2): most dice are read from one look.
    Then a read is kept when its best similarity is at least the 0.5th percentile of correct
    reads' best similarity, and its lead over the runner-up face at least the 0.5th percentile of
    correct reads' lead; so about 1% of correct reads become "unknown".
    Returns (threshold, margin, gap, stats)."""
    data = few_shot_embeddings(model, sets, val_sets, 5, 20, 321)
    by_gap = {g: score_reads(data, g) for g in SECOND_LOOK_GAPS}
    always = by_gap[SECOND_LOOK_GAPS[-1]]['accuracy']
    gap = next(g for g in SECOND_LOOK_GAPS if by_gap[g]['accuracy'] >= always - 0.001)
    r = by_gap[gap]
    threshold = float(np.percentile(r['best_ok'], 0.5))
    margin = float(np.percentile(r['gap_ok'], 0.5))
    kept_wrong = float(np.mean(r['best_wrong'] >= threshold)) if len(r['best_wrong']) else 0.0
    stats = {
        'heldOutSets': len(val_sets), 'fiveShotAccuracy': r['accuracy'],
        'prototypes': 'each taught photo at its four quarter turns, averaged; a face scores by the centroid of its prototypes',
        'secondLook': {'gap': gap, 'lookedTwice': r['lookedTwice'],
                       'byGap': {str(g): {'accuracy': round(v['accuracy'], 4), 'lookedTwice': round(v['lookedTwice'], 4)}
                                 for g, v in by_gap.items()}},
        'correctBestSimilarity': {p: float(np.percentile(r['best_ok'], p)) for p in (0.5, 1, 5, 50)},
        'correctLead': {p: float(np.percentile(r['gap_ok'], p)) for p in (0.5, 1, 5, 50)},
        'wrongBestSimilarityMedian': float(np.median(r['best_wrong'])) if len(r['best_wrong']) else None,
        'openSetBestSimilarity': {p: float(np.percentile(r['open_best'], p)) for p in (50, 95, 99)},
        'openSetRejectedAtThreshold': float(np.mean(r['open_best'] < threshold)), 'wrongReadsAboveThreshold': kept_wrong,
    }
    return threshold, margin, gap, stats


def export(model, path_onnx, path_json, meta):
    model.eval()
    dummy = torch.rand(1, 3, meta['inputSize'], meta['inputSize'])
    torch.onnx.export(model, dummy, path_onnx, input_names=['crops'], output_names=['embeddings'],
                      dynamic_axes={'crops': {0: 'batch'}, 'embeddings': {0: 'batch'}},
                      opset_version=13, do_constant_folding=True)
    with open(path_json, 'w') as f:
        json.dump(meta, f, indent=2)
        f.write('\n')


def init_sidecar(args):
    """The --init-onnx export's sidecar, or {}."""
    if args.init_onnx:
        sidecar = os.path.splitext(args.init_onnx)[0] + '.json'
        if os.path.exists(sidecar):
            with open(sidecar) as f:
                return json.load(f)
    return {}


def box_error(args):
    """The crops' box errors: as given, else those the --init-onnx export was trained with (so that
    --rule-only and resumed runs crop as it did), else the first runs' 0.06 and 0.1."""
    trained = init_sidecar(args).get('training', {}).get('boxError', {})
    shift = args.box_shift if args.box_shift is not None else trained.get('shift', 0.06)
    scale = args.box_scale if args.box_scale is not None else trained.get('scale', 0.1)
    return shift, scale


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--minutes', type=float, default=70)
    ap.add_argument('--steps', type=int, default=0, help='train this many steps (the schedule follows steps, not --minutes); 0: --minutes')
    ap.add_argument('--sets-per-batch', type=int, default=8)
    ap.add_argument('--views', type=int, default=3, help='views of each face per batch')
    ap.add_argument('--shapes', type=int, default=2600)
    ap.add_argument('--pictures', type=int, default=1200)
    ap.add_argument('--font-sets', type=int, default=1200,
                    help='sets of six characters of one font (symbol_faces.font_sets); a tenth held out')
    ap.add_argument('--near-font-sets', type=int, default=0,
                    help='sets of three pairs of near-twin letters and digits of one font (symbol_faces.font_sets near_alike); a tenth held out')
    ap.add_argument('--pool-views', type=int, default=4)
    ap.add_argument('--fresh', type=int, default=48, help='new renders per step replacing pool entries')
    ap.add_argument('--out', default=os.path.join(ROOT, 'models'))
    ap.add_argument('--run', default=os.path.join(ROOT, 'models', 'training', 'runs', 'face-embed'))
    ap.add_argument('--seed', type=int, default=7, help='the classes, their sets and the held-out split follow it: keep it when resuming')
    ap.add_argument('--sample-seed', type=int, default=0, help='when resuming: other renders and batches than the first run drew (same classes)')
    ap.add_argument('--resume', help='checkpoint (last.pt) whose model weights to start from')
    ap.add_argument('--init-onnx', help="start from this export's weights (from_onnx.py), e.g. models/face-embed.onnx")
    ap.add_argument('--steps-before', type=int, default=0, help='with --init-onnx: the steps that export was trained for')
    ap.add_argument('--lr', type=float, default=2e-3)
    ap.add_argument('--box-shift', type=float,
                    help="sd of the crop box's centre error, in box sides (training and held-out crops alike); "
                         "default: the --init-onnx sidecar's training.boxError, else 0.06")
    ap.add_argument('--box-scale', type=float, help="sd of the crop box's log size error; default as --box-shift, else 0.1")
    ap.add_argument('--rule-only', action='store_true',
                    help='with --init-onnx: train nothing, choose the unknown rule for that export on the held-out sets and rewrite its sidecar\'s rule')
    ap.add_argument('--input-size', type=int,
                    help="the crop's side in pixels; default: the --resume checkpoint's or the --init-onnx sidecar's, else 64. "
                         "The net is convolutional with a global pool, so an export goes on at another size")
    ap.add_argument('--threads', type=int, default=1, help='CPU threads for torch')
    ap.add_argument('--upright-share', type=float, default=0.0,
                    help="share of training crops painted by an upright camera and cut with the app's reading crop "
                         "(the --init-onnx sidecar's readingCrop, else --reading-crop); the rest spun any way round, cut centred")
    ap.add_argument('--upright-degrees', type=float, default=20.0, help="those crops' camera roll, within this many degrees of upright")
    ap.add_argument('--reading-crop', help="centre,lift,side of the reading crop (face-embedder.ts ReadingCrop); default: the --init-onnx sidecar's")
    args = ap.parse_args()
    args.box_shift, args.box_scale = box_error(args)
    resumed = torch.load(args.resume) if args.resume else {}
    k = args.input_size or resumed.get('inputSize') or init_sidecar(args).get('inputSize', K)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    os.makedirs(args.run, exist_ok=True)
    os.makedirs(args.out, exist_ok=True)  # now, not after the run: the export is its last step
    t0 = time.time()

    glyphs = font_glyphs()
    # one class per character: the same letter in two DejaVu styles would be two near-identical classes
    rng = np.random.default_rng(args.seed)
    by_char = {}
    for path, ch in glyphs:
        by_char.setdefault(ch, []).append(path)
    glyphs = [(paths[int(rng.integers(len(paths)))], ch) for ch, paths in sorted(by_char.items())]
    specs = class_specs(args.shapes, args.pictures, glyphs, args.seed)
    if args.font_sets and not set_fonts():
        sys.exit('--font-sets: no fonts found beside DejaVu and Liberation; install the font packages listed in models/training/README.md')
    font_rng = np.random.default_rng((args.seed, 77))
    groups = [[('glyph', int(font_rng.integers(1 << 31)), path, ch) for path, ch in g] for g in font_sets(args.font_sets, args.seed)]
    # after the font sets, so that their held-out tenth stays the same sets with or without these
    near_rng = np.random.default_rng((args.seed, 78))
    near_groups = [[('glyph', int(near_rng.integers(1 << 31)), path, ch) for path, ch in g]
                   for g in font_sets(args.near_font_sets, (args.seed, 78), near_alike=True)]
    reading = init_sidecar(args).get('readingCrop')
    crop = tuple(float(v) for v in args.reading_crop.split(',')) if args.reading_crop else (
        (reading['centre'], reading['lift'], reading['side']) if reading else None)
    if args.upright_share > 0 and crop is None:
        sys.exit('--upright-share needs a reading crop: --reading-crop centre,lift,side or an --init-onnx sidecar with readingCrop')
    sets = Sets(specs, args.seed, groups=groups + near_groups, box_error=(args.box_shift, args.box_scale), k=k,
                upright=(args.upright_share, args.upright_degrees, crop))
    n_sets = len(sets.members)
    # held out: the last tenth of each kind of set, the mixed sets (the unknown rule is chosen on
    # them), the font sets and the near-twin sets, in the order Sets holds them
    n_mixed = n_sets - len(groups) - len(near_groups)
    train_sets, (val_sets, font_val_sets, near_val_sets) = [], ([], [], [])
    start = 0
    for held, count in zip((val_sets, font_val_sets, near_val_sets), (n_mixed, len(groups), len(near_groups))):
        cut = start + count - count // 10
        train_sets += range(start, cut)
        held += range(cut, start + count)
        start += count
    train_classes = [c for s in train_sets for c in sets.members[s]]
    n_train = len(train_classes)
    print(f'{len(sets.faces)} classes in {n_sets} sets; training on {n_train}, holding out {len(val_sets)} sets; '
          f'{time.time() - t0:.0f}s', flush=True)

    if args.rule_only:
        if not args.init_onnx:
            sys.exit('--rule-only needs --init-onnx (the export whose rule to choose)')
        model = FaceEmbedder(dim=DIM)
        load_onnx_weights(model, args.init_onnx, torch.rand(1, 3, k, k))  # eval mode computes the export exactly
        threshold, margin, gap, stats = unknown_rule(model, sets, val_sets)
        sidecar = os.path.splitext(args.init_onnx)[0] + '.json'
        with open(sidecar) as f:
            meta = json.load(f)
        meta['threshold'], meta['ambiguityMargin'], meta['secondLookGap'] = round(threshold, 4), round(margin, 4), gap
        meta['heldOut'] = {'steps': meta.get('training', {}).get('steps'), **stats}
        meta['heldOut'].update(other_held_out(model, sets, font_val_sets, near_val_sets, gap))
        with open(sidecar, 'w') as f:
            json.dump(meta, f, indent=2)
            f.write('\n')
        print(json.dumps(meta['heldOut'], indent=2), flush=True)
        print(f'rule written to {sidecar}: second look below a lead of {gap}, threshold {threshold:.4f}, margin {margin:.4f}', flush=True)
        return

    if args.sample_seed:
        rng = np.random.default_rng((args.seed, args.sample_seed))
    pool_x = np.zeros((n_train * args.pool_views, k, k, 3), np.uint8)
    pool_y = np.repeat(np.arange(n_train), args.pool_views)
    for i in range(len(pool_y)):
        pool_x[i] = sets.render(train_classes[pool_y[i]], rng)
    print(f'pool of {len(pool_y)} crops rendered; {time.time() - t0:.0f}s', flush=True)

    model = FaceEmbedder(dim=DIM)
    step0 = 0
    if args.resume:
        model.load_state_dict(resumed['model'])
        step0 = resumed.get('step', 0)
        print(f'resumed from {args.resume} at step {step0}', flush=True)
    elif args.init_onnx:
        load_onnx_weights(model, args.init_onnx, torch.rand(1, 3, k, k))
        # BatchNorm statistics from pool crops, so train mode starts where the export stands
        calibrate(model, (to_tensor(list(pool_x[rng.choice(len(pool_x), 144)])) for _ in range(8)))
        step0 = args.steps_before
        print(f'started from {args.init_onnx} (step {step0})', flush=True)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    class_pos = {c: i for i, c in enumerate(train_classes)}
    gen = torch.Generator().manual_seed(args.seed * 1000 + args.sample_seed if args.sample_seed else args.seed)
    budget = args.minutes * 60 - (time.time() - t0)
    step, t_train, losses = 0, time.time(), []
    lr0 = args.lr
    while True:
        elapsed = time.time() - t_train
        if (args.steps and step >= args.steps) or (not args.steps and elapsed > budget):
            break
        frac = step / args.steps if args.steps else elapsed / budget
        warm = min(1.0, (step + 1) / 100)
        lr = lr0 * warm * (0.5 * (1 + math.cos(math.pi * frac)) * 0.98 + 0.02)
        for g in opt.param_groups:
            g['lr'] = lr
        for _ in range(args.fresh):  # keep the pool fresh: new poses, lights, backgrounds
            i = int(rng.integers(len(pool_y)))
            pool_x[i] = sets.render(train_classes[pool_y[i]], rng)
        # whole sets: P sets x 6 faces x V views (distinct pool views of each face)
        idx = []
        for si in rng.choice(len(train_sets), args.sets_per_batch, replace=False):
            for c in sets.members[train_sets[si]]:
                base = class_pos[c] * args.pool_views
                idx += list(base + rng.choice(args.pool_views, args.views, replace=False))
        idx = np.array(idx)
        x = photometric(to_tensor(list(pool_x[idx])), gen)
        y = torch.from_numpy(pool_y[idx]).long()
        loss = supcon_loss(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(float(loss))
        step += 1
        if step % 50 == 0:
            print(f'step {step} loss {np.mean(losses[-50:]):.3f} lr {lr:.2e} {elapsed / 60:.1f} min', flush=True)
        if step % 250 == 0:
            acc = few_shot(model, sets, val_sets[:16], 5, 6, 123)
            font_acc = few_shot(model, sets, font_val_sets[:16], 5, 6, 123) if font_val_sets else float('nan')
            line = f'  held-out 5-shot per-die accuracy {acc:.4f} (font sets {font_acc:.4f})'
            if near_val_sets:
                line += f' (near twins {few_shot(model, sets, near_val_sets[:16], 5, 6, 123):.4f})'
            if crop is not None:
                up = few_shot(model, sets, val_sets[:16], 5, 6, 123, upright=True)
                up_font = few_shot(model, sets, font_val_sets[:16], 5, 6, 123, upright=True) if font_val_sets else float('nan')
                line += f'; upright, reading crop {up:.4f} (font sets {up_font:.4f})'
            print(line, flush=True)
            torch.save({'model': model.state_dict(), 'step': step0 + step, 'inputSize': k}, os.path.join(args.run, 'last.pt'))

    torch.save({'model': model.state_dict(), 'step': step0 + step, 'inputSize': k}, os.path.join(args.run, 'last.pt'))
    step += step0
    threshold, margin, gap, stats = unknown_rule(model, sets, val_sets)
    stats = {'steps': step, **stats}
    stats.update(other_held_out(model, sets, font_val_sets, near_val_sets, gap))
    print(json.dumps(stats, indent=2), flush=True)
    meta = {
        'inputSize': k, 'dim': DIM, 'cropMargin': CROP_MARGIN,
        'input': 'crops', 'output': 'embeddings',
        'threshold': round(threshold, 4), 'ambiguityMargin': round(margin, 4), 'secondLookGap': gap,
        'training': {'classes': n_train, 'loss': 'SupCon t=0.1', 'steps': step,
                     'batch': f'{args.sets_per_batch} sets x 6 faces x {args.views} views',
                     'boxError': {'shift': args.box_shift, 'scale': args.box_scale},
                     'upright': {'share': args.upright_share, 'degrees': args.upright_degrees,
                                 'crop': list(crop) if crop else None},
                     'minutes': round((time.time() - t0) / 60, 1)},
        'heldOut': stats,
    }
    if reading:
        meta['readingCrop'] = reading  # the app's crop rule stays with the model it was chosen for
    export(model, os.path.join(args.out, 'face-embed.onnx'), os.path.join(args.out, 'face-embed.json'), meta)
    print('wrote', os.path.join(args.out, 'face-embed.onnx'), flush=True)


if __name__ == '__main__':
    main()
