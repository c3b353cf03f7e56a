"""Renders scenes of symbol dice only with dicegen (the detector's own synthetic generator), for
choosing how the app finds symbol dice with the shipped detector (`npm run choose-symbol-rule`).
Not the evaluation set (scripts/make-symbol-eval.ts renders that with another renderer).
Deterministic: scene i is rendered from the seed (77, i) (--teach: (78, i)).

  /usr/bin/python3 models/training/render_symbol_scenes.py [--out cache/dicegen-symbols] [--count 800]
  /usr/bin/python3 models/training/render_symbol_scenes.py --teach --out cache/dicegen-teach --count 300

--teach renders teach photos instead: one die, often close to the camera (12–60% of the long
side), as a player shows a face to the teach screen.

--kit-art DIR [DIR ...] paints every die with a kit's own art instead of random symbols: each DIR
holds one PNG per face (`npx tsx scripts/kit-art-png.ts src/lib/dice/kits/face-off
cache/kit-art/face-off`), a die carries a kit's six faces and takes the colour of the art's
ground. Seeds (79, i) (--teach: (80, i)): scenes apart from the others. For choosing a detector
on dice like the shipped kits without touching the symbol evaluation set.
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
from dicegen import SceneConfig, make_symbol_die, paint_face, render_scene  # noqa: E402
from dicegen.dice import Die  # noqa: E402


def read_kit_art(folder: Path) -> list[tuple[str, np.ndarray, np.ndarray]]:
    """A kit's faces as (face id, RGB, alpha), from the PNGs scripts/kit-art-png.ts draws."""
    faces = []
    for f in sorted(folder.glob("*.png")):
        rgba = cv2.imread(str(f), cv2.IMREAD_UNCHANGED)
        if rgba is None or rgba.ndim != 3 or rgba.shape[2] != 4:
            raise SystemExit(f"{f}: expected an RGBA PNG (scripts/kit-art-png.ts draws them)")
        faces.append((f.stem, cv2.cvtColor(rgba[..., :3], cv2.COLOR_BGR2RGB), rgba[..., 3].astype(np.float32) / 255.0))
    if len(faces) != 6:
        raise SystemExit(f"{folder}: expected the 6 face PNGs of a kit, found {len(faces)}")
    return faces


def kit_die(rng: np.random.Generator, art: list[tuple[str, np.ndarray, np.ndarray]]) -> Die:
    """A symbol die printed with a kit's six faces, in any order and turn, on the art's ground."""
    die = make_symbol_die(rng)
    die.face_ids = [""] * 6
    _, rgb, alpha = art[0]
    h, w = alpha.shape
    die.body = rgb[h // 2, max(1, w // 20)].astype(np.float32) / 255.0  # the face's ground, left of its symbol
    for face, k in enumerate(rng.permutation(6)):
        die.face_ids[face], rgb, alpha = art[int(k)]
        turns = int(rng.integers(4))
        paint_face(die, face, np.rot90(rgb, turns), np.rot90(alpha, turns), margin=0.0)
    return die


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="cache/dicegen-symbols")
    ap.add_argument("--count", type=int, default=800)
    ap.add_argument("--teach", action="store_true", help="one die per scene, often large (teach photos)")
    ap.add_argument("--kit-art", nargs="+", type=Path, help="folders of kit face PNGs: dice printed with a kit's art")
    a = ap.parse_args()
    kits = [read_kit_art(d) for d in a.kit_art or []]
    seed = (80 if a.teach else 79) if kits else (78 if a.teach else 77)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    labelled: list[dict] = []  # with one kit: the scenes whose every die is labelled, for `npm run eval -- --kit`
    t0 = time.time()
    with (out / "index.jsonl").open("w") as f:
        for i in range(a.count):
            if a.teach:
                cfg = SceneConfig(dice_count=(1, 1), die_size=(0.12, 0.6), symbol_probability=1.0, hand_probability=0.0,
                                  clutter_probability=0.2, cut_probability=0.0, edge_margin=0.08)
            else:
                cfg = SceneConfig(dice_count=(1, 7), die_size=(0.06, 0.35), symbol_probability=1.0, hand_probability=0.05)
            rng = np.random.default_rng((seed, i))
            if kits:
                art = kits[int(rng.integers(len(kits)))]
                cfg.dice = [kit_die(rng, art) for _ in range(1 if a.teach else int(rng.integers(1, 6)))]
            img, ann = render_scene(rng, cfg)
            name = f"{i:04d}.jpg"
            cv2.imwrite(str(out / name), img[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, 92])
            f.write(json.dumps({"file": name, "width": img.shape[1], "height": img.shape[0],
                                "boxes": ann["boxes"].round(2).tolist(), "ignore": ann["ignore"].round(2).tolist()}) + "\n")
            f.flush()
            if len(kits) == 1 and len(ann["ignore"]) == 0:
                labelled.append({"file": name, "width": img.shape[1], "height": img.shape[0], "dice": [
                    {"x": round(d["box"][0], 1), "y": round(d["box"][1], 1), "w": round(d["box"][2] - d["box"][0], 1),
                     "h": round(d["box"][3] - d["box"][1], 1), "face": d["face_id"]} for d in ann["dice"]]})
            if (i + 1) % 100 == 0:
                print(f"{i + 1} scenes, {(time.time() - t0) / (i + 1):.2f} s each", flush=True)
    if len(kits) == 1:
        (out / "labels.json").write_text(json.dumps({
            "source": "rollcall models/training/render_symbol_scenes.py --kit-art (dicegen)", "license": "generated by the project",
            "box_style": "whole-die", "kit": a.kit_art[0].name,
            "notes": [f"seeds ({seed}, i); scenes with a hidden or cut die left out"], "images": labelled}, indent=1))
        print(f"labels.json: {len(labelled)} of {a.count} scenes", flush=True)


if __name__ == "__main__":
    main()
