"""Pre-render synthetic scenes to a git-ignored cache (deterministic: scene i of a cache is
rendered from the seed (seed, i)). Resumable: scenes already listed in index.jsonl are skipped.

  /usr/bin/python3 models/training/render_cache.py --out models/training/cache/synth-v1 --count 4000 --seed 1
  /usr/bin/python3 models/training/render_cache.py --out models/training/cache/synth-b --count 1500 --seed 12 --preset mixed-hard

Presets (--preset): `default` (SceneConfig()), or `mixed-hard`, which alternates the scenes the
shipped detector finds hardest: a single die close to the camera (12-60% of the frame, pip or
symbol: a player showing a face to the teach screen), and crowds of 10-25 small dice (2-8%);
or `symbol-rolls`: two scenes in three are rolls of 1-7 dice, 6-35% of the frame, three in four of
them symbol dice (as a game of Face Off or Point Five is thrown), the third a default scene.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import cv2
import numpy as np

from dicegen import SceneConfig, render_scene


def scene_config(preset: str, i: int) -> SceneConfig:
    if preset == "default":
        return SceneConfig()
    if preset == "mixed-hard":
        if i % 2 == 0:
            return SceneConfig(dice_count=(1, 1), die_size=(0.12, 0.6), symbol_probability=0.5, hand_probability=0.05,
                               clutter_probability=0.3, cut_probability=0.0, edge_margin=0.08)
        return SceneConfig(dice_count=(10, 25), die_size=(0.02, 0.08))
    if preset == "symbol-rolls":
        if i % 3 == 2:
            return SceneConfig()
        return SceneConfig(dice_count=(1, 7), die_size=(0.06, 0.35), symbol_probability=0.75, hand_probability=0.05)
    raise SystemExit(f"unknown preset {preset!r} (default, mixed-hard, symbol-rolls)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--shard", default="0/1", help="i/n: render scenes with index %% n == i")
    ap.add_argument("--preset", default="default", help="scene mix: default | mixed-hard | symbol-rolls")
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    k, n = (int(x) for x in a.shard.split("/"))
    index = out / f"index-{k}.jsonl"
    done = set()
    if index.exists():
        for line in index.read_text().splitlines():
            done.add(json.loads(line)["id"])
    t0, made = time.time(), 0
    with index.open("a") as f:
        for i in range(a.count):
            if i % n != k or i in done:
                continue
            img, ann = render_scene(np.random.default_rng((a.seed, i)), scene_config(a.preset, i))
            name = f"{i:06d}.jpg"
            cv2.imwrite(str(out / name), img[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 95])
            rec = {"id": i, "file": name, "width": img.shape[1], "height": img.shape[0],
                   "boxes": ann["boxes"].round(2).tolist(), "classes": ann["classes"].tolist(),
                   "ignore": ann["ignore"].round(2).tolist(), "surface": ann["surface"]}
            f.write(json.dumps(rec) + "\n")
            f.flush()
            made += 1
            if made % 50 == 0:
                print(f"{made} scenes, {(time.time() - t0) / made:.2f} s each", flush=True)


if __name__ == "__main__":
    main()
