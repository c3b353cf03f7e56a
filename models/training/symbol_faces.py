"""Random symbol faces for training the face embedder: thousands of classes of glyphs, icons,
letters and pictures in many colours, each drawn once as a square die-face texture.

Sources are kept apart from the evaluation set on purpose: training uses the DejaVu fonts, the
procedural families below, and "font sets" (six characters of one font, from the other fonts
installed from Debian's packages, see models/training/README.md); the evaluation set
(scripts/make-symbol-eval.ts) draws with the Liberation fonts, another procedural family, and the
kits' own art, none of which appear here (nor Croscore's Arimo, Tinos and Cousine, which
Liberation 2 was made from).
"""
import glob
import hashlib
import math

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

FONT_GLOB = '/usr/share/fonts/truetype/dejavu/DejaVu*.ttf'
# Font sets: every other font installed, never the evaluation set's (Liberation) or its sources.
SET_FONT_GLOBS = ('/usr/share/fonts/truetype/**/*.ttf', '/usr/share/fonts/opentype/**/*.otf')
SET_FONT_EXCLUDED = ('liberation', 'dejavu', 'arimo', 'tinos', 'cousine')
SET_CHARS = [chr(c) for c in range(0x21, 0x7F)]  # printable ASCII: accented twins would differ by a few pixels on a die

# Unicode blocks with many distinct, printable shapes (letters, symbols, dingbats, braille dots).
RANGES = [
    (0x21, 0x7E), (0xA1, 0x17F), (0x180, 0x24F), (0x370, 0x3FF), (0x400, 0x4FF), (0x531, 0x587),
    (0x5D0, 0x5EA), (0x10A0, 0x10FF), (0x16A0, 0x16F0), (0x2100, 0x214F), (0x2190, 0x21FF),
    (0x2200, 0x22FF), (0x2300, 0x23FF), (0x2460, 0x24FF), (0x25A0, 0x25FF), (0x2600, 0x26FF),
    (0x2700, 0x27BF), (0x27C0, 0x27EF), (0x2800, 0x28FF), (0x2900, 0x297F), (0x2A00, 0x2AFF),
    (0x2B00, 0x2BFF), (0x2C00, 0x2C5F), (0xA4D0, 0xA4FF),
]


def _mask(font, ch, size):
    img = Image.new('L', (size, size), 0)
    ImageDraw.Draw(img).text((size / 2, size / 2), ch, fill=255, font=font, anchor='mm')
    return np.asarray(img)


def font_glyphs(size=64):
    """Every (font path, character) with a real, reasonably sized glyph, deduplicated by bitmap."""
    out, seen = [], set()
    for path in sorted(glob.glob(FONT_GLOB)):
        if 'Math' in path or 'ExtraLight' in path:
            continue
        font = ImageFont.truetype(path, int(size * 0.7))
        notdef = _mask(font, '\uffff', size).tobytes()
        for lo, hi in RANGES:
            for cp in range(lo, hi + 1):
                ch = chr(cp)
                m = _mask(font, ch, size)
                if m.tobytes() == notdef:
                    continue
                ink = (m > 127).mean()
                if ink < 0.02 or ink > 0.6:
                    continue
                ys, xs = np.nonzero(m > 127)
                if max(ys.max() - ys.min(), xs.max() - xs.min()) < size * 0.25:
                    continue
                key = hashlib.md5(np.packbits(m[::2, ::2] > 127).tobytes()).hexdigest()
                if key in seen:
                    continue
                seen.add(key)
                out.append((path, ch))
    return out


def set_fonts():
    """The fonts font sets draw from (sorted paths); empty when none is installed."""
    paths = set()
    for pattern in SET_FONT_GLOBS:
        paths.update(glob.glob(pattern, recursive=True))
    return sorted(p for p in paths if not any(x in p.lower() for x in SET_FONT_EXCLUDED))


def _turns(m, thicken=7):
    """A glyph mask centred on its ink and thickened (thin strokes a pixel apart still overlap),
    at its four quarter turns."""
    ys, xs = np.nonzero(m)
    dy, dx = m.shape[0] // 2 - int(ys.mean()), m.shape[1] // 2 - int(xs.mean())
    c = cv2.dilate(np.roll(np.roll(m, dy, 0), dx, 1).astype(np.uint8), np.ones((thicken, thicken), np.uint8)) > 0
    return [np.rot90(c, k) for k in range(4)]


def _likeness(a_turns, b):
    """How alike two glyphs look when a die can land any way round: the best ink IoU of `b`
    against `a` at any of `a`'s quarter turns (thickened, centred masks from `_turns`)."""
    return max((t & b).sum() / max(1, (t | b).sum()) for t in a_turns)


