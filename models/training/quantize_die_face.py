"""Quantizes the die-face reader to int8, the graph the app runs (`models/die-face.onnx`).

    /usr/bin/python3 models/training/quantize_die_face.py                     # the shipped reader again
    /usr/bin/python3 models/training/quantize_die_face.py --float models/die-face.onnx   # a new float export

Why: onnxruntime-web's wasm runs the reader's plain 3x3 convolutions as int8 matrix products
(QLinearConv) about 1.5x as fast as in float32 (the die-face pass of a 12-dice frame 42-58 ms ->
34-35 ms with one thread, `npm run bench -- --only detector`), and the file is a quarter of the size. The
detector stays float: its depthwise convolutions run slower in int8 on wasm (models/record/standard-dice.md).

How: PyTorch's own post-training static quantization (torch.ao.quantization, FX graph mode):
weights int8 per output channel, activations uint8 per tensor from histogram observers, calibrated
on batches of training crops (die_face_data.Mixer: the train splits' real dice, synthetic dice,
`other` and `none`; never the held-out slice or val). The first convolution stays float: it sees
the centred image, which costs little and keeps the input exact. Exported as ONNX QDQ (opset 13);
onnxruntime fuses it into QLinearConv / QGemm.

The float graph is kept as `models/training/die-face-float.onnx` when `--out` is `models/` (the
shipped reader; a candidate quantized into a scratch folder leaves it alone): training goes on
from it (`train_die_face.py --init-onnx`), as an int8 graph cannot. The sidecar `models/die-face.json`
keeps every key and gains `quantization`: how it was made and how closely the int8 reader agrees
with the float one on the held-out crops.
"""
import argparse
import json
import os
import shutil
import sys
import time

import onnx
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from datasets import data_root  # noqa: E402
from die_face_data import K, Mixer, RealCrops, holdout_set  # noqa: E402
from die_face_model import DieFaceNet, WithSoftmax  # noqa: E402
from from_onnx import is_quantized, load_onnx_weights  # noqa: E402
from train_die_face import SPLIT_NAMES, evaluate, to_tensor  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
FLOAT_MASTER = os.path.join(ROOT, 'models', 'training', 'die-face-float.onnx')
# left float (see above); FX names modules by their path in WithSoftmax
FLOAT_MODULES = ('net.features.0',)


def widths_of(path):
    """The four stage widths of a float DieFaceNet export: the out-channels of convs 1, 3, 5, 7."""
    model = onnx.load(path)
    inits = {i.name: i for i in model.graph.initializer}
    outs = [inits[n.input[1]].dims[0] for n in model.graph.node if n.op_type == 'Conv']
    if len(outs) != 8:
        raise SystemExit(f'{path}: {len(outs)} Conv nodes; a die-face reader has 8')
    return tuple(outs[0::2])


def qconfig_mapping():
    from torch.ao.quantization import (QConfig, QConfigMapping, HistogramObserver,
                                       default_per_channel_weight_observer, default_weight_observer)
    act = HistogramObserver.with_args(reduce_range=False)
    mapping = QConfigMapping().set_global(QConfig(activation=act, weight=default_per_channel_weight_observer))
    # per-channel weights for the linear head do not export to ONNX in this PyTorch
    mapping = mapping.set_object_type(torch.nn.Linear, QConfig(activation=act, weight=default_weight_observer))
    for name in FLOAT_MODULES:
        mapping = mapping.set_module_name(name, None)
    return mapping


