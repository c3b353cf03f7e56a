"""Pre-render synthetic scenes to a git-ignored cache (deterministic: scene i of a cache is
rendered from the seed (seed, i)). Resumable: scenes already listed in index.jsonl are skipped.

  /usr/bin/python3 models/training/render_cache.py --out models/training/cache/synth-v1 --count 4000 --seed 1
  /usr/bin/python3 models/training/render_cache.py --out models/training/cache/synth-b --count 1500 --seed 12 --preset mixed-hard

Presets (--preset): `default` (SceneConfig()), or `mixed-hard`, which alternates the scenes the
shipped detector finds hardest: a single die close to the camera (12-60% of the frame, pip or
symbol: a player showing a face to the teach screen), and crowds of 10-25 small dice (2-8%);
or `symbol-rolls`: two scenes in three are rolls of 1-7 dice, 6-35% of the frame, three in four of
them symbol dice (as a game of Face Off or Point Five is thrown), the third a default scene;
or `on-boards`: 1-3 dice in a game board's colours (yellow with red pips, red with yellow pips,
amber, white; nearly half of them cloudy see-through) rendered onto the epanemu-train photos whose
dice are small (under 7% of the long side) and one of them on a busy surface (a Catan board:
copy_paste.BUSY_CONTEXT), three in four of them onto the busiest free spot, at the size of the
photo's own dice, with the photo's own labels kept (the held-out slice is never drawn on).
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import cv2
import numpy as np

from dicegen import SceneConfig, make_pip_die, render_onto_photo, render_scene
from dicegen.noise import hsv_colour

PRESETS = ("default", "mixed-hard", "symbol-rolls", "on-boards")
SMALL_DIE = 0.07  # on-boards: photos whose dice measure under this share of the long side, on median


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
    raise SystemExit(f"unknown preset {preset!r} ({', '.join(PRESETS)})")


def board_die(rng: np.random.Generator):
    """A pip die as board games ship them (Catan's: yellow with red pips, red with yellow pips, amber,
    white), often cloudy see-through."""
    black, white = np.array([0.06, 0.05, 0.05]), np.array([0.95, 0.95, 0.92])
    red, yellow = hsv_colour(rng.uniform(-3, 3), 0.85, 0.7), hsv_colour(27, 0.85, 0.95)
    r = rng.random()
    if r < 0.3:
        body = hsv_colour(28 + rng.uniform(-4, 4), rng.uniform(0.7, 1.0), rng.uniform(0.8, 1.0))
        pip = [red, black, white][int(rng.choice(3, p=[0.5, 0.35, 0.15]))]
    elif r < 0.55:
        body = hsv_colour(14 + rng.uniform(-4, 4), rng.uniform(0.75, 1.0), rng.uniform(0.7, 1.0))
        pip = [black, white, red][int(rng.choice(3, p=[0.5, 0.35, 0.15]))]
    elif r < 0.8:
        body = hsv_colour(rng.uniform(-4, 4), rng.uniform(0.75, 1.0), rng.uniform(0.5, 0.9))
        pip = [yellow, white, black][int(rng.choice(3, p=[0.5, 0.4, 0.1]))]
    else:
        body = hsv_colour(rng.uniform(10, 30), rng.uniform(0, 0.12), rng.uniform(0.85, 1.0))
        pip = [black, red][int(rng.choice(2, p=[0.7, 0.3]))]
    die = make_pip_die(rng, body=body, material="translucent" if rng.random() < 0.45 else "plastic", pip=pip)
    if die.material == "translucent":  # board dice are cloudy rather than clear
        die.translucency = float(rng.uniform(0.2, 0.5))
    return die


class BoardPhotos:
    """The epanemu-train photos (held-out slice left out) with a small die on a busy surface, and their labels."""

    def __init__(self):
        import datasets as ds
        from copy_paste import BUSY_CONTEXT, Busyness
        self.samples, self.images, self.busy = [], [], []
        for s in ds.load_split("epanemu-train", "train"):
            img = ds.read_rgb(s["file"])
            busy = Busyness(img)
            sides = np.maximum(s["boxes"][:, 2] - s["boxes"][:, 0], s["boxes"][:, 3] - s["boxes"][:, 1])
            # small dice (a board seen across the table), not close-ups of piles of dice
            if any(busy.around(b) > BUSY_CONTEXT for b in s["boxes"]) and np.median(sides) < SMALL_DIE * max(img.shape[:2]):
                self.samples.append(s)
                self.images.append(img)
                self.busy.append(busy)

    def render(self, rng: np.random.Generator) -> tuple[np.ndarray, dict]:
        k = int(rng.integers(len(self.samples)))
        s, img = self.samples[k], self.images[k]
        boxes = s["boxes"]
        w, h = boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]
        stretch = float(np.clip(np.median(w / h), 0.7, 1.45)) if len(boxes) >= 2 else 1.0
        side = float(np.median(np.maximum(w / stretch, h))) / max(img.shape[1] / stretch, img.shape[0])
        die_frac = side / 1.25 * float(np.exp(rng.uniform(np.log(0.8), np.log(1.15))))
        dice = [board_die(rng) for _ in range(int(rng.integers(1, 4)))]
        taken = np.concatenate([boxes, s["ignore"]], 0)
        out, ann = render_onto_photo(rng, img, taken, dice, die_frac, stretch, busyness=self.busy[k].of)
        ann["rendered"] = len(ann["boxes"])  # the last boxes are the rendered dice
        ann["photo"] = s["file"]
        ann["boxes"] = np.concatenate([boxes, ann["boxes"]], 0).astype(np.float32)
        ann["classes"] = np.concatenate([s["classes"], ann["classes"]]).astype(np.int64)
        ann["ignore"] = np.concatenate([s["ignore"], ann["ignore"]], 0).astype(np.float32)
        return out, ann


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--shard", default="0/1", help="i/n: render scenes with index %% n == i")
    ap.add_argument("--preset", default="default", help="scene mix: " + " | ".join(PRESETS))
    a = ap.parse_args()
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    k, n = (int(x) for x in a.shard.split("/"))
    index = out / f"index-{k}.jsonl"
    done = set()
    if index.exists():
        for line in index.read_text().splitlines():
            done.add(json.loads(line)["id"])
    photos = BoardPhotos() if a.preset == "on-boards" else None
    if photos is not None:
        print(f"{len(photos.samples)} epanemu-train photos of small dice, one on a busy surface", flush=True)
    t0, made = time.time(), 0
    with index.open("a") as f:
        for i in range(a.count):
            if i % n != k or i in done:
                continue
            rng = np.random.default_rng((a.seed, i))
            img, ann = photos.render(rng) if photos is not None else render_scene(rng, scene_config(a.preset, i))
            name = f"{i:06d}.jpg"
            cv2.imwrite(str(out / name), img[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 95])
            rec = {"id": i, "file": name, "width": img.shape[1], "height": img.shape[0],
                   "boxes": ann["boxes"].round(2).tolist(), "classes": ann["classes"].tolist(),
                   "ignore": ann["ignore"].round(2).tolist(), "surface": ann["surface"]}
            if "rendered" in ann:  # on-boards: which photo, and how many of the last boxes are rendered dice
                rec.update(photo=Path(ann["photo"]).name, rendered=ann["rendered"])
            f.write(json.dumps(rec) + "\n")
            f.flush()
            made += 1
            if made % 50 == 0:
                print(f"{made} scenes, {(time.time() - t0) / made:.2f} s each", flush=True)


if __name__ == "__main__":
    main()