def font_sets(n_sets, seed, set_size=6, size=64, near_alike=False):
    """`n_sets` sets of `set_size` characters of one font each: (font path, character) lists.

    Characters are drawn from printable ASCII; one is refused when its glyph is
    missing, nearly empty or nearly full, or when at some quarter turn it looks like a character
    already in the set (ink IoU > 0.5: 6/9, n/u, M/W, a letter and its small capital...), since a
    die can land at any angle. Fonts that cannot fill a set are skipped.

    near_alike: three pairs of near twins, letters and digits only: a character drawn at random,
    then one of the three most like it, such as L and 7 or S and 5, which a die's turns make hard
    to tell apart. The masks are thickened 3 px, not 7 (at 7 most letters of a font overlap by
    half), and a character stays out when its IoU with one in the set exceeds 0.45 at some turn
    (u and n, M and W in most fonts: one shape, not two)."""
    fonts = set_fonts()
    if not fonts:
        return []
    rng = np.random.default_rng(seed)
    masks_of = {}
    out = []
    tries = 0
    while len(out) < n_sets and tries < n_sets * 5:
        tries += 1
        path = fonts[int(rng.integers(len(fonts)))]
        if path not in masks_of:
            try:
                font = ImageFont.truetype(path, int(size * 0.7))
                notdef = _mask(font, '\uffff', size)
            except OSError:
                masks_of[path] = {}
                continue
            masks = {}
            for ch in SET_CHARS:
                m = _mask(font, ch, size) > 127
                ink = m.mean()
                if ink < 0.02 or ink > 0.6 or np.array_equal(m, notdef > 127):
                    continue
                ys, xs = np.nonzero(m)
                if max(ys.max() - ys.min(), xs.max() - xs.min()) < size * 0.25:
                    continue
                masks[ch] = m
            masks_of[path] = masks
        masks = masks_of[path]
        chosen, turned = [], []
        if near_alike:
            # letters and digits, thickened less: at 7 px most letters of a font overlap by half
            pool = {str(ch): _turns(masks[ch], 3) for ch in masks if str(ch).isalnum()}
            while len(chosen) < set_size:
                # a character unlike the set so far, then its nearest twins that are still allowed
                allowed = sorted(c for c, t in pool.items() if all(_likeness(t, a) <= 0.45 for a in turned))
                if not allowed:
                    break
                if len(chosen) % 2 == 0:
                    ch = str(rng.choice(allowed))
                else:
                    last = turned[-1]
                    near = sorted(((_likeness(pool[c], last), c) for c in allowed), reverse=True)
                    ch = near[int(rng.integers(min(3, len(near))))][1]
                chosen.append(ch)
                turned.append(pool.pop(ch)[0])
        else:
            for ch in rng.permutation(sorted(masks)):
                t = _turns(masks[ch])
                if any(_likeness(t, a) > 0.5 for a in turned):
                    continue
                chosen.append(str(ch))
                turned.append(t[0])
                if len(chosen) == set_size:
                    break
        if len(chosen) == set_size:
            out.append([(path, ch) for ch in chosen])
    return out


def _colour(rng):
    h = rng.uniform(0, 180)
    s = rng.choice([rng.uniform(0, 40), rng.uniform(80, 255)])
    v = rng.uniform(20, 255)
    hsv = np.uint8([[[h, s, v]]])
    return tuple(int(c) for c in cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB)[0, 0])


def _luma(c):
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


def face_colours(rng):
    """A die colour and an ink colour that a maker would print: clearly different in lightness."""
    while True:
        die, ink = _colour(rng), _colour(rng)
        if abs(_luma(die) - _luma(ink)) > 70:
            return die, ink


def _star(cx, cy, r_out, r_in, n, rot):
    pts = []
    for i in range(2 * n):
        r = r_out if i % 2 == 0 else r_in
        a = rot + math.pi * i / n
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return pts


def _poly(cx, cy, r, n, rot, rng, jitter):
    return [(cx + r * (1 + rng.uniform(-jitter, jitter)) * math.cos(rot + 2 * math.pi * i / n),
             cy + r * (1 + rng.uniform(-jitter, jitter)) * math.sin(rot + 2 * math.pi * i / n)) for i in range(n)]


