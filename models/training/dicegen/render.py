"""Scene renderer: dice ray-cast as rounded cubes (signed distance field) under a pinhole
camera, over a procedural table seen in perspective, with shadows, specular glare, hands,
clutter and camera damage (blur, noise, JPEG).

World units: one unit = the side of a standard die; the table is the plane z = 0.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from .dice import Die, make_die
from .noise import fractal, hsv_colour, random_colour
from .textures import add_clutter, ground_texture

# rotation that brings each local face's normal to world +z
_FACE_UP = {
    0: ((0, 1, 0), -90), 1: ((0, 1, 0), 90), 2: ((1, 0, 0), 90),
    3: ((1, 0, 0), -90), 4: ((1, 0, 0), 0), 5: ((1, 0, 0), 180),
}
_AXES = np.array([[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]], np.float64)
# texture axes per face (U to the right, V down, seen from outside): V = U x n
_U = np.array([[0, 1, 0], [0, -1, 0], [-1, 0, 0], [1, 0, 0], [1, 0, 0], [1, 0, 0]], np.float64)
_V = np.cross(_U, _AXES)


def _rot(axis, deg: float) -> np.ndarray:
    a = np.asarray(axis, np.float64)
    a = a / np.linalg.norm(a)
    t = math.radians(deg)
    K = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return np.eye(3) + math.sin(t) * K + (1 - math.cos(t)) * K @ K


@dataclass
class SceneConfig:
    width: int | None = None              # output size; None = a random phone/webcam aspect, long side 640
    height: int | None = None
    dice_count: tuple[int, int] = (1, 25)
    die_size: tuple[float, float] = (0.02, 0.40)   # apparent die side as a fraction of the long side
    tilt_max: float = 58.0                 # camera tilt from straight down, degrees (most scenes <= 45)
    symbol_probability: float = 0.12       # share of dice that are symbol dice (class `other`)
    supersample: int = 2
    clutter_probability: float = 0.35
    hand_probability: float = 0.12
    damage: bool = True                    # blur, noise, JPEG, exposure
    dice: list[Die] | None = None          # explicit dice (else random ones)
    top_faces: list[int] | None = None     # explicit top face (local index) per explicit die
    surface: str | None = None             # force a table surface kind
    edge_margin: float = 0.03              # dice are placed this far (fraction of the frame) inside the edges
    cut_probability: float = 0.15          # ... except this share, placed across the frame edge


@dataclass
class Camera:
    f: float
    cx: float
    cy: float
    C: np.ndarray          # position
    R: np.ndarray          # world -> camera rotation (rows: right, down, forward)

    def project(self, P: np.ndarray) -> np.ndarray:
        pc = (P - self.C) @ self.R.T
        return np.stack([self.f * pc[..., 0] / pc[..., 2] + self.cx, self.f * pc[..., 1] / pc[..., 2] + self.cy], -1)

    def ray(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        d = np.stack([(u - self.cx) / self.f, (v - self.cy) / self.f, np.ones_like(u)], -1) @ self.R
        return d / np.linalg.norm(d, axis=-1, keepdims=True)

    def ground_point(self, u: float, v: float) -> np.ndarray | None:
        d = self.ray(np.array([u]), np.array([v]))[0]
        if d[2] >= -1e-3:
            return None
        t = -self.C[2] / d[2]
        return self.C + t * d


@dataclass
class PlacedDie:
    die: Die
    top: int
    R: np.ndarray          # local -> world rotation
    c: np.ndarray          # centre, world
    yaw: float


@dataclass
class Light:
    L: np.ndarray          # unit vector towards the key light
    colour: np.ndarray
    intensity: float
    ambient: np.ndarray
    softness: float        # shadow blur in die units
    shadow: float          # shadow strength


def _make_camera(rng, W, H, die_frac, tilt_max) -> Camera:
    dfov = math.radians(rng.uniform(50, 80))
    f = math.hypot(W, H) / 2 / math.tan(dfov / 2)
    # vertical-ish views are common (phone on a stand over the table), oblique ones too
    r = rng.random()
    if r < 0.35:
        tilt = rng.uniform(0, 10)
    elif r < 0.88 or tilt_max <= 45:
        tilt = rng.uniform(8, tilt_max)
    else:  # low, oblique phone shots
        tilt = rng.uniform(45, tilt_max)
    tilt = math.radians(min(tilt, 80 - math.degrees(dfov / 2)))
    phi = rng.uniform(0, 2 * math.pi)
    dist = f / (die_frac * max(W, H))
    C = dist * np.array([math.sin(tilt) * math.cos(phi), math.sin(tilt) * math.sin(phi), math.cos(tilt)])
    fwd = -C / np.linalg.norm(C)
    right = np.array([-math.sin(phi), math.cos(phi), 0.0])
    down = np.cross(fwd, right)
    roll = rng.uniform(0, 2 * math.pi)
    r2 = math.cos(roll) * right + math.sin(roll) * down
    d2 = np.cross(fwd, r2)
    return Camera(f, W / 2 + rng.normal(0, W * 0.01), H / 2 + rng.normal(0, H * 0.01), C, np.stack([r2, d2, fwd]))


def _make_light(rng) -> Light:
    el = math.radians(rng.uniform(25, 88))
    az = rng.uniform(0, 2 * math.pi)
    L = np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])
    soft = rng.random() < 0.5
    temp = rng.uniform(-1, 1)
    colour = np.clip(np.array([1 + 0.15 * temp, 1.0, 1 - 0.2 * temp]), 0, 1.3)
    return Light(
        L=L, colour=colour.astype(np.float32),
        intensity=float(rng.uniform(0.35, 0.7) if soft else rng.uniform(0.6, 1.0)),
        ambient=(np.clip(colour + rng.normal(0, 0.05, 3), 0, 1.3) * (rng.uniform(0.45, 0.7) if soft else rng.uniform(0.25, 0.5))).astype(np.float32),
        softness=float(rng.uniform(0.25, 0.9) if soft else rng.uniform(0.01, 0.08)),
        shadow=float(rng.uniform(0.25, 0.55) if soft else rng.uniform(0.45, 0.8)),
    )


def _footprint(p: PlacedDie) -> np.ndarray:
    h = 0.5 * p.die.size * 1.02
    ca, sa = math.cos(p.yaw), math.sin(p.yaw)
    corners = np.array([[-h, -h], [h, -h], [h, h], [-h, h]]) @ np.array([[ca, sa], [-sa, ca]])
    return corners + p.c[:2]


def _overlap(a: np.ndarray, b: np.ndarray) -> bool:
    for poly in (a, b):
        for i in range(4):
            e = poly[(i + 1) % 4] - poly[i]
            n = np.array([-e[1], e[0]])
            pa, pb = a @ n, b @ n
            if pa.max() < pb.min() or pb.max() < pa.min():
                return False
    return True


def _resting(rng, die: Die, top: int, yaw: float, xy: np.ndarray) -> PlacedDie:
    """A die lying at table point xy with face `top` up, turned by `yaw`, tipped a little (a table is never quite flat)."""
    tilt = _rot((rng.normal(), rng.normal(), 0.0), rng.normal(0, 2.0))
    axis, deg = _FACE_UP[top]
    R = tilt @ _rot((0, 0, 1), math.degrees(yaw)) @ _rot(axis, deg)
    return PlacedDie(die, top, R, np.array([xy[0], xy[1], die.size / 2]), yaw)


def _place_dice(rng, cam: Camera, W, H, dice: list[Die], tops: list[int] | None, cfg: SceneConfig) -> list[PlacedDie]:
    placed: list[PlacedDie] = []
    for i, die in enumerate(dice):
        top = tops[i] if tops is not None else int(rng.integers(6))
        for attempt in range(30):
            yaw = rng.uniform(0, 2 * math.pi)
            if placed and rng.random() < 0.45:   # touching or close to another die
                other = placed[int(rng.integers(len(placed)))]
                a = rng.uniform(0, 2 * math.pi)
                d = (other.die.size + die.size) / 2 * rng.uniform(1.0, 1.5)
                xy = other.c[:2] + d * np.array([math.cos(a), math.sin(a)])
                if rng.random() < 0.5:
                    yaw = other.yaw + rng.normal(0, 0.1)   # squared up against its neighbour
            else:
                g = cam.ground_point(rng.uniform(-0.04, 1.04) * W, rng.uniform(-0.04, 1.04) * H)
                if g is None:
                    continue
                xy = g[:2]
            uv = cam.project(np.array([xy[0], xy[1], die.size / 2]))
            m = -0.04 if rng.random() < cfg.cut_probability else cfg.edge_margin
            if not (m * W <= uv[0] <= (1 - m) * W and m * H <= uv[1] <= (1 - m) * H):
                continue
            cand = _resting(rng, die, top, yaw, xy)
            fp = _footprint(cand)
            if all(not _overlap(fp, _footprint(p)) for p in placed):
                placed.append(cand)
                break
    return placed


def _blur(img: np.ndarray, sigma: float) -> np.ndarray:
    """Gaussian blur; large kernels run on a downscaled copy (same look, a fraction of the time)."""
    if sigma <= 3:
        return cv2.GaussianBlur(img, (0, 0), sigma)
    k = sigma / 2.0
    h, w = img.shape[:2]
    small = cv2.resize(img, (max(1, int(w / k)), max(1, int(h / k))), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), 2.0)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _ground(rng, cam: Camera, Ws, Hs, placed: list[PlacedDie], light: Light, cfg: SceneConfig, max_tex: int = 1024):
    """Table texture with shadows and clutter in ground coordinates, warped into the image."""
    pts = []
    for u, v in [(0, 0), (Ws, 0), (0, Hs), (Ws, Hs), (Ws / 2, Hs / 2)]:
        g = cam.ground_point(u, v)
        if g is not None:
            pts.append(g[:2])
    pts = np.array(pts)
    lo, hi = pts.min(0) - 2, pts.max(0) + 2
    nearest = max(cam.C[2], 1e-3)
    ppu = cam.f / (max(Ws, Hs) / 640) / nearest * 1.3      # about one texel per output pixel near the camera
    ppu = min(ppu, max_tex / max((hi - lo).max(), 1e-3))
    ppu = max(ppu, 2.0)
    tw, th = int((hi[0] - lo[0]) * ppu) + 1, int((hi[1] - lo[1]) * ppu) + 1
    tex, kind = ground_texture(rng, th, tw, ppu, cfg.surface)
    to_tex = lambda xy: (np.asarray(xy) - lo) * ppu
    if rng.random() < cfg.clutter_probability:
        keep = [(*to_tex(p.c[:2]), p.die.size * ppu * 1.1) for p in placed]
        add_clutter(rng, tex, ppu, keep, int(rng.integers(1, 6)))
    # shadows: each die's cube projected along the light onto the table, blurred by softness
    mask = np.zeros((th, tw), np.float32)
    contact = np.zeros((th, tw), np.float32)
    _draw_shadows(placed, light, to_tex, mask, contact)
    sig = max(0.6, light.softness * ppu)
    mask = _blur(mask, sig)
    contact = _blur(contact, max(0.6, 0.12 * ppu))
    shade = light.intensity * (1 - light.shadow * np.clip(mask, 0, 1)) + light.ambient.mean() * (1 - 0.5 * np.clip(contact, 0, 1))
    # light falloff / uneven lighting across the table
    light_var = cv2.resize(fractal(rng, max(2, th // 8), max(2, tw // 8), max(2.0, ppu * 20 / 8), 2), (tw, th))
    shade = shade * (0.8 + 0.4 * light_var)
    tex = tex * shade[..., None] * light.colour[None, None]
    # texel -> image homography
    A = np.array([[1 / ppu, 0, lo[0] - cam.C[0]], [0, 1 / ppu, lo[1] - cam.C[1]], [0, 0, -cam.C[2]]])
    K = np.array([[cam.f, 0, cam.cx], [0, cam.f, cam.cy], [0, 0, 1]])
    Hm = K @ cam.R @ A
    img = cv2.warpPerspective(tex.astype(np.float32), Hm, (Ws, Hs), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    return img, kind


def _cube(p: PlacedDie, scale: float = 1.0) -> np.ndarray:
    """The eight corners (world) of a placed die's cube, its side times `scale`."""
    h = p.die.size / 2 * scale
    return np.array([[x, y, z] for x in (-h, h) for y in (-h, h) for z in (-h, h)]) @ p.R.T + p.c


