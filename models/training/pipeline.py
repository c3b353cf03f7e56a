"""`npm run train`: the whole detector pipeline, reproducibly (fixed seeds).

  1. check the labelled photographs (../shared/data or $ROLLCALL_DATA) are there;
  2. render the synthetic sets into models/training/cache/ (resumable);
  3. train the stages of RECIPE in models/training/runs/<name>/ (each stage starts from the last);
  4. train the die-face reader (second pass, train_die_face.py → models/die-face.onnx), then a
     short stage that teaches it the detector's false boxes as `none` (hard_negatives.py), then
     quantize it to int8 (quantize_die_face.py; the float graph kept in models/training/);
  5. choose the detector: every checkpoint the last stage kept is exported and measured with the
     die-face reader behind it on the held-out slice (npm run choose-die-face-rule -- --model) and
     on symbol dice (npm run choose-symbol-rule -- --model, on dicegen symbol scenes and on dicegen
     scenes of the kits' art); the best sum of the two F1s (then of exact rolls and scenes counted
     right) is exported as models/dice-pips.onnx + .json, its first-pass rule written to the
     reader's sidecar, then how it finds symbol dice chosen and written (choose-symbol-rule --write);
  6. train the symbol-dice detector (SYMBOL_DETECTOR): a deeper net started from the chosen
     detector, trained on the same photos and scenes with the symbol rolls added; of its
     checkpoints the one that counts most dicegen symbol and kit-art scenes right (then F1;
     choose-symbol-rule's summary) is exported as models/dice-symbols.onnx + .json, its `symbolDice` rule written;
  7. refine the pip detector (PIP_DETECTOR): the symbol detector trained on as a pip detector; of its
     checkpoints the one whose pair reads the held-out slice best (F1, then exact rolls) replaces
     models/dice-pips.onnx + .json, and the reader's rules and its `symbolDice` rule are chosen again;
  8. measure latency (onnxruntime-web, wasm, one thread) and run `npm run eval` on the val splits;
  9. write the detector's part of models/MODEL_CARD.md.

Options: --from-step N skips the steps before N (e.g. --from-step 5 re-chooses and re-exports).
--smoke runs every step at toy scale (a few photos of each split, a few scenes, a few dozen
training steps) in a fresh clone of the last commit under /tmp, to check that the pipeline runs end
to end in minutes instead of hours (removed when it passes, left to look into when a step fails);
this checkout, its models and its card are left as they are.
CPU only. Never run in CI or by the app.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
PY = "/usr/bin/python3"

RECIPE = {
    "name": "pips-v1",
    "seed": 1,
    "input_size": 512,
    "synthetic": [
        {"name": "synth-a", "count": 4000, "seed": 11},
        {"name": "synth-b", "count": 1500, "seed": 12, "preset": "mixed-hard"},
        # symbol rolls: only the symbol-dice detector (SYMBOL_DETECTOR) trains on them
        {"name": "synth-s", "count": 1500, "seed": 13, "preset": "symbol-rolls"},
    ],
    "stages": [
        # die-centric small crops: many dice per step, where reading the pips is learnt (128 px: a
        # crop must be a multiple of the net's largest stride, 32; the 112 px this stage once named
        # stopped train.py at its first step)
        {"steps": 9000, "crop": 128, "batch": 80, "focus": 0.9, "lr": 3e-3, "synthetic_weight": 1.0, "real_weight": 1.0},
        # whole-frame crops: backgrounds, large dice (stride 16/32), the letterbox pad
        {"steps": 2500, "crop": 384, "batch": 16, "focus": 0.3, "lr": 1.5e-3, "synthetic_weight": 1.0, "real_weight": 1.0},
        # more of the oblique, crowded photos (epanemu) where dice are still missed
        {"steps": 10000, "crop": 384, "batch": 16, "focus": 0.3, "lr": 1e-3, "synthetic_weight": 1.0, "real_weight": 1.0,
         "split_weights": "epanemu-train=1.8"},
        # (tried and dropped: a fifth stage drawing the photos of small dice 4x as often, --small-dice-boost 4,
        # 5,000 steps at lr 6e-4: two-pass held-out F1 94.2 / exact 81.0 at step 3,000, below this stage's 94.6 / 81.7)
    ],
    "threads": 2,
    # the die-face reader (train_die_face.py; the shipped one's runs are in models/die-face.json)
    "die_face_steps": 19000,
    "die_face_widths": "32,64,96,160",
    # then a short stage that also teaches the detector's own false boxes on the train photos as
    # `none` (hard_negatives.py, mined with the last stage's last.pt), so the first pass can keep
    # weaker dice (the shipped reader ran this as 4,000 steps, then resumed to 8,000: models/die-face.json);
    # with the stronger motion blur the shipped reader was last fine-tuned with (2026-11-27:
    # 15% of crops, 2-12 px of 48; models/record/standard-dice.md "A reader taught motion blur")
    "die_face_hard_negatives": {"steps": 8000, "lr": 5e-4, "seed": 41, "motion_blur": "0.15,12"},
}

# The detector symbol dice are found with (models/record/symbol-dice.md, "A detector for symbol dice"): the
# small pip detector of step 3 has too little capacity to learn symbol dice without reading pips worse, so
# symbol kits get a deeper net of their own (the extra blocks at strides 16 and 32), started from
# the pip detector's tensors whose shapes agree and trained on the same photos and scenes with the
# symbol rolls drawn twice. The shipped one ran on the clock (`--minutes 90`, 2 threads) and made
# 12,237 steps; a run scheduled by steps follows the same schedule reproducibly.
SYMBOL_DETECTOR = {
    "steps": 12237,
    "widths": "16,24,48,128,192",
    "depths": "1,2,3,5,3",
    "lr": 1.5e-3,
    "seed": 62,
    "focus": 0.3,
    "split_weights": "epanemu-train=1.8",
    "synthetic": ("synth-a", "synth-b", "synth-s", "synth-s"),
}


# The shipped pip detector (since 2026-11-27; models/MODEL_CARD.md, "Detector"): the symbol
# detector's deeper net trained on as a pip detector, without the symbol rolls and with byler drawn
# more often. The more capacity reads pips better; symbol dice keep their own detector. The shipped
# one ran on the clock (`--minutes 40`, 2 threads: 3,336 steps, step 2,000 chosen) on the synthetic
# caches as far as they were rendered then (synth-a 1,000 scenes, synth-b 800) and on the train
# labels before label-fixes.json; this schedule by steps follows it reproducibly on the whole caches.
PIP_DETECTOR = {
    "steps": 3336,
    "lr": 8e-4,
    "seed": 64,
    "focus": 0.3,
    "split_weights": "epanemu-train=1.8,byler-train=1.4",
    "eval_every": 500,
    "synthetic": ("synth-a", "synth-b"),
}


# --smoke: how many photos of each split the toy data copy holds (held-out photos of a train split
# on top, so that every choice has a slice to read), and the steps and scenes each part gets.
SMOKE_PHOTOS = {"train": 10, "holdout": 4, "val": 3}
SMOKE_STEPS = 20
SMOKE_SCENES = 12
# render_symbol_scenes' counts (symbol scenes, scenes of each kit's art): toy-sized under --smoke
SYMBOL_SCENES = {"symbols": 800, "kit_art": 200}


def shrink_for_smoke() -> None:
    """Every step count, scene count and checkpoint interval cut to toy size (in the clone --smoke makes)."""
    for s in RECIPE["synthetic"]:
        s["count"] = SMOKE_SCENES
    for st in RECIPE["stages"]:
        st.update(steps=SMOKE_STEPS, batch=min(st["batch"], 8), eval_every=SMOKE_STEPS // 2)
    RECIPE["die_face_steps"] = SMOKE_STEPS
    RECIPE["die_face_scenes"] = SMOKE_SCENES
    RECIPE["die_face_hard_negatives"]["steps"] = SMOKE_STEPS
    for spec in (SYMBOL_DETECTOR, PIP_DETECTOR):
        spec.update(steps=SMOKE_STEPS, eval_every=SMOKE_STEPS // 2)
    SYMBOL_SCENES.update(symbols=SMOKE_SCENES, kit_art=SMOKE_SCENES // 2)


def smoke_data(root: Path, out: Path) -> None:
    """A toy copy of the labelled photographs (links): photos spread evenly over each split, the held-out
    photos of a train split among them, and every photo label-fixes.json names (the trainer wants them)."""
    import datasets as ds

    def spread(images: list[dict], n: int) -> list[dict]:
        return images[:: max(1, len(images) // n)][:n]

    for split in (*ds.TRAIN_SPLITS, *ds.VAL_SPLITS):
        labels = json.loads((root / split / "labels.json").read_text())
        images = sorted(labels["images"], key=lambda im: im["file"])
        if split in ds.TRAIN_SPLITS:
            named = set(ds.label_fixes(split))
            keep = (spread([im for im in images if not ds.is_holdout(split, im["file"])], SMOKE_PHOTOS["train"])
                    + spread([im for im in images if ds.is_holdout(split, im["file"])], SMOKE_PHOTOS["holdout"]))
            keep += [im for im in images if im["file"] in named and im not in keep]
        else:
            keep = spread(images, SMOKE_PHOTOS["val"])
        target = out / "dice-photos" / split
        target.mkdir(parents=True)
        for im in keep:
            os.symlink(root / split / im["file"], target / im["file"])
        (target / "labels.json").write_text(json.dumps({**labels, "images": keep}))


def smoke() -> None:
    """--smoke: the whole pipeline at toy scale in a fresh clone of the last commit (see the docstring)."""
    sys.path.insert(0, str(HERE))
    import datasets as ds

    root = ds.data_root() / "dice-photos"  # exits with a clear message when the photographs are missing
    work = Path(tempfile.mkdtemp(prefix="rollcall-train-smoke-"))
    smoke_data(root, work / "data")  # before the clone: a data problem leaves nothing behind
    clone = work / "repo"
    subprocess.run(["git", "clone", "--quiet", str(REPO), str(clone)], check=True)
    os.symlink(REPO / "node_modules", clone / "node_modules")
    print(f"smoke run in {clone} (data: {work / 'data'}); this checkout is not touched", flush=True)
    t0 = time.time()
    subprocess.run([PY, str(clone / "models" / "training" / "pipeline.py"), "--smoke-run"], check=True,
                   env={**os.environ, "ROLLCALL_DATA": str(work / "data")})
    card = (clone / "models" / "MODEL_CARD.md").read_text()
    if "written by `models/training/model_card.py`" not in card:
        sys.exit(f"smoke run: the model card's detector part was not rewritten (left in {clone})")
    shutil.rmtree(work)  # a failed step stops above, leaving the clone and its logs to look at
    print(f"smoke run passed in {time.time() - t0:.0f} s: every step ran and wrote its models and the card", flush=True)


def run(cmd: list[str], log: Path | None = None, cwd: Path = HERE) -> None:
    print("$", " ".join(cmd), flush=True)
    if log:
        with log.open("a") as f:
            subprocess.run(cmd, cwd=cwd, check=True, stdout=f, stderr=subprocess.STDOUT)
    else:
        subprocess.run(cmd, cwd=cwd, check=True)


def render_symbol_scenes() -> None:
    """The dicegen scenes symbol dice are judged on (never the symbol evaluation set): 800 scenes of
    random symbol dice, and 200 of dice printed with each shipped kit's art (resumable, seeded)."""
    run([PY, "models/training/render_symbol_scenes.py", "--out", "cache/dicegen-symbols", "--count", str(SYMBOL_SCENES["symbols"])], cwd=REPO)
    for kit in ("corellian-spike", "face-off"):
        run(["npx", "tsx", "scripts/kit-art-png.ts", f"src/lib/dice/kits/{kit}", f"cache/kit-art/{kit}"], cwd=REPO)
        run([PY, "models/training/render_symbol_scenes.py", "--kit-art", f"cache/kit-art/{kit}", "--out", f"cache/dicegen-kit-{kit}", "--count", str(SYMBOL_SCENES["kit_art"])], cwd=REPO)


