"""Synthetic crops of single dice for the die-face reader: standard pip dice in many colours and
materials (logo-on-1 faces included) and symbol dice (class `other`), each seen by a camera from
20-90 degrees above the table, with neighbouring dice, shadows, highlights and the table around
it. (Dice cocked on an edge are not rendered: in one crop, a die tilted 45 degrees seen from
above looks like an upright die seen from 45 degrees, which real photos are full of.)

Painting a die's six faces takes ~10 ms and rendering a scene with painted dice ~10 ms on one
core, so training keeps pools of both and refreshes them as it goes (FacePool, die_face_data.Mixer). The
crop itself is cut by die_face_data.warp_crop, exactly like a real photo's die.

    rng = np.random.default_rng(0)
    scene, box, cls = render_die(rng, table)      # cls: 0..5 = value 1..6, 6 = other

The faces come from the detector's generator (dicegen: pip styles, logos, symbol faces), used
read-only; the renderer here is a projected cube in OpenCV, like die_crops.paint_die, but with
six faces, any tilt, several dice and materials.
"""
from __future__ import annotations

import math

import cv2
import numpy as np

from dicegen.dice import _body_colour
from die_crops import _background
from dicegen.faces import paint_pip_face, paint_symbol_face, random_pip_style
from dicegen.noise import fractal, random_colour

T = 64          # face texture side
OTHER = 6       # class index of `other`

# Unit cube standing on the table (z from 0 to 1); vertex index = 4 z + 2 y + x.
CUBE = np.array([[x, y, z] for z in (0.0, 1.0) for y in (-0.5, 0.5) for x in (-0.5, 0.5)])
# Faces as vertex quads (texture corners 00, 10, 11, 01) and outward normals; index order:
# +z (top), -z, +x, -x, +y, -y.
FACES = [
    ([4, 5, 7, 6], (0, 0, 1)),
    ([2, 3, 1, 0], (0, 0, -1)),
    ([1, 3, 7, 5], (1, 0, 0)),
    ([2, 0, 4, 6], (-1, 0, 0)),
    ([3, 2, 6, 7], (0, 1, 0)),
    ([0, 1, 5, 4], (0, -1, 0)),
]
OPPOSITE = [1, 0, 3, 2, 5, 4]


def _rot(axis, angle):
    axis = np.asarray(axis, float) / np.linalg.norm(axis)
    x, y, z = axis
    c, s = math.cos(angle), math.sin(angle)
    C = 1 - c
    return np.array([[c + x * x * C, x * y * C - z * s, x * z * C + y * s],
                     [y * x * C + z * s, c + y * y * C, y * z * C - x * s],
                     [z * x * C - y * s, z * y * C + x * s, c + z * z * C]])


def _material(rng, body):
    """The die body's look over a face: plain, marbled, pearl, speckled, wood; RGB float [0, 1]."""
    kind = rng.choice(['plain', 'marbled', 'pearl', 'speckled', 'wood', 'gradient'], p=[0.5, 0.18, 0.08, 0.08, 0.06, 0.1])
    base = np.broadcast_to(body, (T, T, 3)).astype(np.float32).copy()
    if kind == 'marbled':
        other = random_colour(rng, (0, 1), (0.05, 1)) if rng.random() < 0.7 else np.clip(body * rng.uniform(0.4, 1.6), 0, 1)
        n = fractal(rng, T, T, rng.uniform(10, 40))
        veins = np.abs(np.sin(n * rng.uniform(6, 18)))
        mix = np.clip((veins - rng.uniform(0.3, 0.7)) * 3, 0, 1)[..., None] * rng.uniform(0.5, 1.0)
        base = base * (1 - mix) + other * mix
    elif kind == 'pearl':
        n = fractal(rng, T, T, rng.uniform(12, 40))[..., None]
        base = np.clip(base * (0.85 + 0.35 * n), 0, 1)
    elif kind == 'speckled':
        dots = (rng.random((T, T)) < rng.uniform(0.01, 0.05)).astype(np.float32)
        dots = cv2.GaussianBlur(dots, (0, 0), 0.6)[..., None]
        base = np.clip(base * (1 - dots) + random_colour(rng) * dots, 0, 1)
    elif kind == 'wood':
        ramp = np.linspace(0, 1, T, dtype=np.float32)
        n = fractal(rng, T, T, 20)
        grain = 0.5 + 0.5 * np.sin((ramp[None, :] + n * 0.3) * rng.uniform(20, 50))
        base = np.clip(base * (0.8 + 0.25 * grain[..., None]), 0, 1)
    elif kind == 'gradient':
        a = rng.uniform(0, 2 * math.pi)
        ramp = np.linspace(-1, 1, T, dtype=np.float32)
        g = (math.cos(a) * ramp[None, :] + math.sin(a) * ramp[:, None])[..., None]
        base = np.clip(base * (1 + 0.2 * g), 0, 1)
    base += rng.normal(0, 0.01, (T, T, 1)).astype(np.float32)
    return np.clip(base, 0, 1)