def _draw_shadows(placed: list[PlacedDie], light: Light, to_px, cast: np.ndarray, contact: np.ndarray) -> None:
    """Each die's cube cast along the light onto the table (z = 0) into `cast` (fainter for a
    see-through die), and its footprint into `contact`; `to_px` maps table points [N, 2] to pixels."""
    L = light.L
    for p in placed:
        cube = _cube(p, 0.97)
        on_table = cube[:, :2] - cube[:, 2:3] * (L[:2] / L[2])[None]
        hull = cv2.convexHull(to_px(on_table).astype(np.float32)).astype(np.int32)
        cv2.fillConvexPoly(cast, hull, 1.0 - 0.6 * p.die.translucency, cv2.LINE_AA)
        cv2.fillConvexPoly(contact, to_px(_footprint(p)).astype(np.int32), 1.0, cv2.LINE_AA)


def _marble(p: np.ndarray, seed: int) -> np.ndarray:
    r = np.random.default_rng(seed)
    dirs = r.normal(size=(4, 3))
    freqs = r.uniform(2, 9, 4)
    t = p @ dirs[0] * freqs[0]
    for k in range(1, 4):
        t = t + r.uniform(0.5, 2.0) * np.sin(p @ dirs[k] * freqs[k] + r.uniform(0, 6))
    return np.power(0.5 + 0.5 * np.sin(t), r.uniform(1, 4))