def pip_figures(onnx: Path) -> tuple[float, float]:
    """Held-out two-pass F1 and exact rolls (%) of a detector export with the die-face reader behind it."""
    res = subprocess.run(["npm", "run", "--silent", "choose-die-face-rule", "--", "--model", str(onnx)],
                         cwd=REPO, check=True, capture_output=True, text=True).stdout
    m = re.search(r"held-out F1 ([\d.]+)%, exact ([\d.]+)%", res)
    if not m:
        sys.exit(f"choose-die-face-rule printed no choice for {onnx}:\n{res}")
    return float(m.group(1)), float(m.group(2))


def symbol_figures(onnx: Path) -> tuple[float, float]:
    """Symbol dice found (boxes only) on the dicegen symbol and kit-art scenes: F1 and scenes counted
    right (%), means over the sets and distances of the read rule chosen for this export."""
    res = subprocess.run(["npm", "run", "--silent", "choose-symbol-rule", "--", "--model", str(onnx)],
                         cwd=REPO, check=True, capture_output=True, text=True).stdout
    m = re.search(r"^summary: (.*)$", res, re.M)
    if not m:
        sys.exit(f"choose-symbol-rule printed no summary for {onnx}:\n{res}")
    read = json.loads(m.group(1))["read"]
    return 100 * read["f1"], 100 * read["countRight"]