def _primitive(draw, rng, cx, cy, r, fill, width):
    kind = rng.integers(0, 8)
    rot = rng.uniform(0, 2 * math.pi)
    if kind == 0:
        pts = _poly(cx, cy, r, int(rng.integers(3, 9)), rot, rng, 0.0)
    elif kind == 1:
        pts = _star(cx, cy, r, r * rng.uniform(0.3, 0.7), int(rng.integers(4, 13)), rot)
    elif kind == 2:
        pts = _poly(cx, cy, r, int(rng.integers(4, 10)), rot, rng, 0.45)
    elif kind == 3:
        e = rng.uniform(0.35, 1.0)
        bb = [cx - r, cy - r * e, cx + r, cy + r * e]
        if rng.random() < 0.5:
            draw.ellipse(bb, fill=fill)
        else:
            draw.ellipse(bb, outline=fill, width=width)
        return
    elif kind == 4:  # cross / plus
        t = r * rng.uniform(0.2, 0.45)
        for a in (rot, rot + math.pi / 2):
            dx, dy = math.cos(a), math.sin(a)
            px, py = -dy * t, dx * t
            draw.polygon([(cx - dx * r + px, cy - dy * r + py), (cx + dx * r + px, cy + dy * r + py),
                          (cx + dx * r - px, cy + dy * r - py), (cx - dx * r - px, cy - dy * r - py)], fill=fill)
        return
    elif kind == 5:  # pips / dots pattern
        n = int(rng.integers(1, 8))
        for _ in range(n):
            a, d = rng.uniform(0, 2 * math.pi), rng.uniform(0, r * 0.8)
            pr = r * rng.uniform(0.12, 0.25)
            x, y = cx + d * math.cos(a), cy + d * math.sin(a)
            draw.ellipse([x - pr, y - pr, x + pr, y + pr], fill=fill)
        return
    elif kind == 6:  # arc / crescent
        bb = [cx - r, cy - r, cx + r, cy + r]
        a0 = rng.uniform(0, 360)
        draw.arc(bb, a0, a0 + rng.uniform(90, 300), fill=fill, width=width)
        return
    else:  # stripes inside a box
        n = int(rng.integers(2, 5))
        for i in range(n):
            y = cy - r + (2 * r) * (i + 0.5) / n
            draw.line([(cx - r, y), (cx + r, y)], fill=fill, width=width)
        return
    if rng.random() < 0.75:
        draw.polygon(pts, fill=fill)
    else:
        draw.line(pts + [pts[0]], fill=fill, width=width, joint='curve')


def draw_face(spec, size=96, colours=None):
    """Draws one class's face texture (RGB uint8, size x size) from its spec tuple.

    colours: (die, ink) shared by the faces of one set; otherwise the class's own.
    """
    kind, seed = spec[0], spec[1]
    rng = np.random.default_rng(seed)
    die, ink = face_colours(rng)
    if colours is not None:
        die, ink = colours
    img = Image.new('RGB', (size, size), die)
    draw = ImageDraw.Draw(img)
    s = size
    if rng.random() < 0.15:  # a printed frame, as on some makers' dice
        m = s * rng.uniform(0.06, 0.12)
        draw.rounded_rectangle([m, m, s - m, s - m], radius=s * 0.12, outline=ink, width=max(1, int(s * 0.03)))
    scale = rng.uniform(0.55, 0.85)
    if kind == 'glyph':
        path, ch = spec[2], spec[3]
        font = ImageFont.truetype(path, int(s * scale))
        draw.text((s / 2 + rng.uniform(-2, 2), s / 2 + rng.uniform(-2, 2)), ch, fill=ink, font=font, anchor='mm')
    elif kind == 'shape':
        n = int(rng.integers(1, 4))
        width = max(2, int(s * rng.uniform(0.04, 0.1)))
        for i in range(n):
            r = s * scale / 2 * (1.0 if i == 0 else rng.uniform(0.3, 0.6))
            off = 0 if i == 0 else s * 0.18
            a = rng.uniform(0, 2 * math.pi)
            col = ink if (i == 0 or rng.random() < 0.6) else _colour(rng)
            _primitive(draw, rng, s / 2 + off * math.cos(a), s / 2 + off * math.sin(a), r, col, width)
    else:  # 'picture': a small multi-colour composition
        for _ in range(int(rng.integers(3, 7))):
            r = s * rng.uniform(0.12, 0.35)
            cx, cy = s / 2 + rng.uniform(-0.22, 0.22) * s, s / 2 + rng.uniform(-0.22, 0.22) * s
            _primitive(draw, rng, cx, cy, r, _colour(rng), max(2, int(s * 0.06)))
    return np.asarray(img)


def class_specs(n_shape, n_picture, glyphs, seed):
    """The class list: every font glyph plus procedural shapes and pictures, each with its seed."""
    rng = np.random.default_rng(seed)
    specs = [('glyph', int(rng.integers(1 << 31)), p, ch) for p, ch in glyphs]
    specs += [('shape', int(rng.integers(1 << 31))) for _ in range(n_shape)]
    specs += [('picture', int(rng.integers(1 << 31))) for _ in range(n_picture)]
    order = rng.permutation(len(specs))
    return [specs[i] for i in order]