def _face_stack(die: Die, T: int) -> np.ndarray:
    """[6, T, T, 7]: albedo (3), height, dh/du, dh/dv, paint (how much this texel is not body)."""
    out = np.zeros((6, T, T, 7), np.float32)
    for i, (albedo, height) in enumerate(die.faces):
        a = cv2.resize(albedo, (T, T), interpolation=cv2.INTER_AREA if albedo.shape[0] > T else cv2.INTER_LINEAR)
        hgt = cv2.resize(height, (T, T), interpolation=cv2.INTER_AREA if height.shape[0] > T else cv2.INTER_LINEAR)
        gy, gx = np.gradient(hgt)
        out[i, ..., :3] = a
        out[i, ..., 3] = hgt
        out[i, ..., 4] = gx * T / 100.0
        out[i, ..., 5] = gy * T / 100.0
        out[i, ..., 6] = np.clip(np.abs(a - die.body[None, None]).sum(-1) * 3, 0, 1)
    return out


def _env(dirs: np.ndarray, light: Light, seed: int) -> np.ndarray:
    """A simple environment for reflections: bright above, dim below, a few soft blobs."""
    r = np.random.default_rng(seed)
    up = np.clip(dirs[:, 2], -1, 1)
    base = light.ambient[None] * (0.6 + 1.2 * np.clip(up, 0, 1)[:, None])
    blobs = np.zeros(len(dirs), np.float32)
    for _ in range(3):
        d = r.normal(size=3)
        d[2] = abs(d[2])
        d /= np.linalg.norm(d)
        blobs += np.power(np.clip(dirs @ d, 0, 1), r.uniform(4, 40)) * r.uniform(0.2, 1.0)
    key = np.power(np.clip(dirs @ light.L, 0, 1), 60) * 3
    return base + (blobs + key)[:, None] * light.colour[None]