def choose_checkpoint(checkpoints: list[Path], work: Path) -> Path:
    """The checkpoint whose export finds and reads both kinds of dice best on selection data.

    Pip dice: the held-out slice read with the die-face reader behind the detector (what ships is
    the pair, so the pair is measured: two-pass F1, exact rolls). Symbol dice: the dicegen symbol
    and kit-art scenes, boxes only, read as the app reads them (`choose-symbol-rule`). Kept: the
    best sum of the two F1s, then of exact rolls and scenes counted right. Why both: the deeper
    detector of 2026-11-24 read the pip held-out slice better and the shipped kits worse, which a
    choice on pips alone could not see (models/record/standard-dice.md).
    """
    if not checkpoints:
        sys.exit("no step*.pt checkpoints in the last stage: train it first (--from-step 3)")
    render_symbol_scenes()
    best: tuple[float, float, Path] | None = None
    for ck in checkpoints:
        out = work / ck.stem
        out.mkdir(parents=True, exist_ok=True)
        run([PY, "export_model.py", "--checkpoint", str(ck), "--out-dir", str(out)])
        f1, exact = pip_figures(out / "dice-pips.onnx")
        sym_f1, sym_count = symbol_figures(out / "dice-pips.onnx")
        print(f"{ck.name}: pips two-pass held-out F1 {f1:.1f}%, exact {exact:.1f}%; symbol scenes F1 {sym_f1:.1f}%, "
              f"counted right {sym_count:.1f}%", flush=True)
        key = (f1 + sym_f1, exact + sym_count)
        if best is None or key > best[:2]:
            best = (*key, ck)
    assert best is not None
    print(f"chosen: {best[2]} (F1 pips + symbols {best[0]:.1f}, exact + counted right {best[1]:.1f})", flush=True)
    return best[2]


