"""The packed-crowd fit test: can a net learn the train photos of dice packed together at all?

The shipped detector misses most where dice touch (models/record/standard-dice.md, "Which crowds fail"),
even on the train photos it learnt from. This script picks those photos from a train split (the
part trained on, never the held-out slice or val): eight dice or more whose median nearest
neighbour lies under --max-gap die sides away. It writes, under --out:

  data/dice-photos/   a copy of the data (links) for `ROLLCALL_DATA`, whose --split holds only
                      those photos and the ones label-fixes.json names (train.py wants them all);
                      the other train splits whole, to be drawn at a tiny share;
  eval/               those photos alone with their labels, for `npm run eval`.

Then it prints the two commands: train a net on them alone for a few hundred steps, and read them.
A net that cannot fit these photos is unlikely to read packed crowds it has never seen.

  /usr/bin/python3 models/training/fit_test.py --out /tmp/fit
"""
from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

import numpy as np

import datasets as ds


def median_gap(dice: list[dict]) -> float:
    """The median over a photo's dice of the distance to the nearest other die, in die sides."""
    centres = np.array([[d["x"] + d["w"] / 2, d["y"] + d["h"] / 2] for d in dice])
    sides = np.array([np.sqrt(d["w"] * d["h"]) for d in dice])
    dist = np.sqrt(((centres[:, None] - centres[None]) ** 2).sum(-1))
    np.fill_diagonal(dist, np.inf)
    return float(np.median(dist.min(1) / sides))


def link_folder(images: list[dict], labels: dict, source: Path, target: Path) -> None:
    target.mkdir(parents=True)
    for im in images:
        os.symlink(source / im["file"], target / im["file"])
    (target / "labels.json").write_text(json.dumps({**labels, "images": images}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="a new folder for the data copy and the eval set")
    ap.add_argument("--split", default="epanemu-train", choices=ds.TRAIN_SPLITS)
    ap.add_argument("--min-dice", type=int, default=8)
    ap.add_argument("--max-gap", type=float, default=1.3, help="median nearest neighbour, in die sides")
    a = ap.parse_args()
    if a.min_dice < 2:
        ap.error("--min-dice must be 2 or more: a lone die has no neighbour")
    out = Path(a.out)
    if out.exists():
        raise SystemExit(f"{out} exists: give a new folder")
    root = ds.data_root() / "dice-photos"
    labels = json.loads((root / a.split / "labels.json").read_text())
    packed = [im for im in labels["images"]
              if not ds.is_holdout(a.split, im["file"]) and len(im["dice"]) >= a.min_dice and median_gap(im["dice"]) < a.max_gap]
    if not packed:
        raise SystemExit(f"no photo of {a.split} has {a.min_dice} dice or more packed under {a.max_gap} sides")
    named = set(ds.label_fixes(a.split))
    chosen = {im["file"] for im in packed}
    taught = packed + [im for im in labels["images"] if im["file"] in named and im["file"] not in chosen]
    link_folder(taught, labels, root / a.split, out / "data" / "dice-photos" / a.split)
    for split in ds.TRAIN_SPLITS:
        if split != a.split:
            os.symlink(root / split, out / "data" / "dice-photos" / split)
    link_folder(packed, labels, root / a.split, out / "eval")
    dice = sum(len(im["dice"]) for im in packed)
    others = ",".join(f"{s}=0.01" for s in ds.TRAIN_SPLITS if s != a.split)
    print(f"{len(packed)} packed photos of {a.split} ({dice} dice) in {out / 'eval'}; "
          f"{len(taught) - len(packed)} more taught beside them (named in label-fixes.json)")
    print("train, e.g. from the shipped detector:")
    print(f"  ROLLCALL_DATA={out / 'data'} /usr/bin/python3 models/training/train.py --out {out / 'run'} --steps 600 "
          f"--init-onnx models/dice-pips.onnx --widths 16,24,48,128,192 --depths 1,2,3,5,3 --lr 1e-3 --focus 0.3 "
          f"--split-weights {a.split}=1.0,{others} --eval-every 600 --threads 2")
    print("export and read:")
    print(f"  /usr/bin/python3 models/training/export_model.py --checkpoint {out / 'run' / 'step000600.pt'} --out-dir {out / 'export'}")
    print(f"  npm run eval -- --model {out / 'export' / 'dice-pips.onnx'} {out / 'eval'}    # against: npm run eval -- {out / 'eval'}")


if __name__ == "__main__":
    main()
