#!/bin/bash
# Fills .gpu/ (git-ignored; under the device tool's 64 MiB) with what a detector or reader run on a lent GPU
# machine needs and that the working tree lacks: the train splits (never the val splits), the
# fonts and icons dicegen draws with (the machine's image has none), and the checkpoint to start
# from: a checkpoint, or a shipped export (.onnx) when no checkpoint is left. Usage, from the repo
# root: bash models/training/gpu/prepare.sh CHECKPOINT.pt|EXPORT.onnx
set -euo pipefail
ckpt=${1:?usage: prepare.sh CHECKPOINT.pt or EXPORT.onnx}
data=${ROLLCALL_DATA:-../shared/data}
[ -d "$data/dice-photos" ] || { echo "error: the labelled photographs were not found at $data/dice-photos" >&2; exit 2; }
rm -rf .gpu && mkdir -p .gpu/data/dice-photos .gpu/share/fonts/truetype/dejavu .gpu/share/icons/Adwaita .gpu/init
for split in byler-train matteop65-train epanemu-train; do cp -r "$data/dice-photos/$split" .gpu/data/dice-photos/; done
cp -r /usr/share/icons/Adwaita/96x96 .gpu/share/icons/Adwaita/
# nine of the 22 DejaVu faces: all of them would not fit beside the photos
for f in DejaVuSans DejaVuSans-Bold DejaVuSans-ExtraLight DejaVuSansCondensed DejaVuSansMono DejaVuSansMono-Bold \
         DejaVuSerif DejaVuSerif-Bold DejaVuSerif-Italic; do
  cp "/usr/share/fonts/truetype/dejavu/$f.ttf" .gpu/share/fonts/truetype/dejavu/
done
case $ckpt in *.onnx) cp "$ckpt" .gpu/init/init.onnx ;; *) cp "$ckpt" .gpu/init/init.pt ;; esac
cp models/training/gpu/train-detector.sh models/training/gpu/train-reader.sh .gpu/
du -sh .gpu