def train_from_export(export: Path, out: Path, spec: dict, export_is_deeper: bool) -> None:
    """The deeper net trained by `spec` (SYMBOL_DETECTOR, PIP_DETECTOR) from an export's weights:
    first the export with its BatchNorm re-calibrated (10 steps at lr 1e-6; the small net's export
    in its own shape, whose tensors that agree then start the deeper net), then the run in `out`."""
    calib = out.with_name(out.name + "-calib")
    arch = ["--widths", spec["widths"], "--depths", spec["depths"]]
    run([PY, "train.py", "--init-onnx", str(export), *(arch if export_is_deeper else []), "--steps", "10", "--eval-every", "10",
         "--lr", "1e-6", "--out", str(calib)], log=calib.with_suffix(".log"))
    run([PY, "train.py", "--out", str(out), "--steps", str(spec["steps"]), "--init", str(calib / "step000010.pt"), *arch,
         "--lr", str(spec["lr"]), "--seed", str(spec["seed"]), "--focus", str(spec["focus"]), "--split-weights", spec["split_weights"],
         "--eval-every", str(spec.get("eval_every", 1000)), "--threads", str(RECIPE["threads"]),
         "--synthetic", *[str(HERE / "cache" / name) for name in spec["synthetic"]]], log=out.with_suffix(".log"))


