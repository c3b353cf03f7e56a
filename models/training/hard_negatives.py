"""The detector's own boxes on the train photos, for the die-face reader's training: hard negatives,
boxes it finds where no die is labelled (tray dimples, pip-like specks, shadows, board pieces),
and its boxes on the labelled dice, so the reader learns the crops it will be given (`mine_reads`).

Behind the reader the detector only has to find dice (die-face-reader.ts `firstPass`), so the
lower its score threshold the more real dice it finds, but the more of these boxes the reader
must call `none`. Table patches chosen by blob filters (die_face_data._blob_points) are not the
boxes the detector actually makes; these are.

    /usr/bin/python3 models/training/hard_negatives.py --checkpoint runs/.../last.pt --show /tmp/hard.png
    /usr/bin/python3 models/training/hard_negatives.py --checkpoint models/dice-pips.onnx   # the shipped detector

Mined once per detector checkpoint and part (train / holdout) and cached in
models/training/cache/hard-negatives/.

`mine_reads` reads each photo as the app does (its own aspect ratio, padded to the sidecar's
`inputStride`) and keeps, per labelled die, the candidate box that overlaps it most (IoU >= 0.3).
"""
from __future__ import annotations

import argparse
import hashlib
import json
from pathlib import Path

import cv2
import numpy as np
import torch
import torchvision

from datasets import LABEL_FIXES, OBLIQUE_SPLITS, TRAIN_SPLITS, data_root, load_split, read_rgb
from evaluate import _iou, letterbox, scaled_boxes
from export_model import load_checkpoint
from from_onnx import load_onnx_weights
from model import DetectorWithDecode, DiceDetector

HERE = Path(__file__).resolve().parent
CACHE = HERE / "cache" / "hard-negatives"
MIN_OBJECTNESS = 0.1
# above this the detector is nearly always right and the "negative" is a die the labels missed
MAX_OBJECTNESS = 0.9
# the app's first pass drops a box mostly inside a better one (die-face.json firstPass.containment)
CONTAINMENT = 0.4


def _cached(cache: Path) -> dict:
    """A cache read back with its photos under this machine's data root (load_split's paths): a
    cache mined here still serves where the photos lie elsewhere (a lent GPU machine's .gpu/data)."""
    root = data_root() / "dice-photos"
    return {str(root / k.split("/dice-photos/", 1)[-1]): v for k, v in json.loads(cache.read_text()).items()}


@torch.no_grad()
def _candidates(wrapper: DetectorWithDecode, img: np.ndarray, size: int, stride: int = 0, box_scale: float = 1.0) -> np.ndarray:
    """The first pass's boxes (x1 y1 x2 y2, objectness), by objectness as the app scores them
    (grown back by 1 / box_scale after containment, as decode.ts does for a net taught smaller boxes)."""
    lb, scale, dx, dy = letterbox(img, size, stride)
    det = wrapper(torch.from_numpy(lb).permute(2, 0, 1)[None].float() / 255.0)[0]
    obj = det[:, 4]
    keep = obj >= MIN_OBJECTNESS
    d, obj = det[keep], obj[keep]
    boxes = torch.stack([d[:, 0] - d[:, 2] / 2, d[:, 1] - d[:, 3] / 2, d[:, 0] + d[:, 2] / 2, d[:, 1] + d[:, 3] / 2], 1)
    k = torchvision.ops.nms(boxes, obj, 0.45)
    boxes, obj = boxes[k].numpy(), obj[k].numpy()
    boxes[:, [0, 2]] = (boxes[:, [0, 2]] - dx) / scale
    boxes[:, [1, 3]] = (boxes[:, [1, 3]] - dy) / scale
    kept: list[int] = []
    for i, b in enumerate(boxes):
        area = max((b[2] - b[0]) * (b[3] - b[1]), 1e-6)
        inside = max((_overlap(b, boxes[j]) / area for j in kept), default=0.0)
        if inside <= CONTAINMENT:
            kept.append(i)
    boxes = scaled_boxes(torch.from_numpy(boxes[kept]), 1.0 / box_scale).numpy()
    return np.concatenate([boxes, obj[kept, None]], 1)


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def is_clear_of_dice(box: np.ndarray, dice: np.ndarray) -> bool:
    """No labelled die's centre in the box, the box's centre in no die, and little overlap with any:
    a box that could be a loose detection of a real die is never taught as `none`."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    for d in dice:
        dcx, dcy = (d[0] + d[2]) / 2, (d[1] + d[3]) / 2
        if box[0] <= dcx <= box[2] and box[1] <= dcy <= box[3]:
            return False
        if d[0] <= cx <= d[2] and d[1] <= cy <= d[3]:
            return False
        if _iou(box, d) > 0.1:
            return False
    return True


# a box is centred on a die when its centre lies within this share of the die's width and height
# of the die's centre; the reader's training moves a die's box this far in fewer than one crop in 200
# (die_face_data.warp_crop), so an off-centre box taught as `none` contradicts few die crops
CENTRED = 0.35
# in a photo taken from the side a die's top face lies in the upper part of its box: a box up to
# this share of the die's height above its centre may be centred on the top face
CENTRED_ABOVE_OBLIQUE = 0.65
# a box lies on a die when it covers this share of the die
ON_DIE = 0.15


def is_off_centre(box: np.ndarray, dice: np.ndarray, ignore: np.ndarray, oblique: bool = False) -> bool:
    """Half on a labelled die but centred on none: the detector's second box on a die, or a box
    between touching dice (models/record/standard-dice.md "A stride-4 level for small touching dice"). A die
    read from such a box is either a die read twice or a neighbour read in its place, so the reader
    should call it `none`. Boxes touching an ignored region are left out (what lies there is unknown).
    `oblique`: a photo taken from the side, where a box above a die's centre may hold its top face."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    above = CENTRED_ABOVE_OBLIQUE if oblique else CENTRED
    on_die = False
    for d in dice:
        w, h = max(d[2] - d[0], 1e-6), max(d[3] - d[1], 1e-6)
        dy = cy - (d[1] + d[3]) / 2
        if abs(cx - (d[0] + d[2]) / 2) < CENTRED * w and -above * h < dy < CENTRED * h:
            return False
        on_die = on_die or _overlap(box, d) >= ON_DIE * w * h
    return on_die and all(_overlap(box, g) <= 0 for g in ignore)


