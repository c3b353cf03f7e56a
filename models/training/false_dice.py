"""Learns the false-dice filter (src/lib/vision/false-dice.ts) from reads dumped by
`npm run dump-reads`: a logistic model over where each die read lies against the other dice read
in its frame, taught which reads match a labelled die (the data README's centre rule, any value).

    /usr/bin/python3 false_dice.py --train DUMP.jsonl... [--write SIDECAR.json --min-probability P]

Trains on the dumps' photos outside the held-out slice (`holdout` false) and on any photos outside
the train splits (renders: `holdout` null), never on val; reports per-die F1 and exact rolls with
the filter at several thresholds on the held-out slice (`holdout` true), by split and over its
crowds. `--write` puts the model, with P, into a die-face sidecar's `falseDice`.
The features are `falseDiceFeatures` in false-dice.ts, number for number.
"""
import argparse
import json
import math
import os
from collections import Counter

import numpy as np
import torch

import evaluate

FEATURES = 'context-v1'
COUNT = 24


def inside_share(outer, inner):
    ix = min(outer[0] + outer[2], inner[0] + inner[2]) - max(outer[0], inner[0])
    iy = min(outer[1] + outer[3], inner[1] + inner[3]) - max(outer[1], inner[1])
    area = inner[2] * inner[3]
    return 0.0 if ix <= 0 or iy <= 0 or area <= 0 else ix * iy / area


def iou(a, b):
    ix = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    iy = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    if ix <= 0 or iy <= 0:
        return 0.0
    inter = ix * iy
    return inter / (a[2] * a[3] + b[2] * b[3] - inter)


def centre(b):
    return b[0] + b[2] / 2, b[1] + b[3] / 2


def contains(b, x, y):
    return b[0] <= x <= b[0] + b[2] and b[1] <= y <= b[1] + b[3]


def features(dice, weak_below):
    """Per die read [x, y, w, h, value, score, probability]: false-dice.ts falseDiceFeatures."""
    n = len(dice)
    if n == 0:
        return np.zeros((0, COUNT), np.float32)
    sides = [math.sqrt(d[2] * d[3]) for d in dice]
    aspects = [d[3] / d[2] for d in dice]
    med_side, med_aspect = float(np.median(sides)), float(np.median(aspects))
    out = []
    for i, d in enumerate(dice):
        s = d[5]
        f = [s, math.log(s / (1 - s + 1e-6) + 1e-6), d[6], float(s < weak_below), math.log(sides[i] / med_side),
             math.log(aspects[i] / med_aspect), n / 10, float(d[4] == 0)]
        best, best_key = -1, 0.0
        max_iou = max_in = max_cont = covered = 0.0
        overlapping, nearest = 0, 9.0
        cx, cy = centre(d)
        for j, o in enumerate(dice):
            if j == i:
                continue
            ov, a, b = iou(d, o), inside_share(o, d), inside_share(d, o)
            max_iou, max_in, max_cont = max(max_iou, ov), max(max_in, a), max(max_cont, b)
            covered += a
            overlapping += a > 0
            ox, oy = centre(o)
            nearest = min(nearest, math.hypot(cx - ox, cy - oy) / sides[i])
            if ov + a + b > best_key:
                best_key, best = ov + a + b, j
        f += [max_iou, max_in, max_cont, min(covered, 2), overlapping / 4, min(nearest, 9) / 3]
        if best >= 0:
            o = dice[best]
            ox, oy = centre(o)
            f += [(cx - ox) / o[2], (cy - oy) / o[3], abs(cx - ox) / o[2], abs(cy - oy) / o[3], math.log(sides[i] / sides[best]),
                  float(d[4] == o[4]), o[5], o[6], float(o[5] > s), 1.0]
        else:
            f += [0.0] * 10
        out.append(f)
    return np.array(out, np.float32)


def match(truth, preds):
    """The centre rule (evaluate.match) over [x, y, w, h, ...] rows: (truth index, read index) pairs."""
    if not truth or not preds:
        return []
    corners = lambda rows: np.array([[r[0], r[1], r[0] + r[2], r[1] + r[3]] for r in rows], np.float64)
    return [(ti, pi) for pi, ti in evaluate.match(corners(preds), corners(truth))]


def scored(photo, dice):
    return [d for d in dice if not any(contains(r, *centre(d)) for r in photo['ignore'])]