def _render_die(p: PlacedDie, cam: Camera, light: Light, Ws, Hs, ground: np.ndarray, rng):
    """Ray-cast one die. Returns (y0, x0, colour, depth, hit, topmask) over its screen rect, or None."""
    die = p.die
    s = die.size
    h = s / 2
    cube = np.array([[x, y, z] for x in (-h, h) for y in (-h, h) for z in (-h, h)]) @ p.R.T + p.c
    uv = cam.project(cube)
    x0, y0 = np.floor(uv.min(0)).astype(int) - 1
    x1, y1 = np.ceil(uv.max(0)).astype(int) + 1
    full_rect = (x0, y0, x1, y1)
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, Ws), min(y1, Hs)
    if x1 <= x0 or y1 <= y0:
        return None, full_rect
    ys, xs = np.mgrid[y0:y1, x0:x1]
    d = cam.ray(xs.ravel() + 0.5, ys.ravel() + 0.5)
    o = (cam.C - p.c) @ p.R / s                    # local, in die sides
    dl = d @ p.R
    inv = 1.0 / np.where(np.abs(dl) < 1e-9, 1e-9, dl)
    t1 = (-0.5 - o) * inv
    t2 = (0.5 - o) * inv
    tmin = np.minimum(t1, t2).max(1)
    tmax = np.maximum(t1, t2).min(1)
    cand = tmax >= np.maximum(tmin, 0)
    idx = np.nonzero(cand)[0]
    r = die.rounding
    b = 0.5 - r

    def sdf(pt):
        q = np.abs(pt) - b
        qp = np.maximum(q, 0)
        return np.sqrt((qp * qp).sum(1)) + np.minimum(q.max(1), 0) - r

    t = tmin[idx].astype(np.float32)
    dd = dl[idx].astype(np.float32)
    of = o.astype(np.float32)
    active = np.arange(len(idx))
    for _ in range(16):  # sphere tracing from the bounding box, only rays not yet converged
        dist = sdf(of + t[active, None] * dd[active])
        t[active] += dist
        keep = (dist > 5e-4) & (t[active] <= tmax[idx][active] + 1e-3)
        active = active[keep]
        if len(active) == 0:
            break
    pt = of + t[:, None] * dd
    dist = sdf(pt)
    ok = (np.abs(dist) < 2e-3) & (t <= tmax[idx] + 1e-3)
    idx, pt, t = idx[ok], pt[ok].astype(np.float64), t[ok].astype(np.float64)
    q = np.abs(pt) - b
    hit = np.zeros(len(d), bool)
    hit[idx] = True
    if len(idx) == 0:
        return None, full_rect
    qp = np.maximum(q, 0)
    nl = np.sign(pt) * qp
    nn = np.linalg.norm(nl, axis=1, keepdims=True)
    ax = np.abs(pt).argmax(1)
    flat = nn[:, 0] < 1e-6
    nl[flat] = 0
    nl[flat, ax[flat]] = np.sign(pt[flat, ax[flat]])
    nl = nl / np.linalg.norm(nl, axis=1, keepdims=True)
    face = ax * 2 + (pt[np.arange(len(pt)), ax] < 0)
    # texture lookup
    size_px = s * cam.f / max(np.linalg.norm(cam.C - p.c), 1e-3)
    T = int(np.clip(2 ** math.ceil(math.log2(max(size_px * 1.3, 16))), 16, 256))
    stack = _face_stack(die, T)
    u = (np.einsum("ij,ij->i", pt, _U[face]) + 0.5) * (T - 1)
    v = (np.einsum("ij,ij->i", pt, _V[face]) + 0.5) * (T - 1)
    u, v = np.clip(u, 0, T - 1.001), np.clip(v, 0, T - 1.001)
    ui, vi = u.astype(int), v.astype(int)
    fu, fv = (u - ui)[:, None], (v - vi)[:, None]
    tex = (stack[face, vi, ui] * (1 - fu) * (1 - fv) + stack[face, vi, ui + 1] * fu * (1 - fv)
           + stack[face, vi + 1, ui] * (1 - fu) * fv + stack[face, vi + 1, ui + 1] * fu * fv)
    albedo, paint = tex[:, :3], tex[:, 6:7]
    # normal perturbation from the engraving
    nl = nl - tex[:, 4:5] * _U[face] - tex[:, 5:6] * _V[face]
    nl = nl / np.linalg.norm(nl, axis=1, keepdims=True)
    n = nl @ p.R.T
    if die.marble_colour is not None:
        m = _marble(pt, die.marble_seed)[:, None]
        albedo = albedo * paint + (die.body * (1 - m) + die.marble_colour * m) * (1 - paint)
    view = -d[idx]
    L = light.L
    ndl = np.clip(n @ L, 0, 1)[:, None]
    world_z = (pt * s) @ p.R.T[:, 2] + p.c[2]
    ao = 0.55 + 0.45 * np.clip(world_z / (0.35 * s), 0, 1)[:, None]
    amb = light.ambient[None] * (0.55 + 0.45 * np.clip(n[:, 2:3], -1, 1))
    diffuse = albedo * (light.intensity * ndl * light.colour[None] + amb) * ao
    hv = L[None] + view
    hv /= np.linalg.norm(hv, axis=1, keepdims=True)
    spec = die.specular * light.intensity * np.power(np.clip(np.einsum("ij,ij->i", n, hv), 0, 1), die.shininess)[:, None] * light.colour[None]
    ndv = np.clip(np.einsum("ij,ij->i", n, view), 0, 1)[:, None]
    refl = 2 * np.einsum("ij,ij->i", n, view)[:, None] * n - view
    env = _env(refl, light, die.marble_seed + 7)
    if die.material == "metallic":
        col = albedo * (0.25 * diffuse + 0.9 * env * ao) + spec * albedo * 2
    else:
        fres = 0.04 + 0.96 * np.power(1 - ndv, 5)
        col = diffuse + spec + fres * env * 0.5 * (0.3 + die.specular)
    if die.translucency > 0:
        # see-through body: the table behind, tinted and blurred, mixed with scattered light
        py = (ys.ravel()[idx] + (n[:, 1] * 3)).astype(int).clip(0, Hs - 1)
        px = (xs.ravel()[idx] + (n[:, 0] * 3)).astype(int).clip(0, Ws - 1)
        behind = ground[py, px]
        tau = die.translucency * (1 - paint)
        tinted = behind * (die.body[None] * 0.9 + 0.1) * 1.1 + die.body[None] * light.ambient.mean() * 0.4
        col = col * (1 - tau) + (tinted + spec) * tau
    colour = np.zeros((len(d), 3), np.float32)
    colour[idx] = col
    depth = np.full(len(d), np.inf, np.float32)
    depth[idx] = t * s
    top = np.zeros(len(d), bool)
    top[idx] = face == p.top
    shape = (y1 - y0, x1 - x0)
    return (y0, x0, colour.reshape(*shape, 3), depth.reshape(shape), hit.reshape(shape), top.reshape(shape)), full_rect


