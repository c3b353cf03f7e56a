"""Trains the die-face reader: a small CNN that reads one standard die's top face (1-6), or says
`other` (a die whose top face is not a pip face) or `none` (no die), from a crop of the original
frame around the detector's box. The detector still finds the dice; this second pass reads them
at the frame's own resolution (docs/vision.md, models/MODEL_CARD.md "Die-face reader").

    /usr/bin/python3 models/training/train_die_face.py            # fixed seeds, 8000 steps (~1.5 h on one loaded core)

Data: the train splits' labelled dice (minus the held-out slice), their tables, and synthetic
dice (die_face_data.py). Model selection: the held-out slice of the train splits only (never the
*-val splits). Writes models/die-face.onnx (float32) and models/die-face.json; quantize_die_face.py
then makes the int8 graph the app runs. Uses one CPU thread (the detector's training uses the other
core).
"""
import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from die_face_data import CROP_MARGIN, K, NONE, Mixer, RealCrops, RenderedDice, holdout_set  # noqa: E402
from die_face_model import CLASSES, DieFaceNet, WithSoftmax  # noqa: E402
from from_onnx import calibrate, load_onnx_weights  # noqa: E402
from hard_negatives import mine, mine_reads  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
SPLIT_NAMES = ('byler-train', 'matteop65-train', 'epanemu-train')


def to_tensor(x, device='cpu'):
    return torch.from_numpy(x).to(device).permute(0, 3, 1, 2).float().div_(255)


