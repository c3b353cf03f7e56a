"""The die-face reader: a small CNN that reads the top face of one standard die from a K x K crop
of the original frame (the detector's box, squared and enlarged), as one of CLASSES.

Plain 3x3 convolutions with BatchNorm (folded into the convs at export) and ReLU, like the face
embedder: the ops onnxruntime-web's single-threaded wasm runs fastest. About 6.8 M multiply-adds
and 0.21 M parameters at K = 48, so a die costs well under a millisecond.
"""
import torch
import torch.nn as nn

# 1..6: the top face's value; other: a die whose top face is not a pip face (symbol die, a die
# on its edge); none: no die in the crop (a detector false positive).
CLASSES = ('1', '2', '3', '4', '5', '6', 'other', 'none')


def conv_bn(cin, cout, stride):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class DieFaceNet(nn.Module):
    def __init__(self, widths=(16, 32, 64, 96), classes=len(CLASSES)):
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
        self.dropout = nn.Dropout(0.1)
        self.head = nn.Linear(w3, classes)

    def forward(self, x):
        """Logits. Inputs are RGB in [0, 1]; centring here keeps the preprocessing contract trivial."""
        x = (x - 0.5) / 0.25
        f = self.features(x).mean(dim=(2, 3))
        return self.head(self.dropout(f))


class WithSoftmax(nn.Module):
    """The exported graph: class probabilities, softmax in the graph (as the detector does)."""

    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, x):
        return torch.softmax(self.net(x), dim=1)
