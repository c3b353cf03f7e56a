"""Python-side evaluation of the detector (development use: held-out slices of the train
splits, and the val splits for reporting only). Implements the matching rule of
../shared/data/README.md: a prediction matches a labelled die when the label's centre lies
inside the predicted box and the two centres are the nearest unmatched pair (greedy by
distance); `iou=True` additionally requires IoU >= 0.5. A die counts as read when it is
matched and its value is right; a roll is exact when every die is read and nothing else is
reported.
"""
from __future__ import annotations

import cv2
import numpy as np
import torch
import torchvision

from datasets import read_rgb
from model import DetectorWithDecode

PAD = 114


def letterbox(img: np.ndarray, size: int, stride: int = 0) -> tuple[np.ndarray, float, float, float]:
    """The frame scaled so its long side is `size`, centred on a pad-filled input: S x S, or with a
    `stride` padded only up to the next multiple of it on each side, as the app reads a frame
    (src/lib/vision/letterbox.ts `letterboxGeometry`)."""
    h, w = img.shape[:2]
    scale = size / max(w, h)
    nw, nh = min(size, max(1, round(w * scale))), min(size, max(1, round(h * scale)))
    iw, ih = (-(-nw // stride) * stride, -(-nh // stride) * stride) if stride else (size, size)
    dx, dy = (iw - nw) // 2, (ih - nh) // 2
    out = np.full((ih, iw, 3), PAD, np.uint8)
    out[dy:dy + nh, dx:dx + nw] = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    return out, scale, dx, dy


def scaled_boxes(boxes: torch.Tensor, scale: float) -> torch.Tensor:
    """x1, y1, x2, y2 boxes scaled about their centres: by S, the box train.py --box-scale S
    teaches a die as; by 1 / S, a read box grown back to the whole die."""
    if scale == 1.0:
        return boxes
    centre = (boxes[..., :2] + boxes[..., 2:]) / 2
    half = (boxes[..., 2:] - boxes[..., :2]) * (scale / 2)
    return torch.cat([centre - half, centre + half], -1)


@torch.no_grad()
def predict(wrapper: DetectorWithDecode, img: np.ndarray, size: int, min_score: float = 0.05, nms_iou: float = 0.5,
            box_scale: float = 1.0) -> np.ndarray:
    """Rows of x1, y1, x2, y2 (original image pixels), score, class index, class prob. A net
    taught boxes scaled by `box_scale` (train.py --box-scale) has its boxes grown back after NMS,
    as the app's decoding does (decode.ts `decodeDetections`)."""
    lb, scale, dx, dy = letterbox(img, size)
    x = torch.from_numpy(lb).permute(2, 0, 1)[None].float() / 255.0
    det = wrapper(x.to(next(wrapper.parameters()).device))[0].cpu()
    cls_p, cls_i = det[:, 5:].max(1)
    score = det[:, 4] * cls_p
    keep = score > min_score
    d, score, cls_i, cls_p = det[keep], score[keep], cls_i[keep], cls_p[keep]
    boxes = torch.stack([d[:, 0] - d[:, 2] / 2, d[:, 1] - d[:, 3] / 2, d[:, 0] + d[:, 2] / 2, d[:, 1] + d[:, 3] / 2], 1)
    k = torchvision.ops.nms(boxes, score, nms_iou)
    boxes = scaled_boxes(boxes[k], 1.0 / box_scale)
    boxes[:, [0, 2]] = (boxes[:, [0, 2]] - dx) / scale
    boxes[:, [1, 3]] = (boxes[:, [1, 3]] - dy) / scale
    return torch.cat([boxes, score[k, None], cls_i[k, None].float(), cls_p[k, None]], 1).numpy()


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    return inter / max((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter, 1e-9)


def match(pred: np.ndarray, labels: np.ndarray, iou: bool = False) -> list[tuple[int, int]]:
    """Greedy one-to-one matching by centre distance; label centre must be inside the prediction."""
    pairs = []
    lc = (labels[:, :2] + labels[:, 2:4]) / 2
    pc = (pred[:, :2] + pred[:, 2:4]) / 2
    for i, p in enumerate(pred):
        for j, c in enumerate(lc):
            if p[0] <= c[0] <= p[2] and p[1] <= c[1] <= p[3]:
                if iou and _iou(p, labels[j]) < 0.5:
                    continue
                pairs.append((float(np.hypot(*(pc[i] - c))), i, j))
    pairs.sort()
    used_p, used_l, out = set(), set(), []
    for _, i, j in pairs:
        if i in used_p or j in used_l:
            continue
        used_p.add(i)
        used_l.add(j)
        out.append((i, j))
    return out


def score_images(preds: list[np.ndarray], samples: list[dict], threshold: float, iou: bool = False) -> dict:
    tp = fp = fn = exact = found = 0
    total = 0
    for pred, s in zip(preds, samples):
        p = pred[pred[:, 4] >= threshold]
        labels = s["label_boxes"]
        values = s["classes"]
        m = match(p, labels, iou)
        right = sum(1 for i, j in m if int(p[i, 5]) == int(values[j]))
        found += len(m)
        tp += right
        fp += len(p) - right
        fn += len(labels) - right
        total += len(labels)
        exact += int(right == len(labels) == len(p))
    prec = tp / max(tp + fp, 1)
    rec = tp / max(tp + fn, 1)
    return {
        "f1": 2 * prec * rec / max(prec + rec, 1e-9), "precision": prec, "recall": rec,
        "exact": exact / max(len(samples), 1), "detect_recall": found / max(total, 1),
        "images": len(samples), "dice": total,
    }


def load_image(s: dict) -> np.ndarray:
    return read_rgb(s["file"])


def evaluate(wrapper: DetectorWithDecode, samples: list[dict], size: int, thresholds=(0.3, 0.4, 0.5, 0.6), box_scale: float = 1.0) -> dict:
    wrapper.eval()
    preds = [predict(wrapper, load_image(s), size, box_scale=box_scale) for s in samples]
    return {t: score_images(preds, samples, t) for t in thresholds}, preds
