"""Check that the exported ONNX model gives the PyTorch wrapper's output in onnxruntime-node and -web."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import torch

from evaluate import letterbox
from export_model import load_checkpoint
from model import DetectorWithDecode
import datasets as ds

HERE = Path(__file__).resolve().parent


def main(ckpt: str, onnx: str) -> None:
    net, ck = load_checkpoint(Path(ckpt))
    S = ck["size"]
    s = ds.load_split("byler-train", "holdout")[0]
    lb, *_ = letterbox(ds.read_rgb(Path(s["file"])), S)
    x = torch.from_numpy(lb).permute(2, 0, 1)[None].float() / 255.0
    ref = DetectorWithDecode(net, S).eval()(x)[0].detach().numpy()
    x.numpy().astype(np.float32).tofile("/tmp/parity-in.bin")
    subprocess.run(["node", str(HERE / "parity.mjs"), onnx, "/tmp/parity-in.bin", str(S), "/tmp/parity-out"], check=True, cwd=HERE.parents[1])
    for name in ("node", "web"):
        out = np.fromfile(f"/tmp/parity-out-{name}.bin", np.float32).reshape(ref.shape)
        print(name, "max abs diff: boxes %.4f px, probs %.6f" % (np.abs(out[:, :4] - ref[:, :4]).max(), np.abs(out[:, 4:] - ref[:, 4:]).max()))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