def _hand(rng, Ws, Hs) -> tuple[np.ndarray, np.ndarray]:
    """A hand or arm reaching in from an edge: (mask [H, W] float, colour [H, W, 3])."""
    mask = np.zeros((Hs, Ws), np.float32)
    tone = [hsv_colour(12, 0.35, 0.95), hsv_colour(12, 0.45, 0.8), hsv_colour(10, 0.55, 0.6), hsv_colour(10, 0.6, 0.35)][int(rng.integers(4))]
    side = int(rng.integers(4))
    scale = rng.uniform(0.25, 0.6) * min(Ws, Hs)
    along = rng.uniform(0.1, 0.9)
    ang = [math.pi / 2, -math.pi / 2, 0.0, math.pi][side] + rng.normal(0, 0.4)
    start = {0: (along * Ws, -0.1 * Hs), 1: (along * Ws, 1.1 * Hs), 2: (-0.1 * Ws, along * Hs), 3: (1.1 * Ws, along * Hs)}[side]
    dirv = np.array([math.cos(ang), math.sin(ang)])
    reach = rng.uniform(0.2, 0.55) * min(Ws, Hs)
    palm = np.array(start) + dirv * (reach + 0.3 * min(Ws, Hs) * 0.5)
    cv2.line(mask, tuple(int(v) for v in start), tuple(int(v) for v in palm), 1.0, int(scale * 0.55))
    cv2.ellipse(mask, (int(palm[0]), int(palm[1])), (int(scale * 0.42), int(scale * 0.35)), math.degrees(ang), 0, 360, 1.0, -1)
    perp = np.array([-dirv[1], dirv[0]])
    for k in range(4):
        base = palm + dirv * scale * 0.3 + perp * (k - 1.5) * scale * 0.2
        fa = ang + rng.normal(0, 0.25)
        tip = base + np.array([math.cos(fa), math.sin(fa)]) * scale * rng.uniform(0.25, 0.55)
        cv2.line(mask, tuple(int(v) for v in base), tuple(int(v) for v in tip), 1.0, max(2, int(scale * 0.13)))
    thumb = palm + perp * scale * 0.4
    cv2.line(mask, tuple(int(v) for v in palm), tuple(int(v) for v in thumb + dirv * scale * 0.2), 1.0, max(2, int(scale * 0.15)))
    mask = cv2.GaussianBlur(mask, (0, 0), 1.2)
    shade = 0.75 + 0.4 * fractal(rng, Hs, Ws, max(8.0, scale * 0.5), 2)
    return mask, tone[None, None] * shade[..., None]


def _damage(rng, img: np.ndarray) -> np.ndarray:
    """Camera effects on a float RGB image in [0, ~1.3]: exposure, blur, noise (then JPEG outside)."""
    H, W = img.shape[:2]
    img = img * rng.uniform(0.75, 1.3)
    if rng.random() < 0.4:  # vignette
        yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
        r2 = ((xx - W / 2) / (W / 2)) ** 2 + ((yy - H / 2) / (H / 2)) ** 2
        img = img * (1 - rng.uniform(0.1, 0.4) * r2 / 2)[..., None]
    if rng.random() < 0.1:  # glare: a washed-out bright patch
        yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
        cx, cy, rad = rng.uniform(0, W), rng.uniform(0, H), rng.uniform(0.1, 0.4) * max(W, H)
        img = img + rng.uniform(0.2, 0.8) * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * rad ** 2))[..., None]
    r = rng.random()
    if r < 0.15:  # motion blur
        k = int(rng.integers(3, 10))
        kern = np.zeros((k, k), np.float32)
        kern[k // 2] = 1
        kern = cv2.warpAffine(kern, cv2.getRotationMatrix2D(((k - 1) / 2, (k - 1) / 2), rng.uniform(0, 180), 1), (k, k))
        img = cv2.filter2D(img, -1, kern / max(kern.sum(), 1e-6))
    elif r < 0.35:  # defocus, stronger towards one side (tilted camera, shallow depth of field)
        blurred = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.8, 2.2))
        if rng.random() < 0.5:
            ramp = np.clip(np.linspace(rng.uniform(-1, 0.5), rng.uniform(0.5, 2), H), 0, 1)[:, None, None]
            img = img * (1 - ramp) + blurred * ramp
        else:
            img = blurred
    img = np.power(np.clip(img, 0, None), rng.uniform(0.8, 1.2))
    if rng.random() < 0.8:
        sigma = rng.uniform(0.005, 0.035)
        img = img + rng.normal(0, sigma, img.shape).astype(np.float32) * np.sqrt(np.clip(img, 0.05, 1))
    return img


