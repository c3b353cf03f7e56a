"""Copy-paste augmentation for the detector (Ghiasi et al., "Simple Copy-Paste", 2021): real dice
cut from the train photos and pasted into other train photos, at the size of that photo's own
dice, wherever no die lies.

Why: the dice the detector still misses are small dice lying on busy surfaces (a Catan board's
hexes, a patterned cloth), and the train photos hold few of them. Pasting real dice (not renders)
onto those surfaces shows the detector many more of them without a new photo. The labels have
no masks, so a die is cut by its whole-die box with a feathered rounded-rectangle mask: its
corners, where the box holds table rather than die, fade into the photo it lands on.

Only whole-die boxes are cut (byler, epanemu); matteop65's boxes hold only the pips. The held-out
slice is never cut (the bank is built from `load_split(split, "train")`).
"""
from __future__ import annotations

import math

import cv2
import numpy as np

BANK_SPLITS = ("byler-train", "epanemu-train")
# A die lies on a busy surface (a game board's hexes) when the mean gradient magnitude of the
# ring around it (3x its side, less the die) is above this: 317 of epanemu-train's 1,259 dice,
# among them 60 of the 63 the shipped detector scores below 0.5 (measured 2026-11-28).
BUSY_CONTEXT = 100.0
BUSY_CONTEXT_SPLITS = ("epanemu-train",)


class DiceBank:
    """Every labelled die of the whole-die train splits, cut by its box (RGB uint8) with its class."""

    def __init__(self, samples: list[dict], read_image):
        self.patches: list[np.ndarray] = []
        self.masks: list[np.ndarray] = []
        self.classes: list[int] = []
        self.on_busy: list[int] = []  # dice lying on a busy surface (BUSY_CONTEXT), by index
        for s in samples:
            if s["source"] not in BANK_SPLITS or not len(s["boxes"]):
                continue
            img = read_image(s)
            h, w = img.shape[:2]
            busyness = Busyness(img) if s["source"] in BUSY_CONTEXT_SPLITS else None
            for box, cls in zip(s["boxes"], s["classes"]):
                x1, y1, x2, y2 = (int(round(v)) for v in box)
                x1, y1, x2, y2 = max(0, x1), max(0, y1), min(w, x2), min(h, y2)
                # a die cut by the frame edge or seen from its side is not a die to paste
                if x2 - x1 < 10 or y2 - y1 < 10 or not (0.5 < (x2 - x1) / (y2 - y1) < 2.0):
                    continue
                patch = np.ascontiguousarray(img[y1:y2, x1:x2])
                if busyness is not None and busyness.around(box) > BUSY_CONTEXT:
                    self.on_busy.append(len(self.patches))
                self.patches.append(patch)
                self.masks.append(die_mask(patch))
                self.classes.append(int(cls))

    def __len__(self) -> int:
        return len(self.patches)


def die_mask(patch: np.ndarray) -> np.ndarray:
    """Where in its box the die lies (float32 0..1): GrabCut seeded with the box's middle as die
    and its corners as table, holes filled (pips are die), within the rounded rectangle. Where
    GrabCut keeps too little or nearly all of the box (a white die on a white table), the rounded
    rectangle alone."""
    h, w = patch.shape[:2]
    rounded = _rounded(h, w)
    yy, xx = np.mgrid[0:h, 0:w]
    u, v = np.abs((xx + 0.5) / w - 0.5) * 2, np.abs((yy + 0.5) / h - 0.5) * 2
    r = (u ** 4 + v ** 4) ** 0.25
    seed = np.full((h, w), cv2.GC_PR_FGD, np.uint8)
    seed[r > 0.85] = cv2.GC_PR_BGD
    seed[(u > 0.92) & (v > 0.92)] = cv2.GC_BGD
    seed[r < 0.45] = cv2.GC_FGD
    try:
        cv2.grabCut(np.ascontiguousarray(patch[..., ::-1]), seed, None, np.zeros((1, 65)), np.zeros((1, 65)), 3,
                    cv2.GC_INIT_WITH_MASK)
    except cv2.error:
        return rounded
    fg = ((seed == cv2.GC_FGD) | (seed == cv2.GC_PR_FGD)).astype(np.uint8)
    # fill holes: what the border cannot reach through the table is die
    outside = np.pad(1 - fg, 1, constant_values=1)
    flood = np.zeros((h + 4, w + 4), np.uint8)
    cv2.floodFill(outside, flood, (0, 0), 2)
    fg = (outside[1:-1, 1:-1] != 2).astype(np.float32)
    share = fg.mean()
    if not 0.55 < share < 0.97:
        return rounded
    return cv2.GaussianBlur(fg, (0, 0), max(0.6, 0.03 * min(h, w))) * rounded


