"""Loading the real labelled photographs (train splits only) and the synthetic cache.

Every sample is a dict: image (H, W, 3 uint8 RGB), boxes [K, 4] float32 x1 y1 x2 y2 in image
pixels, classes [K] int64 (0..5 = values 1..6, 6 = other), box_weight [K] float32 (how much
the box regression should trust the box: 1 for whole-die boxes, low for boxes estimated from
matteop65's pip-pattern boxes), ignore [M, 4] float32 regions where nothing is penalised.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[2]
TRAIN_SPLITS = ("byler-train", "matteop65-train", "epanemu-train")
# photos taken from the side: the table's up is the frame's up, and a die's top face lies in the upper part of its box
OBLIQUE_SPLITS = frozenset({"epanemu-train"})
VAL_SPLITS = ("byler-val", "matteop65-val", "epanemu-val")
CACHE = Path(__file__).resolve().parent / "cache"
LABEL_FIXES = Path(__file__).resolve().parent / "label-fixes.json"

# matteop65 boxes enclose only the pip pattern. A 4, 5 or 6 pattern spans about 60% of the
# die's top face, and the die as seen (side faces included) is about 1.65x that.
PIP_TO_DIE = 1.65
OTHER = 6  # class of a die that is not a pip die
ESTIMATED_BOX_WEIGHT = 0.2


def data_root() -> Path:
    """The labelled photographs' folder; exits saying what is missing (the folder, or any split
    training or its card reads), before minutes of rendering would end in a traceback."""
    root = Path(os.environ.get("ROLLCALL_DATA", REPO.parent / "shared" / "data"))
    if not (root / "dice-photos").is_dir():
        sys.exit(
            f"error: the labelled dice photographs were not found at {root}/dice-photos.\n"
            "Training needs ../shared/data (relative to the repo root) or ROLLCALL_DATA=/path/to/data."
        )
    missing = [s for s in (*TRAIN_SPLITS, *VAL_SPLITS) if not (root / "dice-photos" / s / "labels.json").is_file()]
    if missing:
        sys.exit(
            f"error: {root}/dice-photos lacks {', '.join(missing)} (each a folder with a labels.json).\n"
            "Training needs every train split, and the card every val split: see ../shared/data/README.md."
        )
    return root


def is_holdout(split: str, file: str, fraction: float = 0.15) -> bool:
    """A fixed, hash-based slice of every train split kept out of training for model selection."""
    h = int(hashlib.sha1(f"{split}/{file}".encode()).hexdigest()[:8], 16)
    return (h % 1000) < fraction * 1000


def read_rgb(path: Path) -> np.ndarray:
    """A photo as RGB in its stored pixels, without the salt-and-pepper specks of an export that
    added them (`remove_specks`), as the measuring tools read it (scripts/lib/datasets.ts `readDatasetPhoto`)."""
    # the pixels as stored, EXIF orientation not applied: the labels' boxes are in them (as
    # scripts/lib/datasets.ts `readDatasetPhoto` reads them)
    im = cv2.imread(str(path), cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
    if im is None:
        raise ValueError(f"unreadable image {path}")
    return remove_specks(cv2.cvtColor(im, cv2.COLOR_BGR2RGB))


# Most epanemu-train photos carry single pixels set near white or black (256 of 302, 0.05-1.8% of
# their pixels: an augmentation of the dataset's export); no val photo (at most 0.017%) and no camera
# frame does. scripts/lib/specks.ts holds the same rule: a speck stands SPECK_STEP in luma above or
# below all 8 neighbours, and a photo with SPECKLED_SHARE of its pixels such gets them replaced.
SPECK_STEP = 40
SPECKLED_SHARE = 0.0005


def speck_mask(rgb: np.ndarray) -> np.ndarray:
    """[H-2, W-2] bool over the pixels off the border: the specks."""
    c = rgb.astype(np.int32)
    g = (c[..., 0] * 4899 + c[..., 1] * 9617 + c[..., 2] * 1868 + 8192) >> 14  # OpenCV's RGB->grey
    h, w = g.shape
    centre = g[1:-1, 1:-1]
    around = [g[1 + dy:h - 1 + dy, 1 + dx:w - 1 + dx] for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dy or dx]
    return (centre > np.maximum.reduce(around) + SPECK_STEP) | (centre < np.minimum.reduce(around) - SPECK_STEP)


def remove_specks(rgb: np.ndarray) -> np.ndarray:
    """The photo with each speck's channels set to the median of its 3x3 neighbourhood when it
    carries specks; the photo itself when it does not."""
    mask = speck_mask(rgb)
    if mask.sum() < SPECKLED_SHARE * rgb.shape[0] * rgb.shape[1]:
        return rgb
    h, w = rgb.shape[:2]
    stack = np.stack([rgb[1 + dy:h - 1 + dy, 1 + dx:w - 1 + dx] for dy in (-1, 0, 1) for dx in (-1, 0, 1)])
    out = rgb.copy()
    out[1:-1, 1:-1][mask] = np.sort(stack[:, mask], axis=0)[4]
    return out


def read_size(path: str | Path) -> tuple[int, int]:
    """(width, height) of an image file, from its header."""
    from PIL import Image
    with Image.open(path) as im:
        return im.size


def _estimate_die_boxes(dice: list[dict], split_median: float) -> np.ndarray:
    """Whole-die boxes centred on matteop65's pip-pattern boxes, sized from the image's 4/5/6 faces."""
    sizes = [max(d["w"], d["h"]) for d in dice if (d["value"] or 0) >= 4]
    side = PIP_TO_DIE * (float(np.mean(sizes)) if sizes else split_median)
    out = []
    for d in dice:
        cx, cy = d["x"] + d["w"] / 2, d["y"] + d["h"] / 2
        out.append([cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2])
    return np.array(out, np.float32).reshape(-1, 4)


def label_fixes(split: str) -> dict[str, list[dict]]:
    """The reviewed corrections of a train split's labels (label-fixes.json), by file."""
    if not split.endswith("-train"):
        raise ValueError(f"label fixes are for the train splits only, not {split}")
    out: dict[str, list[dict]] = {}
    for fix in json.loads(LABEL_FIXES.read_text())["fixes"]:
        if fix["split"] == split:
            out.setdefault(fix["file"], []).append(fix)
    return out