def render_scene(rng: np.random.Generator, config: SceneConfig | None = None) -> tuple[np.ndarray, dict]:
    """Render one photograph of dice on a table.

    Returns (image [H, W, 3] uint8 RGB, annotations) where annotations = {
      "dice": [{"box": [x1, y1, x2, y2], "class": 0..6, "value": 1..6 | None, "top_face": i,
                "visible": fraction of the top face visible, "top_centre": [x, y], "kind": "pips"|"symbol",
                "face_id": a kit die's top face id (Die.face_ids) or None}],
      "boxes": [K, 4] float32, "classes": [K] int64   (dice that should be detected),
      "ignore": [M, 4] float32                        (dice mostly hidden or cut by the frame),
      "surface": table kind }
    Boxes enclose the whole die as seen, in output pixels.
    """
    cfg = config or SceneConfig()
    if cfg.width and cfg.height:
        W, H = cfg.width, cfg.height
    else:
        W, H = [(640, 480), (640, 640), (640, 360), (480, 640), (640, 427), (360, 640)][int(rng.choice(6, p=[0.35, 0.2, 0.15, 0.15, 0.1, 0.05]))]
    lo, hi = cfg.die_size
    if rng.random() < 0.7:  # most photos show dice at 2.5-12% of the long side, some far larger
        lo, hi = max(lo, min(0.025, hi)), min(hi, max(0.12, lo))
    frac = math.exp(rng.uniform(math.log(lo), math.log(hi)))
    ss = cfg.supersample if frac < 0.1 else 1   # big dice need no supersampling
    Ws, Hs = W * ss, H * ss
    if cfg.dice is not None:
        dice = list(cfg.dice)
    else:
        cap = max(1, min(cfg.dice_count[1], int(0.25 / frac ** 2)))
        lo_n = min(cfg.dice_count[0], cap)
        n = int(round(math.exp(rng.uniform(math.log(lo_n), math.log(cap + 0.99)))))
        n = int(np.clip(n, lo_n, cap))
        same_set = rng.random() < 0.3
        if same_set:
            proto_seed = int(rng.integers(1 << 30))
            dice = [make_die(np.random.default_rng(proto_seed), cfg.symbol_probability) for _ in range(n)]
        else:
            dice = [make_die(rng, cfg.symbol_probability) for _ in range(n)]
    cam = _make_camera(rng, Ws, Hs, frac, cfg.tilt_max)
    light = _make_light(rng)
    placed = _place_dice(rng, cam, Ws, Hs, dice, cfg.top_faces, cfg)
    ground, kind = _ground(rng, cam, Ws, Hs, placed, light, cfg)
    img, ids, topvis, infos = _draw_dice(placed, cam, light, Ws, Hs, ground, rng)
    if rng.random() < cfg.hand_probability:
        mask, colour = _hand(rng, Ws, Hs)
        img = img * (1 - mask[..., None]) + colour * mask[..., None]
        ids[mask > 0.5] = -2
    out = cv2.resize(img, (W, H), interpolation=cv2.INTER_AREA)
    if cfg.damage:
        out = _damage(rng, out)
    out = np.clip(out * 255, 0, 255).astype(np.uint8)
    if cfg.damage and rng.random() < 0.7:
        ok, buf = cv2.imencode(".jpg", out[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 96))])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)[..., ::-1].copy()
    ann = _annotate(placed, infos, cam, ids, topvis, ss, W, H)
    ann["surface"] = kind
    return out, ann


def _draw_dice(placed: list[PlacedDie], cam: Camera, light: Light, Ws, Hs, ground: np.ndarray, rng):
    """The dice ray-cast over `ground` (float RGB, Hs x Ws), nearest first where they overlap.
    Returns (image, ids: the die seen at each pixel or -1, topvis: whether it is a top face, infos)."""
    img = ground.copy()
    zbuf = np.full((Hs, Ws), np.inf, np.float32)
    ids = np.full((Hs, Ws), -1, np.int32)
    topvis = np.zeros((Hs, Ws), bool)
    infos = []
    for i, p in enumerate(placed):
        res, full = _render_die(p, cam, light, Ws, Hs, ground, rng)
        infos.append((res, full))
        if res is None:
            continue
        y0, x0, col, depth, hit, top = res
        sl = (slice(y0, y0 + depth.shape[0]), slice(x0, x0 + depth.shape[1]))
        closer = hit & (depth < zbuf[sl])
        img[sl][closer] = col[closer]
        zbuf[sl][closer] = depth[closer]
        ids[sl][closer] = i
        topvis[sl][closer] = top[closer]
    return img, ids, topvis, infos


