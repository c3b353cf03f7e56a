"""Draw a checkpoint's detections on held-out train photos (green = right value, red = wrong
value or spurious, magenta = missed label), for looking at what fails."""
from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

import datasets as ds
from evaluate import load_image, match, predict
from export_model import load_checkpoint
from model import DetectorWithDecode


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--checkpoint", required=True)
    ap.add_argument("--split", default="byler-train")
    ap.add_argument("--part", default="holdout")
    ap.add_argument("--n", type=int, default=6)
    ap.add_argument("--threshold", type=float, default=0.4)
    ap.add_argument("--only-errors", action="store_true")
    ap.add_argument("--out", default="/tmp/viz/pred.png")
    a = ap.parse_args()
    net, ck = load_checkpoint(Path(a.checkpoint))
    wrapper = DetectorWithDecode(net, ck["size"]).eval()
    tiles = []
    for s in ds.load_split(a.split, a.part):
        img = load_image(s)
        p = predict(wrapper, img, ck["size"], box_scale=ck.get("box_scale", 1.0))
        p = p[p[:, 4] >= a.threshold]
        m = match(p, s["label_boxes"])
        ok = all(int(p[i, 5]) == int(s["classes"][j]) for i, j in m) and len(m) == len(p) == len(s["classes"])
        if a.only_errors and ok:
            continue
        out = img[..., ::-1].copy()
        matched_p = {i: j for i, j in m}
        matched_l = {j for _, j in m}
        for j, b in enumerate(s["label_boxes"]):
            if j not in matched_l:
                cv2.rectangle(out, (int(b[0]), int(b[1])), (int(b[2]), int(b[3])), (255, 0, 255), 2)
        for i, r in enumerate(p):
            right = i in matched_p and int(r[5]) == int(s["classes"][matched_p[i]])
            col = (0, 200, 0) if right else (0, 0, 255)
            cv2.rectangle(out, (int(r[0]), int(r[1])), (int(r[2]), int(r[3])), col, 1)
            name = "o" if int(r[5]) == 6 else str(int(r[5]) + 1)
            cv2.putText(out, f"{name}", (int(r[0]), int(r[1]) - 3), 0, 0.5, col, 2)
        s2 = 640 / max(out.shape[:2])
        out = cv2.resize(out, None, fx=s2, fy=s2)
        tiles.append(cv2.copyMakeBorder(out, 0, 640 - out.shape[0], 0, 640 - out.shape[1], cv2.BORDER_CONSTANT))
        if len(tiles) == a.n:
            break
    while len(tiles) % 3:
        tiles.append(np.zeros_like(tiles[0]))
    cv2.imwrite(a.out, np.vstack([np.hstack(tiles[i:i + 3]) for i in range(0, len(tiles), 3)]))


if __name__ == "__main__":
    main()