class MixerBatches(torch.utils.data.IterableDataset):
    """Endless training batches made by data workers (`--workers`, a lent GPU machine's cores): each
    worker builds its own Mixer, seeded by its number and rendering its share of the scenes, over
    the real photos decoded once before the workers fork."""

    def __init__(self, real, seed, scenes, workers, batch, **mixer_options):
        self.real, self.seed, self.scenes, self.workers, self.batch, self.options = real, seed, scenes, workers, batch, mixer_options

    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        wid = info.id if info else 0
        torch.set_num_threads(1)
        mixer = Mixer(self.real, self.seed + 1000 * (wid + 1), scenes=max(1, self.scenes // self.workers), log=None, **self.options)
        while True:
            yield mixer.batch(self.batch)


@torch.no_grad()
def evaluate(model, hx, hy, hsrc):
    """Held-out figures: per split, share of dice read right (exact and jittered crops together),
    dice taken for `none`/`other`; share of table patches read `none`; the confusion matrix."""
    model.eval()
    device = next(model.parameters()).device
    pred = torch.cat([model(to_tensor(hx[i:i + 256], device)).argmax(1).cpu() for i in range(0, len(hx), 256)]).numpy()
    model.train()
    out = {}
    for split in SPLIT_NAMES:
        m = hsrc == split
        if m.any():
            out[split] = {'dice': int(m.sum()), 'right': float((pred[m] == hy[m]).mean()),
                          'readNone': float((pred[m] == NONE).mean()), 'readOther': float((pred[m] == CLASSES.index('other')).mean())}
    m = hsrc == 'background'
    out['background'] = {'patches': int(m.sum()), 'readNone': float((pred[m] == NONE).mean())}
    dice_acc = float(np.mean([out[s]['right'] for s in SPLIT_NAMES if s in out]))
    out['meanDiceRight'] = dice_acc
    m = hsrc == 'read'
    if m.any():
        # held-out dice cut from the detector's own box on them, as the app reads them
        out['read'] = {'dice': int(m.sum()), 'right': float((pred[m] == hy[m]).mean())}
    m = hsrc == 'hard'
    if m.any():
        # the detector's own false boxes on the held-out photos (hard_negatives.py)
        out['hard'] = {'boxes': int(m.sum()), 'readNone': float((pred[m] == NONE).mean())}
        out['score'] = 0.8 * dice_acc + 0.1 * out['background']['readNone'] + 0.1 * out['hard']['readNone']
    else:
        out['score'] = 0.8 * dice_acc + 0.2 * out['background']['readNone']
    m = hsrc == 'off_centre'
    if m.any():
        # its boxes half on a die (hard_negatives.is_off_centre); reported, not scored, so that
        # steps stay comparable with runs that did not teach them
        out['offCentre'] = {'boxes': int(m.sum()), 'readNone': float((pred[m] == NONE).mean())}
    conf = np.zeros((len(CLASSES), len(CLASSES)), int)
    np.add.at(conf, (hy, pred), 1)
    out['confusion'] = conf.tolist()
    return out


def merge_mined(mined):
    """Several detectors' mined boxes, one list per photo."""
    out = {}
    for m in mined:
        for f, boxes in m.items():
            out.setdefault(f, []).extend(boxes)
    return out


# The sidecar's `brandedOne` rule (src/lib/vision/die-face-reader.ts `brandedOnes`): a die read
# `other` whose value classes give the 1 at least this share is a 1 with a maker's logo. 0.8 lies
# between the false dice of the train photos read `other` (at most 0.75) and the logo 1s of the
# other renderer's pip sets (0.86 and up); 0.7 reads those sets alike, 0.9 worse (models/record/standard-dice.md).
# `amongPipDice` (`brandedOnesAmongPips`): a sure die still read `other` beside dice read as pips is
# a branded 1 too (models/record/standard-dice.md, "Branded ones among pip dice").
BRANDED_ONE = {'minShare': 0.8, 'amongPipDice': True}

# The sidecar's `touchingDice` rule (die-face-reader.ts `partTouchingDice`): a box about two dice long
# and one wide, against the frame's median die, read as two dice when both halves read surely. Chosen
# on the train photos, the held-out slice and the other renderer's sets (models/record/standard-dice.md,
# "Touching dice boxed as one").
TOUCHING_DICE = {'aspect': 1.5, 'longVsMedian': 1.5, 'shortVsMedian': 1.3, 'minDice': 3, 'minProbability': 0.8}


def export(net, path_onnx, path_json, meta):
    # The `unsure` rule is not written here: it belongs to a reader's own probabilities and is
    # chosen at the table for each reader shipped (npm run choose-unsure-read; docs/vision.md).
    meta = {**meta, 'brandedOne': BRANDED_ONE, 'touchingDice': TOUCHING_DICE}
    model = WithSoftmax(net).eval()
    k = meta['inputSize']
    torch.onnx.export(model, torch.rand(1, 3, k, k), path_onnx, input_names=['crops'], output_names=['probs'],
                      dynamic_axes={'crops': {0: 'batch'}, 'probs': {0: 'batch'}}, opset_version=13, do_constant_folding=True)
    with open(path_json, 'w') as f:
        json.dump(meta, f, indent=2)
        f.write('\n')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--steps', type=int, default=8000)
    ap.add_argument('--batch', type=int, default=128)
    ap.add_argument('--lr', type=float, default=3e-3)
    ap.add_argument('--seed', type=int, default=11)
    ap.add_argument('--scenes', type=int, default=6000, help='synthetic scenes in the pool')
    ap.add_argument('--eval-every', type=int, default=500)
    ap.add_argument('--out', default=os.path.join(ROOT, 'models'))
    ap.add_argument('--run', default=os.path.join(ROOT, 'models', 'training', 'runs', 'die-face'))
    ap.add_argument('--resume', help='a checkpoint (last.pt) to continue from')
    ap.add_argument('--widths', default='16,32,64,96', help='channels of the four stages (die_face_model.DieFaceNet)')
    ap.add_argument('--hard-negatives', help="a detector checkpoint (.pt) whose false boxes on the train photos are taught as `none` (hard_negatives.py)")
    ap.add_argument('--off-centre', nargs='+', default=[], metavar='DETECTOR',
                    help="detectors (.onnx or .pt) whose boxes half on a train die and centred on none are taught as `none` (hard_negatives.is_off_centre), with boxes made alike")
    ap.add_argument('--off-centre-share', type=float, default=0.08, help='the share of crops cut from boxes half on a die (with --off-centre)')
    ap.add_argument('--split-weights', default='', help='e.g. epanemu-train=2: draw that split\'s real dice this many times as often (default 1 each)')
    ap.add_argument('--threads', type=int, default=1, help='CPU threads (1 leaves the other core to a detector run)')
    ap.add_argument('--device', default='cpu', help="cpu, or cuda on a lent GPU machine (models/training/gpu/train-reader.sh)")
    ap.add_argument('--minutes', type=float, help='end the run after this many minutes of training, the schedule following the clock')
    ap.add_argument('--workers', type=int, default=0, help='data workers, each with its own share of the synthetic scenes (0: batches made between steps, as on this CPU)')
    ap.add_argument('--as-read', help="a detector (.onnx or .pt) whose boxes on the labelled train dice cut part of the real crops, as the app cuts them (hard_negatives.mine_reads)")
    ap.add_argument('--as-read-share', type=float, default=0.5, help='the share of real dice cut from the --as-read detector\'s box')
    ap.add_argument('--crop-size', type=int, default=K, help=f'the reader\'s input: crops of this many pixels a side (default {K}; the sidecar\'s inputSize)')
    ap.add_argument('--motion-blur', default='0.08,4', help="SHARE,PIXELS: the share of training crops blurred by motion, and the longest blur (in pixels of the crop)")
    ap.add_argument('--grey', type=float, default=0.08, help='the share of training crops without colour; `npm run eval -- --condition mono` measures it')
    ap.add_argument('--defocus', default='0,1.2', help="SHARE,SIGMA: the share of training crops out of focus (a Gaussian blur of sd 1.2 up to SIGMA pixels of the crop); `npm run eval -- --condition defocus` measures it")
    ap.add_argument('--translucent', type=float, default=0.0, help="the share of synthetic scenes whose die (and its like neighbours) is see-through, the hidden faces' pips showing (gem dice, as byler's dark red-pipped ones)")
    ap.add_argument('--on-boards', help="a render cache of board dice (render_cache.py --preset on-boards): its rendered dice drawn as --on-boards-share of the crops")
    ap.add_argument('--on-boards-share', type=float, default=0.1, help='the share of crops cut from --on-boards dice')
    ap.add_argument('--init-onnx', help="start from this float export's weights (from_onnx.py), e.g. models/training/die-face-float.onnx (the shipped reader's)")
    args = ap.parse_args()
    try:  # checked before the hour of work below
        share, longest = args.motion_blur.split(',')
        motion_blur = (float(share), int(longest))
    except ValueError:
        ap.error(f'--motion-blur must be SHARE,PIXELS (e.g. 0.15,12), got {args.motion_blur!r}')
    try:
        share, widest = args.defocus.split(',')
        defocus = (float(share), float(widest))
    except ValueError:
        ap.error(f'--defocus must be SHARE,SIGMA (e.g. 0.15,5), got {args.defocus!r}')
    k = args.crop_size
    if not (16 <= k <= 256 and k % 16 == 0):
        ap.error(f'--crop-size must be a multiple of 16 in 16-256 (the reader halves it four times), got {k}')
    if not (0 <= motion_blur[0] <= 0.7 and 2 <= motion_blur[1] <= k):
        ap.error(f'--motion-blur: the share must lie in 0-0.7 (30% of crops get a soft blur instead) and the pixels in 2-{k}, got {args.motion_blur!r}')
    if not (0 <= defocus[0] and motion_blur[0] + defocus[0] <= 0.7 and 1.2 <= defocus[1] <= k / 4):
        ap.error(f'--defocus: the share must lie in 0-0.7 with the motion blur\'s and the sd in 1.2-{k / 4:g} pixels, got {args.defocus!r}')
    if not 0 <= args.on_boards_share < 1:
        ap.error(f'--on-boards-share is a share in 0-1, got {args.on_boards_share}')
    if not 0 < args.off_centre_share < 1:
        ap.error(f'--off-centre-share is a share in 0-1, got {args.off_centre_share}')
    if not 0 <= args.translucent <= 1:
        ap.error(f'--translucent is a share in 0-1, got {args.translucent}')
    if os.environ.get('CI'):
        sys.exit('train_die_face.py does not run in CI (hours on a CPU); the app ships models/die-face.onnx')
    torch.set_num_threads(args.threads)
    if args.workers > 0:
        # before the photos are decoded: a forked data worker hangs in OpenCV when the parent has
        # started OpenCV's thread pool (seen on a lent GPU machine's OpenCV build)
        cv2.setNumThreads(0)
    torch.manual_seed(args.seed)
    os.makedirs(args.run, exist_ok=True)
    t0 = time.time()
    log = lambda s: print(f'[{(time.time() - t0) / 60:6.1f} min] {s}', flush=True)  # noqa: E731

    hard = {part: mine(Path(args.hard_negatives), part, log=log) if args.hard_negatives else None for part in ('train', 'holdout')}
    reads = {part: mine_reads(Path(args.as_read), part, log=log) if args.as_read else None for part in ('train', 'holdout')}
    off_centre = {part: merge_mined([mine(Path(d), part, log=log, off_centre=True) for d in args.off_centre]) if args.off_centre else None
                  for part in ('train', 'holdout')}
    real = RealCrops('train', hard_negatives=hard['train'], reads=reads['train'], off_centre=off_centre['train'])
    if args.split_weights:
        real.weight_splits({k: float(v) for k, v in (kv.split('=') for kv in args.split_weights.split(','))})
    held = RealCrops('holdout', hard_negatives=hard['holdout'], reads=reads['holdout'], off_centre=off_centre['holdout'])
    hx, hy, hsrc = holdout_set(held, k=k)
    log(f'train: {len(real.items)} dice in {len(real.images)} photos, {len(real.hard)} hard negatives, {len(real.off_centre)} off-centre boxes; held out: '
        f'{len(held.items)} dice in {len(held.images)} photos ({len(hx)} crops with table patches, {len(held.hard)} hard negatives and {len(held.off_centre)} off-centre boxes)')
    mixer_options = {'as_read': args.as_read_share if args.as_read else 0.0, 'motion_blur': motion_blur, 'defocus': defocus, 'translucent': args.translucent,
                     'off_centre_share': args.off_centre_share if args.off_centre else 0.0, 'k': k, 'grey': args.grey}
    if args.on_boards:
        mixer_options.update(on_boards=RenderedDice(args.on_boards), on_boards_share=args.on_boards_share)
        log(f"{len(mixer_options['on_boards'].items)} rendered board dice from {args.on_boards}, {args.on_boards_share:.0%} of the crops")
    if args.workers > 0:
        source = MixerBatches(real, args.seed, args.scenes, args.workers, args.batch, **mixer_options)
        batches = iter(torch.utils.data.DataLoader(source, batch_size=None, num_workers=args.workers, prefetch_factor=4))
        next_batch = lambda: tuple(t.numpy() for t in next(batches))  # noqa: E731
        log(f'{args.workers} data workers rendering {args.scenes} synthetic scenes between them')
    else:
        mixer = Mixer(real, args.seed, scenes=args.scenes, log=log, **mixer_options)
        next_batch = lambda: mixer.batch(args.batch)  # noqa: E731
        log(f'{args.scenes} synthetic scenes rendered')
    device = torch.device(args.device)

    widths = tuple(int(w) for w in args.widths.split(','))
    net = DieFaceNet(widths)
    ema = DieFaceNet(widths)
    ema.load_state_dict(net.state_dict())
    for p in ema.parameters():
        p.requires_grad_(False)
    if args.init_onnx and not args.resume:
        load_onnx_weights(net, args.init_onnx, torch.rand(1, 3, k, k))
        # BatchNorm statistics from a few training batches, so train mode starts where the export stands
        calibrate(net, (to_tensor(next_batch()[0]) for _ in range(8)))
        ema.load_state_dict(net.state_dict())
        r = evaluate(ema, hx, hy, hsrc)
        log(f'started from {args.init_onnx}: held out ' + ', '.join(f"{s} {r[s]['right']:.3f}" for s in SPLIT_NAMES if s in r) +
            (f", as read {r['read']['right']:.3f}" if 'read' in r else '') + f", score {r['score']:.4f}")
    net.to(device)
    ema.to(device)
    opt = torch.optim.AdamW(net.parameters(), lr=args.lr, weight_decay=5e-4)
    step, best, history = 0, None, []
    if args.resume:
        ck = torch.load(args.resume, map_location=device)
        if ck.get('inputSize', K) != k:
            sys.exit(f"--resume {args.resume}: trained on {ck.get('inputSize', K)} px crops, not --crop-size {k}")
        net.load_state_dict(ck['model']); ema.load_state_dict(ck['ema']); opt.load_state_dict(ck['opt'])
        step, best, history = ck['step'], ck.get('best'), ck.get('history', [])
        log(f'resumed at step {step}')
    losses = []
    t_train = time.time()
    # the schedule's progress: by steps, or by the clock when --minutes ends the run first (a lent GPU's call)
    progress = lambda: max(step / args.steps, (time.time() - t_train) / 60 / args.minutes if args.minutes else 0.0)  # noqa: E731
    while progress() < 1:
        warm = min(1.0, (step + 1) / 200)
        lr = args.lr * warm * (0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * progress())))
        for g in opt.param_groups:
            g['lr'] = lr
        x, y = next_batch()
        logits = net(to_tensor(x, device))
        loss = F.cross_entropy(logits, torch.from_numpy(y).to(device), label_smoothing=0.05)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        with torch.no_grad():
            d = min(0.998, (1 + step) / (10 + step))
            for pe, pn in zip(ema.state_dict().values(), net.state_dict().values()):
                if pe.dtype.is_floating_point:
                    pe.mul_(d).add_(pn.detach(), alpha=1 - d)
                else:
                    pe.copy_(pn)
        losses.append(loss.item())
        if step % 100 == 0:
            log(f'step {step} loss {np.mean(losses[-100:]):.3f} lr {lr:.2e}')
        if step % args.eval_every == 0 or progress() >= 1:
            r = evaluate(ema, hx, hy, hsrc)
            r['step'] = step
            history.append({k: v for k, v in r.items() if k != 'confusion'})
            log('held out: ' + ', '.join(f"{s} {r[s]['right']:.3f}" for s in SPLIT_NAMES if s in r) +
                f", background→none {r['background']['readNone']:.3f}" +
                (f", hard→none {r['hard']['readNone']:.3f}" if 'hard' in r else '') +
                (f", off-centre→none {r['offCentre']['readNone']:.3f}" if 'offCentre' in r else '') +
                (f", as read {r['read']['right']:.3f}" if 'read' in r else '') + f", score {r['score']:.4f}")
            # every evaluated step is kept: the reading path is chosen behind the detector afterwards
            torch.save({'model': ema.state_dict(), 'step': step, 'widths': widths, 'inputSize': k}, os.path.join(args.run, f'step{step:06d}.pt'))
            if best is None or r['score'] > best['score']:
                best = r
                torch.save({'model': ema.state_dict(), 'step': step, 'widths': widths, 'inputSize': k}, os.path.join(args.run, 'best.pt'))
            torch.save({'model': net.state_dict(), 'ema': ema.state_dict(), 'opt': opt.state_dict(), 'step': step, 'widths': widths, 'inputSize': k,
                        'best': best, 'history': history}, os.path.join(args.run, 'last.pt'))

    ck = torch.load(os.path.join(args.run, 'best.pt'), map_location='cpu')
    final = DieFaceNet(widths)
    final.load_state_dict(ck['model'])
    meta = {
        'inputSize': k,
        'classes': list(CLASSES),
        'cropMargin': CROP_MARGIN,
        'input': 'crops',
        'output': 'probs',
        'training': {
            'script': 'models/training/train_die_face.py',
            'args': {k: v for k, v in vars(args).items() if k not in ('out', 'run', 'resume')},
            'selectedStep': ck['step'],
            'realDice': len(real.items),
            'minutes': round((time.time() - t0) / 60, 1),
            'parameters': sum(p.numel() for p in final.parameters()),
        },
        'heldOut': {k: v for k, v in best.items() if k != 'confusion'},
        'heldOutConfusion': {'rows': 'truth', 'columns': 'read', 'classes': list(CLASSES), 'counts': best['confusion']},
    }
    init_sidecar = args.init_onnx and os.path.splitext(args.init_onnx)[0] + '.json'
    if init_sidecar and not args.resume and os.path.exists(init_sidecar):
        # what this run started from, so the shipped sidecar tells the whole training
        with open(init_sidecar) as f:
            meta['training']['startedFrom'] = json.load(f).get('training')
    os.makedirs(args.out, exist_ok=True)
    export(final, os.path.join(args.out, 'die-face.onnx'), os.path.join(args.out, 'die-face.json'), meta)
    log(f"wrote {os.path.join(args.out, 'die-face.onnx')} (step {ck['step']}, held-out score {best['score']:.4f})")


if __name__ == '__main__':
    main()