def _annotate(placed: list[PlacedDie], infos, cam: Camera, ids: np.ndarray, topvis: np.ndarray, ss: int, W: int, H: int) -> dict:
    """render_scene's annotations (without `surface`) of dice drawn by _draw_dice at `ss`x supersampling."""
    dice_ann, boxes, classes, ignore = [], [], [], []
    for i, (p, (res, full)) in enumerate(zip(placed, infos)):
        # top face corners in world (the local face turned up)
        axis_local = _AXES[p.top]
        U, V = _U[p.top], _V[p.top]
        corners = np.array([(axis_local * 0.5 + a * U * 0.5 + b * V * 0.5) * p.die.size for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))]) @ p.R.T + p.c
        cuv = cam.project(corners)
        top_area = 0.5 * abs(np.dot(cuv[:, 0], np.roll(cuv[:, 1], 1)) - np.dot(cuv[:, 1], np.roll(cuv[:, 0], 1)))
        seen = int((topvis & (ids == i)).sum())
        visible = min(1.0, seen / max(top_area * (1 - 0.2 * p.die.rounding), 1.0))
        if res is None:
            continue
        y0, x0, col, depth, hit, top = res
        yy, xx = np.nonzero(hit)
        box = np.array([xx.min() + x0, yy.min() + y0, xx.max() + x0 + 1, yy.max() + y0 + 1], np.float32) / ss
        tc = cuv.mean(0) / ss
        cls = p.die.label_for(p.top)
        value = p.die.values[p.top]
        dice_ann.append({"box": box.tolist(), "class": int(cls), "value": value, "top_face": p.top, "visible": round(visible, 3),
                         "top_centre": tc.tolist(), "kind": p.die.kind,
                         "face_id": p.die.face_ids[p.top] if p.die.face_ids else None})
        inside = 0 <= tc[0] < W and 0 <= tc[1] < H
        if visible >= 0.6 and inside:
            boxes.append(box)
            classes.append(cls)
        else:
            ignore.append(box)
    ann = {
        "dice": dice_ann,
        "boxes": np.array(boxes, np.float32).reshape(-1, 4),
        "classes": np.array(classes, np.int64),
        "ignore": np.array(ignore, np.float32).reshape(-1, 4),
    }
    return ann


def render_die_crop(rng: np.random.Generator, die: Die, top_face: int, size: int = 64, margin: float = 0.15,
                    config: SceneConfig | None = None) -> np.ndarray:
    """One die with `top_face` up on a random table, cropped like the app crops detections
    (box squared, enlarged by `margin` on each side) and resized to size x size. For training
    face-embedding models; `config` may fix the camera tilt, die size range, damage, etc."""
    base = config or SceneConfig(die_size=(0.12, 0.3), hand_probability=0.0, edge_margin=0.3, cut_probability=0.0)
    cfg = SceneConfig(**{**base.__dict__, "dice": [die], "top_faces": [top_face]})
    img, ann = render_scene(rng, cfg)
    if not ann["dice"]:
        return render_die_crop(rng, die, top_face, size, margin, config)
    x1, y1, x2, y2 = ann["dice"][0]["box"]
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    side = max(x2 - x1, y2 - y1) * (1 + 2 * margin)
    M = np.float32([[size / side, 0, size / 2 - cx * size / side], [0, size / side, size / 2 - cy * size / side]])
    return cv2.warpAffine(img, M, (size, size), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT, borderValue=(114, 114, 114))