@torch.no_grad()
def agreement(a, b, x):
    """Share of crops whose best class agrees, and the mean and largest change of a probability."""
    pa = torch.cat([a(to_tensor(x[i:i + 256])) for i in range(0, len(x), 256)])
    pb = torch.cat([b(to_tensor(x[i:i + 256])) for i in range(0, len(x), 256)])
    d = (pa - pb).abs()
    return {'bestClassAgrees': round(float((pa.argmax(1) == pb.argmax(1)).float().mean()), 4),
            'meanProbabilityChange': round(float(d.mean()), 5), 'largestProbabilityChange': round(float(d.max()), 4)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--float', default=FLOAT_MASTER, help='the float die-face export to quantize (kept as models/training/die-face-float.onnx)')
    ap.add_argument('--out', default=os.path.join(ROOT, 'models'), help='writes die-face.onnx there and adds `quantization` to its die-face.json')
    ap.add_argument('--batches', type=int, default=96, help='calibration batches of --batch training crops')
    ap.add_argument('--batch', type=int, default=128)
    ap.add_argument('--seed', type=int, default=7)
    ap.add_argument('--scenes', type=int, default=400, help='synthetic scenes in the calibration pool')
    ap.add_argument('--threads', type=int, default=2)
    args = ap.parse_args()
    if os.environ.get('CI'):
        sys.exit('quantize_die_face.py does not run in CI; the app ships models/die-face.onnx')
    if not os.path.exists(args.float):
        sys.exit(f'no float die-face export at {args.float}')
    if is_quantized(args.float):
        sys.exit(f'{args.float} is already an int8 graph; quantize its float export ({FLOAT_MASTER})')
    sidecar = os.path.join(args.out, 'die-face.json')
    if not os.path.exists(sidecar):
        sys.exit(f'no {sidecar}: quantize a reader whose sidecar is there (train_die_face.py --out writes one)')
    data_root()  # says clearly when ../shared/data is missing
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    torch.backends.quantized.engine = 'qnnpack'
    t0 = time.time()
    log = lambda s: print(f'[{(time.time() - t0) / 60:5.1f} min] {s}', flush=True)  # noqa: E731

    from torch.ao.quantization.quantize_fx import convert_fx, prepare_fx
    widths = widths_of(args.float)
    with open(sidecar) as f:
        k = json.load(f).get('inputSize', K)  # the crop size the reader was trained at
    net = DieFaceNet(widths)
    load_onnx_weights(net, args.float, torch.rand(1, 3, k, k))
    net.eval()
    real = RealCrops('train')
    mixer = Mixer(real, args.seed, scenes=args.scenes, log=None, k=k)
    log(f'{args.float}: widths {widths}, {k} px crops; calibrating on {args.batches} x {args.batch} training crops')
    reader = WithSoftmax(net).eval()
    prepared = prepare_fx(WithSoftmax(net).eval(), qconfig_mapping(), (torch.rand(1, 3, k, k),))
    with torch.no_grad():
        for _ in range(args.batches):
            prepared(to_tensor(mixer.batch(args.batch)[0]))
    quantized = convert_fx(prepared).eval()

    hx, hy, hsrc = holdout_set(RealCrops('holdout'), k=k)
    figures = {}
    for name, model in (('float', reader), ('int8', quantized)):
        r = evaluate(model, hx, hy, hsrc)
        model.eval()  # evaluate() leaves it in train mode
        figures[name] = {s: round(r[s]['right'], 4) for s in SPLIT_NAMES if s in r}
        figures[name]['background'] = round(r['background']['readNone'], 4)
        log(f'held-out crops read right, {name}: ' + ', '.join(f'{k} {v:.4f}' for k, v in figures[name].items()))
    agree = agreement(reader, quantized, hx)
    log(f'int8 against float on {len(hx)} held-out crops: {agree}')

    # the float master follows the shipped reader only: a candidate quantized into a scratch
    # --out must not replace the float graph the shipped int8 reader was made from
    shipping = os.path.abspath(args.out) == os.path.join(ROOT, 'models')
    if shipping and os.path.abspath(args.float) != FLOAT_MASTER:
        os.makedirs(os.path.dirname(FLOAT_MASTER), exist_ok=True)
        shutil.copyfile(args.float, FLOAT_MASTER)
    float_model = FLOAT_MASTER if shipping else os.path.abspath(args.float)
    out = os.path.join(args.out, 'die-face.onnx')
    torch.onnx.export(quantized, torch.rand(1, 3, k, k), out, input_names=['crops'], output_names=['probs'],
                      dynamic_axes={'crops': {0: 'batch'}, 'probs': {0: 'batch'}}, opset_version=13)
    with open(sidecar) as f:
        meta = json.load(f)
    meta['quantization'] = {
        'script': 'models/training/quantize_die_face.py',
        'method': 'PyTorch FX post-training static quantization (qnnpack): int8 weights per output channel, '
                  'uint8 activations per tensor (histogram observers), the first convolution float',
        'floatModel': os.path.relpath(float_model, ROOT),
        'calibration': {'batches': args.batches, 'batch': args.batch, 'seed': args.seed, 'scenes': args.scenes,
                        'crops': 'training crops (die_face_data.Mixer): the train splits, never the held-out slice or val'},
        'heldOutCropsReadRight': figures,
        'int8AgainstFloat': {'crops': len(hx), **agree},
    }
    with open(sidecar, 'w') as f:
        json.dump(meta, f, indent=2)
        f.write('\n')
    log(f'wrote {out} ({os.path.getsize(out):,} bytes) and its quantization in {sidecar}; its float graph: {float_model}')


if __name__ == '__main__':
    main()
