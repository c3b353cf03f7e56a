"""Procedural table surfaces and flat clutter, drawn in ground-plane coordinates.

Every generator takes the texture size in pixels and `ppu`, texture pixels per die side
(a die is ~16 mm), so that grain, weave and print have physical scale under any camera.
Colours are float32 RGB in [0, 1].
"""
from __future__ import annotations

import glob
import math
from functools import lru_cache

import cv2
import numpy as np

from .noise import fractal, hsv_colour, random_colour, value_noise

# DejaVu only: renders stay the same whatever other fonts a machine has, and the symbol-dice
# evaluation set (scripts/symbol-eval) draws Liberation glyphs that training must never see.
FONT_GLOBS = ("/usr/share/fonts/truetype/dejavu/*.ttf",)
ICON_GLOB = "/usr/share/icons/Adwaita/96x96/**/*.png"


def _mix(a: np.ndarray, b: np.ndarray, t: np.ndarray) -> np.ndarray:
    return a * (1 - t[..., None]) + b * t[..., None]


def _jitter(rng, c, amount=0.08):
    return np.clip(c + rng.normal(0, amount, 3).astype(np.float32), 0, 1)


def wood(rng, h, w, ppu):
    c1 = hsv_colour(rng.uniform(8, 22), rng.uniform(0.25, 0.75), rng.uniform(0.35, 0.95))
    c2 = c1 * rng.uniform(0.55, 0.85)
    plank = rng.uniform(4, 14) * ppu
    angle = rng.uniform(0, 180)
    big = int(math.hypot(h, w)) + 4
    ys = np.arange(big, dtype=np.float32)[:, None]
    turb = fractal(rng, big, big, max(4.0, 3 * ppu), 3) * rng.uniform(4, 25) * ppu / 10
    stretch = cv2.resize(fractal(rng, big, max(8, big // 16), max(2.0, ppu / 8), 3), (big, big))
    rings = 0.5 + 0.5 * np.sin((ys + turb) / max(ppu * rng.uniform(0.05, 0.3), 0.7) + 6 * stretch)
    grain = np.power(rings, rng.uniform(1, 4))
    tex = _mix(np.broadcast_to(c1, (big, big, 3)), np.broadcast_to(c2, (big, big, 3)), grain * rng.uniform(0.3, 0.9))
    # planks: a colour shift per plank and dark seams
    idx = (ys / plank).astype(int)[:, 0]
    shifts = rng.uniform(0.85, 1.15, size=(idx.max() + 1, 3)).astype(np.float32)
    tex = tex * shifts[idx][:, None, :]
    seam = (np.mod(ys[:, 0], plank) < max(1.0, ppu * 0.04))
    tex[seam] *= 0.5
    M = cv2.getRotationMatrix2D((big / 2, big / 2), angle, 1.0)
    tex = cv2.warpAffine(tex.astype(np.float32), M, (big, big), borderMode=cv2.BORDER_REFLECT)
    oy, ox = (big - h) // 2, (big - w) // 2
    return tex[oy:oy + h, ox:ox + w]


def felt(rng, h, w, ppu):
    c = random_colour(rng, (0.3, 0.9), (0.15, 0.7)) if rng.random() < 0.8 else random_colour(rng, (0, 0.2), (0.1, 0.9))
    fib = fractal(rng, h, w, max(1.5, ppu * 0.05), 2)
    low = fractal(rng, h, w, max(4.0, ppu * 6), 3)
    return np.broadcast_to(c, (h, w, 3)) * (0.85 + 0.15 * fib[..., None]) * (0.85 + 0.3 * low[..., None])


def cloth(rng, h, w, ppu):
    c = random_colour(rng, (0.1, 0.8), (0.3, 0.95))
    period = max(1.5, ppu * rng.uniform(0.04, 0.15))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, math.pi)
    u = xx * math.cos(a) + yy * math.sin(a)
    v = -xx * math.sin(a) + yy * math.cos(a)
    weave = 0.5 + 0.25 * (np.sin(u * 2 * math.pi / period) + np.sin(v * 2 * math.pi / period))
    folds = fractal(rng, h, w, max(8.0, ppu * rng.uniform(3, 10)), 3)
    shade = 0.7 + 0.5 * folds
    tex = np.broadcast_to(c, (h, w, 3)) * (0.85 + 0.15 * weave[..., None]) * shade[..., None]
    if rng.random() < 0.3:  # printed pattern: stripes or checks
        c2 = random_colour(rng, (0.2, 0.9), (0.2, 0.9))
        p = ppu * rng.uniform(0.5, 4)
        pat = ((np.floor(u / p) + (np.floor(v / p) if rng.random() < 0.5 else 0)) % 2).astype(np.float32)
        tex = _mix(tex, np.broadcast_to(c2, (h, w, 3)) * shade[..., None], pat * rng.uniform(0.4, 1))
    return tex


def paper(rng, h, w, ppu):
    c = hsv_colour(rng.uniform(10, 40), rng.uniform(0, 0.15), rng.uniform(0.8, 1.0))
    tex = np.broadcast_to(c, (h, w, 3)) * (0.94 + 0.06 * fractal(rng, h, w, max(2.0, ppu * 0.3), 3)[..., None])
    tex = np.ascontiguousarray(tex)
    if rng.random() < 0.6:  # ruled or grid lines
        ink = hsv_colour(rng.uniform(90, 130), rng.uniform(0.2, 0.6), rng.uniform(0.5, 0.9))
        step = max(4, int(ppu * rng.uniform(0.4, 0.8)))
        lw = max(1, int(ppu * 0.03))
        tex[::step][:, :] = tex[::step] * 0.3 + ink * 0.7
        if rng.random() < 0.4:
            tex[:, ::step] = tex[:, ::step] * 0.3 + ink * 0.7
        if lw > 1:
            tex = cv2.blur(tex, (1, lw))
    return tex


def speckled(rng, h, w, ppu):
    """Laminate or stone table tops: a base colour with specks and clouds (granite, terrazzo)."""
    base = random_colour(rng, (0, 0.3), (0.5, 0.98)) if rng.random() < 0.7 else random_colour(rng, (0, 0.6), (0.1, 0.6))
    tex = np.broadcast_to(base, (h, w, 3)) * (0.9 + 0.2 * fractal(rng, h, w, max(4.0, ppu * 5), 3)[..., None])
    tex = np.ascontiguousarray(tex, dtype=np.float32)
    density = rng.uniform(0.002, 0.05)
    n = int(h * w * density / max(1.0, (ppu * 0.05) ** 2))
    n = min(n, 200000)
    if n:
        ys, xs = rng.integers(0, h, n), rng.integers(0, w, n)
        cols = np.where(rng.random((n, 1)) < 0.5, 0.2, 1.2) * base * rng.uniform(0.5, 1.0, (n, 1))
        r = max(0, int(ppu * rng.uniform(0.005, 0.03)))
        if r <= 1:
            tex[ys, xs] = cols
        else:
            for y, x, c in zip(ys[:4000], xs[:4000], cols[:4000]):
                cv2.circle(tex, (int(x), int(y)), r, c.tolist(), -1)
    return np.clip(tex, 0, 1)


def marble(rng, h, w, ppu):
    base = random_colour(rng, (0, 0.2), (0.6, 1.0)) if rng.random() < 0.6 else random_colour(rng, (0, 0.5), (0.05, 0.4))
    vein = base * rng.uniform(0.3, 0.7) if base.mean() > 0.5 else np.clip(base + 0.5, 0, 1)
    n = fractal(rng, h, w, max(8.0, ppu * rng.uniform(4, 12)), 5)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, math.pi)
    t = np.abs(np.sin((xx * math.cos(a) + yy * math.sin(a)) / max(ppu * 3, 4) + 8 * n))
    veins = np.power(1 - t, rng.uniform(8, 30))
    return _mix(np.broadcast_to(base, (h, w, 3)), np.broadcast_to(vein, (h, w, 3)), veins)


def tray(rng, h, w, ppu):
    """A dice tray or play mat: vinyl/felt field with a raised rim and fittings (byler-like)."""
    field = felt(rng, h, w, ppu) if rng.random() < 0.5 else np.broadcast_to(random_colour(rng, (0, 0.3), (0.6, 0.95)), (h, w, 3)) * (0.93 + 0.1 * fractal(rng, h, w, max(4.0, ppu * 4), 3)[..., None])
    field = np.ascontiguousarray(field, dtype=np.float32)
    rim_c = np.clip(field.mean((0, 1)) * rng.uniform(0.7, 1.3), 0, 1)
    rim = int(ppu * rng.uniform(1.5, 4))
    for side in range(4):
        if rng.random() < 0.6:
            continue
        sl = [slice(None), slice(None)]
        pos = int(rng.uniform(0.05, 0.4) * (h if side < 2 else w))
        if side == 0:
            sl[0] = slice(0, pos)
        elif side == 1:
            sl[0] = slice(h - pos, h)
        elif side == 2:
            sl[1] = slice(0, pos)
        else:
            sl[1] = slice(w - pos, w)
        region = field[tuple(sl)]
        region[:] = rim_c * (0.9 + 0.1 * rng.random())
        # screw heads / studs along the rim
        if rng.random() < 0.5 and region.size:
            rh, rw = region.shape[:2]
            for k in range(int(rng.integers(1, 4))):
                cy, cx = int(rng.uniform(0.2, 0.8) * rh), int(rng.uniform(0.05, 0.95) * rw)
                cv2.circle(region, (cx, cy), max(2, int(ppu * 0.4)), (rim_c * 0.4).tolist(), -1)
        edge = max(2, rim // 6)
        if side == 0:
            field[max(0, pos - edge):pos] *= 0.75
        elif side == 1:
            field[h - pos:h - pos + edge] *= 0.75
        elif side == 2:
            field[:, max(0, pos - edge):pos] *= 0.75
        else:
            field[:, w - pos:w - pos + edge] *= 0.75
    return field


def plain(rng, h, w, ppu):
    c = random_colour(rng, (0, 0.25), (0.3, 1)) if rng.random() < 0.7 else random_colour(rng, (0, 1), (0.05, 1))
    g = fractal(rng, h, w, max(16.0, ppu * 15), 2)
    return np.broadcast_to(c, (h, w, 3)) * (0.75 + 0.5 * g[..., None])


def tiles(rng, h, w, ppu):
    """Board-game boards or tiled surfaces: a grid of coloured cells with grout."""
    cell = ppu * rng.uniform(1.5, 6)
    ny, nx = int(h / cell) + 2, int(w / cell) + 2
    palette = [random_colour(rng, (0.2, 1), (0.3, 1)) for _ in range(int(rng.integers(1, 5)))]
    grid = np.array([[palette[int(rng.integers(len(palette)))] for _ in range(nx)] for _ in range(ny)], np.float32)
    tex = cv2.resize(grid, (int(nx * cell), int(ny * cell)), interpolation=cv2.INTER_NEAREST)[:h, :w]
    if tex.shape[:2] != (h, w):
        tex = cv2.resize(tex, (w, h), interpolation=cv2.INTER_NEAREST)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    g = max(1.0, cell * rng.uniform(0.03, 0.12))
    grout = (np.mod(yy, cell) < g) | (np.mod(xx, cell) < g)
    tex[grout] = random_colour(rng, (0, 0.3), (0.1, 0.9))
    return tex * (0.9 + 0.2 * fractal(rng, h, w, max(8.0, ppu * 8), 2)[..., None])


def carpet(rng, h, w, ppu):
    c1, c2 = random_colour(rng, (0.05, 0.5), (0.2, 0.8)), random_colour(rng, (0.05, 0.5), (0.2, 0.8))
    n = fractal(rng, h, w, max(2.0, ppu * rng.uniform(0.3, 3)), 4)
    hi = value_noise(rng, h, w, 1.5)
    return _mix(np.broadcast_to(c1, (h, w, 3)), np.broadcast_to(c2, (h, w, 3)), n) * (0.8 + 0.3 * hi[..., None])


SURFACES = {
    "wood": (wood, 0.22), "felt": (felt, 0.1), "cloth": (cloth, 0.12), "paper": (paper, 0.07),
    "speckled": (speckled, 0.14), "tray": (tray, 0.1), "marble": (marble, 0.07), "plain": (plain, 0.09),
    "tiles": (tiles, 0.05), "carpet": (carpet, 0.04),
}


def ground_texture(rng: np.random.Generator, h: int, w: int, ppu: float, kind: str | None = None) -> tuple[np.ndarray, str]:
    names = list(SURFACES)
    if kind is None:
        p = np.array([SURFACES[n][1] for n in names])
        kind = names[int(rng.choice(len(names), p=p / p.sum()))]
    tex = SURFACES[kind][0](rng, h, w, ppu)
    return np.ascontiguousarray(np.clip(tex, 0, 1), dtype=np.float32), kind


@lru_cache(maxsize=1)
def font_files() -> tuple[str, ...]:
    files = []
    for g in FONT_GLOBS:
        files += glob.glob(g, recursive=True)
    return tuple(sorted(files))


@lru_cache(maxsize=1)
def icon_files() -> tuple[str, ...]:
    return tuple(sorted(glob.glob(ICON_GLOB, recursive=True)))


def draw_text(img: np.ndarray, rng: np.random.Generator, text: str, xy: tuple[int, int], size_px: int, colour, font: str | None = None, angle: float = 0.0) -> None:
    """Draw text with a TrueType font (PIL) onto a float RGB image, in place."""
    from PIL import Image, ImageDraw, ImageFont

    fonts = font_files()
    font = font or fonts[int(rng.integers(len(fonts)))]
    f = ImageFont.truetype(font, max(4, int(size_px)))
    box = f.getbbox(text)
    tw, th = box[2] - box[0] + 4, box[3] - box[1] + 4
    layer = Image.new("L", (tw, th), 0)
    ImageDraw.Draw(layer).text((2 - box[0], 2 - box[1]), text, font=f, fill=255)
    if angle:
        layer = layer.rotate(angle, expand=True, resample=Image.BILINEAR)
    a = np.asarray(layer, np.float32) / 255.0
    x, y = xy
    H, W = img.shape[:2]
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(W, x + a.shape[1]), min(H, y + a.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    aa = a[y0 - y:y1 - y, x0 - x:x1 - x, None]
    img[y0:y1, x0:x1] = img[y0:y1, x0:x1] * (1 - aa) + np.asarray(colour, np.float32) * aa


def add_clutter(rng: np.random.Generator, tex: np.ndarray, ppu: float, keep_out: list[tuple[float, float, float]], n: int) -> None:
    """Flat things lying on the table (cards, notes, coins, pencils, tokens, printed pip
    patterns that are not dice), drawn in place; keep_out holds (x, y, radius) of dice."""
    h, w = tex.shape[:2]
    for _ in range(n):
        kind = rng.choice(["card", "note", "coin", "pencil", "token", "printed", "sheet"], p=[0.17, 0.15, 0.17, 0.15, 0.15, 0.06, 0.15])
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        if any(math.hypot(cx - x, cy - y) < r for x, y, r in keep_out):
            continue
        angle = rng.uniform(0, 180)
        if kind in ("card", "note", "sheet", "printed"):
            if kind == "card":
                sw, sh = ppu * 4, ppu * 5.6
                col = random_colour(rng, (0, 0.2), (0.85, 1.0))
            elif kind == "note":
                sw = sh = ppu * rng.uniform(3, 5)
                col = random_colour(rng, (0.3, 0.7), (0.8, 1.0))
            elif kind == "sheet":
                sw, sh = ppu * rng.uniform(8, 14), ppu * rng.uniform(10, 18)
                col = hsv_colour(20, 0.05, 0.97)
            else:
                sw = sh = ppu * rng.uniform(0.8, 2.0)
                col = random_colour(rng, (0, 1), (0.3, 1))
            rect = ((cx, cy), (sw, sh), angle)
            pts = cv2.boxPoints(rect).astype(np.int32)
            # soft shadow then the object
            sh_mask = np.zeros((h, w), np.float32)
            cv2.fillConvexPoly(sh_mask, pts + int(ppu * 0.08), 1.0)
            sh_mask = cv2.GaussianBlur(sh_mask, (0, 0), max(0.5, ppu * 0.1))
            tex *= (1 - 0.3 * sh_mask)[..., None]
            cv2.fillConvexPoly(tex, pts, col.tolist())
            if kind in ("note", "sheet", "card"):
                ink = random_colour(rng, (0, 0.9), (0.0, 0.5))
                for k in range(int(rng.integers(1, 6))):
                    text = "".join(rng.choice(list("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 +=-")) for _ in range(int(rng.integers(2, 9))))
                    draw_text(tex, rng, text, (int(cx - sw / 3 + rng.uniform(-ppu, ppu)), int(cy - sh / 3 + k * ppu * 0.9)), int(ppu * rng.uniform(0.4, 0.9)), ink, angle=-angle)
            if kind == "printed":  # a flat printed die face: a hard negative
                from .faces import pip_positions
                v = int(rng.integers(1, 7))
                pc = random_colour(rng, (0, 1), (0, 1))
                ca, sa = math.cos(math.radians(angle)), math.sin(math.radians(angle))
                for (u, vv) in pip_positions(v, 0.25):
                    dx, dy = (u - 0.5) * sw, (vv - 0.5) * sh
                    px, py = cx + dx * ca - dy * sa, cy + dx * sa + dy * ca
                    cv2.circle(tex, (int(px), int(py)), max(1, int(0.09 * sw)), pc.tolist(), -1)
        elif kind in ("coin", "token"):
            r = ppu * (rng.uniform(0.6, 1.6) if kind == "coin" else rng.uniform(0.4, 1.2))
            col = hsv_colour(rng.uniform(15, 30), rng.uniform(0.3, 0.7), rng.uniform(0.5, 0.9)) if kind == "coin" and rng.random() < 0.6 else random_colour(rng, (0, 1), (0.2, 1))
            cv2.circle(tex, (int(cx + ppu * 0.1), int(cy + ppu * 0.1)), int(r), (tex[int(cy) % h, int(cx) % w] * 0.6).tolist(), -1)
            cv2.circle(tex, (int(cx), int(cy)), int(r), col.tolist(), -1)
            cv2.circle(tex, (int(cx), int(cy)), int(r * 0.8), (col * 0.85).tolist(), max(1, int(ppu * 0.05)))
        else:  # pencil / pen
            L, Wd = ppu * rng.uniform(6, 11), ppu * rng.uniform(0.35, 0.6)
            col = random_colour(rng, (0.4, 1), (0.3, 1))
            rect = ((cx, cy), (L, Wd), angle)
            pts = cv2.boxPoints(rect).astype(np.int32)
            cv2.fillConvexPoly(tex, pts + int(ppu * 0.15), (tex[int(cy) % h, int(cx) % w] * 0.6).tolist())
            cv2.fillConvexPoly(tex, pts, col.tolist())