def apply_label_fixes(split: str, image: dict, fixes: list[dict]) -> tuple[list[dict], list[dict]]:
    """An image's labelled dice with its fixes applied (value None: a die that is not a pip die),
    and its ignore regions. A fix that no longer fits the labels is an error, not skipped."""
    dice = [dict(d) for d in image["dice"]]
    ignore = []
    for fix in fixes:
        where = f"label-fixes.json: {split}/{image['file']}"
        if "die" in fix:
            j = fix["die"]
            if not 0 <= j < len(dice) or any(abs(dice[j][k] - fix["box"][k]) > 0.1 for k in "xywh") or dice[j]["value"] != fix["was"]:
                raise ValueError(f"{where}: die {j} is not the labelled die {fix['box']} valued {fix['was']}")
            dice[j]["value"] = fix["value"]
        elif "add" in fix:
            dice.append({**fix["add"], "value": fix["value"]})
        elif "ignore" in fix:
            ignore.append(fix["ignore"])
        else:
            raise ValueError(f"{where}: a fix is one of die, add or ignore")
    return dice, ignore


def load_split(split: str, part: str = "train") -> list[dict]:
    """part: 'train' (the split minus the holdout), 'holdout', or 'all'. The labels come with
    label-fixes.json applied."""
    folder = data_root() / "dice-photos" / split
    labels = json.loads((folder / "labels.json").read_text())
    fixes = label_fixes(split)
    if set(fixes) - {im["file"] for im in labels["images"]}:
        raise ValueError(f"label-fixes.json names photos {split} does not have: {sorted(set(fixes) - {im['file'] for im in labels['images']})}")
    pips = labels["box_style"] == "pips"
    if pips:
        # a 4, 5 or 6's pips span most of the die, so their boxes size the dice of the split
        spans = [max(d["w"], d["h"]) for im in labels["images"] for d in im["dice"] if d["value"] >= 4]
        if not spans:
            raise ValueError(f"{split}: its boxes hold the pips only, and no die of 4 or more sizes the dice")
        med = float(np.median(spans))
    samples = []
    for im in labels["images"]:
        hold = is_holdout(split, im["file"])
        if (part == "train" and hold) or (part == "holdout" and not hold):
            continue
        dice, ignore = apply_label_fixes(split, im, fixes.get(im["file"], []))
        if pips:
            boxes = _estimate_die_boxes(dice, med)
            weight = np.full(len(dice), ESTIMATED_BOX_WEIGHT, np.float32)
        else:
            boxes = np.array([[d["x"], d["y"], d["x"] + d["w"], d["y"] + d["h"]] for d in dice], np.float32).reshape(-1, 4)
            weight = np.ones(len(dice), np.float32)
        samples.append({
            "source": split,
            "file": str(folder / im["file"]),
            "boxes": boxes,
            "label_boxes": np.array([[d["x"], d["y"], d["x"] + d["w"], d["y"] + d["h"]] for d in dice], np.float32).reshape(-1, 4),
            "classes": np.array([OTHER if d["value"] is None else d["value"] - 1 for d in dice], np.int64),
            "box_weight": weight,
            "ignore": np.array([[b["x"], b["y"], b["x"] + b["w"], b["y"] + b["h"]] for b in ignore], np.float32).reshape(-1, 4),
        })
    return samples


