"""Train the dice detector on the real train splits (minus a held-out slice) and synthetic
renders. Runs on this CPU (`npm run train`); `--device cuda --minutes M` trains on a lent GPU.
Usage: see models/training/README.md.
"""
from __future__ import annotations

import os

# Busy-waiting OpenMP threads collapse throughput on a shared 2-core machine (10x measured).
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import argparse
import copy
import json
import math
import random
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

import datasets as ds
from augment import make_crop
from copy_paste import DiceBank, paste_crowd, paste_dice
from evaluate import evaluate, scaled_boxes
from from_onnx import calibrate, load_onnx_weights
from model import NUM_CLASSES, STRIDES, DetectorWithDecode, DiceDetector, count_params, flatten_levels, grow_deeper, grow_wider

# Which level learns which die: by the longer side of its box, in input pixels.
LEVEL_RANGES = {4: (0.0, 32.0), 8: (0.0, 64.0), 16: (44.0, 160.0), 32: (120.0, 1e9)}  # die side in input px; 4 only with --p4
CENTRE_RADIUS = 1.5  # positives: cells within this many strides of the die's centre (and inside its box)
SMALL_DIE = 0.045  # --small-dice-boost: a photo whose median die side is under this share of its longer side


class CropDataset(Dataset):
    def __init__(self, samples: list[dict], input_size: int, crop: int, seed: int, length: int, focus_p: float = 0.0,
                 paste_p: float = 0.0, paste_busy: float = 0.0, paste_busy_dice: bool = False, crowd_p: float = 0.0,
                 upright_p: float = 0.0, strong_blur: float = 0.0, grey: float = 0.05,
                 mosaic_p: float = 0.0, draw_p: np.ndarray | None = None):
        self.samples, self.input_size, self.crop, self.seed, self.length = samples, input_size, crop, seed, length
        self.mosaic_p, self.draw_p = mosaic_p, draw_p
        self.focus_p, self.paste_p, self.paste_busy, self.paste_busy_dice = focus_p, paste_p, paste_busy, paste_busy_dice
        self.crowd_p, self.upright_p, self.strong_blur, self.grey = crowd_p, upright_p, strong_blur, grey
        self.cache: dict[str, np.ndarray] = {}
        self.bank = DiceBank(samples, self.image) if paste_p > 0 or crowd_p > 0 else None

    def __len__(self) -> int:
        return self.length

    def image(self, s: dict) -> np.ndarray:
        """Decoded images stay in memory (a few GB at most): decoding JPEGs would starve the CPU."""
        if s["file"] not in self.cache:
            self.cache[s["file"]] = ds.read_rgb(Path(s["file"]))
        return self.cache[s["file"]]

    def __getitem__(self, key):
        index, step = key
        rng = np.random.default_rng((self.seed, step, index))
        # drawn only when asked, so that runs without mosaics draw as they did before
        if self.mosaic_p > 0 and rng.random() < self.mosaic_p:
            return self.mosaic(rng, index)
        s = self.samples[index]
        img = self.image(s)
        if self.bank is not None and s["source"] in ds.TRAIN_SPLITS and rng.random() < self.paste_p:
            s, img = paste_dice(rng, s, img, self.bank, busy=self.paste_busy, busy_dice=self.paste_busy_dice)
        # drawn only when asked, so that runs without crowds draw as they did before
        if self.crowd_p > 0 and s["source"] in ds.TRAIN_SPLITS and rng.random() < self.crowd_p:
            s, img = paste_crowd(rng, s, img, self.bank)
        # drawn only when asked, as above; only photos taken from the side have an up to keep
        upright = self.upright_p > 0 and s["source"] in ds.OBLIQUE_SPLITS and rng.random() < self.upright_p
        out = make_crop(rng, s, img, self.input_size, self.crop, upright=upright, focus_p=self.focus_p, strong_blur=self.strong_blur, grey=self.grey)
        return out

    def mosaic(self, rng: np.random.Generator, index: int) -> dict:
        """YOLOv4's mosaic: four crops of half the size, from this sample and three drawn as the
        sampler draws, laid 2 x 2 (each letterboxed at half the input size, so their dice shrink to
        half, the smallest kept at about 9 px by make_crop): more small dice, more scenes a crop. The
        quarters are plain crops: no pasted dice, and oblique photos turned freely (--upright not applied)."""
        half = self.crop // 2
        picks = [index] + [int(i) for i in rng.choice(len(self.samples), size=3, p=self.draw_p)]
        image = np.empty((self.crop, self.crop, 3), np.uint8)
        boxes, classes, weight, ignore = [], [], [], []
        for q, i in enumerate(picks):
            s = self.samples[i]
            part = make_crop(rng, s, self.image(s), self.input_size // 2, half, grey=self.grey, strong_blur=self.strong_blur)
            ox, oy = (q % 2) * half, (q // 2) * half
            image[oy:oy + half, ox:ox + half] = part["image"]
            shift = np.array([ox, oy, ox, oy], np.float32)
            boxes.append(part["boxes"] + shift)
            classes.append(part["classes"])
            weight.append(part["box_weight"])
            ignore.append(part["ignore"] + shift)
        return {"image": image, "boxes": np.concatenate(boxes).astype(np.float32), "classes": np.concatenate(classes),
                "box_weight": np.concatenate(weight).astype(np.float32), "ignore": np.concatenate(ignore).astype(np.float32)}


class WeightedSampler(torch.utils.data.Sampler):
    """Deterministic weighted sampling with replacement; yields (sample index, draw number)."""

    def __init__(self, weights: np.ndarray, n: int, seed: int, start: int = 0):
        self.p = weights / weights.sum()
        self.n, self.seed, self.start = n, seed, start

    def __iter__(self):
        rng = np.random.default_rng((self.seed, 12345))
        idx = rng.choice(len(self.p), size=self.n, p=self.p)
        for k in range(self.start, self.n):
            yield int(idx[k]), k

    def __len__(self) -> int:
        return self.n - self.start


def collate(batch: list[dict]) -> dict:
    imgs = torch.from_numpy(np.stack([b["image"] for b in batch])).permute(0, 3, 1, 2).contiguous()
    K = max(1, max(len(b["boxes"]) for b in batch))
    M = max(1, max(len(b["ignore"]) for b in batch))
    B = len(batch)
    boxes = torch.zeros(B, K, 4)
    classes = torch.zeros(B, K, dtype=torch.long)
    weight = torch.zeros(B, K)
    valid = torch.zeros(B, K, dtype=torch.bool)
    ignore = torch.zeros(B, M, 4)
    ivalid = torch.zeros(B, M, dtype=torch.bool)
    for i, b in enumerate(batch):
        k = len(b["boxes"])
        if k:
            boxes[i, :k] = torch.from_numpy(b["boxes"])
            classes[i, :k] = torch.from_numpy(b["classes"])
            weight[i, :k] = torch.from_numpy(b["box_weight"])
            valid[i, :k] = True
        m = len(b["ignore"])
        if m:
            ignore[i, :m] = torch.from_numpy(b["ignore"])
            ivalid[i, :m] = True
    return {"images": imgs, "boxes": boxes, "classes": classes, "weight": weight, "valid": valid,
            "ignore": ignore, "ivalid": ivalid}


def cell_layout(size: int, level_strides: tuple[int, ...] = STRIDES):
    centres, strides, levels = [], [], []
    for s in level_strides:
        n = size // s
        ys, xs = torch.meshgrid(torch.arange(n), torch.arange(n), indexing="ij")
        centres.append((torch.stack([xs, ys], -1).reshape(-1, 2).float() + 0.5) * s)
        strides.append(torch.full((n * n,), float(s)))
        levels.append(torch.full((n * n,), s))
    return torch.cat(centres), torch.cat(strides), torch.cat(levels)


def assign(batch: dict, centres: torch.Tensor, strides: torch.Tensor, levels: torch.Tensor, size: int, box_scale: float = 1.0):
    """FCOS-style assignment. Returns pos [B,N] bool, gt index [B,N], obj weight [B,N].
    With `box_scale` < 1 a cell must lie inside the die's scaled box (--box-scale), while the level
    is still chosen by the whole die's side."""
    boxes, valid = batch["boxes"], batch["valid"]
    B, K, _ = boxes.shape
    cx = centres[None, :, None, 0]
    cy = centres[None, :, None, 1]
    side = torch.maximum(boxes[:, None, :, 2] - boxes[:, None, :, 0], boxes[:, None, :, 3] - boxes[:, None, :, 1])
    x1, y1, x2, y2 = (scaled_boxes(boxes, box_scale)[:, None, :, i] for i in range(4))
    gcx, gcy = (x1 + x2) / 2, (y1 + y2) / 2
    inside = (cx > x1) & (cx < x2) & (cy > y1) & (cy < y2)
    st = strides[None, :, None]
    near = torch.maximum((cx - gcx).abs(), (cy - gcy).abs()) < CENTRE_RADIUS * st
    lo = torch.zeros_like(strides)
    hi = torch.zeros_like(strides)
    level_strides = tuple(torch.unique_consecutive(levels).tolist())
    for s, (a, b) in LEVEL_RANGES.items():
        lo[levels == s] = a
        hi[levels == s] = b
    lo, hi = lo[None, :, None], hi[None, :, None]
    level_ok = (side >= lo) & (side < hi)
    cand = inside & near & level_ok & valid[:, None, :]
    # the cell holding each die's centre is always positive on the levels that take its size
    offset = 0
    for s in level_strides:
        n = size // s
        ix = (gcx[:, 0, :] / s).floor().clamp(0, n - 1).long()
        iy = (gcy[:, 0, :] / s).floor().clamp(0, n - 1).long()
        idx = offset + iy * n + ix                                    # [B, K]
        sd = side[:, 0, :]
        ok = valid & (sd >= LEVEL_RANGES[s][0]) & (sd < LEVEL_RANGES[s][1])
        bi, ki = torch.nonzero(ok, as_tuple=True)
        cand[bi, idx[bi, ki], ki] = True
        offset += n * n
    area = ((x2 - x1) * (y2 - y1)).expand_as(cand)
    cost = torch.where(cand, area, torch.full_like(area, float("inf")))
    best, gt = cost.min(2)
    pos = torch.isfinite(best)
    # cells inside ignore regions are not penalised as background
    ig, iv = batch["ignore"], batch["ivalid"]
    ix1, iy1, ix2, iy2 = (ig[:, None, :, i] for i in range(4))
    in_ignore = ((cx > ix1) & (cx < ix2) & (cy > iy1) & (cy < iy2) & iv[:, None, :]).any(2)
    obj_w = torch.where(in_ignore & ~pos, torch.zeros_like(best), torch.ones_like(best))
    return pos, gt, obj_w


def giou_loss(p: torch.Tensor, g: torch.Tensor) -> torch.Tensor:
    ix1, iy1 = torch.maximum(p[:, 0], g[:, 0]), torch.maximum(p[:, 1], g[:, 1])
    ix2, iy2 = torch.minimum(p[:, 2], g[:, 2]), torch.minimum(p[:, 3], g[:, 3])
    inter = (ix2 - ix1).clamp(min=0) * (iy2 - iy1).clamp(min=0)
    ap = (p[:, 2] - p[:, 0]) * (p[:, 3] - p[:, 1])
    ag = (g[:, 2] - g[:, 0]) * (g[:, 3] - g[:, 1])
    union = ap + ag - inter + 1e-7
    iou = inter / union
    cx1, cy1 = torch.minimum(p[:, 0], g[:, 0]), torch.minimum(p[:, 1], g[:, 1])
    cx2, cy2 = torch.maximum(p[:, 2], g[:, 2]), torch.maximum(p[:, 3], g[:, 3])
    c = (cx2 - cx1) * (cy2 - cy1) + 1e-7
    return 1 - iou + (c - union) / c, iou


def per_die(values: torch.Tensor, die: torch.Tensor, reduce: str) -> torch.Tensor:
    """Each positive cell's `values` reduced ("amax" or "amin") over the cells of its die."""
    table = torch.zeros(int(die.max()) + 1, dtype=values.dtype, device=values.device)
    return table.scatter_reduce(0, die, values, reduce=reduce, include_self=False)[die]


def centre_peak(batch: dict, bi: torch.Tensor, gi: torch.Tensor, ni: torch.Tensor, centres: torch.Tensor, strides: torch.Tensor,
                die: torch.Tensor, sd: float) -> torch.Tensor:
    """CenterNet's soft target for each positive cell: a Gaussian of its distance from its die's
    centre, sd `sd` strides, the die's nearest cell 1."""
    g = (batch["boxes"][bi, gi, :2] + batch["boxes"][bi, gi, 2:]) / 2
    d2 = ((centres[ni] - g) ** 2).sum(1) / strides[ni] ** 2
    return torch.exp(-(d2 - per_die(d2, die, "amin")) / (2 * sd ** 2))


def compute_loss(maps, batch, layout, size, hard_positives: float = 0.0, iou_objectness: bool = False, box_scale: float = 1.0,
                 one_box: bool = False, peak: float = 0.0, o2o_only: bool = False, o2o_peak: float = 0.0):
    """The one-to-many head's loss; with a one-to-one branch (maps of 13 channels) its loss added,
    or alone with `o2o_only` (train.py --o2o-only, the rest of the net frozen)."""
    centres, strides, levels = layout
    raw = flatten_levels(maps)                                       # [B, N, 12], or 13 with the one-to-one branch
    one_to_one = raw.shape[-1] > 5 + NUM_CLASSES
    pos, gt, obj_w = assign(batch, centres, strides, levels, size, box_scale)
    npos = max(1.0, float(pos.sum()))
    obj_t = pos.float()
    o2o_t = torch.zeros_like(obj_t)
    o2o_w = obj_w                                                    # cells in ignore regions: no loss
    if hard_positives:
        # dice the net still scores low (small dice on a game board) weigh up to 1 + A times as much;
        # dice it already finds keep weight 1, so the objectness scale the rules were chosen on holds
        p = torch.sigmoid(raw[..., 4].detach())
        obj_w = obj_w * torch.where(pos, 1.0 + hard_positives * (1.0 - p) ** 2, torch.ones_like(p))
    bi, ni = torch.nonzero(pos, as_tuple=True)
    gi = gt[bi, ni]
    if len(bi):
        r = raw[bi, ni]
        d = torch.exp(r[:, :4].clamp(-6, 6)) * strides[ni, None]
        c = centres[ni]
        pb = torch.stack([c[:, 0] - d[:, 0], c[:, 1] - d[:, 1], c[:, 0] + d[:, 2], c[:, 1] + d[:, 3]], 1)
        gb = scaled_boxes(batch["boxes"][bi, gi], box_scale)
        lg, iou = giou_loss(pb, gb)
        if iou_objectness:
            # a die cell's objectness target is how well its box fits the die (YOLOv5's choice), so a
            # box straddling two touching dice scores below the boxes on them, and NMS keeps those
            obj_t[bi, ni] = iou.detach().clamp(0, 1).to(obj_t.dtype)
        die = bi * batch["boxes"].shape[1] + gi                      # one id per labelled die in the batch
        if one_box:
            # one cell per die is taught as a die, the one whose box fits it best (YOLOv10's one-to-one
            # match); the die's other cells still learn its box and value but are taught background,
            # so touching dice leave one box each for the first pass, not a second one it must drop
            fit = iou.detach().double() - ni.double() * 1e-12            # ties go to the first cell
            obj_t[bi, ni] = obj_t[bi, ni] * (fit >= per_die(fit, die, "amax")).to(obj_t.dtype)
        if peak:
            # CenterNet's soft target: a die's cells are taught objectness by their distance from its
            # centre (a Gaussian of sd `peak` strides, the nearest cell taught 1), so boxes off the
            # centre score low and need no containment rule to be dropped
            obj_t[bi, ni] = obj_t[bi, ni] * centre_peak(batch, bi, gi, ni, centres, strides, die, peak).to(obj_t.dtype)
        if one_to_one and o2o_peak:
            # the die's cells by their distance from its centre (a Gaussian of sd `o2o_peak` strides,
            # the nearest cell 1): a target the branch can see, since the one-to-many head's four
            # distances are even at the centre cell
            o2o_t[bi, ni] = centre_peak(batch, bi, gi, ni, centres, strides, die, o2o_peak).to(o2o_t.dtype)
        elif one_to_one:
            # YOLOv10's one-to-one match, on the one-to-many head's own predictions: of a die's cells,
            # the one whose box and read are best (score^0.5 x IoU^6) is taught 1, every other cell 0
            with torch.no_grad():
                p_read = torch.sigmoid(r[:, 4]) * torch.softmax(r[:, 5:5 + NUM_CLASSES], -1).gather(1, batch["classes"][bi, gi][:, None])[:, 0]
                metric = p_read.double().sqrt() * iou.double().clamp(min=0) ** 6 - ni.double() * 1e-15  # ties go to the first cell
                best = metric >= per_die(metric, die, "amax")
            o2o_t[bi[best], ni[best]] = 1.0
    l_obj = (F.binary_cross_entropy_with_logits(raw[..., 4], obj_t, reduction="none") * obj_w).sum() / npos
    extra = {}
    if one_to_one:
        dice = len(torch.unique(bi * batch["boxes"].shape[1] + gi)) if len(bi) else 0
        l_o2o = (F.binary_cross_entropy_with_logits(raw[..., 12], o2o_t, reduction="none") * o2o_w).sum() / max(1.0, float(dice))
        extra = {"o2o": float(l_o2o)}
        if o2o_only:
            return l_o2o, {"obj": float(l_obj), **extra, "npos": int(pos.sum())}
    if len(bi) == 0:
        return l_obj + (l_o2o if one_to_one else 0.0), {"obj": float(l_obj), **extra, "cls": 0.0, "box": 0.0, "npos": 0}
    l_box = (lg * batch["weight"][bi, gi]).sum() / npos
    l_cls = F.cross_entropy(r[:, 5:5 + NUM_CLASSES], batch["classes"][bi, gi], reduction="sum", label_smoothing=0.02) / npos
    loss = l_obj + l_cls + 2.0 * l_box + (l_o2o if one_to_one else 0.0)
    return loss, {"obj": float(l_obj), **extra, "cls": float(l_cls), "box": float(l_box), "npos": int(npos)}


def build_samples(args) -> tuple[list[dict], np.ndarray, list[dict]]:
    train, weights, holdout = [], [], []
    real_w = {"byler-train": 1.0, "matteop65-train": 0.6, "epanemu-train": 1.3}
    for item in args.split_weights.split(",") if args.split_weights else []:
        split, w = item.split("=")
        if split not in real_w:
            raise SystemExit(f"--split-weights: unknown split {split!r} (one of {', '.join(real_w)})")
        real_w[split] = float(w)
    for split in ds.TRAIN_SPLITS:
        part = ds.load_split(split, "train")
        train += part
        w = np.array([args.real_weight * real_w[split] / len(part)] * len(part))
        if args.small_dice_boost != 1.0:
            # photos whose dice are small in the frame (a board game seen from across the table)
            # are where the detector still misses dice: drawn this many times more often
            small = np.array([len(s["boxes"]) > 0 and float(np.median(np.maximum(s["boxes"][:, 2] - s["boxes"][:, 0], s["boxes"][:, 3] - s["boxes"][:, 1])))
                              < SMALL_DIE * max(ds.read_size(s["file"])) for s in part])
            w = w * np.where(small, args.small_dice_boost, 1.0)
            w *= args.real_weight * real_w[split] / w.sum()
        weights += list(w)
        holdout += ds.load_split(split, "holdout")
    for folder in args.synthetic:
        syn = ds.load_synthetic(Path(folder))
        train += syn
        weights += [args.synthetic_weight / len(syn) / len(args.synthetic)] * len(syn)
    labelled = [s for folder in args.labelled for s in ds.load_labelled(Path(folder))]
    if labelled:
        train += labelled
        weights += [args.labelled_weight / len(labelled)] * len(labelled)
    return train, np.array(weights), holdout


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True, help="run folder")
    ap.add_argument("--steps", type=int, default=6000)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--crop", type=int, default=384)
    ap.add_argument("--size", type=int, default=512)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--synthetic", nargs="*", default=[])
    ap.add_argument("--synthetic-weight", type=float, default=1.0)
    ap.add_argument("--labelled", nargs="*", default=[], help="folders in labels.json format with whole-die boxes (another renderer's scenes, make-pip-eval), drawn as one more source")
    ap.add_argument("--labelled-weight", type=float, default=0.5, help="the --labelled folders' share, beside each real split's (byler 1) and the synthetic scenes' (1)")
    ap.add_argument("--real-weight", type=float, default=1.0)
    ap.add_argument("--small-dice-boost", type=float, default=1.0, help="draw photos of small dice (median side < 4.5%% of the frame) this many times more often, within their split's share")
    ap.add_argument("--split-weights", default="", help="e.g. epanemu-train=1.8: a real split's share (default byler 1, matteop65 0.6, epanemu 1.3)")
    ap.add_argument("--eval-every", type=int, default=1000)
    ap.add_argument("--focus", type=float, default=0.0, help="share of die-centric crops (small crops read many dice per step)")
    ap.add_argument("--copy-paste", type=float, default=0.0, help="share of real photos given 1-3 real dice from other train photos (copy_paste.py)")
    ap.add_argument("--copy-paste-busy", type=float, default=0.0, help="share of pasted dice put on the busiest of 16 free spots (copy_paste.py)")
    ap.add_argument("--mosaic", type=float, default=0.0, help="share of crops made as a 2 x 2 mosaic of four half-size crops (CropDataset.mosaic)")
    ap.add_argument("--upright", type=float, default=0.0, help="share of oblique photos' crops (datasets.OBLIQUE_SPLITS) that keep the photo's up (no quarter turn, roll within 10 degrees), as the die-face reader's do")
    ap.add_argument("--grey", type=float, default=0.05, help="share of crops without colour (augment.photometric), as `npm run eval -- --condition mono` reads")
    ap.add_argument("--strong-blur", type=float, default=0.0, help="share of crops blurred past the usual range, half out of focus, half by a phone still moving (augment.STRONG_DEFOCUS, STRONG_MOTION)")
    ap.add_argument("--hard-positives", type=float, default=0.0, help="a die cell's objectness loss weighs 1 + A(1-p)^2: dice scored low learnt harder")
    ap.add_argument("--iou-objectness", action="store_true", help="a die cell's objectness target is its box's IoU with the die, not 1 (boxes ranked by fit)")
    ap.add_argument("--one-box", action="store_true", help="only the cell whose box fits a die best is taught objectness; its other cells learn box and value only (one box per die)")
    ap.add_argument("--peak", type=float, default=0.0, help="a die's cells are taught objectness by a Gaussian of their distance from its centre, this sd in strides (CenterNet); 0: all 1")
    ap.add_argument("--o2o", type=int, default=0,
                    help="add a one-to-one objectness branch this wide on each level (model.OneToOneHead, YOLOv10's dual heads): "
                         "taught one box per die, it is the objectness the export reads")
    ap.add_argument("--o2o-only", action="store_true",
                    help="with --o2o and --init-onnx: train the one-to-one branch alone, the export's net frozen as it reads")
    ap.add_argument("--o2o-peak", type=float, default=0.0,
                    help="with --o2o: its target is each die's cells by distance from the die's centre, a Gaussian of this sd in strides "
                         "(the nearest cell 1); 0: the one cell whose box and read are best (YOLOv10's match)")
    ap.add_argument("--copy-paste-busy-dice", action="store_true", help="the dice put on busy spots are dice the bank found on busy surfaces (board dice; copy_paste.py BUSY_CONTEXT)")
    ap.add_argument("--copy-paste-crowd", type=float, default=0.0, help="share of real photos given a clump of 6-16 touching real dice from other train photos (copy_paste.py paste_crowd)")
    ap.add_argument("--init", default=None, help="start from this checkpoint")
    ap.add_argument("--init-onnx", default=None, help="start from this export's weights (from_onnx.py), e.g. models/dice-pips.onnx")
    ap.add_argument("--grow-from-depths", default=None,
                    help="with --init-onnx: the export's stage depths; --depths adds blocks at the ends of stages, each starting as the identity (model.grow_deeper)")
    ap.add_argument("--grow-from-widths", default=None,
                    help="with --init-onnx: the export's stage widths; --widths adds channels, the net computing what the export computes (model.grow_wider)")
    ap.add_argument("--grow-from-fpn", type=int, default=None,
                    help="with --init-onnx: the export's FPN width; a larger --fpn adds channels likewise (model.grow_wider)")
    ap.add_argument("--widths", default="16,24,48,96,160")
    ap.add_argument("--depths", default="1,2,3,3,2")
    ap.add_argument("--fpn", type=int, default=64)
    ap.add_argument("--head-depth", type=int, default=2)
    ap.add_argument("--p4", type=int, default=0, help="add a stride-4 level this wide (model.DiceDetector p4): dice under 32 px get cells of their own")
    ap.add_argument("--new-lr-mult", type=float, default=8.0, help="with --init-onnx and --p4: the new level learns at this many times --lr")
    ap.add_argument("--box-scale", type=float, default=1.0,
                    help="teach each die's box scaled about its centre by this (0.01 <= S <= 1): touching dice's boxes overlap less; "
                         "the export's sidecar gets boxScale, and the reader grows boxes back after NMS (decode.ts)")
    ap.add_argument("--device", default="cpu", help="cpu, or cuda on a lent GPU machine")
    ap.add_argument("--minutes", type=float, default=0.0,
                    help="train for this long, the schedule following the time (--steps then caps the steps); 0: --steps")
    args = ap.parse_args()
    growing = bool(args.grow_from_depths or args.grow_from_widths or args.grow_from_fpn)
    if growing and not args.init_onnx:
        ap.error("--grow-from-depths, --grow-from-widths and --grow-from-fpn grow an export: give it with --init-onnx")
    if growing and args.p4:
        ap.error("--p4 adds a level beside an export as it is: grow the export first")
    if not 0.01 <= args.box_scale <= 1.0:  # the range the app's sidecar parser accepts (config.ts)
        ap.error(f"--box-scale must be in [0.01, 1], got {args.box_scale}")
    if not 0.0 <= args.upright <= 1.0:
        ap.error(f"--upright is a share of crops, in [0, 1], got {args.upright}")
    if not 0.0 <= args.mosaic <= 1.0:
        ap.error(f"--mosaic is a share of crops, in [0, 1], got {args.mosaic}")
    if args.peak < 0:
        ap.error(f"--peak is a Gaussian's sd in strides, > 0 (0: off), got {args.peak}")
    if args.peak and args.one_box:
        ap.error("--peak and --one-box are two objectness targets: give one")
    if args.o2o < 0:
        ap.error(f"--o2o is the one-to-one branch's width, > 0 (0: none), got {args.o2o}")
    if args.o2o_only and not (args.o2o and args.init_onnx):
        ap.error("--o2o-only trains a new one-to-one branch beside an export: give --o2o W and --init-onnx")
    if args.o2o_peak < 0 or (args.o2o_peak and not args.o2o):
        ap.error(f"--o2o-peak is the one-to-one branch's Gaussian sd in strides, > 0 (0: YOLOv10's match), with --o2o; got {args.o2o_peak}")
    if args.o2o and (args.p4 or growing):
        ap.error("--o2o adds a branch beside the three levels of a net as it is: not with --p4 or growing")
    if args.crop % max(STRIDES):
        # the FPN adds each level to the next one up-sampled 2x, so every level must halve exactly
        ap.error(f"--crop must be a multiple of {max(STRIDES)} (the net's largest stride), got {args.crop}")

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    np.random.seed(args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    arch = {"widths": [int(x) for x in args.widths.split(",")], "depths": [int(x) for x in args.depths.split(",")],
            "fpn": args.fpn, "head_depth": args.head_depth, **({"p4": args.p4} if args.p4 else {}), **({"o2o": args.o2o} if args.o2o else {})}
    net = DiceDetector(tuple(arch["widths"]), tuple(arch["depths"]), arch["fpn"], 3, arch["head_depth"], args.p4, args.o2o)
    new_modules: list[torch.nn.Module] = []
    if args.init:
        init = torch.load(args.init, map_location="cpu")
        if init.get("arch", arch) == arch:
            net.load_state_dict(init["model"])
        else:
            # another shape of the same network: the tensors whose shapes agree start trained
            own = net.state_dict()
            same = {k: v for k, v in init["model"].items() if k in own and own[k].shape == v.shape}
            net.load_state_dict(same, strict=False)
            print(f"--init: arch differs, {len(same)} of {len(own)} tensors loaded", flush=True)
    elif args.init_onnx and growing:
        # the export's net, widened to this run's widths (same depths), then deepened to its depths
        src_widths = tuple(int(x) for x in args.grow_from_widths.split(",")) if args.grow_from_widths else tuple(arch["widths"])
        src_depths = tuple(int(x) for x in args.grow_from_depths.split(",")) if args.grow_from_depths else tuple(arch["depths"])
        src_fpn = args.grow_from_fpn or arch["fpn"]
        src = DiceDetector(src_widths, src_depths, src_fpn, 3, arch["head_depth"])
        load_onnx_weights(src, args.init_onnx, torch.rand(1, 3, args.size, args.size))
        wide = DiceDetector(tuple(arch["widths"]), src_depths, arch["fpn"], 3, arch["head_depth"])
        grown = grow_wider(src, wide)
        if grown:
            print(f"--grow-from-widths/--grow-from-fpn: {len(grown)} tensors widened, the added channels read by nothing yet", flush=True)
        added = grow_deeper(wide, net)
        if added:
            print(f"--grow-from-depths: blocks added as the identity: {', '.join(added)}", flush=True)
    elif args.init_onnx and (args.p4 or args.o2o):
        # the export has no stride-4 level (or one-to-one branch): its weights go into the same net
        # without one, and the new part starts from scratch beside them
        src = DiceDetector(tuple(arch["widths"]), tuple(arch["depths"]), arch["fpn"], 3, arch["head_depth"])
        load_onnx_weights(src, args.init_onnx, torch.rand(1, 3, args.size, args.size))
        missing, unexpected = net.load_state_dict(src.state_dict(), strict=False)
        new_names = ("lat4", "down8", "smooth4", "head4", "pred4") if args.p4 else ("o2o_heads",)
        if unexpected or any(not k.startswith(new_names) for k in missing):
            raise SystemExit(f"--init-onnx: the export does not fit the net outside the new part ({(unexpected + missing)[0]})")
        new_modules = [getattr(net, n) for n in new_names]
        print(f"{'--p4' if args.p4 else '--o2o'}: {', '.join(new_names)} added beside the export's weights", flush=True)
    elif args.init_onnx:
        load_onnx_weights(net, args.init_onnx, torch.rand(1, 3, args.size, args.size))
    device = torch.device(args.device)
    net = net.to(device, memory_format=torch.channels_last)  # ~1.5x faster depthwise convs on CPU
    ema = copy.deepcopy(net).eval()
    for p in ema.parameters():
        p.requires_grad_(False)
    print(f"params {count_params(net)}", flush=True)

    train, weights, holdout = build_samples(args)
    print(f"train samples {len(train)}, holdout {len(holdout)}", flush=True)
    data = CropDataset(train, args.size, args.crop, args.seed, len(train), args.focus, args.copy_paste, args.copy_paste_busy, args.copy_paste_busy_dice,
                        args.copy_paste_crowd, args.upright, args.strong_blur, args.grey, args.mosaic, weights / weights.sum())
    sampler = WeightedSampler(weights, args.steps * args.batch, args.seed)
    loader = DataLoader(data, batch_size=args.batch, sampler=sampler, collate_fn=collate, pin_memory=device.type == "cuda",
                        num_workers=args.workers, persistent_workers=args.workers > 0, prefetch_factor=4 if args.workers else None)
    if args.init_onnx:
        # BatchNorm statistics from a few training batches, so train mode starts where the export stands
        calib = DataLoader(data, batch_size=args.batch, sampler=WeightedSampler(weights, 8 * args.batch, args.seed + 1000), collate_fn=collate)
        calibrate(net, ((b["images"].to(device).float() / 255.0).contiguous(memory_format=torch.channels_last) for b in calib))
        with torch.no_grad():
            # calibrate keeps what each BatchNorm computed; a new one should normalise instead
            for bn in (m for mod in new_modules for m in mod.modules() if isinstance(m, torch.nn.BatchNorm2d)):
                bn.weight.fill_(1.0)
                bn.bias.zero_()
        ema.load_state_dict(net.state_dict())
    new_params = {id(p) for mod in new_modules for p in mod.parameters()}
    frozen: list[torch.nn.Module] = []
    if args.o2o_only:
        # the export's net reads exactly as it did (its BatchNorms kept in eval mode); only the branch learns, at --lr
        frozen = [mod for name, mod in net.named_children() if name != "o2o_heads"]
        for p in (p for mod in frozen for p in mod.parameters()):
            p.requires_grad_(False)
        new_params = set()
    opt = torch.optim.AdamW([
        {"params": [p for p in net.parameters() if id(p) not in new_params and p.requires_grad], "lr": args.lr},
        {"params": [p for p in net.parameters() if id(p) in new_params], "lr": args.lr * args.new_lr_mult},
    ], lr=args.lr, weight_decay=5e-4)
    warm = max(1, min(500, args.steps // 10))
    t0 = time.time()

    def progress(s: int) -> float:
        """Share of the schedule done: by steps, or by time with --minutes."""
        return min(1.0, max(s / args.steps, (time.time() - t0) / (60 * args.minutes) if args.minutes else 0.0))

    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min(1.0, (s + 1) / warm) * (0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * progress(s)))))
    layout = tuple(t.to(device) for t in cell_layout(args.crop, net.strides))
    log = open(out / "log.jsonl", "a")
    best = -1.0
    step = 0
    for batch in loader:
        net.train()
        for mod in frozen:
            mod.eval()
        batch = {k: v.to(device, non_blocking=True) for k, v in batch.items()}
        x = (batch["images"].float() / 255.0).contiguous(memory_format=torch.channels_last)
        loss, parts = compute_loss(net(x), batch, layout, args.crop, args.hard_positives, args.iou_objectness, args.box_scale,
                                     args.one_box, args.peak, args.o2o_only, args.o2o_peak)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), 10.0)
        opt.step()
        sched.step()
        step += 1
        decay = 0.9995 * (1 - math.exp(-step / 300))
        with torch.no_grad():
            for pe, pn in zip(ema.state_dict().values(), net.state_dict().values()):
                if pe.dtype.is_floating_point:
                    pe.mul_(decay).add_(pn.detach(), alpha=1 - decay)
                else:
                    pe.copy_(pn)
        if step % 50 == 0:
            rec = {"step": step, "loss": float(loss), **parts, "lr": sched.get_last_lr()[0], "elapsed": round(time.time() - t0, 1)}
            print(json.dumps(rec), flush=True)
            log.write(json.dumps(rec) + "\n")
            log.flush()
        done = progress(step) >= 1.0
        if step % args.eval_every == 0 or done:
            ckpt = {"model": {k: v.cpu() for k, v in ema.state_dict().items()}, "arch": arch, "size": args.size, "step": step,
                    "box_scale": args.box_scale}
            torch.save(ckpt, out / "last.pt")
            # every evaluated step is kept: the reading path (detector + die-face reader) is chosen
            # afterwards on the same held-out slice (npm run choose-die-face-rule -- --model ...)
            torch.save(ckpt, out / f"step{step:06d}.pt")
            res, _ = evaluate(DetectorWithDecode(ema, args.size), holdout, args.size, box_scale=args.box_scale)
            per_source = {}
            for src in ds.TRAIN_SPLITS:
                sub = [s for s in holdout if s["source"] == src]
                r2, _ = evaluate(DetectorWithDecode(ema, args.size), sub, args.size, thresholds=(0.4,), box_scale=args.box_scale)
                per_source[src] = {k: round(v, 3) for k, v in r2[0.4].items() if k in ("f1", "exact", "detect_recall")}
            summary = {t: {k: round(v, 4) for k, v in r.items()} for t, r in res.items()}
            score = max(r["exact"] + r["f1"] for r in res.values())
            rec = {"step": step, "holdout": summary, "per_source": per_source, "elapsed": round(time.time() - t0, 1)}
            print(json.dumps(rec), flush=True)
            log.write(json.dumps(rec) + "\n")
            log.flush()
            if score > best:
                best = score
                torch.save(ckpt, out / "best.pt")
        if done:
            break


if __name__ == "__main__":
    main()