def _rounded(h: int, w: int) -> np.ndarray:
    """A rounded rectangle, feathered: 1 on the die, fading to 0 at the box's corners."""
    scale = 4  # drawn larger, then shrunk, for a smooth edge
    H, W = h * scale, w * scale
    r = int(0.38 * min(H, W))
    m = np.zeros((H, W), np.float32)
    cv2.rectangle(m, (r, 0), (W - 1 - r, H - 1), 1.0, -1)
    cv2.rectangle(m, (0, r), (W - 1, H - 1 - r), 1.0, -1)
    for cx, cy in ((r, r), (W - 1 - r, r), (r, H - 1 - r), (W - 1 - r, H - 1 - r)):
        cv2.circle(m, (cx, cy), r, 1.0, -1)
    m = cv2.resize(m, (w, h), interpolation=cv2.INTER_AREA)
    sigma = max(0.7, 0.07 * min(h, w))
    return cv2.GaussianBlur(m, (0, 0), sigma) * m  # fades inside the outline, not beyond it


def _specks(img: np.ndarray) -> tuple[float, float]:
    """The shares of dark and bright single-pixel specks in a photo (most of epanemu's carry them,
    and a pasted die without them would stand out by that alone)."""
    g = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)
    d = g.astype(np.int16) - cv2.medianBlur(g, 3).astype(np.int16)
    return float((d < -60).mean()), float((d > 60).mean())


def _overlaps(box: np.ndarray, others: np.ndarray, pad: float) -> bool:
    if not len(others):
        return False
    x1, y1, x2, y2 = box
    o = others
    return bool(np.any((o[:, 0] < x2 + pad) & (o[:, 2] > x1 - pad) & (o[:, 1] < y2 + pad) & (o[:, 3] > y1 - pad)))


class Busyness:
    """How busy (textured) each part of a photo is: the mean gradient magnitude over any box, from an
    integral image of a copy at most 256 px on its long side."""

    def __init__(self, img: np.ndarray):
        h, w = img.shape[:2]
        self.f = min(1.0, 256 / max(h, w))
        g = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY)
        if self.f < 1:
            g = cv2.resize(g, (max(1, round(w * self.f)), max(1, round(h * self.f))), interpolation=cv2.INTER_AREA)
        g = g.astype(np.float32)
        mag = np.abs(cv2.Sobel(g, cv2.CV_32F, 1, 0)) + np.abs(cv2.Sobel(g, cv2.CV_32F, 0, 1))
        self.sums = cv2.integral(mag)

    def of(self, box: np.ndarray) -> float:
        H, W = self.sums.shape[0] - 1, self.sums.shape[1] - 1
        x1, y1, x2, y2 = (int(round(v * self.f)) for v in box)
        x1, x2 = min(max(x1, 0), W - 1), min(max(x2, x1 + 1), W)
        y1, y2 = min(max(y1, 0), H - 1), min(max(y2, y1 + 1), H)
        s = self.sums
        return float(s[y2, x2] - s[y1, x2] - s[y2, x1] + s[y1, x1]) / ((x2 - x1) * (y2 - y1))

    def around(self, box: np.ndarray) -> float:
        """The busyness of the ring around a box: the square of 3x its longer side, less the box.
        Approximate (the box taken as a ninth of the square; exact for a square box whose square
        lies inside the photo), which is all BUSY_CONTEXT needs: it was measured with this."""
        x1, y1, x2, y2 = box
        cx, cy, side = (x1 + x2) / 2, (y1 + y2) / 2, max(x2 - x1, y2 - y1)
        ring = np.array([cx - 1.5 * side, cy - 1.5 * side, cx + 1.5 * side, cy + 1.5 * side])
        return (self.of(ring) * 9 - self.of(box)) / 8


