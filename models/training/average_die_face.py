"""Averages the probabilities of several die-face readers in one ONNX graph, to try an ensemble.

    /usr/bin/python3 models/training/average_die_face.py OUT.onnx models/die-face.onnx runs/x/int8/die-face.onnx

The app and `npm run eval -- --die-face OUT.onnx` read the result as they read one reader: the
same `crops` input, the same `probs` output (the mean of the readers' softmax outputs). The
sidecar OUT.json is the first reader's (its rules, crop and classes), plus `averageOf`: the graphs
averaged. Float or int8 graphs both work; every reader must have the same input and output shapes,
and the same classes in the same order (checked against the sidecars that sit beside them).

Why: readers fine-tuned from one another agree too much for an average to help; a reader trained
apart (from scratch, another seed) is the partner to try (models/record/standard-dice.md, "Die-face reader").
"""
import argparse
import json
import os

import numpy as np
import onnx
from onnx import compose, helper, numpy_helper

INPUT, OUTPUT = 'crops', 'probs'


def shape_of(value_info):
    return [d.dim_value or d.dim_param for d in value_info.type.tensor_type.shape.dim]


def average(paths):
    models = [onnx.load(p) for p in paths]
    for p, m in zip(paths, models):
        ins, outs = [i.name for i in m.graph.input], [o.name for o in m.graph.output]
        if ins != [INPUT] or outs != [OUTPUT]:
            raise SystemExit(f'{p}: inputs {ins}, outputs {outs}; a die-face reader has [{INPUT!r}] and [{OUTPUT!r}]')
        if shape_of(m.graph.input[0])[1:] != shape_of(models[0].graph.input[0])[1:] or \
                shape_of(m.graph.output[0])[1:] != shape_of(models[0].graph.output[0])[1:]:
            raise SystemExit(f'{p}: input or output shape differs from {paths[0]}')
    nodes, inits, outs = [], [], []
    for k, m in enumerate(models):
        m = compose.add_prefix(m, f'm{k}_')
        for n in m.graph.node:  # every reader reads the one shared input
            n.input[:] = [INPUT if name == f'm{k}_{INPUT}' else name for name in n.input]
        nodes += list(m.graph.node)
        inits += list(m.graph.initializer)
        outs.append(f'm{k}_{OUTPUT}')
    inits.append(numpy_helper.from_array(np.array(1.0 / len(models), np.float32), 'one_over_readers'))
    nodes.append(helper.make_node('Sum', outs, ['sum_of_probs']))
    nodes.append(helper.make_node('Mul', ['sum_of_probs', 'one_over_readers'], [OUTPUT]))
    graph = helper.make_graph(nodes, 'die_face_average', [models[0].graph.input[0]], [models[0].graph.output[0]], inits)
    model = helper.make_model(graph, opset_imports=models[0].opset_import)
    onnx.checker.check_model(model)
    return model


def main():
    ap = argparse.ArgumentParser(description='Averages several die-face readers in one ONNX graph (the first reader\'s sidecar).')
    ap.add_argument('out', help='the averaged graph, e.g. runs/avg/die-face.onnx (its sidecar beside it)')
    ap.add_argument('readers', nargs='+', help='two or more reader graphs, float or int8; the first one\'s sidecar (.json) is kept')
    args = ap.parse_args()
    if len(args.readers) < 2:
        ap.error('an average needs two readers or more')
    sidecars = []
    for p in args.readers:
        if not os.path.exists(p):
            ap.error(f'{p}: no such reader')
        side = os.path.splitext(p)[0] + '.json'
        sidecars.append(json.load(open(side)) if os.path.exists(side) else None)
    if sidecars[0] is None:
        ap.error(f'{args.readers[0]}: the first reader needs its sidecar beside it (its rules are the average\'s)')
    # the graphs only say how many classes; the sidecars say which, and the average needs them in one order
    for p, side in zip(args.readers[1:], sidecars[1:]):
        if side is not None and side.get('classes') != sidecars[0].get('classes'):
            ap.error(f'{p}: classes {side.get("classes")} differ from {args.readers[0]}\'s {sidecars[0].get("classes")}')
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    onnx.save(average(args.readers), args.out)
    meta = dict(sidecars[0], averageOf=args.readers)
    with open(os.path.splitext(args.out)[0] + '.json', 'w') as f:
        json.dump(meta, f, indent=2)
        f.write('\n')
    print(f'wrote {args.out}: the mean of {len(args.readers)} readers\' probabilities')


if __name__ == '__main__':
    main()