# The architectures a detector export may have: the small net (model.py's default) and the deeper
# net of dice-symbols.onnx and, since 2026-11-27, dice-pips.onnx (pipeline.py SYMBOL_DETECTOR).
EXPORT_ARCHITECTURES = ({}, {"widths": (16, 24, 48, 128, 192), "depths": (1, 2, 3, 5, 3)})


def load_detector(checkpoint: Path) -> tuple[DiceDetector, int, float]:
    """A training checkpoint (.pt), or a shipped export (.onnx, one of EXPORT_ARCHITECTURES, its
    sidecar's input size), since a fresh checkout has only the exports; with the box scale it was
    taught (train.py --box-scale)."""
    if checkpoint.suffix == ".onnx":
        sidecar = json.loads(checkpoint.with_suffix(".json").read_text())
        size = int(sidecar["inputSize"])
        errors = []
        for arch in EXPORT_ARCHITECTURES:
            net = DiceDetector(**arch)
            try:
                load_onnx_weights(net, str(checkpoint), torch.rand(1, 3, size, size))
            except (ValueError, RuntimeError) as e:  # another architecture's graph
                errors.append(str(e))
                continue
            return net.eval(), size, float(sidecar.get("boxScale", 1.0))
        raise ValueError(f"{checkpoint}: not one of the detector architectures hard_negatives.py knows: {'; '.join(errors)}")
    net, ck = load_checkpoint(checkpoint)
    return net, int(ck["size"]), float(ck.get("box_scale", 1.0))


def mine(checkpoint: Path, part: str, splits=TRAIN_SPLITS, log=print, off_centre=False) -> dict[str, list[list[float]]]:
    """{photo path: [[x, y, w, h, objectness], ...]} for every photo of `part`: the detector's
    boxes clear of every die (is_clear_of_dice), or with `off_centre` its boxes half on a die
    (is_off_centre); cached per checkpoint."""
    digest = hashlib.sha1(checkpoint.read_bytes()).hexdigest()[:12]
    fixes = hashlib.sha1(LABEL_FIXES.read_bytes()).hexdigest()[:8]  # the labels the negatives avoid
    kind = f"-off-centre-{CENTRED}-{CENTRED_ABOVE_OBLIQUE}-{ON_DIE}" if off_centre else ""
    cache = CACHE / f"{digest}-{fixes}-{part}{kind}-{MIN_OBJECTNESS}-{MAX_OBJECTNESS}.json"
    if cache.exists():
        return _cached(cache)
    net, size, box_scale = load_detector(checkpoint)
    wrapper = DetectorWithDecode(net, size).eval()
    out: dict[str, list[list[float]]] = {}
    found = 0
    for split in splits:
        for s in load_split(split, part):
            if off_centre:
                dice = np.concatenate([s["boxes"], s["label_boxes"]], 0)
                keep = lambda b: is_off_centre(b, dice, s["ignore"], split in OBLIQUE_SPLITS)  # noqa: E731
            else:
                dice = np.concatenate([s["boxes"], s["label_boxes"], s["ignore"]], 0)  # an ignored region is no negative
                keep = lambda b: is_clear_of_dice(b, dice)  # noqa: E731
            negs = [b for b in _candidates(wrapper, read_rgb(s["file"]), size, box_scale=box_scale) if b[4] <= MAX_OBJECTNESS and keep(b)]
            out[s["file"]] = [[float(b[0]), float(b[1]), float(b[2] - b[0]), float(b[3] - b[1]), float(b[4])] for b in negs]
            found += len(negs)
    CACHE.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps(out))
    if log:
        what = "off-centre boxes" if off_centre else "hard negatives"
        log(f"{what} ({part}): {found} boxes in {len(out)} photos, detector {checkpoint.name} ({digest})")
    return out