def best_checkpoint(out: Path, candidates: Path, name: str, measure, what: str) -> Path:
    """Every checkpoint of `out` exported as `name` into `candidates` and measured; the one with the
    best `measure` (a tuple, compared in order) is returned."""
    best: tuple[tuple[float, float], Path] | None = None
    for ck in sorted(out.glob("step*.pt")):
        cand = candidates / ck.stem
        cand.mkdir(parents=True, exist_ok=True)
        run([PY, "export_model.py", "--checkpoint", str(ck), "--out-dir", str(cand), "--name", name])
        key = measure(cand / f"{name}.onnx")
        print(f"{ck.name}: {what} {key[0]:.1f}%, {key[1]:.1f}%", flush=True)
        if best is None or key > best[0]:
            best = (key, ck)
    if best is None:
        sys.exit(f"no step*.pt checkpoints in {out}")
    print(f"{name} chosen: {best[1]}", flush=True)
    return best[1]


def train_symbol_detector(run_dir: Path) -> None:
    """Step 6: the symbol-dice detector (SYMBOL_DETECTOR), from the shipped pip detector's export;
    its checkpoint chosen on the dicegen symbol and kit-art scenes alone as choose-symbol-rule chooses
    a rule: most scenes counted right, then F1."""
    out = run_dir / "symbols"
    train_from_export(REPO / "models" / "dice-pips.onnx", out, SYMBOL_DETECTOR, export_is_deeper=False)
    render_symbol_scenes()
    best = best_checkpoint(out, run_dir / "symbol-candidates", "dice-symbols", lambda onnx: symbol_figures(onnx)[::-1],
                           "symbol scenes counted right, F1")
    run([PY, "export_model.py", "--checkpoint", str(best), "--name", "dice-symbols"])
    run(["npm", "run", "--silent", "choose-symbol-rule", "--", "--model", str(REPO / "models" / "dice-symbols.onnx"), "--write"], cwd=REPO)


