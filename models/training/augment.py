"""Training-time augmentation: one labelled image -> one square training crop.

The crop is taken from the frame as the detector would see it (letterboxed to the model's
input size S, grey 114 outside the frame), after random zoom, aspect stretch, rotation and
flips; then photometric damage (colour, light, blur, noise, JPEG).
"""
from __future__ import annotations

import math

import cv2
import numpy as np

PAD = 114


def _affine(rng: np.random.Generator, w: int, h: int, sizes: np.ndarray, input_size: int, crop: int,
            upright: bool, focus: np.ndarray | None = None) -> np.ndarray:
    """focus: (x, y, size) of a die (source pixels) to put near the middle of the crop (die-centric crops).
    upright: keep the photo's up (no quarter turn, a roll of at most 10 degrees), as a phone held at
    the table sees oblique dice; the same random numbers are drawn either way."""
    base = input_size / max(w, h)
    zoom = math.exp(rng.uniform(math.log(0.6), math.log(1.7)))
    if focus is not None and len(sizes):
        # die-centric crops: the dice shown at 10-60 px, log-uniform (small dice are the hard ones)
        target = math.exp(rng.uniform(math.log(10.0), math.log(min(60.0, 0.5 * crop))))
        zoom = target / max(float(focus[2]) * base, 1e-3)
    if len(sizes):
        smallest, largest = sizes.min() * base, sizes.max() * base
        zoom = max(zoom, 9.0 / max(smallest, 1e-3))        # keep every die at least ~9 px
        zoom = min(zoom, min(280.0, 0.6 * crop) / max(largest, 1e-3))   # and none larger than the crop allows
    aspect = math.exp(rng.uniform(math.log(0.8), math.log(1.25)))
    sx, sy = base * zoom * aspect, base * zoom / aspect
    k = int(rng.integers(4))
    theta = 0.0 if upright else k * math.pi / 2
    if rng.random() < 0.4:
        theta += math.radians(rng.uniform(-25, 25) * (0.4 if upright else 1.0))
    c, s = math.cos(theta), math.sin(theta)
    A = np.array([[c, -s], [s, c]]) @ np.diag([sx, sy])
    if rng.random() < 0.5:
        A = np.diag([-1.0, 1.0]) @ A
    # where the frame lands; pick the crop window over it (a little overhang shows grey pad)
    corners = np.array([[0, 0], [w, 0], [0, h], [w, h]], np.float64) @ A.T
    lo, hi = corners.min(0), corners.max(0)
    span = hi - lo
    offs = []
    if focus is not None:
        fc = A @ np.asarray(focus[:2], np.float64)
        offs = [fc[d] - crop / 2 + rng.uniform(-0.3, 0.3) * crop for d in range(2)]
    else:
        for d in range(2):
            if span[d] <= crop:
                offs.append(rng.uniform(hi[d] - crop, lo[d]))
            else:
                slack = 0.1 * crop
                offs.append(rng.uniform(lo[d] - slack, hi[d] - crop + slack))
    t = -np.array(offs)
    return np.concatenate([A, t[:, None]], 1)


def _transform_boxes(boxes: np.ndarray, M: np.ndarray) -> np.ndarray:
    """Axis-aligned boxes through an affine map; a die's outline is treated as an ellipse
    inscribed in its box, which keeps boxes tight under rotation."""
    if len(boxes) == 0:
        return boxes.reshape(0, 4)
    A, t = M[:, :2], M[:, 2]
    c = (boxes[:, :2] + boxes[:, 2:]) / 2
    half = (boxes[:, 2:] - boxes[:, :2]) / 2
    nc = c @ A.T + t
    hw = np.sqrt((A[0, 0] * half[:, 0]) ** 2 + (A[0, 1] * half[:, 1]) ** 2)
    hh = np.sqrt((A[1, 0] * half[:, 0]) ** 2 + (A[1, 1] * half[:, 1]) ** 2)
    return np.stack([nc[:, 0] - hw, nc[:, 1] - hh, nc[:, 0] + hw, nc[:, 1] + hh], 1).astype(np.float32)


# --strong-blur: focus missed (Gaussian sd) or the phone still moving (a line), in crop pixels (the
# net's input scale); `npm run eval -- --condition swing` blurs a frame by about 7.7 px at 512 px, and
# a focus missed by sd 0.5% of the long side by 2.6, beyond the soft blur (sd 0.4-1.3) and short
# motion (3-7 px) every run has
STRONG_DEFOCUS = (1.3, 4.0)
STRONG_MOTION = (7, 15)  # numpy's upper bound is exclusive: 7-14 px