def labels(photo):
    """1 for a read matching a labelled die, 0 for a false die; weight 0 where it is not scored."""
    dice = photo['dice']
    y = np.zeros(len(dice), np.float32)
    for _, pi in match(photo['truth'], dice):
        y[pi] = 1
    w = np.array([0.0 if any(contains(r, *centre(d)) for r in photo['ignore']) else 1.0 for d in dice], np.float32)
    return y, w


def figures(photos, reads):
    tp = fp = fn = exact = 0
    for photo, dice in zip(photos, reads):
        dice, truth = scored(photo, dice), photo['truth']
        right = sum(1 for ti, pi in match(truth, dice) if truth[ti][4] == dice[pi][4])
        tp, fp, fn = tp + right, fp + len(dice) - right, fn + len(truth) - right
        exact += Counter(t[4] for t in truth) == Counter(d[4] for d in dice)
    p, r = tp / max(1, tp + fp), tp / max(1, tp + fn)
    return 100 * 2 * p * r / max(1e-9, p + r), 100 * exact / max(1, len(photos))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--train', nargs='+', required=True, help='dumps of npm run dump-reads')
    ap.add_argument('--weak-below', type=float, required=True, help="the sidecar's firstPass.scoreThreshold the dumps were read with")
    ap.add_argument('--write', help='a die-face sidecar to put the model into')
    ap.add_argument('--min-probability', type=float, default=0.3)
    ap.add_argument('--seed', type=int, default=0)
    args = ap.parse_args()
    if args.write and not os.path.isfile(args.write):
        raise SystemExit(f'false_dice.py: --write {args.write}: no such sidecar (copy a die-face sidecar there first)')
    torch.manual_seed(args.seed)
    photos = [json.loads(line) for f in args.train for line in open(f) if line.strip()]
    if any(p['split'].endswith('-val') for p in photos):
        raise SystemExit('false_dice.py: a val split is in the dumps; the filter never learns from val')
    for p in photos:
        p['F'] = features(p['dice'], args.weak_below)
        p['y'], p['w'] = labels(p)
    train = [p for p in photos if p['holdout'] is not True and len(p['dice'])]
    held = [p for p in photos if p['holdout'] is True]
    X = np.concatenate([p['F'] for p in train])
    Y = np.concatenate([p['y'] for p in train])
    W = np.concatenate([p['w'] for p in train])
    mean, scale = X.mean(0), X.std(0) + 1e-6
    print(f'{len(train)} photos, {len(Y)} reads, {int(((1 - Y) * W).sum())} false dice')
    model = torch.nn.Linear(COUNT, 1)
    opt = torch.optim.Adam(model.parameters(), 1e-2, weight_decay=1e-3)
    xs, ys, ws = torch.from_numpy((X - mean) / scale), torch.from_numpy(Y), torch.from_numpy(W)
    for _ in range(800):
        opt.zero_grad()
        loss = (torch.nn.functional.binary_cross_entropy_with_logits(model(xs).squeeze(-1), ys, reduction='none') * ws).mean()
        loss.backward()
        opt.step()
    print(f'loss {float(loss):.4f}')

    def kept(p, t):
        if not len(p['F']) or len(p['dice']) < 2:
            return p['dice']
        with torch.no_grad():
            prob = torch.sigmoid(model(torch.from_numpy((p['F'] - mean) / scale))).numpy().ravel()
        return [d for d, v in zip(p['dice'], prob) if v >= t]

    thresholds = (0.1, 0.2, 0.3, 0.5)
    print('held-out slice, F1 / exact %: without the filter | with it at ' + ', '.join(map(str, thresholds)))
    groups = sorted({p['split'] for p in held})
    for name, group in [(g, [p for p in held if p['split'] == g]) for g in groups] + [('all', held), ('crowds (8+ dice)', [p for p in held if len(p['truth']) >= 8])]:
        if not group:
            continue
        row = [figures(group, [p['dice'] for p in group])] + [figures(group, [kept(p, t) for p in group]) for t in thresholds]
        print(f'{name:18s} {len(group):4d}  ' + ' | '.join(f'{f:.1f} / {e:.1f}' for f, e in row))
    if args.write:
        sidecar = json.load(open(args.write))
        sidecar['falseDice'] = {
            'features': FEATURES, 'mean': mean.tolist(), 'scale': scale.tolist(),
            'weights': model.weight.detach().numpy().ravel().tolist(), 'bias': float(model.bias.detach()[0]),
            'minProbability': args.min_probability,
        }
        json.dump(sidecar, open(args.write, 'w'), indent=2)
        print(f'wrote falseDice (minProbability {args.min_probability}) to {args.write}')


if __name__ == '__main__':
    main()
