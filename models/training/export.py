"""Export a trained detector to ONNX (opset 13) with decoding inside the graph.

The input's height and width are dynamic (any multiples of 32): the app letterboxes a frame to
`size` on its longer side and pads only up to the next multiple of 32 (the sidecar's
`inputStride`), so a 16:9 camera frame costs about 56% of a square one.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import torch

from model import CLASS_NAMES, DetectorWithDecode, DiceDetector


def export(net: DiceDetector, size: int, path: Path) -> None:
    net = net.eval()
    wrapper = DetectorWithDecode(net, size).eval()
    dummy = torch.rand(1, 3, size, size)
    torch.onnx.export(
        wrapper, dummy, str(path), opset_version=13,
        input_names=["images"], output_names=["detections"],
        do_constant_folding=True,
        dynamic_axes={"images": {2: "height", 3: "width"}, "detections": {1: "cells"}},
    )


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=512)
    ap.add_argument("--widths", default="16,24,48,96,160")
    ap.add_argument("--depths", default="1,2,3,3,2")
    ap.add_argument("--fpn", type=int, default=64)
    ap.add_argument("--k", type=int, default=3)
    ap.add_argument("--head-depth", type=int, default=2)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    net = DiceDetector(tuple(int(x) for x in a.widths.split(",")), tuple(int(x) for x in a.depths.split(",")), a.fpn, a.k, a.head_depth)
    export(net, a.size, Path(a.out))
    from model import count_params
    print(json.dumps({"params": count_params(net), "bytes": Path(a.out).stat().st_size}))
