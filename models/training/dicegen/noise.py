"""Cheap procedural noise on numpy arrays (value noise by upsampling random grids)."""
from __future__ import annotations

import cv2
import numpy as np


def value_noise(rng: np.random.Generator, h: int, w: int, cell: float) -> np.ndarray:
    """Smooth noise in [0, 1] with features about `cell` pixels across."""
    gh, gw = max(2, int(h / cell) + 2), max(2, int(w / cell) + 2)
    grid = rng.random((gh, gw), dtype=np.float32)
    up = cv2.resize(grid, (int(gw * cell), int(gh * cell)), interpolation=cv2.INTER_CUBIC)
    oy, ox = rng.integers(0, max(1, up.shape[0] - h + 1)), rng.integers(0, max(1, up.shape[1] - w + 1))
    out = up[oy:oy + h, ox:ox + w]
    if out.shape != (h, w):
        out = cv2.resize(up, (w, h), interpolation=cv2.INTER_LINEAR)
    return np.clip(out, 0, 1)


def fractal(rng: np.random.Generator, h: int, w: int, cell: float, octaves: int = 4, gain: float = 0.5) -> np.ndarray:
    """Fractal (fBm) value noise normalised to [0, 1]."""
    out = np.zeros((h, w), np.float32)
    amp, total = 1.0, 0.0
    for o in range(octaves):
        c = cell / (2 ** o)
        if c < 1.0:
            break
        out += amp * value_noise(rng, h, w, c)
        total += amp
        amp *= gain
    out /= max(total, 1e-6)
    lo, hi = out.min(), out.max()
    return (out - lo) / max(hi - lo, 1e-6)


def random_colour(rng: np.random.Generator, sat: tuple[float, float] = (0.0, 1.0), val: tuple[float, float] = (0.1, 1.0)) -> np.ndarray:
    """An RGB colour in [0, 1] drawn in HSV."""
    hsv = np.array([[[rng.uniform(0, 180), rng.uniform(*sat) * 255, rng.uniform(*val) * 255]]], np.float32)
    return cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2RGB)[0, 0].astype(np.float32) / 255.0


def hsv_colour(h: float, s: float, v: float) -> np.ndarray:
    hsv = np.array([[[h % 180, s * 255, v * 255]]], np.float32)
    return cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2RGB)[0, 0].astype(np.float32) / 255.0