def cache_records(folder: Path) -> list[dict]:
    """The records of a render cache (render_cache.py: index-*.jsonl, one JSON object a scene), by id."""
    items = []
    for index in sorted(Path(folder).glob("index-*.jsonl")):
        items += [json.loads(line) for line in index.read_text().splitlines() if line.strip()]
    return sorted(items, key=lambda it: it["id"])


def load_labelled(folder: Path) -> list[dict]:
    """A folder in the shared data's labels.json format with whole-die boxes (e.g. the other
    renderer's pip sets, `npm run make-pip-eval`), as training scenes: boxes trusted, a die of no
    pip value (null) the `other` class."""
    labels = json.loads((Path(folder) / "labels.json").read_text())
    if labels.get("box_style") != "whole-die":
        raise ValueError(f"{folder}: only whole-die labels train as scenes (box_style {labels.get('box_style')!r})")
    samples = []
    for im in labels["images"]:
        boxes = np.array([[d["x"], d["y"], d["x"] + d["w"], d["y"] + d["h"]] for d in im["dice"]], np.float32).reshape(-1, 4)
        samples.append({
            "source": "labelled",
            "file": str(Path(folder) / im["file"]),
            "boxes": boxes,
            "label_boxes": boxes,
            "classes": np.array([OTHER if d["value"] is None else d["value"] - 1 for d in im["dice"]], np.int64),
            "box_weight": np.ones(len(boxes), np.float32),
            "ignore": np.zeros((0, 4), np.float32),
        })
    return samples


def load_synthetic(folder: Path) -> list[dict]:
    """Synthetic scenes pre-rendered by render_cache.py: index-*.jsonl + image files."""
    samples = []
    for item in cache_records(folder):
        boxes = np.array(item["boxes"], np.float32).reshape(-1, 4)
        samples.append({
            "source": "synthetic",
            "file": str(folder / item["file"]),
            "boxes": boxes,
            "label_boxes": boxes,
            "classes": np.array(item["classes"], np.int64),
            "box_weight": np.ones(len(boxes), np.float32),
            "ignore": np.array(item.get("ignore", []), np.float32).reshape(-1, 4),
        })
    return samples
