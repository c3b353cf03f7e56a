"""Exports a face-embedder checkpoint to ONNX with a sidecar (for trying a checkpoint while
training runs; train_face_embed.py exports the final model itself, thresholds included).

    /usr/bin/python3 models/training/export_face_embed.py CHECKPOINT OUT.onnx [--threshold T --margin M]
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from face_embed_model import FaceEmbedder  # noqa: E402
from train_face_embed import CROP_MARGIN, DIM, K, export  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('checkpoint')
    ap.add_argument('out')
    ap.add_argument('--threshold', type=float, default=-1.0)
    ap.add_argument('--margin', type=float, default=0.0)
    args = ap.parse_args()
    torch.set_num_threads(1)
    ck = torch.load(args.checkpoint)
    model = FaceEmbedder(dim=DIM)
    model.load_state_dict(ck['model'])
    # checkpoints since the 80 px run carry their crop size; earlier ones were all 64 px
    meta = {'inputSize': ck.get('inputSize', K), 'dim': DIM, 'cropMargin': CROP_MARGIN, 'input': 'crops', 'output': 'embeddings',
            'threshold': args.threshold, 'ambiguityMargin': args.margin, 'training': {'steps': ck.get('step')}}
    export(model, args.out, args.out[:-5] + '.json', meta)
    print('wrote', args.out)


if __name__ == '__main__':
    main()