def refine_pip_detector(run_dir: Path) -> None:
    """Step 7: the pip detector (PIP_DETECTOR), from the symbol detector's export; its checkpoint
    chosen on the held-out slice with the die-face reader behind it (the pair ships), then the
    reader's rules chosen for it until they hold (two runs of choose-die-face-rule --write), then
    its own `symbolDice` rule (used only by a build without dice-symbols.onnx)."""
    out = run_dir / "pips-deep"
    train_from_export(REPO / "models" / "dice-symbols.onnx", out, SYMBOL_DETECTOR | PIP_DETECTOR, export_is_deeper=True)
    best = best_checkpoint(out, run_dir / "pips-deep-candidates", "dice-pips", pip_figures, "pips two-pass held-out F1, exact")
    run([PY, "export_model.py", "--checkpoint", str(best)])
    for _ in range(2):
        run(["npm", "run", "--silent", "choose-die-face-rule", "--", "--write"], cwd=REPO)
    run(["npm", "run", "--silent", "choose-symbol-rule", "--", "--model", str(REPO / "models" / "dice-pips.onnx"), "--write"], cwd=REPO)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--from-step", type=int, default=1)
    ap.add_argument("--smoke", action="store_true", help="every step at toy scale in a fresh clone under /tmp (minutes)")
    ap.add_argument("--smoke-run", action="store_true", help=argparse.SUPPRESS)  # inside the clone --smoke makes
    a = ap.parse_args()
    if os.environ.get("CI"):
        sys.exit("npm run train trains a model for hours on the CPU; it never runs in CI.")
    if a.smoke:
        smoke()
        return
    if a.smoke_run:
        shrink_for_smoke()
    sys.path.insert(0, str(HERE))
    import datasets as ds

    root = ds.data_root()  # exits with a clear message when the photographs are missing
    print(f"labelled photographs: {root}")
    r = RECIPE
    run_dir = HERE / "runs" / r["name"]
    run_dir.mkdir(parents=True, exist_ok=True)
    timings_path = run_dir / "timings.json"
    timings = json.loads(timings_path.read_text()) if timings_path.exists() else {}

    if a.from_step <= 2:
        t0 = time.time()
        for s in r["synthetic"]:
            run([PY, "render_cache.py", "--out", str(HERE / "cache" / s["name"]), "--count", str(s["count"]), "--seed", str(s["seed"]),
                 "--preset", s.get("preset", "default")])
        timings["render_s"] = timings.get("render_s", 0) + round(time.time() - t0)
        timings_path.write_text(json.dumps(timings, indent=1))

    ckpt = None
    if a.from_step <= 3:
        t0 = time.time()
        for i, st in enumerate(r["stages"]):
            out = run_dir / f"stage{i}"
            args = [PY, "train.py", "--out", str(out), "--steps", str(st["steps"]), "--crop", str(st["crop"]),
                    "--batch", str(st["batch"]), "--lr", str(st["lr"]), "--seed", str(r["seed"] + i),
                    "--size", str(r["input_size"]), "--threads", str(r["threads"]),
                    "--synthetic-weight", str(st["synthetic_weight"]), "--real-weight", str(st["real_weight"]),
                    "--synthetic", *[str(HERE / "cache" / name) for name in st.get("synthetic", ("synth-a", "synth-b"))]]
            if st.get("focus"):
                args += ["--focus", str(st["focus"])]
            if st.get("split_weights"):
                args += ["--split-weights", st["split_weights"]]
            if st.get("small_dice_boost"):
                args += ["--small-dice-boost", str(st["small_dice_boost"])]
            if st.get("eval_every"):
                args += ["--eval-every", str(st["eval_every"])]
            if ckpt:
                args += ["--init", str(ckpt)]
            run(args, log=out.with_suffix(".log"))
            ckpt = out / "last.pt"
        timings["train_s"] = round(time.time() - t0)
        timings_path.write_text(json.dumps(timings, indent=1))

    last_stage = run_dir / f"stage{len(r['stages']) - 1}"
    if a.from_step <= 4:
        base = run_dir / "die-face"
        scenes = ["--scenes", str(r["die_face_scenes"])] if r.get("die_face_scenes") else []
        run([PY, "train_die_face.py", "--steps", str(r["die_face_steps"]), "--widths", r["die_face_widths"], *scenes,
             "--run", str(base), "--out", str(base / "export")], log=run_dir / "die-face.log")
        hard = r["die_face_hard_negatives"]
        run([PY, "train_die_face.py", "--init-onnx", str(base / "export" / "die-face.onnx"), "--widths", r["die_face_widths"],
             "--steps", str(hard["steps"]), "--lr", str(hard["lr"]), "--seed", str(hard["seed"]), "--eval-every", "500",
             "--motion-blur", hard["motion_blur"], "--hard-negatives", str(last_stage / "last.pt"), "--run", str(run_dir / "die-face-hard"), *scenes],
            log=run_dir / "die-face-hard.log")
        # the app runs the reader in int8 (the float graph kept as models/training/die-face-float.onnx)
        run([PY, "quantize_die_face.py", "--float", str(REPO / "models" / "die-face.onnx")], log=run_dir / "die-face-int8.log")

    if a.from_step <= 5:
        ckpt = choose_checkpoint(sorted(last_stage.glob("step*.pt")), run_dir / "candidates")
        run([PY, "export_model.py", "--checkpoint", str(ckpt)])
        run(["npm", "run", "--silent", "choose-die-face-rule", "--", "--write"], cwd=REPO)
        # the export's sidecar is new: choose how symbol dice are found with this detector again,
        # on the scenes choose_checkpoint rendered
        run(["npm", "run", "--silent", "choose-symbol-rule", "--", "--model", str(REPO / "models" / "dice-pips.onnx"), "--write"], cwd=REPO)

    if a.from_step <= 6:
        train_symbol_detector(run_dir)

    if a.from_step <= 7:
        refine_pip_detector(run_dir)

    if a.from_step <= 8:
        lat = subprocess.run(["node", str(HERE / "latency.mjs"), str(REPO / "models" / "dice-pips.onnx"), "50", str(r["input_size"])],
                             cwd=REPO, check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1]
        (run_dir / "latency.json").write_text(lat + "\n")
        print("latency:", lat)
        if (REPO / "scripts" / "eval.ts").exists():
            ev = subprocess.run(["npm", "run", "--silent", "eval", "--", "--json"], cwd=REPO, check=True, capture_output=True, text=True)
            (run_dir / "eval.json").write_text(ev.stdout)
            print("npm run eval: written to", run_dir / "eval.json")
        else:
            print("scripts/eval.ts is missing: no val figures for the model card")

    run([PY, "model_card.py", "--run", str(run_dir)])


if __name__ == "__main__":
    main()
