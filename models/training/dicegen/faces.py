"""Painting die faces: pip faces (with pip colours, shapes, a logo in place of the 1), symbol
faces (glyphs from system fonts, procedural icons, small pictures) and faces from any image.

A face is a pair (albedo [T, T, 3] float32 RGB in [0, 1], height [T, T] float32 in die units
times 100: negative where the face is engraved). Texture row 0 is the top edge of the face
as seen from outside the die.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .noise import hsv_colour, random_colour
from .textures import draw_text, font_files, icon_files

FACE_RES = 128


def pip_positions(value: int, offset: float) -> list[tuple[float, float]]:
    """Standard pip layout in face coordinates [0, 1]; offset = distance of the outer pips from the edge."""
    a, m, b = offset, 0.5, 1 - offset
    return {
        1: [(m, m)],
        2: [(a, a), (b, b)],
        3: [(a, a), (m, m), (b, b)],
        4: [(a, a), (b, a), (a, b), (b, b)],
        5: [(a, a), (b, a), (m, m), (a, b), (b, b)],
        6: [(a, a), (a, m), (a, b), (b, a), (b, m), (b, b)],
    }[value]


@dataclass
class PipStyle:
    body: np.ndarray            # die body colour
    pip: np.ndarray             # pip paint colour
    shape: str                  # round | square | diamond | ring
    radius: float               # pip radius, fraction of the face side
    offset: float               # distance of corner pips from the face edge
    depth: float                # engraving depth (0 = flush, printed)
    logo_one: bool              # the 1 face carries a logo instead of a pip
    logo_seed: int


def random_pip_style(rng: np.random.Generator, body: np.ndarray) -> PipStyle:
    lum = float(body @ np.array([0.3, 0.59, 0.11]))
    r = rng.random()
    if r < 0.55:  # the contrasting classic: black on light, white on dark
        pip = np.array([0.05, 0.05, 0.06], np.float32) if lum > 0.5 else np.array([0.95, 0.95, 0.93], np.float32)
    elif r < 0.75:
        pip = np.array([0.95, 0.95, 0.93], np.float32) if rng.random() < 0.6 else np.array([0.05, 0.05, 0.06], np.float32)
    elif r < 0.88:  # gold, silver, red pips
        pip = [hsv_colour(25, 0.7, 0.85), hsv_colour(0, 0.0, 0.75), hsv_colour(0, 0.85, 0.75)][int(rng.integers(3))]
    else:
        pip = random_colour(rng, (0.3, 1), (0.2, 1))
    # pips must stay legible against the body
    if abs(float(pip @ np.array([0.3, 0.59, 0.11])) - lum) < 0.25 and float(np.abs(pip - body).sum()) < 0.6:
        pip = np.array([0.05, 0.05, 0.06], np.float32) if lum > 0.5 else np.array([0.95, 0.95, 0.93], np.float32)
    shape = rng.choice(["round", "square", "diamond", "ring"], p=[0.86, 0.07, 0.03, 0.04])
    return PipStyle(
        body=body, pip=np.asarray(pip, np.float32), shape=str(shape), radius=float(rng.uniform(0.065, 0.11)),
        offset=float(rng.uniform(0.2, 0.29)), depth=float(rng.choice([0.0, rng.uniform(1.0, 4.0)], p=[0.25, 0.75])),
        logo_one=bool(rng.random() < 0.18), logo_seed=int(rng.integers(1 << 30)),
    )


def _stamp(mask: np.ndarray, shape: str, cx: float, cy: float, r: float, angle: float = 0.0) -> None:
    T = mask.shape[0]
    if shape == "round" or shape == "ring":
        cv2.circle(mask, (int(cx * 16), int(cy * 16)), int(r * 16), 1.0, -1, cv2.LINE_AA, 4)
        if shape == "ring":
            cv2.circle(mask, (int(cx * 16), int(cy * 16)), int(r * 0.55 * 16), 0.0, -1, cv2.LINE_AA, 4)
    else:
        n = 4
        rot = math.radians(angle + (45 if shape == "diamond" else 0) + 45)
        rr = r * (1.25 if shape == "square" else 1.35)
        pts = np.array([[cx + rr * math.cos(rot + k * math.pi / 2), cy + rr * math.sin(rot + k * math.pi / 2)] for k in range(n)])
        cv2.fillConvexPoly(mask, (pts * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)


def _logo_mask(seed: int, T: int) -> np.ndarray:
    """A brand emblem for the 1 face: a glyph, a star, or a ringed badge."""
    rng = np.random.default_rng(seed)
    mask = np.zeros((T, T), np.float32)
    kind = rng.choice(["glyph", "star", "badge"])
    size = rng.uniform(0.35, 0.6) * T
    if kind == "glyph":
        fonts = font_files()
        text = str(rng.choice(list("ABCDEFGHKMNPRSTWXZ") + ["★", "♠", "♣", "♥", "♦", "☀", "♛", "⚓", "✦", "❖"]))
        img = np.zeros((T, T, 3), np.float32)
        draw_text(img, rng, text, (int(T / 2 - size / 2), int(T / 2 - size / 2)), int(size * 0.9), (1.0, 1.0, 1.0),
                  font=fonts[int(rng.integers(len(fonts)))])
        mask = img[..., 0]
        ys, xs = np.nonzero(mask > 0.5)
        if len(xs):  # centre it
            M = np.float32([[1, 0, T / 2 - (xs.min() + xs.max()) / 2], [0, 1, T / 2 - (ys.min() + ys.max()) / 2]])
            mask = cv2.warpAffine(mask, M, (T, T))
    elif kind == "star":
        n = int(rng.integers(5, 9))
        pts = []
        for k in range(2 * n):
            r = size / 2 * (1.0 if k % 2 == 0 else rng.uniform(0.35, 0.6))
            a = math.pi * k / n - math.pi / 2
            pts.append([T / 2 + r * math.cos(a), T / 2 + r * math.sin(a)])
        cv2.fillPoly(mask, [(np.array(pts) * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
    else:
        cv2.circle(mask, (T * 8, T * 8), int(size / 2 * 16), 1.0, max(1, int(size * 0.12)), cv2.LINE_AA, 4)
        cv2.circle(mask, (T * 8, T * 8), int(size / 5 * 16), 1.0, -1, cv2.LINE_AA, 4)
    return np.clip(mask, 0, 1)


def paint_pip_face(value: int, style: PipStyle, T: int = FACE_RES, angle: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    mask = np.zeros((T, T), np.float32)
    if value == 1 and style.logo_one:
        mask = _logo_mask(style.logo_seed, T)
    else:
        r = style.radius * (1.6 if value == 1 and style.shape == "round" and style.radius < 0.09 else 1.0)
        for (u, v) in pip_positions(value, style.offset):
            _stamp(mask, style.shape, u * T, v * T, r * T, angle)
    albedo = style.body[None, None, :] * (1 - mask[..., None]) + style.pip[None, None, :] * mask[..., None]
    height = -style.depth * cv2.GaussianBlur(mask, (0, 0), max(0.5, T * 0.012))
    return albedo.astype(np.float32), height.astype(np.float32)


def _icon_mask(rng: np.random.Generator, T: int) -> np.ndarray:
    """A procedural icon: one or a few simple shapes (triangles, circles, squares, bars, crescents, stars)."""
    mask = np.zeros((T, T), np.float32)
    n = int(rng.choice([1, 1, 1, 2, 3]))
    for k in range(n):
        s = rng.uniform(0.2, 0.55 if n == 1 else 0.3) * T
        cx, cy = (T / 2, T / 2) if n == 1 else (rng.uniform(0.3, 0.7) * T, rng.uniform(0.3, 0.7) * T)
        kind = rng.choice(["tri", "circle", "square", "bar", "crescent", "star", "cross", "poly"])
        a0 = rng.uniform(0, 2 * math.pi)
        if kind == "circle":
            cv2.circle(mask, (int(cx * 16), int(cy * 16)), int(s / 2 * 16), 1.0, -1 if rng.random() < 0.6 else max(1, int(s * 0.12)), cv2.LINE_AA, 4)
        elif kind == "crescent":
            cv2.circle(mask, (int(cx * 16), int(cy * 16)), int(s / 2 * 16), 1.0, -1, cv2.LINE_AA, 4)
            cv2.circle(mask, (int((cx + s * 0.25) * 16), int(cy * 16)), int(s / 2 * 16), 0.0, -1, cv2.LINE_AA, 4)
        elif kind == "bar":
            pts = cv2.boxPoints(((cx, cy), (s, s * 0.25), math.degrees(a0)))
            cv2.fillConvexPoly(mask, (pts * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
        elif kind == "cross":
            for d in (0, 90):
                pts = cv2.boxPoints(((cx, cy), (s, s * 0.25), math.degrees(a0) + d))
                cv2.fillConvexPoly(mask, (pts * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
        else:
            m = {"tri": 3, "square": 4, "star": 10, "poly": int(rng.integers(5, 8))}[str(kind)]
            pts = []
            for j in range(m):
                r = s / 2 * (0.45 if kind == "star" and j % 2 else 1.0)
                a = a0 + 2 * math.pi * j / m
                pts.append([cx + r * math.cos(a), cy + r * math.sin(a)])
            filled = rng.random() < 0.7
            if filled:
                cv2.fillPoly(mask, [(np.array(pts) * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
            else:
                cv2.polylines(mask, [(np.array(pts) * 16).astype(np.int32)], True, 1.0, max(1, int(s * 0.1)), cv2.LINE_AA, 4)
    return mask


GLYPHS = list("ABCDEFGHIJKLMNOPQRSTUVWXYZabdeghkmnqrtxyz0123456789?!&@#$%") + list("★☆♠♣♥♦☀☁☂☃☯☮✈⚓⚔⚡♛♞♜☠☢⚙✿❀✚✖✔❤☘♫♪⌘Ωλπψ∞")


def paint_symbol_face(rng: np.random.Generator, body: np.ndarray, T: int = FACE_RES) -> tuple[np.ndarray, np.ndarray]:
    """A face that is not a pip face: a glyph, an icon or a small picture, in random colours."""
    kind = rng.choice(["glyph", "icon", "picture", "numeral"], p=[0.4, 0.35, 0.15, 0.1])
    ink = random_colour(rng, (0, 1), (0, 1))
    if float(np.abs(ink - body).sum()) < 0.6:
        ink = 1.0 - body
    albedo = np.broadcast_to(body, (T, T, 3)).astype(np.float32).copy()
    mask = np.zeros((T, T), np.float32)
    if kind in ("glyph", "numeral"):
        text = str(rng.integers(1, 7)) if kind == "numeral" else str(rng.choice(GLYPHS))
        img = np.zeros((T, T, 3), np.float32)
        size = rng.uniform(0.4, 0.75) * T
        draw_text(img, rng, text, (int(T / 2 - size / 2), int(T / 2 - size / 2)), int(size), (1.0, 1.0, 1.0))
        mask = img[..., 0]
        ys, xs = np.nonzero(mask > 0.5)
        if len(xs):
            M = np.float32([[1, 0, T / 2 - (xs.min() + xs.max()) / 2], [0, 1, T / 2 - (ys.min() + ys.max()) / 2]])
            mask = cv2.warpAffine(mask, M, (T, T))
    elif kind == "icon":
        mask = _icon_mask(rng, T)
        if rng.random() < 0.3:  # a second colour inside
            inner = _icon_mask(rng, T) * mask
            albedo = albedo * (1 - inner[..., None]) + random_colour(rng)[None, None] * inner[..., None]
            mask = mask * (1 - inner)
    else:
        icons = icon_files()
        if icons:
            pic = cv2.imread(icons[int(rng.integers(len(icons)))], cv2.IMREAD_UNCHANGED)
            if pic is not None and pic.ndim == 3 and pic.shape[2] == 4:
                s = int(rng.uniform(0.5, 0.8) * T)
                pic = cv2.resize(pic, (s, s), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
                o = (T - s) // 2
                a = pic[..., 3:4]
                albedo[o:o + s, o:o + s] = albedo[o:o + s, o:o + s] * (1 - a) + pic[..., 2::-1] * a
                return albedo, -1.0 * cv2.GaussianBlur(np.pad(a[..., 0], ((o, T - s - o), (o, T - s - o))), (0, 0), 1.5)
        mask = _icon_mask(rng, T)
    if rng.random() < 0.5:
        ang = rng.uniform(0, 360)
        M = cv2.getRotationMatrix2D((T / 2, T / 2), ang, 1.0)
        mask = cv2.warpAffine(mask, M, (T, T))
    albedo = albedo * (1 - mask[..., None]) + ink[None, None] * mask[..., None]
    height = -rng.uniform(0, 2.5) * cv2.GaussianBlur(mask, (0, 0), 1.5)
    return albedo.astype(np.float32), height.astype(np.float32)


def face_from_image(image: np.ndarray, body: np.ndarray, T: int = FACE_RES, alpha: np.ndarray | None = None,
                    margin: float = 0.12, engrave: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Turn any picture (H, W, 3 uint8 or float RGB) into a face: scaled into the face with a
    margin, composited over the body colour with `alpha` (H, W in [0, 1]) when given."""
    img = image.astype(np.float32)
    if img.max() > 1.5:
        img /= 255.0
    s = max(1, int(T * (1 - 2 * margin)))
    o = (T - s) // 2
    albedo = np.broadcast_to(body, (T, T, 3)).astype(np.float32).copy()
    pic = cv2.resize(img, (s, s), interpolation=cv2.INTER_AREA)
    a = np.ones((s, s), np.float32) if alpha is None else cv2.resize(alpha.astype(np.float32), (s, s), interpolation=cv2.INTER_AREA)
    albedo[o:o + s, o:o + s] = albedo[o:o + s, o:o + s] * (1 - a[..., None]) + pic * a[..., None]
    height = np.zeros((T, T), np.float32)
    height[o:o + s, o:o + s] = -engrave * a
    return albedo, height
