#!/bin/bash
# Runs on the lent GPU machine (the device tool, carry [".gpu"]), from the repo root:
#   bash .gpu/train-detector.sh RUN_NAME LR SEED SECONDS [train.py options...]
# Renders synth-a / synth-b (their first SYNTH_A / SYNTH_B scenes, default 1,600 / 600: about half
# a 10-minute call on 16 cores; halve them when the lend is short), then trains from
# .gpu/init/init.pt, or from .gpu/init/init.onnx (a shipped export, BatchNorm re-calibrated by
# train.py --init-onnx) when prepare.sh was given one, with the schedule following the clock, and
# leaves the run folder in $OUT as RUN_NAME.tgz. SYNTH_S=N (default 0: none) also renders N symbol
# rolls (render_cache.py --preset symbol-rolls --seed 13, as the CPU runs of 2026-11-25) and draws
# them twice as often as a cache of their own: the symbol dice the detector misses
# (models/record/symbol-dice.md).
# Two runs in one call share the GPU: RENDER=only renders and exits; then start each run with
# RENDER=no and WORKERS=7 (default 15 data workers), in the background, and `wait`. SECONDS counts
# from each run's own start.
set -u
name=$1 lr=$2 seed=$3 budget=$4; shift 4
start=$SECONDS
render=${RENDER:-yes}
cp -r .gpu/share/* /usr/share/
export ROLLCALL_DATA=$PWD/.gpu/data PYTHONUNBUFFERED=1 OMP_NUM_THREADS=1
cd models/training
synthetic=(cache/synth-a cache/synth-b)
[ "${SYNTH_S:-0}" -gt 0 ] && synthetic+=(cache/synth-s cache/synth-s)
if [ "$render" != no ]; then
  for i in $(seq 0 15); do python3 render_cache.py --out cache/synth-a --count "${SYNTH_A:-1600}" --seed 11 --shard $i/16 > /dev/null & done
  for i in $(seq 0 7); do python3 render_cache.py --out cache/synth-b --count "${SYNTH_B:-600}" --seed 12 --preset mixed-hard --shard $i/8 > /dev/null & done
  if [ "${SYNTH_S:-0}" -gt 0 ]; then
    for i in $(seq 0 7); do python3 render_cache.py --out cache/synth-s --count "$SYNTH_S" --seed 13 --preset symbol-rolls --shard $i/8 > /dev/null & done
  fi
  wait
  echo "rendered in $((SECONDS - start)) s"
  [ "$render" = only ] && exit 0
fi
init=(--init ../../.gpu/init/init.pt)
[ -f ../../.gpu/init/init.onnx ] && init=(--init-onnx ../../.gpu/init/init.onnx)
left=$((budget - (SECONDS - start) - 35))
echo "$name: training for $left s"
timeout $((left + 25)) python3 train.py --device cuda --minutes "$(python3 -c "print($left / 60)")" --steps 200000 \
  --crop 384 --batch 32 --size 512 --threads 1 --workers "${WORKERS:-15}" --focus 0.3 --split-weights epanemu-train=1.8 --eval-every 1000 \
  --synthetic "${synthetic[@]}" "${init[@]}" --out "runs/$name" --lr "$lr" --seed "$seed" "$@" > "$OUT/$name.log" 2>&1
tar czf "$OUT/$name.tgz" -C runs "$name"
grep -o '"step": [0-9]*, "holdout".\{0,60\}' "$OUT/$name.log" | tail -4
