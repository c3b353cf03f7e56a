"""Write models/MODEL_CARD.md from a training run's figures (pipeline.py calls it).

Reads: the recipe (pipeline.RECIPE), runs/<name>/timings.json, latency.json, eval.json
(`npm run eval -- --json` output), models/dice-pips.json, the ONNX file, and the hand-written
findings in card_notes.md (what fails and why, from looking at the model's mistakes).
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent
MODELS = HERE.parent


def pct(v) -> str:
    return "n/a" if v is None else f"{100 * v:.1f}"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--run", required=True)
    a = ap.parse_args()
    import sys
    sys.path.insert(0, str(HERE))
    from model import DiceDetector, count_params
    from pipeline import PIP_DETECTOR, RECIPE, SYMBOL_DETECTOR

    run = Path(a.run)
    sidecar = json.loads((MODELS / "dice-pips.json").read_text())
    onnx_bytes = (MODELS / "dice-pips.onnx").stat().st_size
    timings = json.loads((run / "timings.json").read_text()) if (run / "timings.json").exists() else {}
    latency = json.loads((run / "latency.json").read_text()) if (run / "latency.json").exists() else None
    ev = json.loads((run / "eval.json").read_text()) if (run / "eval.json").exists() else None
    # the exported detector: the deeper net of step 7 when the run made it, else the last stage's
    refined = run / "pips-deep" / "last.pt"
    ck = torch.load(refined if refined.exists() else sorted(run.glob("stage*/last.pt"))[-1], map_location="cpu")
    arch = ck["arch"]
    params = count_params(DiceDetector(tuple(arch["widths"]), tuple(arch["depths"]), arch["fpn"], 3, arch["head_depth"], arch.get("p4", 0)))
    S = sidecar["inputSize"]
    cells = sum((S // s) ** 2 for s in (8, 16, 32))
    stride = sidecar["inputStride"]  # export_model.py: dynamic input sides, padded to this multiple

    lines = [
        "# Model card: `dice-pips` (Rollcall's dice detector)",
        "",
        "Finds every die in a photo (pip dice and dice of any other kind) and reads the top face of",
        "pip dice. Made by `npm run train` (`models/training/`); this card is written by",
        "`models/training/model_card.py` from that run's figures, plus the findings in",
        "`models/training/card_notes.md`.",
        "",
        "## Interface (docs/architecture.md)",
        "",
        f"- Input `images`: float32 `[1, 3, H, W]`, RGB in [0, 1], letterboxed (scale `{S} / max(w, h)`, centred, pad 114/255), the",
        f"  short side padded only up to a multiple of {stride} (`inputStride`: {S}×{-(-S * 9 // (16 * stride)) * stride} for a 16:9 frame).",
        f"- Output `detections`: float32 `[1, N, 12]` ({cells} rows for a square frame) — one row per cell of the stride-8, 16 and 32 grids: `cx, cy, w, h`",
        "  (input pixels), objectness (sigmoid), then 7 class probabilities (softmax): `1`…`6`, `other`.",
        f"- Sidecar `dice-pips.json`: score threshold {sidecar['scoreThreshold']}, class-agnostic NMS IoU {sidecar['iouThreshold']},",
        "  chosen on the held-out slice of the train splits (never on val).",
        *([f"- Symbol dice (`symbolDice`, `npm run choose-symbol-rule`, on dicegen scenes): objectness ≥ {sidecar['symbolDice']['scoreThreshold']}, "
           f"boxes > {sidecar['symbolDice']['containment']} inside a better one dropped; the frame read at "
           f"{', '.join(str(v) for v in sidecar['symbolDice'].get('inputSizes', [S]))} (long side)"
           + (f", the reads pooled: boxes of objectness ≥ {f['readThreshold']}, IoU > {f['sameDieIoU']} one die, found by {f['votes']} reads."
              if (f := sidecar['symbolDice'].get('fusion')) else ".")]
          if sidecar.get('symbolDice') else []),
        f"- ONNX opset 13, {onnx_bytes / 1e6:.2f} MB, {params:,} parameters; runs in onnxruntime-web (wasm) and onnxruntime-node.",
        "",
        "## Architecture, and why",
        "",
        "A single-stage, anchor-free detector (FCOS-style): every output cell predicts the distances",
        "to the four sides of the die around it, an objectness score and the top-face class.",
        "",
        f"- Backbone: a 3×3 stride-2 stem then depthwise-separable blocks (ReLU, residual where shapes",
        f"  allow), widths {arch['widths']}, depths {arch['depths']}, down to stride 32.",
        f"- Neck: a three-level FPN (strides 8, 16, 32; {arch['fpn']} channels), top-down with nearest upsampling.",
        f"- Heads: per level {arch['head_depth']} depthwise-separable blocks and a 1×1 convolution to 4 + 1 + 7 outputs.",
        "- Decoding in the graph: `exp` of the side distances × stride around the cell centre → `cx, cy, w, h`;",
        "  sigmoid and softmax; all levels concatenated.",
        "",
        "Why anchor-free with stride-8 cells: dice are small (median ~6% of the frame side, 2–3% at the",
        "low end: 10–15 px at this input), nearly square and never nested, so one positive region per die",
        "near its centre is the natural target and anchors would only add tuning. Stride 8 puts 1–2 cells",
        "on the smallest dice; the stride-16/32 levels take the large close-ups (up to 40% of the frame).",
        "Depthwise-separable blocks with ReLU keep the FLOPs inside the wasm budget (these ops are the",
        "fast path of onnxruntime's CPU kernels); width is spent at stride 8, where the pips are read.",
        f"Input {S} px: the smallest dice keep pips of 2–3 px; at 416 px they fall to ~2 px, and 640 px",
        "would cost ~1.6× the time. Measured before training (untrained nets exported and timed in",
        "onnxruntime-web with one thread): 448 px ≈ 21 ms, 512 px ≈ 23–26 ms for this width.",
        "",
        "## Data",
        "",
        "- Real photographs, train splits only, minus a fixed held-out 15% of each (by file-name hash)",
        "  used for model selection and thresholds: byler-train, matteop65-train, epanemu-train.",
        "  matteop65 boxes enclose only the pip pattern: they are turned into whole-die boxes centred on",
        "  the pattern and sized from the image's 4/5/6 patterns (×1.65), with a low box-regression weight",
        "  (0.2); their values and centres are used fully. epanemu's stretching is covered by",
        "  aspect-ratio jitter (0.8–1.25) on all data.",
        "- Synthetic photographs from `models/training/dicegen` (README there): "
        + ", ".join(f"{s['name']} ({s['count']} scenes, seed {s['seed']})" for s in RECIPE["synthetic"]) + ".",
        "  Pip dice of many colours and materials, logos on the 1 face, symbol dice (class `other`),",
        "  2–40% of the frame, 1–25 dice, camera tilt to 45°, many table surfaces, clutter, hands,",
        "  hard/soft light, shadows, glare, blur, noise, JPEG.",
        "- Augmentation of every training crop: zoom 0.6–1.7 (dice kept ≥ 9 px), aspect stretch,",
        "  rotation (90° steps and ±25°), flips, hue/saturation/brightness, contrast, gamma, colour cast,",
        "  uneven light, grey, blur/motion blur, noise, JPEG; crops taken from the letterboxed frame",
        "  (pad included) as the app feeds it.",
        "",
        "## Training",
        "",
        f"- From scratch (no pretrained weights), CPU only, {RECIPE['threads']} threads on a shared 2-core machine.",
    ]
    for i, st in enumerate(RECIPE["stages"]):
        focus = f", {int(100 * st['focus'])}% of them centred on a die" if st.get("focus") else ""
        lines.append(f"- Stage {i}: {st['steps']} steps of {st['batch']} crops of {st['crop']} px{focus}, AdamW lr {st['lr']} (warm-up, cosine),"
                     f" synthetic:real sampling weight {st['synthetic_weight']}:{st['real_weight']}.")
    if refined.exists():
        pd = SYMBOL_DETECTOR | PIP_DETECTOR
        lines.append(f"- Then the symbol detector's deeper net (widths {pd['widths']}, depths {pd['depths']}; step 6) trained on as a pip"
                     f" detector (step 7): {pd['steps']} steps, AdamW lr {pd['lr']}, seed {pd['seed']}, split weights {pd['split_weights']},"
                     f" synthetic {', '.join(pd['synthetic'])}; of its checkpoints the one whose pair reads the held-out slice best is exported.")
    lines.append("- The exponential moving average of the weights is what is exported.")
    lines += [
        "- Assignment: cells inside the die's box and within 1.5 strides of its centre, on the level that",
        "  takes its size (longest side < 64 px → stride 8, 44–160 → 16, ≥ 120 → 32); the cell holding the",
        "  centre always. Losses: objectness BCE (dice mostly hidden or cut by the frame are ignored),",
        "  class cross-entropy (label smoothing 0.02), GIoU on the box.",
        f"- Time on this machine: rendering {timings.get('render_s', 'n/a')} s, training {timings.get('train_s', 'n/a')} s"
        " (wall clock, the CPU shared with the rest of the team).",
        "",
        "## Results",
        "",
    ]
    if ev:
        lines += [
            "`npm run eval` (onnxruntime-node, the app's own pre/post-processing) on every val split:",
            "",
            "| split | images | dice | P | R | F1 | F1 @IoU≥0.5 | detection recall | exact roll |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
        ]
        for d in ev["datasets"] + [{"name": "overall", **ev["overall"]}]:
            iou = d.get("perDieIoU50")
            lines.append(f"| {d['name']} | {d['images']} | {d['dice']} | {pct(d['perDie']['precision'])} | {pct(d['perDie']['recall'])} | "
                         f"{pct(d['perDie']['f1'])} | {pct(iou['f1']) if iou else '–'} | {pct(d['detectionRecall'])} | {pct(d['exactRollAccuracy'])} |")
        lines += ["", "Rates in %. Targets: per-die F1 ≥ 98 and exact roll ≥ 95 on every split."]
    else:
        lines.append("No `npm run eval` figures in this run (scripts/eval.ts was missing).")
    lines += ["", "Held-out slice of the train splits (Python evaluation, the thresholds above):", "",
              "| held-out | images | dice | F1 | exact roll | detection recall |", "| --- | --- | --- | --- | --- | --- |"]
    for k, r in sidecar.get("holdout", {}).items():
        lines.append(f"| {k} | {r['images']} | {r['dice']} | {pct(r['f1'])} | {pct(r['exact'])} | {pct(r['detect_recall'])} |")
    lines += [""]
    if latency:
        lines += [f"Latency: median {latency['medianMs']} ms per {S}×{S} frame (min {latency['minMs']} ms), onnxruntime-web 1.30 wasm,",
                  "ONE thread, in Node on this machine's CPU (`node models/training/latency.mjs models/dice-pips.onnx`;",
                  "the machine is shared, so figures vary by a few ms). `npm run bench` measures it in the app's worker.", ""]
    notes = HERE / "card_notes.md"
    if notes.exists():
        lines += [notes.read_text().strip(), ""]
    card = MODELS / "MODEL_CARD.md"
    # The card covers three models; this run rewrites only the detector's part, between the
    # markers (the die-face reader's and the face embedder's parts come from their own runs).
    body = [("#" + l) if l.startswith("## ") else l for l in lines[1:]]
    section = "\n".join([DETECTOR_BEGIN, "## Detector — `models/dice-pips.onnx` (written by `models/training/model_card.py`)", *body, DETECTOR_END])
    old = card.read_text() if card.exists() else ""
    if DETECTOR_BEGIN in old and DETECTOR_END in old:
        text = old[: old.index(DETECTOR_BEGIN)] + section + old[old.index(DETECTOR_END) + len(DETECTOR_END):]
    else:
        text = old.rstrip() + "\n\n" + section + "\n"
    card.write_text(text)
    print("wrote", card)


DETECTOR_BEGIN = "<!-- detector:begin (models/training/model_card.py rewrites this part) -->"
DETECTOR_END = "<!-- detector:end -->"



if __name__ == "__main__":
    main()
