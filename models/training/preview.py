"""Write a PNG grid of synthetic scenes with their labels drawn, for looking at."""
from __future__ import annotations

import argparse
import time

import cv2
import numpy as np

from dicegen import SceneConfig, render_scene


def draw(img: np.ndarray, ann: dict) -> np.ndarray:
    out = img[..., ::-1].copy()
    for b, c in zip(ann["boxes"], ann["classes"]):
        x1, y1, x2, y2 = [int(round(v)) for v in b]
        cv2.rectangle(out, (x1, y1), (x2, y2), (0, 255, 0), 1)
        cv2.putText(out, "o" if c == 6 else str(c + 1), (x1, max(8, y1 - 2)), 0, 0.4, (0, 0, 255), 1)
    for b in ann["ignore"]:
        x1, y1, x2, y2 = [int(round(v)) for v in b]
        cv2.rectangle(out, (x1, y1), (x2, y2), (255, 0, 255), 1)
    return out


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=6)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="/tmp/viz/synth.png")
    ap.add_argument("--labels", type=int, default=1)
    a = ap.parse_args()
    tiles = []
    t0 = time.time()
    for i in range(a.n):
        img, ann = render_scene(np.random.default_rng((a.seed, i)), SceneConfig())
        t = draw(img, ann) if a.labels else img[..., ::-1]
        t = cv2.resize(t, (640, int(640 * t.shape[0] / t.shape[1]))) if t.shape[1] != 640 else t
        t = cv2.copyMakeBorder(t, 0, 640 - t.shape[0], 0, 0, cv2.BORDER_CONSTANT) if t.shape[0] < 640 else cv2.resize(t, (int(t.shape[1] * 640 / t.shape[0]), 640))
        t = cv2.copyMakeBorder(t, 0, 0, 0, 640 - t.shape[1], cv2.BORDER_CONSTANT) if t.shape[1] < 640 else t
        tiles.append(t)
    print(f"{(time.time() - t0) / a.n:.2f} s per scene")
    while len(tiles) % 3:
        tiles.append(np.zeros_like(tiles[0]))
    cv2.imwrite(a.out, np.vstack([np.hstack(tiles[i:i + 3]) for i in range(0, len(tiles), 3)]))
