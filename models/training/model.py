"""The Rollcall dice detector: a small anchor-free, single-stage network.

Backbone of depthwise-separable blocks (ReLU), a three-level FPN (strides 8, 16, 32; optionally a
fourth at stride 4, `p4`) and one light head per level. Every output cell predicts distances to the
four box sides (FCOS style, exp-parameterised, in units of the stride), an objectness logit and 7
class logits (top-face values 1..6, then `other`). `DetectorWithDecode` wraps the network for
export: it decodes the boxes into input pixels (cx, cy, w, h), applies the sigmoid and the
softmax, and concatenates every cell of every level into one [1, N, 12] tensor
(docs/architecture.md).
"""
from __future__ import annotations

import torch
import torch.nn as nn
import torch.nn.functional as F

NUM_CLASSES = 7
CLASS_NAMES = ["1", "2", "3", "4", "5", "6", "other"]
STRIDES = (8, 16, 32)


def conv_bn(cin: int, cout: int, k: int = 3, stride: int = 1, groups: int = 1, act: bool = True) -> nn.Sequential:
    layers: list[nn.Module] = [
        nn.Conv2d(cin, cout, k, stride, k // 2, groups=groups, bias=False),
        nn.BatchNorm2d(cout),
    ]
    if act:
        layers.append(nn.ReLU(inplace=True))
    return nn.Sequential(*layers)


class DWSep(nn.Module):
    """Depthwise 3x3 (or 5x5) then pointwise 1x1; residual when shapes allow."""

    def __init__(self, cin: int, cout: int, stride: int = 1, k: int = 3):
        super().__init__()
        self.dw = conv_bn(cin, cin, k, stride, groups=cin)
        self.pw = conv_bn(cin, cout, 1, act=False)
        self.residual = stride == 1 and cin == cout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.pw(self.dw(x))
        if self.residual:
            y = y + x
        return F.relu(y)


def stage(cin: int, cout: int, n: int, k: int = 3) -> nn.Sequential:
    blocks = [DWSep(cin, cout, 2, k)]
    blocks += [DWSep(cout, cout, 1, k) for _ in range(n - 1)]
    return nn.Sequential(*blocks)


class OneToOneHead(nn.Module):
    """A second objectness for one level, taught one cell per die (YOLOv10's one-to-one branch beside
    the one-to-many head): it reads the level's head features and the one-to-many head's own
    predictions (detached, so this branch never moves them), and learns one box per die (the die's
    best, or the one at its centre: train.py --o2o-peak), so that a touching die's box is not taken
    for a second box on its neighbour."""

    def __init__(self, fpn: int, width: int, k: int = 3):
        super().__init__()
        self.body = nn.Sequential(conv_bn(fpn + 4 + 1 + NUM_CLASSES, width, 1), DWSep(width, width, 1, k), DWSep(width, width, 1, k))
        self.pred = nn.Conv2d(width, 1, 1)
        nn.init.normal_(self.pred.weight, std=0.01)
        nn.init.constant_(self.pred.bias, -4.6)  # objectness prior ~1%

    def forward(self, features: torch.Tensor, pred: torch.Tensor) -> torch.Tensor:
        return self.pred(self.body(torch.cat([features, pred.detach()], 1)))


class DiceDetector(nn.Module):
    def __init__(self, widths=(16, 24, 48, 96, 160), depths=(1, 2, 3, 3, 2), fpn: int = 64, k: int = 3, head_depth: int = 2,
                 p4: int = 0, o2o: int = 0):
        """`p4` > 0 adds a stride-4 level of that width (its map first in the output), for dice of a
        few cells at stride 8 that touch: each then has cells of its own to be found from. `o2o` > 0
        adds a one-to-one objectness branch of that width on each level (`OneToOneHead`): every map
        then carries a 13th channel, its logit, which the export reads as the objectness."""
        super().__init__()
        self.strides = ((4,) if p4 else ()) + STRIDES
        w0, w1, w2, w3, w4 = widths
        self.stem = conv_bn(3, w0, 3, 2)                      # stride 2
        self.s4 = stage(w0, w1, depths[1], k)                 # stride 4
        self.s8 = stage(w1, w2, depths[2], k)                 # stride 8
        self.s16 = stage(w2, w3, depths[3], k)                # stride 16
        self.s32 = stage(w3, w4, depths[4], k)                # stride 32
        self.lat8 = conv_bn(w2, fpn, 1)
        self.lat16 = conv_bn(w3, fpn, 1)
        self.lat32 = conv_bn(w4, fpn, 1)
        self.smooth8 = DWSep(fpn, fpn, 1, k)
        self.smooth16 = DWSep(fpn, fpn, 1, k)
        self.heads = nn.ModuleList([
            nn.Sequential(*[DWSep(fpn, fpn, 1, k) for _ in range(head_depth)]) for _ in STRIDES
        ])
        self.preds = nn.ModuleList([nn.Conv2d(fpn, 4 + 1 + NUM_CLASSES, 1) for _ in STRIDES])
        for p in self.preds:
            nn.init.normal_(p.weight, std=0.01)
            nn.init.constant_(p.bias, 0.0)
            with torch.no_grad():
                p.bias[4] = -4.6  # objectness prior ~1%
        self.o2o = o2o
        if o2o:
            if p4:
                raise ValueError("o2o: the one-to-one branch is built for the three levels of a net without p4")
            self.o2o_heads = nn.ModuleList([OneToOneHead(fpn, o2o, k) for _ in STRIDES])
        self.p4 = p4
        if p4:
            # p8 is narrowed at stride 8, where it is cheap, before it is brought up to stride 4
            self.lat4 = conv_bn(w1, p4, 1)
            self.down8 = conv_bn(fpn, p4, 1)
            self.smooth4 = DWSep(p4, p4, 1, k)
            self.head4 = nn.Sequential(*[DWSep(p4, p4, 1, k) for _ in range(head_depth)])
            self.pred4 = nn.Conv2d(p4, 4 + 1 + NUM_CLASSES, 1)
            nn.init.normal_(self.pred4.weight, std=0.01)
            nn.init.constant_(self.pred4.bias, 0.0)
            with torch.no_grad():
                self.pred4.bias[4] = -4.6

    def forward(self, x: torch.Tensor) -> list[torch.Tensor]:
        """Raw per-level maps [B, 12, H, W]: 4 log-distances, objectness logit, class logits (and with
        `o2o` a 13th channel, the one-to-one objectness logit)."""
        x = self.stem(x)
        c4 = self.s4(x)
        c8 = self.s8(c4)
        c16 = self.s16(c8)
        c32 = self.s32(c16)
        p32 = self.lat32(c32)
        p16 = self.smooth16(self.lat16(c16) + F.interpolate(p32, scale_factor=2.0, mode="nearest"))
        p8 = self.smooth8(self.lat8(c8) + F.interpolate(p16, scale_factor=2.0, mode="nearest"))
        maps = []
        for i, p in enumerate((p8, p16, p32)):
            # level by level, so the convolutions run in the order an export's nodes hold them (from_onnx)
            f = self.heads[i](p)
            m = self.preds[i](f)
            maps.append(torch.cat([m, self.o2o_heads[i](f, m)], 1) if self.o2o else m)
        if self.p4:
            p4 = self.smooth4(self.lat4(c4) + F.interpolate(self.down8(p8), scale_factor=2.0, mode="nearest"))
            maps.insert(0, self.pred4(self.head4(p4)))
        return maps


def flatten_levels(maps: list[torch.Tensor]) -> torch.Tensor:
    """[B, C, H, W] per level -> [B, N, C]."""
    return torch.cat([m.flatten(2).transpose(1, 2) for m in maps], 1)


class DetectorWithDecode(nn.Module):
    """Export wrapper: [1, 3, H, W] in [0, 1] -> detections [1, N, 5 + C] per the contract.

    H and W are any multiples of 32 (not only the training size): every level's cell grid is
    made from its feature map's shape, so one export reads a square photo at S x S and a 16:9
    camera frame at S x 9S/16 without paying for letterbox padding. `size` is kept for callers
    that build the wrapper for one input size; the decoding does not depend on it.
    """

    def __init__(self, net: DiceDetector, size: int = 512):
        super().__init__()
        self.net = net
        self.size = size

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        maps = self.net(images)
        centres, strides = [], []
        for m, s in zip(maps, self.net.strides):
            h, w = m.shape[2], m.shape[3]
            ys = (torch.arange(h, dtype=torch.float32, device=m.device) + 0.5) * s
            xs = (torch.arange(w, dtype=torch.float32, device=m.device) + 0.5) * s
            cy = ys[:, None].expand(h, w).reshape(-1, 1)
            cx = xs[None, :].expand(h, w).reshape(-1, 1)
            centres.append(torch.cat([cx, cy], 1))
            strides.append(torch.full_like(cx, float(s)))
        centres_t = torch.cat(centres, 0)
        strides_t = torch.cat(strides, 0)
        raw = flatten_levels(maps)
        d = torch.exp(raw[..., :4].clamp(-6.0, 6.0)) * strides_t
        cx = centres_t[:, 0:1] + (d[..., 2:3] - d[..., 0:1]) * 0.5
        cy = centres_t[:, 1:2] + (d[..., 3:4] - d[..., 1:2]) * 0.5
        w = d[..., 0:1] + d[..., 2:3]
        h = d[..., 1:2] + d[..., 3:4]
        # with a one-to-one branch its objectness is the one read: one box per die, the rest low
        obj = torch.sigmoid(raw[..., 12:13] if self.net.o2o else raw[..., 4:5])
        cls = torch.softmax(raw[..., 5:5 + NUM_CLASSES], -1)
        return torch.cat([cx, cy, w, h, obj, cls], -1)


@torch.no_grad()
def grow_deeper(src: DiceDetector, dst: DiceDetector) -> list[str]:
    """Copies `src` into `dst`, a net of the same widths with more blocks at the end of some
    stages, and sets each added block to the identity (its last BatchNorm's scale and shift zero:
    the residual adds nothing, and the ReLU passes the previous block's non-negative output). The
    grown net computes what `src` computes, so training adds capacity from where `src` stands
    (Net2Net's function-preserving growth, with Goyal et al.'s zero-initialised residual).
    Returns the added blocks' names."""
    own, theirs = dst.state_dict(), src.state_dict()
    for k, v in theirs.items():
        if k not in own or own[k].shape != v.shape:
            raise ValueError(f"grow_deeper: {k} {tuple(v.shape)} has no place in the grown net")
        own[k].copy_(v)
    added = []
    for name in ("s4", "s8", "s16", "s32"):
        a, b = getattr(src, name), getattr(dst, name)
        for i in range(len(a), len(b)):
            block = b[i]
            if not block.residual:
                raise ValueError(f"grow_deeper: {name}.{i} is not residual, so it cannot start as the identity")
            block.pw[1].weight.zero_()
            block.pw[1].bias.zero_()
            added.append(f"{name}.{i}")
    untouched = [k for k in own if k not in theirs and not any(k.startswith(a + ".") for a in added)]
    if untouched:
        raise ValueError(f"grow_deeper: the grown net differs outside the stages' ends: {untouched[0]} …")
    return added


@torch.no_grad()
def grow_wider(src: DiceDetector, dst: DiceDetector) -> list[str]:
    """Copies `src` into `dst`, a net of the same depths with some stage widths or the FPN width
    larger, so that `dst` computes what `src` computes (Net2Net's function-preserving widening,
    the added channels appended). Each tensor's first channels are `src`'s; every full
    convolution's weights from an added input channel to an old output channel are zero, so the
    old channels (and the prediction convolutions, whose outputs keep their number) read nothing
    from the added ones yet. The added channels keep `dst`'s random init: they compute from the
    start, so their weights into the old channels learn from the first step. Depthwise
    convolutions, BatchNorms and residual adds pair channel i with channel i, so they need nothing
    more. Returns the names of the tensors that grew."""
    own, theirs = dst.state_dict(), src.state_dict()
    if set(own) != set(theirs):
        odd = sorted(set(own) ^ set(theirs))[0]
        raise ValueError(f"grow_wider: the nets differ in more than width ({odd}); grow depth with grow_deeper")
    grown = []
    for k, v in theirs.items():
        o = own[k]
        if o.dim() != v.dim() or any(a < b for a, b in zip(o.shape, v.shape)):
            raise ValueError(f"grow_wider: {k} {tuple(v.shape)} does not fit in {tuple(o.shape)}")
        if o.shape != v.shape:
            grown.append(k)
        o[tuple(slice(0, n) for n in v.shape)].copy_(v)
        if o.dim() == 4 and o.shape[1] > v.shape[1]:
            o[: v.shape[0], v.shape[1]:].zero_()
    return grown


def count_params(m: nn.Module) -> int:
    return sum(p.numel() for p in m.parameters())
