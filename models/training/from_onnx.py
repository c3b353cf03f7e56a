"""Recovers a trainable PyTorch model from a shipped ONNX export, so that training can go on from
the shipped weights when the run's checkpoints are gone (they are git-ignored; a fresh checkout
has only models/*.onnx).

The exports fold each BatchNorm into the convolution before it (eval mode, constant folding), so
a folded conv's weight and bias come back as the conv's weight and the BatchNorm's shift. The
BatchNorm is then re-calibrated on real inputs (`calibrate`): its running statistics become the
batch statistics of its input, and its scale and shift are set so that it still adds only the
folded bias. The model computes the same function in eval mode, and nearly the same in train
mode, so training resumes where the shipped model stands instead of from a disturbed state.

Conv nodes of an ONNX export appear in the order the convolutions ran when it was traced, which
is the order a forward pass calls them: that is how nodes and modules are matched (shapes are
checked one by one).

    from from_onnx import load_onnx_weights, calibrate
    net = DieFaceNet(); load_onnx_weights(net, 'models/die-face.onnx', torch.rand(1, 3, 48, 48))
"""
from __future__ import annotations

import onnx
import torch
import torch.nn as nn
from onnx import numpy_helper


def _conv_call_order(net: nn.Module, example: torch.Tensor) -> list[nn.Conv2d]:
    order: list[nn.Conv2d] = []
    hooks = [m.register_forward_hook(lambda mod, _i, _o: order.append(mod)) for m in net.modules() if isinstance(m, nn.Conv2d)]
    was_training = net.training
    net.eval()
    with torch.no_grad():
        net(example)
    net.train(was_training)
    for h in hooks:
        h.remove()
    return order


def _bn_after(net: nn.Module) -> dict[nn.Conv2d, nn.BatchNorm2d]:
    """Each bias-free conv's BatchNorm: the module that follows it in its Sequential."""
    pairs: dict[nn.Conv2d, nn.BatchNorm2d] = {}
    for m in net.modules():
        if isinstance(m, nn.Sequential):
            kids = list(m.children())
            for a, b in zip(kids, kids[1:]):
                if isinstance(a, nn.Conv2d) and isinstance(b, nn.BatchNorm2d):
                    pairs[a] = b
    return pairs


def _quantized(model: onnx.ModelProto) -> bool:
    return any(n.op_type in ("QuantizeLinear", "DequantizeLinear") for n in model.graph.node)


def is_quantized(onnx_path: str) -> bool:
    """An int8 graph (quantize_die_face.py): its weights are not float initializers to train from."""
    return _quantized(onnx.load(onnx_path))


def load_onnx_weights(net: nn.Module, onnx_path: str, example: torch.Tensor) -> None:
    """Copies an export's weights into `net` (same architecture). Raises on any mismatch."""
    model = onnx.load(onnx_path)
    if _quantized(model):
        raise ValueError(f"{onnx_path} is an int8 graph (quantize_die_face.py); train from its float export, "
                         "models/training/die-face-float.onnx for the shipped die-face reader")
    inits = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in model.graph.initializer}
    conv_nodes = [n for n in model.graph.node if n.op_type == "Conv"]
    convs = _conv_call_order(net, example)
    if len(conv_nodes) != len(convs):
        raise ValueError(f"{onnx_path}: {len(conv_nodes)} Conv nodes, the model calls {len(convs)} convolutions")
    bns = _bn_after(net)
    with torch.no_grad():
        for k, (node, conv) in enumerate(zip(conv_nodes, convs)):
            w = inits[node.input[1]]
            b = inits[node.input[2]] if len(node.input) > 2 else torch.zeros(w.shape[0])
            if tuple(w.shape) != tuple(conv.weight.shape):
                raise ValueError(f"{onnx_path}: conv {k} has weight {tuple(w.shape)}, the model's is {tuple(conv.weight.shape)}")
            conv.weight.copy_(w)
            if conv.bias is not None:
                conv.bias.copy_(b)
            elif conv in bns:
                bn = bns[conv]
                bn.weight.fill_(1.0)
                bn.bias.copy_(b)
                bn.running_mean.zero_()
                bn.running_var.fill_(1.0 - bn.eps)
            elif b.abs().max() > 0:
                raise ValueError(f"{onnx_path}: conv {k} has a bias the model has no place for")
        # the remaining named parameters (linear heads) come under their own names
        names = {n: t for n, t in inits.items() if not n.startswith("onnx::")}
        for pname, p in net.named_parameters():
            for prefix in ("", "net."):
                if prefix + pname in names and tuple(names[prefix + pname].shape) == tuple(p.shape):
                    p.copy_(names[prefix + pname])


@torch.no_grad()
def calibrate(net: nn.Module, batches) -> None:
    """Sets every BatchNorm's running statistics to its input's statistics over `batches` and its
    affine so that it still computes x + shift: identical in eval mode, close in train mode."""
    stats: dict[nn.BatchNorm2d, list[torch.Tensor]] = {}
    bns = [m for m in net.modules() if isinstance(m, nn.BatchNorm2d)]

    def hook(mod, inputs, _out):
        x = inputs[0].detach().float()
        s = stats.setdefault(mod, [torch.zeros(x.shape[1], dtype=torch.float64), torch.zeros(x.shape[1], dtype=torch.float64), 0])
        s[0] += x.double().sum((0, 2, 3))
        s[1] += (x.double() ** 2).sum((0, 2, 3))
        s[2] += x.shape[0] * x.shape[2] * x.shape[3]

    hooks = [m.register_forward_hook(hook) for m in bns]
    was_training = net.training
    net.eval()
    for x in batches:
        net(x)
    net.train(was_training)
    for h in hooks:
        h.remove()
    for bn in bns:
        s1, s2, n = stats[bn]
        mean = (s1 / n).float()
        var = (s2 / n - (s1 / n) ** 2).clamp(min=1e-6).float()
        # eval: (x - mean) / sqrt(var + eps) * gamma + beta must equal (x - m0) / sqrt(v0 + eps) * g0 + b0
        scale0 = bn.weight / torch.sqrt(bn.running_var + bn.eps)
        shift0 = bn.bias - bn.running_mean * scale0
        bn.running_mean.copy_(mean)
        bn.running_var.copy_(var)
        bn.weight.copy_(scale0 * torch.sqrt(var + bn.eps))
        bn.bias.copy_(shift0 + mean * scale0)
