#!/bin/bash
# Runs on the lent GPU machine (the device tool, carry [".gpu", "models/training/cache/hard-negatives"]),
# from the repo root, after prepare.sh (any init: the reader's runs below start from scratch or
# from .gpu/init/init.onnx when INIT=yes):
#   bash .gpu/train-reader.sh RUN_NAME WIDTHS LR SEED MINUTES [train_die_face.py options...]
# Trains the die-face reader with its batches made by WORKERS data workers (default 15; two runs in
# one call: start each with WORKERS=7 in the background and `wait`), the schedule following the
# clock, the shipped detector's false boxes taught as `none` (the hard-negative cache mined on
# the CPU for models/dice-pips.onnx, read back under .gpu/data), and leaves its best
# and last steps in $OUT (RUN_NAME-best.pt, RUN_NAME-stepN.pt) with its log. Quantize and choose its rules back on the CPU (models/training/README.md).
set -u
name=$1 widths=$2 lr=$3 seed=$4 minutes=$5; shift 5
cp -r .gpu/share/* /usr/share/
export ROLLCALL_DATA=$PWD/.gpu/data PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
init=()
[ "${INIT:-no}" = yes ] && init=(--init-onnx ../../.gpu/init/init.onnx)
cd models/training
# a hung run still gives the call back in time to read its log (the clock ends a healthy one)
timeout "$(python3 -c "print(int($minutes * 60 + 150))")" python3 train_die_face.py --device cuda --workers "${WORKERS:-15}" --minutes "$minutes" --steps 1000000 \
  --widths "$widths" --lr "$lr" --seed "$seed" --scenes 6000 --eval-every 1000 --hard-negatives ../dice-pips.onnx \
  --motion-blur 0.15,12 --out "runs/$name" --run "runs/$name" "${init[@]}" "$@" > "$OUT/$name.log" 2>&1
# the best step and the last one come back as files of their own: the device tool returns files
# of at most 16 MiB, and a wider reader's run folder packed (2026-12-04: best, four steps and a torch 2
# export with its weights in a .onnx.data file beside it) was 21 MB and did not come back. Export and
# quantize back on the CPU (export_die_face.py loads a GPU checkpoint there).
cp "runs/$name/best.pt" "$OUT/$name-best.pt"
last=$(ls "runs/$name"/step*.pt 2>/dev/null | tail -1)
[ -n "$last" ] && cp "$last" "$OUT/$name-$(basename "$last")"
grep "held out" "$OUT/$name.log" | tail -3