# a candidate is the detector's read of a labelled die when they overlap this much
READ_IOU = 0.3


def mine_reads(checkpoint: Path, part: str, splits=TRAIN_SPLITS, log=print) -> dict[str, list[list[float] | None]]:
    """{photo path: per labelled die (load_split's `boxes` order), the detector's box x, y, w, h on
    it, or None where it finds none}; cached per checkpoint."""
    digest = hashlib.sha1(checkpoint.read_bytes()).hexdigest()[:12]
    fixes = hashlib.sha1(LABEL_FIXES.read_bytes()).hexdigest()[:8]
    cache = CACHE / f"{digest}-{fixes}-{part}-reads-{MIN_OBJECTNESS}-{READ_IOU}.json"
    if cache.exists():
        return _cached(cache)
    net, size, box_scale = load_detector(checkpoint)
    stride = int(json.loads(checkpoint.with_suffix(".json").read_text()).get("inputStride", 0)) if checkpoint.suffix == ".onnx" else 32
    wrapper = DetectorWithDecode(net, size).eval()
    out: dict[str, list[list[float] | None]] = {}
    found = total = 0
    for split in splits:
        for s in load_split(split, part):
            cands = _candidates(wrapper, read_rgb(s["file"]), size, stride, box_scale)
            reads: list[list[float] | None] = []
            for d in s["boxes"]:
                ious = [_iou(c[:4], d) for c in cands]
                k = int(np.argmax(ious)) if ious else -1
                if k >= 0 and ious[k] >= READ_IOU:
                    c = cands[k]
                    reads.append([float(c[0]), float(c[1]), float(c[2] - c[0]), float(c[3] - c[1])])
                    found += 1
                else:
                    reads.append(None)
                total += 1
            out[s["file"]] = reads
    CACHE.mkdir(parents=True, exist_ok=True)
    cache.write_text(json.dumps(out))
    if log:
        log(f"detector reads ({part}): {found} of {total} labelled dice boxed, detector {checkpoint.name} ({digest})")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--checkpoint", required=True, type=Path)
    ap.add_argument("--part", default="train")
    ap.add_argument("--off-centre", action="store_true", help="the boxes half on a die and centred on none (is_off_centre)")
    ap.add_argument("--show", help="write a sheet of the mined boxes (most confident first) to this PNG")
    a = ap.parse_args()
    negs = mine(a.checkpoint, a.part, off_centre=a.off_centre)
    by_split: dict[str, int] = {}
    for f, boxes in negs.items():
        split = Path(f).parent.name
        by_split[split] = by_split.get(split, 0) + len(boxes)
    print(json.dumps(by_split))
    if a.show:
        rows = sorted(((b[4], f, b) for f, bs in negs.items() for b in bs), reverse=True)[:96]
        tiles = []
        for score, f, (x, y, w, h, _) in rows:
            img = read_rgb(f)
            side = max(w, h) * 1.6
            cx, cy = x + w / 2, y + h / 2
            x0, y0 = int(max(0, cx - side / 2)), int(max(0, cy - side / 2))
            crop = img[y0:int(cy + side / 2), x0:int(cx + side / 2)]
            tile = cv2.resize(crop, (96, 96)) if crop.size else np.zeros((96, 96, 3), np.uint8)
            cv2.putText(tile, f"{score:.2f}", (2, 12), 0, 0.4, (255, 0, 0), 1)
            tiles.append(tile)
        while len(tiles) % 12:
            tiles.append(np.zeros((96, 96, 3), np.uint8))
        sheet = np.vstack([np.hstack(tiles[i:i + 12]) for i in range(0, len(tiles), 12)])
        cv2.imwrite(a.show, sheet[..., ::-1])


if __name__ == "__main__":
    main()
