"""Renders scenes of symbol dice only with dicegen (the detector's own synthetic generator), for
choosing how the app finds symbol dice with the shipped detector (`npm run choose-symbol-rule`).
Not the evaluation set (scripts/make-symbol-eval.ts renders that with another renderer).
Deterministic: scene i is rendered from the seed (77, i) (--teach: (78, i)).

  /usr/bin/python3 models/training/render_symbol_scenes.py [--out cache/dicegen-symbols] [--count 800]
  /usr/bin/python3 models/training/render_symbol_scenes.py --teach --out cache/dicegen-teach --count 300

--teach renders teach photos instead: one die, often close to the camera (12–60% of the long
side), as a player shows a face to the teach screen.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from dicegen import SceneConfig, render_scene  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="cache/dicegen-symbols")
    ap.add_argument("--count", type=int, default=800)
    ap.add_argument("--teach", action="store_true", help="one die per scene, often large (teach photos)")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    with (out / "index.jsonl").open("w") as f:
        for i in range(a.count):
            if a.teach:
                cfg = SceneConfig(dice_count=(1, 1), die_size=(0.12, 0.6), symbol_probability=1.0, hand_probability=0.0,
                                  clutter_probability=0.2, cut_probability=0.0, edge_margin=0.08)
            else:
                cfg = SceneConfig(dice_count=(1, 7), die_size=(0.06, 0.35), symbol_probability=1.0, hand_probability=0.05)
            img, ann = render_scene(np.random.default_rng((78 if a.teach else 77, i)), cfg)
            name = f"{i:04d}.jpg"
            cv2.imwrite(str(out / name), img[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 92])
            f.write(json.dumps({"file": name, "width": img.shape[1], "height": img.shape[0],
                                "boxes": ann["boxes"].round(2).tolist(), "ignore": ann["ignore"].round(2).tolist()}) + "\n")
            f.flush()
            if (i + 1) % 100 == 0:
                print(f"{i + 1} scenes, {(time.time() - t0) / (i + 1):.2f} s each", flush=True)


if __name__ == "__main__":
    main()
