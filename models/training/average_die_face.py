"""Averages the probabilities of several die-face readers in one ONNX graph, to try an ensemble.

    /usr/bin/python3 models/training/average_die_face.py OUT.onnx models/die-face.onnx runs/x/int8/die-face.onnx

The app and `npm run eval -- --die-face OUT.onnx` read the result as they read one reader: the
same `crops` input, the same `probs` output (the mean of the readers' softmax outputs). The
sidecar OUT.json is the first reader's (its rules, crop and classes), plus `averageOf`: the graphs
averaged. Float or int8 graphs both work; every reader must have the same input and classes.

Why: readers fine-tuned from one another agree too much for an average to help; a reader trained
apart (from scratch, another seed) is the partner to try (models/MODEL_CARD.md, "Die-face reader").
"""
import json
import os
import sys

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
    if len(sys.argv) < 4:
        raise SystemExit(__doc__)
    out, paths = sys.argv[1], sys.argv[2:]
    for p in paths:
        if not os.path.exists(p):
            raise SystemExit(f'{p}: no such reader')
    sidecar = os.path.splitext(paths[0])[0] + '.json'
    if not os.path.exists(sidecar):
        raise SystemExit(f'{sidecar}: the first reader needs its sidecar (its rules are the average\'s)')
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    onnx.save(average(paths), out)
    meta = json.load(open(sidecar))
    meta['averageOf'] = paths  # as given
    with open(os.path.splitext(out)[0] + '.json', 'w') as f:
        json.dump(meta, f, indent=2)
        f.write('\n')
    print(f'wrote {out}: the mean of {len(paths)} readers\' probabilities')


if __name__ == '__main__':
    main()