def _shade_engraving(albedo, height, rng):
    """Engraved pips: light on one inner wall, shadow on the other."""
    if float(height.min()) > -0.05:
        return albedo
    gx = cv2.Sobel(height, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(height, cv2.CV_32F, 0, 1, ksize=3)
    a = rng.uniform(0, 2 * math.pi)
    relief = (gx * math.cos(a) + gy * math.sin(a)) * 0.03
    return np.clip(albedo * (1 + relief[..., None]), 0, 1)


def pip_die_faces(rng):
    """Six face textures (uint8 RGB, T x T) of one standard die, by value 1..6 (index 0..5)."""
    body = _body_colour(rng)
    style = random_pip_style(rng, body)
    style.logo_one = bool(rng.random() < 0.3)  # branded dice are common at real tables
    material = _material(rng, body)
    red_one = rng.random() < 0.1
    angle = rng.uniform(0, 360) if style.shape != 'round' else 0.0
    faces = []
    for v in range(1, 7):
        if red_one and v == 1:
            pip = style.pip
            style.pip = np.array([0.8, 0.08, 0.08], np.float32)
        albedo, height = paint_pip_face(v, style, T, angle)
        if red_one and v == 1:
            style.pip = pip
        # the painted face's body colour replaced by the material, the paint kept
        ink = np.clip(np.abs(albedo - body[None, None]).sum(-1) * 4, 0, 1)[..., None]
        face = material * (1 - ink) + albedo * ink
        face = _shade_engraving(face, height, rng)
        k = int(rng.integers(4))
        faces.append(np.ascontiguousarray(np.rot90((face * 255).astype(np.uint8), k)))
    return faces, body


def symbol_die_faces(rng):
    """Six faces of a die that is not a pip die (glyphs, icons, numerals, pictures)."""
    body = _body_colour(rng)
    material = _material(rng, body)
    faces = []
    for _ in range(6):
        if rng.random() < 0.05:  # a blank face
            albedo = material
        else:
            albedo, height = paint_symbol_face(rng, body, T)
            ink = np.clip(np.abs(albedo - body[None, None]).sum(-1) * 4, 0, 1)[..., None]
            albedo = _shade_engraving(material * (1 - ink) + albedo * ink, height, rng)
        faces.append((np.clip(albedo, 0, 1) * 255).astype(np.uint8))
    return faces, body


def _rounded_mask(n, radius):
    m = np.zeros((n, n), np.uint8)
    r = int(radius)
    cv2.rectangle(m, (r, 0), (n - 1 - r, n - 1), 255, -1)
    cv2.rectangle(m, (0, r), (n - 1, n - 1 - r), 255, -1)
    for cx, cy in ((r, r), (n - 1 - r, r), (r, n - 1 - r), (n - 1 - r, n - 1 - r)):
        cv2.circle(m, (cx, cy), r, 255, -1, lineType=cv2.LINE_AA)
    return m


def _table(rng, size, backgrounds):
    """The table: a real background patch from a train photo, or a procedural one."""
    if backgrounds is not None and rng.random() < 0.6:
        return backgrounds(rng, size).astype(np.float32)
    return _background(rng, size)


class FacePool:
    """Painted dice, reused: painting six faces costs ~10 ms, rendering a die with them ~3 ms.
    `refresh(n)` repaints n random entries, so the pool keeps changing during training."""

    def __init__(self, rng, pips=1500, symbols=400):
        self.rng = rng
        self.pips = [pip_die_faces(rng) for _ in range(pips)]
        self.symbols = [symbol_die_faces(rng) for _ in range(symbols)]

    def pip(self, rng):
        return self.pips[int(rng.integers(len(self.pips)))]

    def symbol(self, rng):
        return self.symbols[int(rng.integers(len(self.symbols)))]

    def refresh(self, n=1):
        for _ in range(n):
            self.pips[int(self.rng.integers(len(self.pips)))] = pip_die_faces(self.rng)
            if self.rng.random() < 0.25:
                self.symbols[int(self.rng.integers(len(self.symbols)))] = symbol_die_faces(self.rng)


def render_die(rng, backgrounds=None, canvas=96, kind=None, pool=None, translucent=0.0):
    """One die in the middle of a small scene, maybe with neighbours.

    kind: 'pips' (a standard die) or 'symbol' (a symbol die); drawn at random when None.
    translucent: the share of scenes whose die (and its like neighbours) is see-through, the pips
    of its hidden faces showing through the body, blurred and tinted (gem dice; 0 draws no
    random number, so a recipe without it renders as before).
    backgrounds(rng, size) gives a real
    table patch (uint8 RGB size x size) or None for procedural tables only. pool: a FacePool to
    take painted dice from (painted afresh when None).
    Returns (scene uint8 RGB canvas x canvas, whole-die box x y w h, class 0..5 or OTHER).
    """
    if kind is None:
        kind = 'pips' if rng.random() < 0.85 else 'symbol'
    pip_die = (lambda: pool.pip(rng)) if pool else (lambda: pip_die_faces(rng))
    if kind == 'symbol':
        faces, body = pool.symbol(rng) if pool else symbol_die_faces(rng)
        values = [None] * 6
    else:
        faces, body = pip_die()
        values = [1, 2, 3, 4, 5, 6]
    # Assign values to cube faces: opposite faces sum to 7, random handedness.
    order = list(range(6))
    low = [0, 1, 2]
    rng.shuffle(low)
    slots = [0, 2, 4]
    rng.shuffle(slots)
    for s, v in zip(slots, low):   # value index v (value v+1) and its opposite 5-v
        if rng.random() < 0.5:
            order[s], order[OPPOSITE[s]] = v, 5 - v
        else:
            order[s], order[OPPOSITE[s]] = 5 - v, v
    cube_faces = [faces[i] for i in order]

    tilt = math.radians(abs(rng.normal(0, 4)))  # resting on a not quite flat table
    axis = np.array([math.cos(a := rng.uniform(0, 2 * math.pi)), math.sin(a), 0.0])
    pose = _rot((0, 0, 1), rng.uniform(0, 2 * math.pi)) @ _rot(axis, tilt)
    top_face = int(np.argmax([(pose @ np.array(n, float))[2] for _, n in FACES]))
    v = values[order[top_face]]
    cls = OTHER if v is None else v - 1
    tau = float(rng.uniform(0.3, 0.75)) if translucent > 0 and rng.random() < translucent else 0.0

    dice = [(np.zeros(2), pose, cube_faces, body, tau)]
    n_neigh = int(rng.choice([0, 1, 2, 3], p=[0.45, 0.3, 0.17, 0.08]))
    for _ in range(n_neigh):
        a = rng.uniform(0, 2 * math.pi)
        d = rng.uniform(1.1, 1.7)
        pos = np.array([math.cos(a), math.sin(a)]) * d
        if any(np.linalg.norm(pos - p) < 1.1 for p, *_ in dice):
            continue
        ntau = 0.0
        if rng.random() < 0.5:   # same kind of die, another value up
            nf = list(cube_faces)
            rng.shuffle(nf)
            nb, ntau = body, tau
        else:
            f2, nb = pip_die()
            nf = [f2[i] for i in rng.permutation(6)]
        npose = _rot((0, 0, 1), rng.uniform(0, 2 * math.pi)) @ _rot(axis, math.radians(abs(rng.normal(0, 4))))
        dice.append((pos, npose, nf, nb, ntau))

    # Camera above the main die: from straight above to a low phone held at the table's edge.
    el_deg = rng.uniform(20, 90)
    el = math.radians(el_deg)
    az = rng.uniform(0, 2 * math.pi)
    dist = rng.uniform(5, 14)
    target = np.array([0, 0, 0.5])
    cam = target + dist * np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])
    fwd = (target - cam) / np.linalg.norm(target - cam)
    up = np.array([0, 0, 1.0]) if abs(fwd[2]) < 0.999 else np.array([0, 1.0, 0])
    right = np.cross(fwd, up)
    right /= np.linalg.norm(right)
    down = np.cross(fwd, right)

    def project(p3):
        rel = p3 - cam
        z = rel @ fwd
        return np.stack([(rel @ right) / z, (rel @ down) / z], -1)

    verts = []
    for pos, pose, *_ in dice:
        v3 = (CUBE - [0, 0, 0.5]) @ pose.T + [0, 0, 0.5] + [pos[0], pos[1], 0]
        verts.append(v3)
    # Seen from above, any turn of the phone; seen obliquely the table's "up" stays up in the
    # frame (a phone rolls a little), which is what tells the top face from the sides.
    spin = rng.uniform(0, 2 * math.pi) if el_deg > 65 else math.radians(rng.normal(0, 12))
    R = np.array([[math.cos(spin), -math.sin(spin)], [math.sin(spin), math.cos(spin)]])
    pts = [project(v3) @ R.T for v3 in verts]
    lo, hi = pts[0].min(0), pts[0].max(0)
    span = float((hi - lo).max())
    scale = canvas * rng.uniform(0.32, 0.48) / span
    centre = (lo + hi) / 2
    shift = canvas / 2 + rng.uniform(-0.05, 0.05, 2) * canvas
    pts = [(p - centre) * scale + shift for p in pts]

    img = _table(rng, canvas, backgrounds)
    light = np.array([rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(0.5, 2.0)])
    light /= np.linalg.norm(light)
    ambient = rng.uniform(0.35, 0.7)
    # Shadows first, then dice far to near.
    shadow = np.zeros((canvas, canvas), np.float32)
    off = -light[:2] / max(light[2], 0.3) * scale * 0.25
    hulls = [cv2.convexHull(p.astype(np.float32)).reshape(-1, 2) for p in pts]
    for h in hulls:
        cv2.fillConvexPoly(shadow, (h + off @ R.T).astype(np.int32), 1.0, lineType=cv2.LINE_AA)
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, scale * 0.12))
    img *= (1 - rng.uniform(0.2, 0.6) * shadow)[..., None]

    src = np.float32([[0, 0], [T - 1, 0], [T - 1, T - 1], [0, T - 1]])
    depth = [float(np.linalg.norm(v3.mean(0) - cam)) for v3 in verts]
    for i in sorted(range(len(dice)), key=lambda j: -depth[j]):
        pos, pose, cfaces, dbody, dtau = dice[i]
        p2 = pts[i]
        body_mask = np.zeros((canvas, canvas), np.float32)
        cv2.fillConvexPoly(body_mask, hulls[i].astype(np.int32), 1.0, lineType=cv2.LINE_AA)
        edge = np.asarray(cfaces[0][1, 1], np.float32) * ambient * 0.8
        radius = T * rng.uniform(0.06, 0.2)
        mask = _rounded_mask(T, radius)
        inset = rng.uniform(0.02, 0.06)

        def warp_face(f):
            quad = p2[FACES[f][0]]
            c = quad.mean(0)
            quad = c + (quad - c) * (1 - inset)
            H = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
            warped = cv2.warpPerspective(cfaces[f], H, (canvas, canvas), flags=cv2.INTER_LINEAR).astype(np.float32)
            alpha = cv2.warpPerspective(mask, H, (canvas, canvas), flags=cv2.INTER_LINEAR).astype(np.float32) / 255
            return warped, alpha

        def faces_camera(f):
            n = pose @ np.array(FACES[f][1], float)
            return np.dot(n, cam - verts[i][FACES[f][0]].mean(0)) > 0

        def ink_of(warped):
            """The paint of a face (pips, logo) as against its body colour, 0..1."""
            return np.clip(np.abs(warped / 255 - np.asarray(dbody, np.float32)).sum(-1) * 4, 0, 1)

        behind = None
        if dtau > 0:
            # a see-through die: the table and the hidden faces' pips (seen from inside, so
            # mirrored) behind the body, blurred by it and tinted by its colour
            behind = img.copy()
            for f in range(6):
                if not faces_camera(f):
                    warped, alpha = warp_face(f)
                    paint = alpha * ink_of(warped)  # a clear body: only the paint of a hidden face shows
                    behind = behind * (1 - paint[..., None]) + warped * ambient * paint[..., None]
            side_px = float(np.ptp(hulls[i], 0).max())
            behind = cv2.GaussianBlur(behind, (0, 0), max(0.5, side_px * rng.uniform(0.01, 0.05)))
            behind = behind * (np.asarray(dbody, np.float32) * 0.5 + 0.5)
            img = img * (1 - body_mask[..., None]) + body_mask[..., None] * (edge * (1 - dtau) + behind * dtau)
        else:
            img = img * (1 - body_mask[..., None]) + body_mask[..., None] * edge
        for f, (idx, normal) in enumerate(FACES):
            n = pose @ np.array(normal, float)
            c = p2[idx].mean(0)
            if not faces_camera(f):
                continue
            warped, alpha = warp_face(f)
            shade = ambient + (1 - ambient) * max(0.0, float(np.dot(n, light)))
            layer = warped * shade
            if behind is not None:
                # the paint (pips) is opaque; the body lets the inside show through
                see = (dtau * (1 - ink_of(warped)))[..., None]
                layer = layer * (1 - see) + behind * see
            if n[2] > 0.7 and rng.random() < 0.5:  # a specular highlight on the upper face
                hx, hy = c + rng.uniform(-0.3, 0.3, 2) * scale
                r = np.arange(canvas, dtype=np.float32)
                sig2 = 2 * (scale * rng.uniform(0.08, 0.3)) ** 2
                blob = np.exp(-((r[None, :] - hx) ** 2) / sig2) * np.exp(-((r[:, None] - hy) ** 2) / sig2)
                layer = layer + blob[..., None] * rng.uniform(20, 140)
            img = img * (1 - alpha[..., None]) + layer * alpha[..., None]

    img *= rng.uniform(0.85, 1.15, 3) * rng.uniform(0.75, 1.25)
    img = np.clip(img, 0, 255).astype(np.uint8)
    x0, y0 = hulls[0].min(0)
    x1, y1 = hulls[0].max(0)
    return img, (float(x0), float(y0), float(x1 - x0), float(y1 - y0)), cls