def photometric(rng: np.random.Generator, img: np.ndarray, strong_blur: float = 0.0, grey: float = 0.05) -> np.ndarray:
    """strong_blur: the share of crops blurred past the usual range, half out of focus and half by
    motion (STRONG_DEFOCUS, STRONG_MOTION); with none the random numbers are drawn as before it.
    grey: the share of crops without colour (each pixel its channels' mean), as a camera without
    colour takes them (`npm run eval -- --condition mono`)."""
    out = img.astype(np.float32)
    if rng.random() < 0.8:
        hsv = cv2.cvtColor(img, cv2.COLOR_RGB2HSV).astype(np.float32)
        if rng.random() < 0.5:
            hsv[..., 0] = (hsv[..., 0] + rng.uniform(0, 180)) % 180
        hsv[..., 1] *= rng.uniform(0.5, 1.4)
        hsv[..., 2] *= rng.uniform(0.6, 1.35)
        out = cv2.cvtColor(np.clip(hsv, 0, 255).astype(np.uint8), cv2.COLOR_HSV2RGB).astype(np.float32)
    if rng.random() < 0.15:
        out = out[..., rng.permutation(3)]
    if rng.random() < 0.5:  # contrast, gamma, colour cast
        mean = out.mean()
        out = (out - mean) * rng.uniform(0.6, 1.4) + mean
        out = out * rng.uniform(0.85, 1.15, size=3)
        out = 255.0 * np.power(np.clip(out / 255.0, 0, 1), rng.uniform(0.7, 1.4))
    if rng.random() < 0.2:  # uneven light
        h, w = out.shape[:2]
        gx, gy = np.meshgrid(np.linspace(-1, 1, w), np.linspace(-1, 1, h))
        a = rng.uniform(0, 2 * math.pi)
        out *= (1 + rng.uniform(0.1, 0.45) * (np.cos(a) * gx + np.sin(a) * gy))[..., None]
    if rng.random() < grey:
        out[:] = out.mean(2, keepdims=True)
    r = rng.random()
    strong = strong_blur > 0 and rng.random() < strong_blur
    if strong and rng.random() < 0.5:
        lo, hi = STRONG_DEFOCUS
        out = cv2.GaussianBlur(out, (0, 0), float(np.exp(rng.uniform(np.log(lo), np.log(hi)))))
    elif r < 0.2 and not strong:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.3))
    elif r < 0.3 or strong:
        k = int(rng.integers(*STRONG_MOTION)) if strong else int(rng.integers(3, 8))
        kern = np.zeros((k, k), np.float32)
        kern[k // 2, :] = 1.0 / k
        rot = cv2.getRotationMatrix2D(((k - 1) / 2, (k - 1) / 2), rng.uniform(0, 180), 1.0)
        kern = cv2.warpAffine(kern, rot, (k, k))
        out = cv2.filter2D(out, -1, kern / max(kern.sum(), 1e-6))
    if rng.random() < 0.3:
        out += rng.normal(0, rng.uniform(2, 10), out.shape).astype(np.float32)
    out = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        ok, buf = cv2.imencode(".jpg", out[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 95))])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)[..., ::-1]
    return np.ascontiguousarray(out)


def make_crop(rng: np.random.Generator, sample: dict, img: np.ndarray, input_size: int, crop: int,
              upright: bool = False, photometric_p: float = 1.0, focus_p: float = 0.0, strong_blur: float = 0.0, grey: float = 0.05) -> dict:
    h, w = img.shape[:2]
    boxes = sample["boxes"]
    sizes = np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]) if len(boxes) else np.zeros(0)
    focus = None
    if len(boxes) and rng.random() < focus_p:
        b = boxes[int(rng.integers(len(boxes)))]
        focus = ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2, max(b[2] - b[0], b[3] - b[1]))
    M = _affine(rng, w, h, sizes, input_size, crop, upright, focus)
    src, Ms = img, M
    shrink = math.sqrt(abs(np.linalg.det(M[:, :2])))
    if shrink < 0.9:  # shrink by area averaging first, as the app's letterbox does
        src = cv2.resize(img, (max(1, round(w * shrink)), max(1, round(h * shrink))), interpolation=cv2.INTER_AREA)
        Ms = M.copy()
        Ms[:, 0] *= w / src.shape[1]
        Ms[:, 1] *= h / src.shape[0]
    out = cv2.warpAffine(src, Ms, (crop, crop), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                         borderValue=(PAD, PAD, PAD))
    nb = _transform_boxes(boxes, M)
    ign = _transform_boxes(sample["ignore"], M)
    clipped = np.clip(nb, 0, crop)
    area = np.prod(np.maximum(nb[:, 2:] - nb[:, :2], 1e-3), 1)
    carea = np.prod(np.maximum(clipped[:, 2:] - clipped[:, :2], 0), 1)
    cx, cy = (nb[:, 0] + nb[:, 2]) / 2, (nb[:, 1] + nb[:, 3]) / 2
    keep = (carea / area > 0.55) & (cx > 0) & (cy > 0) & (cx < crop) & (cy < crop)
    partly = (~keep) & (carea > 0)
    ignore = np.concatenate([ign, clipped[partly]], 0)
    if rng.random() < photometric_p:
        out = photometric(rng, out, strong_blur, grey)
    return {
        "image": out,
        "boxes": clipped[keep],
        "classes": sample["classes"][keep],
        "box_weight": sample["box_weight"][keep],
        "ignore": ignore.astype(np.float32),
    }
