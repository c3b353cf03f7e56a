"""Where a train split's labels and the shipped reader disagree: a numbered contact sheet to review.

    npm run -s read-dice -- --json ../shared/data/dice-photos/byler-train/*.jpg > /tmp/byler.json
    /usr/bin/python3 models/training/label_audit.py --split byler-train --reads /tmp/byler.json

Lists every die the reader read where no labelled die is (matched as `npm run eval` matches: the
labelled box's centre inside the read box, nearest pairs first) and every labelled die it read as
another value, skipping what label-fixes.json already settles, and writes
cache/label-audit/<split>.json and <split>-N.png (24 numbered crops a sheet). Each is then looked
at: a die the labels leave out, a wrong value, or the reader's own mistake. What is sure goes into
label-fixes.json by hand, with its reason; what is not stays as labelled. Never for *-val.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import evaluate  # noqa: E402
from datasets import CACHE, LABEL_FIXES, data_root  # noqa: E402

TILE = 200


def match(reads: list[dict], dice: list[dict]) -> dict[int, int]:
    """read index -> labelled die index, by the eval's centre rule (evaluate.match)."""
    corners = lambda b: [b["x"], b["y"], b["x"] + b["w"], b["y"] + b["h"]]
    pred = np.array([corners(r["box"]) for r in reads], np.float32).reshape(-1, 4)
    labels = np.array([corners(d) for d in dice], np.float32).reshape(-1, 4)
    return dict(evaluate.match(pred, labels))


def settled(fixes: list[dict], file: str, box: dict) -> bool:
    """A fix of this photo already covers this box (its centre inside the fix's box)."""
    cx, cy = box["x"] + box["w"] / 2, box["y"] + box["h"] / 2
    for f in fixes:
        r = f.get("add") or f.get("ignore") or f.get("box")
        if f["file"] == file and r["x"] <= cx <= r["x"] + r["w"] and r["y"] <= cy <= r["y"] + r["h"]:
            return True
    return False


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--split", required=True, help="a train split, e.g. epanemu-train")
    ap.add_argument("--reads", required=True, help="`npm run read-dice -- --json` over the split's photos")
    ap.add_argument("--min-score", type=float, default=0.5, help="dice read less surely than this are not listed")
    args = ap.parse_args()
    if not args.split.endswith("-train"):
        sys.exit(f"error: {args.split}: the audit is for the train splits only (val is never looked into)")
    folder = data_root() / "dice-photos" / args.split
    labels = {im["file"]: im for im in json.loads((folder / "labels.json").read_text())["images"]}
    fixes = [f for f in json.loads(LABEL_FIXES.read_text())["fixes"] if f["split"] == args.split]
    found = []
    for r in json.loads(Path(args.reads).read_text()):
        file = os.path.basename(r["file"])
        if file not in labels or "error" in r:
            continue
        dice, reads = labels[file]["dice"], r["dice"]
        pairs = match(reads, dice)
        for i, p in enumerate(reads):
            if i not in pairs and p["score"] >= args.min_score and not settled(fixes, file, p["box"]):
                found.append({"kind": "unlabelled", "file": file, "box": p["box"], "read": p["value"], "score": p["score"]})
            elif i in pairs and dice[pairs[i]]["value"] != p["value"] and not settled(fixes, file, dice[pairs[i]]):
                t = dice[pairs[i]]
                found.append({"kind": "value", "file": file, "die": pairs[i], "box": {k: t[k] for k in "xywh"},
                              "label": t["value"], "read": p["value"], "score": p["score"]})
    out = CACHE / "label-audit"
    out.mkdir(parents=True, exist_ok=True)
    (out / f"{args.split}.json").write_text(json.dumps(found, indent=1))
    tiles = []
    for k, c in enumerate(found):
        img = cv2.imread(str(folder / c["file"]))
        b = c["box"]
        cx, cy, m = b["x"] + b["w"] / 2, b["y"] + b["h"] / 2, max(b["w"], b["h"]) * 1.2
        x0, y0 = int(max(0, cx - m)), int(max(0, cy - m))
        crop = img[y0:int(cy + m), x0:int(cx + m)].copy()
        cv2.rectangle(crop, (int(b["x"] - x0), int(b["y"] - y0)), (int(b["x"] + b["w"] - x0), int(b["y"] + b["h"] - y0)),
                      (0, 0, 255) if c["kind"] == "unlabelled" else (255, 0, 0), 1)
        tile = cv2.resize(crop, (TILE, TILE), interpolation=cv2.INTER_CUBIC)
        text = f"#{k} read {c['read']}" + (f" label {c['label']}" if c["kind"] == "value" else f" ({c['score']:.2f})")
        cv2.rectangle(tile, (0, 0), (TILE, 16), (0, 0, 0), -1)
        cv2.putText(tile, text, (2, 12), cv2.FONT_HERSHEY_SIMPLEX, 0.42, (0, 255, 0), 1)
        tiles.append(tile)
    for n in range(0, len(tiles), 24):
        sheet = tiles[n:n + 24]
        sheet += [np.zeros_like(tiles[0])] * (-len(sheet) % 6)
        cv2.imwrite(str(out / f"{args.split}-{n // 24}.png"), np.vstack([np.hstack(sheet[i:i + 6]) for i in range(0, len(sheet), 6)]))
    print(f"{args.split}: {len(found)} to review ({sum(c['kind'] == 'unlabelled' for c in found)} read where no die is labelled, "
          f"{sum(c['kind'] == 'value' for c in found)} read as another value) -> {out}/{args.split}.json and -N.png")


if __name__ == "__main__":
    main()
