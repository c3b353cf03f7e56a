"""Export a checkpoint as a shipped detector: models/dice-pips.onnx + models/dice-pips.json, or
with `--name dice-symbols` the detector symbol dice are found with (its `symbolDice` rule is then
chosen by `npm run choose-symbol-rule -- --model models/dice-symbols.onnx --write`).

Thresholds (score, NMS IoU) are chosen on the held-out slice of the train splits, never on val.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
import torch

import datasets as ds
from evaluate import letterbox, load_image, predict, score_images
from export import export
from model import CLASS_NAMES, DetectorWithDecode, DiceDetector

MODELS = Path(__file__).resolve().parents[1]


def load_checkpoint(path: Path) -> tuple[DiceDetector, dict]:
    ck = torch.load(path, map_location="cpu")
    a = ck["arch"]
    net = DiceDetector(tuple(a["widths"]), tuple(a["depths"]), a["fpn"], 3, a["head_depth"], a.get("p4", 0), a.get("o2o", 0))
    net.load_state_dict(ck["model"])
    return net.eval(), ck


def choose_thresholds(net: DiceDetector, size: int, box_scale: float = 1.0) -> tuple[float, float, dict]:
    """Score and NMS thresholds maximising mean (exact-roll + F1) over the train splits' holdouts."""
    holdout = {split: ds.load_split(split, "holdout") for split in ds.TRAIN_SPLITS}
    wrapper = DetectorWithDecode(net, size).eval()
    best = None
    for nms in (0.45, 0.6):
        preds = {k: [predict(wrapper, load_image(s), size, 0.05, nms, box_scale) for s in v] for k, v in holdout.items()}
        for t in np.arange(0.2, 0.8, 0.025):
            per = {k: score_images(preds[k], holdout[k], float(t)) for k in holdout}
            score = float(np.mean([r["exact"] + r["f1"] for r in per.values()]))
            if best is None or score > best[0]:
                best = (score, float(round(t, 3)), nms, per)
    _, t, nms, per = best
    return t, nms, {k: {m: round(v, 4) for m, v in r.items()} for k, r in per.items()}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--checkpoint", required=True)
    ap.add_argument("--out-dir", default=str(MODELS))
    ap.add_argument("--name", default="dice-pips", choices=["dice-pips", "dice-symbols"], help="the model's file name, without .onnx")
    a = ap.parse_args()
    net, ck = load_checkpoint(Path(a.checkpoint))
    size = ck["size"]
    out = Path(a.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    onnx_path = out / f"{a.name}.onnx"
    export(net, size, onnx_path)
    box_scale = float(ck.get("box_scale", 1.0))
    t, nms, per = choose_thresholds(net, size, box_scale)
    sidecar = {
        "inputSize": size,
        "inputStride": 32,  # dynamic input sides (export.py): frames padded only to a multiple of 32
        "classes": CLASS_NAMES,
        "padValue": 114,
        "scoreThreshold": t,
        "iouThreshold": nms,
        "maxDetections": 100,
        # trained on boxes scaled by this (train.py --box-scale): the reader grows them back after NMS
        **({"boxScale": box_scale} if box_scale != 1.0 else {}),
        "thresholdsChosenOn": "held-out slice (15%, by file-name hash) of byler-train, matteop65-train, epanemu-train",
        "holdout": per,
        "trainingStep": ck.get("step"),
    }
    (out / f"{a.name}.json").write_text(json.dumps(sidecar, indent=2) + "\n")
    print(json.dumps({"onnx": str(onnx_path), "bytes": onnx_path.stat().st_size, "scoreThreshold": t, "iouThreshold": nms, "holdout": per}, indent=1))


if __name__ == "__main__":
    main()