def paste_dice(rng: np.random.Generator, sample: dict, img: np.ndarray, bank: DiceBank, most: int = 3,
               busy: float = 0.0, busy_dice: bool = False) -> tuple[dict, np.ndarray]:
    """1..most dice from the bank pasted into a copy of img; returns the sample with their boxes
    added, and the new image. The sample and img given are not changed. With probability `busy`
    a die goes to the busiest of 16 free spots (a board's hexes, a printed cloth: where the
    detector misses dice) rather than the first free one; with `busy_dice`, that die is one the
    bank found lying on a busy surface (small, often translucent dice of a board game), so the
    detector sees board dice on other boards rather than tray dice on boards."""
    h, w = img.shape[:2]
    busyness = Busyness(img) if busy > 0 else None
    boxes = sample["boxes"]
    if len(boxes):
        sides = np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
        base = float(np.median(sides))
    else:
        base = max(h, w) * math.exp(rng.uniform(math.log(0.02), math.log(0.07)))
    out = img.copy()
    taken = np.concatenate([boxes, sample["ignore"]], 0) if len(sample["ignore"]) else boxes.copy()
    new_boxes, new_classes = [], []
    dark, bright = _specks(img)
    for _ in range(int(rng.integers(1, most + 1))):
        to_busy = busyness is not None and rng.random() < busy
        k = int(rng.choice(bank.on_busy)) if to_busy and busy_dice and bank.on_busy else int(rng.integers(len(bank)))
        patch, mask = _turned(rng, bank, k)
        side = base * math.exp(rng.uniform(math.log(0.65), math.log(1.25)))
        ph, pw = patch.shape[:2]
        f = side / max(ph, pw)
        nw, nh = max(8, round(pw * f)), max(8, round(ph * f))
        if nw >= w - 2 or nh >= h - 2:
            continue
        if to_busy:
            spots = [np.array([x, y, x + nw, y + nh], np.float32)
                     for x, y in zip(rng.integers(0, w - nw, 16), rng.integers(0, h - nh, 16))]
            spots = [b for b in spots if not _overlaps(b, taken, 0.15 * side)]
            if not spots:
                continue
            box = max(spots, key=busyness.of)
            x, y = int(box[0]), int(box[1])
        else:
            for _try in range(12):
                x = int(rng.integers(0, w - nw))
                y = int(rng.integers(0, h - nh))
                box = np.array([x, y, x + nw, y + nh], np.float32)
                if not _overlaps(box, taken, 0.15 * side):
                    break
            else:
                continue
        _blend(rng, out, patch, mask, x, y, nw, nh, f < 1, dark, bright)
        taken = np.concatenate([taken, box[None]], 0)
        new_boxes.append(box)
        new_classes.append(bank.classes[k])
    return _with_dice(sample, img, out, new_boxes, new_classes)


