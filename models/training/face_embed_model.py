"""The face embedder: a small CNN that maps a K x K die crop to an L2-normalised D-vector.

Plain 3x3 convolutions with BatchNorm (folded into the convs at export) and ReLU: the ops that
onnxruntime-web's single-threaded wasm runs fastest, so one die costs a few milliseconds.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def conv_bn(cin, cout, stride):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class FaceEmbedder(nn.Module):
    def __init__(self, widths=(24, 48, 96, 160), dim=64):
        super().__init__()
        w0, w1, w2, w3 = widths
        self.features = nn.Sequential(
            conv_bn(3, w0, 2),    # K/2
            conv_bn(w0, w0, 1),
            conv_bn(w0, w1, 2),   # K/4
            conv_bn(w1, w1, 1),
            conv_bn(w1, w2, 2),   # K/8
            conv_bn(w2, w2, 1),
            conv_bn(w2, w3, 2),   # K/16
            conv_bn(w3, w3, 1),
        )
        self.head = nn.Linear(w3, dim)

    def forward(self, x):
        # Inputs are RGB in [0, 1]; centring here keeps the preprocessing contract trivial.
        x = (x - 0.5) / 0.25
        f = self.features(x)
        f = f.mean(dim=(2, 3))
        return F.normalize(self.head(f), dim=1)
