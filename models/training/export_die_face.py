"""Exports a die-face reader checkpoint to ONNX with its sidecar (for trying a checkpoint while
training runs; train_die_face.py exports the selected model itself, with its held-out figures).

    /usr/bin/python3 models/training/export_die_face.py runs/die-face/best.pt /tmp/die-face.onnx
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from die_face_data import CROP_MARGIN, K  # noqa: E402
from die_face_model import CLASSES, DieFaceNet  # noqa: E402
from train_die_face import export  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('checkpoint')
    ap.add_argument('out')
    args = ap.parse_args()
    torch.set_num_threads(1)
    ck = torch.load(args.checkpoint, map_location='cpu')  # a lent GPU's checkpoints load here too
    net = DieFaceNet(tuple(ck.get('widths', (16, 32, 64, 96))))
    net.load_state_dict(ck.get('ema', ck['model']))
    # checkpoints from before train_die_face.py --crop-size were all K a side
    meta = {'inputSize': ck.get('inputSize', K), 'classes': list(CLASSES), 'cropMargin': CROP_MARGIN, 'input': 'crops', 'output': 'probs',
            'training': {'step': ck.get('step'), 'checkpoint': os.path.basename(args.checkpoint)}}
    export(net, args.out, args.out[:-5] + '.json', meta)
    print('wrote', args.out)


if __name__ == '__main__':
    main()