def _turned(rng: np.random.Generator, bank: DiceBank, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Bank die k and its mask, turned a random quarter turn and perhaps mirrored (a die's value
    does not turn with it)."""
    patch, mask = bank.patches[k], bank.masks[k]
    turn = int(rng.integers(4))
    patch, mask = np.rot90(patch, turn), np.rot90(mask, turn)
    if rng.random() < 0.5:
        patch, mask = patch[:, ::-1], mask[:, ::-1]
    return patch, mask


def _blend(rng: np.random.Generator, out: np.ndarray, patch: np.ndarray, mask: np.ndarray, x: int, y: int, nw: int,
           nh: int, shrink: bool, dark: float, bright: float) -> None:
    """A bank die resized to nw x nh (shrunk or grown) and blended into out at (x, y), in place."""
    interp = cv2.INTER_AREA if shrink else cv2.INTER_LINEAR
    small = cv2.resize(np.ascontiguousarray(patch), (nw, nh), interpolation=interp)
    region = out[y:y + nh, x:x + nw].astype(np.float32)
    # light the die like the photo around it, a little (the two photos' lights differ)
    gain = float(np.clip((region.mean() + 1) / (small.mean() + 1), 0.5, 2.0)) ** 0.3
    die = np.clip(small.astype(np.float32) * gain, 0, 255)
    a = cv2.resize(np.ascontiguousarray(mask), (nw, nh), interpolation=interp)[..., None]
    blended = (a * die + (1 - a) * region).astype(np.uint8)
    if dark + bright > 0.001:
        u = rng.random((nh, nw))
        blended[u < dark] = rng.integers(0, 40)
        blended[(u >= dark) & (u < dark + bright)] = rng.integers(215, 256)
    out[y:y + nh, x:x + nw] = blended


def _with_dice(sample: dict, img: np.ndarray, out: np.ndarray, new_boxes: list, new_classes: list) -> tuple[dict, np.ndarray]:
    """The sample with the pasted dice's boxes added (or the sample and image as given, when none was)."""
    if not new_boxes:
        return sample, img
    pasted = dict(sample)
    pasted["boxes"] = np.concatenate([sample["boxes"], np.stack(new_boxes)], 0).astype(np.float32)
    pasted["classes"] = np.concatenate([sample["classes"], np.array(new_classes, np.int64)])
    pasted["box_weight"] = np.concatenate([sample["box_weight"], np.ones(len(new_boxes), np.float32)])
    return pasted, out


def paste_crowd(rng: np.random.Generator, sample: dict, img: np.ndarray, bank: DiceBank, fewest: int = 6,
                most: int = 16) -> tuple[dict, np.ndarray]:
    """A crowd of fewest..most bank dice pasted into a copy of img as one clump: each die laid
    against one already down, centres 0.75-1.1 sides apart, so they touch and a few overlap, the
    later over the earlier, as a handful of dice lands (epanemu-train's 47 crowd photos: a die's
    nearest neighbour lies 0.68 / 1.1 / 1.7 sides away at the 10th, 50th and 90th percentiles).
    Why: the dice the detector misses most are in such crowds, where it puts a box between two
    touching dice; the train photos hold 47 crowds. Returns the sample with the dice's boxes
    added, and the new image; the sample and img given are not changed."""
    h, w = img.shape[:2]
    boxes = sample["boxes"]
    if len(boxes):
        sides = np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
        base = float(np.median(sides)) * math.exp(rng.uniform(math.log(0.7), math.log(1.1)))
    else:
        base = max(h, w) * math.exp(rng.uniform(math.log(0.04), math.log(0.15)))
    if base < 10 or base * 4 > min(h, w):
        return sample, img
    out = img.copy()
    taken = np.concatenate([boxes, sample["ignore"]], 0) if len(sample["ignore"]) else boxes.copy()
    dark, bright = _specks(img)
    centres: list[tuple[float, float]] = []
    new_boxes, new_classes = [], []
    for _ in range(int(rng.integers(fewest, most + 1))):
        k = int(rng.integers(len(bank)))
        patch, mask = _turned(rng, bank, k)
        side = base * math.exp(rng.uniform(math.log(0.85), math.log(1.15)))
        ph, pw = patch.shape[:2]
        nw, nh = max(8, round(pw * side / max(ph, pw))), max(8, round(ph * side / max(ph, pw)))
        for _try in range(20):
            if centres:
                ax, ay = centres[int(rng.integers(len(centres)))]
                angle, gap = rng.uniform(0, 2 * math.pi), side * rng.uniform(0.75, 1.1)
                cx, cy = ax + gap * math.cos(angle), ay + gap * math.sin(angle)
            else:
                cx, cy = rng.uniform(nw / 2, w - nw / 2), rng.uniform(nh / 2, h - nh / 2)
            x, y = int(round(cx - nw / 2)), int(round(cy - nh / 2))
            if x < 0 or y < 0 or x + nw > w or y + nh > h:
                continue
            # no die laid mostly over another, nor on the photo's own dice
            if any(math.hypot(cx - px, cy - py) < 0.72 * side for px, py in centres):
                continue
            box = np.array([x, y, x + nw, y + nh], np.float32)
            if _overlaps(box, taken, 0.1 * side):
                continue
            break
        else:
            continue
        _blend(rng, out, patch, mask, x, y, nw, nh, side < max(ph, pw), dark, bright)
        centres.append((cx, cy))
        new_boxes.append(box)
        new_classes.append(bank.classes[k])
    return _with_dice(sample, img, out, new_boxes, new_classes)