def render_onto_photo(rng: np.random.Generator, photo: np.ndarray, taken: np.ndarray, dice: list[Die], die_frac: float,
                      stretch: float = 1.0, busyness=None, busy_share: float = 0.75, tilt_max: float = 50.0,
                      supersample: int = 2) -> tuple[np.ndarray, dict]:
    """Dice ray-cast onto a real photograph (RGB uint8) as if they lay on its table: the photo is the
    ground (a see-through die shows it through its body), with the dice's shadows on it, and the
    dice matched to the photo's brightness, colour, blur and noise.

    taken: [M, 4] x1 y1 x2 y2 boxes in photo pixels where no die may land (the photo's own dice).
    die_frac: a die's side as a fraction of the photo's long side (as the photo's own dice measure).
    stretch: how much wider than tall the photo's own dice look (epanemu's exporter stretched its
    photos to 640x640): the dice are rendered on the photo un-stretched, then stretched with it.
    busyness(box x1 y1 x2 y2 in photo pixels) -> float: with probability `busy_share` a die goes to the
    busiest of 16 free spots (a board's hexes, where the detector misses dice) rather than the first.
    Returns (image, annotations as render_scene's, for the new dice only; `surface` is 'photo')."""
    H, W = photo.shape[:2]
    Wu = max(8, int(round(W / stretch)))
    ss = supersample
    Ws, Hs = Wu * ss, H * ss
    to_s = np.array([ss / (W / Wu), ss, ss / (W / Wu), ss], np.float32)  # photo pixels -> render pixels
    taken_s = np.asarray(taken, np.float32).reshape(-1, 4) * to_s
    ground = cv2.resize(photo, (Ws, Hs), interpolation=cv2.INTER_LINEAR).astype(np.float32) / 255.0
    cam = _make_camera(rng, Ws, Hs, die_frac, tilt_max)
    light = _make_light(rng)
    side_px = die_frac * max(Ws, Hs)

    def screen_box(p: PlacedDie) -> np.ndarray:
        uv = cam.project(_cube(p))
        return np.concatenate([uv.min(0), uv.max(0)])

    placed: list[PlacedDie] = []
    for die in dice:
        top = int(rng.integers(6))
        to_busy = busyness is not None and rng.random() < busy_share
        fits = []
        for _ in range(16):
            yaw = rng.uniform(0, 2 * math.pi)
            if placed and rng.random() < 0.3:   # touching or close to another new die
                other = placed[int(rng.integers(len(placed)))]
                a = rng.uniform(0, 2 * math.pi)
                xy = other.c[:2] + (other.die.size + die.size) / 2 * rng.uniform(1.0, 1.5) * np.array([math.cos(a), math.sin(a)])
            else:
                g = cam.ground_point(rng.uniform(0.04, 0.96) * Ws, rng.uniform(0.04, 0.96) * Hs)
                if g is None:
                    continue
                xy = g[:2]
            cand = _resting(rng, die, top, yaw, xy)
            box = screen_box(cand)
            pad = 0.15 * side_px
            if box[0] < 0 or box[1] < 0 or box[2] > Ws or box[3] > Hs:
                continue
            if len(taken_s) and np.any((taken_s[:, 0] < box[2] + pad) & (taken_s[:, 2] > box[0] - pad)
                                       & (taken_s[:, 1] < box[3] + pad) & (taken_s[:, 3] > box[1] - pad)):
                continue
            if any(_overlap(_footprint(cand), _footprint(p)) for p in placed):
                continue
            fits.append((cand, box))
            if not to_busy:
                break
        if fits:
            cand, _ = max(fits, key=lambda f: busyness(f[1] / to_s)) if to_busy else fits[0]
            placed.append(cand)
    # shadows on the photo: each die's cube cast along the light onto the table, and its contact
    cast = np.zeros((Hs, Ws), np.float32)
    contact = np.zeros((Hs, Ws), np.float32)
    _draw_shadows(placed, light, lambda xy: cam.project(np.c_[xy, np.zeros(len(xy))]), cast, contact)
    cast = _blur(cast, max(0.6, light.softness * side_px))
    contact = _blur(contact, max(0.6, 0.12 * side_px))
    ground = ground * (1 - 0.8 * light.shadow * np.clip(cast, 0, 1) - 0.3 * np.clip(contact, 0, 1))[..., None]
    img, ids, topvis, infos = _draw_dice(placed, cam, light, Ws, Hs, ground, rng)
    # each die lit like the photo around it (the renderer's light is not the photo's), a little
    tint = photo.reshape(-1, 3).mean(0) / max(float(photo.mean()), 1.0)
    for i, (res, _) in enumerate(infos):
        if res is None:
            continue
        y0, x0, col, depth, hit, top = res
        sl = (slice(y0, y0 + depth.shape[0]), slice(x0, x0 + depth.shape[1]))
        mine = ids[sl] == i
        if not mine.any():
            continue
        gain = float(np.clip((ground[sl].mean() + 0.01) / (img[sl][mine].mean() + 0.01), 0.5, 2.0)) ** 0.4
        img[sl][mine] = img[sl][mine] * gain * tint ** 0.5

    def to_photo(a: np.ndarray) -> np.ndarray:
        a = cv2.resize(a, (Wu, H), interpolation=cv2.INTER_AREA)
        return cv2.resize(a, (W, H), interpolation=cv2.INTER_LINEAR) if Wu != W else a

    render, mask, reach = to_photo(img), to_photo((ids >= 0).astype(np.float32)), to_photo(np.clip(cast + contact, 0, 1))
    # the dice as soft and noisy as the photo around them
    m = cv2.GaussianBlur(cv2.dilate(mask, np.ones((3, 3), np.uint8)), (0, 0), 1.0)[..., None]
    soft = cv2.GaussianBlur(render, (0, 0), rng.uniform(0.4, 1.1))
    soft = soft + rng.normal(0, rng.uniform(0.005, 0.025), soft.shape).astype(np.float32)
    render = soft * m + render * (1 - m)
    # the photo's own pixels wherever neither a die nor its shadow reaches (the render resampled them)
    alpha = np.clip(np.maximum(m, 4 * reach[..., None]), 0, 1)
    out = alpha * render + (1 - alpha) * (photo.astype(np.float32) / 255.0)
    out = np.clip(out * 255, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", out[..., ::-1], [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(70, 96))])
    out = cv2.imdecode(buf, cv2.IMREAD_COLOR)[..., ::-1].copy()
    ann = _annotate(placed, infos, cam, ids, topvis, ss, Wu, H)
    sx = W / Wu
    for key in ("boxes", "ignore"):
        ann[key] = ann[key] * np.array([sx, 1, sx, 1], np.float32)
    for d in ann["dice"]:
        d["box"] = [d["box"][0] * sx, d["box"][1], d["box"][2] * sx, d["box"][3]]
        d["top_centre"] = [d["top_centre"][0] * sx, d["top_centre"][1]]
    ann["surface"] = "photo"
    return out, ann
