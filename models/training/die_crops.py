"""Paints a face image onto a die seen by a camera, and cuts the die out as the reader does.

`paint_die(face, rng)` returns a small scene (RGB uint8) with one die whose top face shows
`face`, and the die's whole-die box; `embedder_crop(scene, box, K, margin)` squares and enlarges
the box exactly as src/lib/vision does before the face embedder (clamped at the image edge,
area-averaged down to K x K).
"""
import math

import cv2
import numpy as np

CUBE = np.array([[x, y, z] for z in (0.0, 1.0) for y in (-0.5, 0.5) for x in (-0.5, 0.5)])
# Faces as vertex indices (counter-clockwise seen from outside) with outward normals.
FACES = {
    'top': ([4, 5, 7, 6], (0, 0, 1)),
    'x+': ([1, 3, 7, 5], (1, 0, 0)),
    'x-': ([2, 0, 4, 6], (-1, 0, 0)),
    'y+': ([3, 2, 6, 7], (0, 1, 0)),
    'y-': ([0, 1, 5, 4], (0, -1, 0)),
}


def _background(rng, size):
    # Mostly table-like colours: greys, woods, felts; now and then anything.
    base = rng.uniform(20, 235) + rng.uniform(-40, 40, 3) * (1.0 if rng.random() < 0.3 else 0.4)
    img = np.ones((size, size, 3), np.float32) * base
    g = rng.uniform(-40, 40, 3)
    ramp = np.linspace(-1, 1, size, dtype=np.float32)
    a = rng.uniform(0, 2 * math.pi)
    grad = (math.cos(a) * ramp[None, :] + math.sin(a) * ramp[:, None])[..., None]
    img += grad * g
    cells = int(rng.integers(3, 24))
    coarse = rng.normal(0, 1, (cells, cells, 1)) + rng.normal(0, 0.3, (cells, cells, 3))
    noise = cv2.resize(coarse.astype(np.float32), (size, size), interpolation=cv2.INTER_CUBIC)
    img += noise * rng.uniform(0, 20)
    if rng.random() < 0.25:  # wood-like grain or cloth stripes
        freq = rng.uniform(0.05, 0.4)
        stripes = np.sin(ramp[None, :, None] * size * freq + noise[..., 0:1] * 2)
        img += stripes * rng.uniform(5, 25)
    return img


def _rounded_mask(n, radius):
    m = np.zeros((n, n), np.uint8)
    r = int(radius)
    cv2.rectangle(m, (r, 0), (n - 1 - r, n - 1), 255, -1)
    cv2.rectangle(m, (0, r), (n - 1, n - 1 - r), 255, -1)
    for cx, cy in ((r, r), (n - 1 - r, r), (r, n - 1 - r), (n - 1 - r, n - 1 - r)):
        cv2.circle(m, (cx, cy), r, 255, -1, lineType=cv2.LINE_AA)
    return m


def paint_die(face, rng, side_faces=(), canvas=112, fill=(0.45, 0.8), elevation=(38, 90), upright=None):
    """One die showing `face` on top, random pose, light and background.

    upright: None spins the picture any way round (training); a number of degrees keeps the
    camera within that roll of upright, as a phone over a table sees a die: its top face above
    the sides nearest the camera.

    face: RGB uint8 square texture of the top face. side_faces: textures to use on the visible
    sides (random picks; the die colour alone when empty). Returns (scene RGB uint8, box x, y, w, h).
    """
    n = face.shape[0]
    el = math.radians(rng.uniform(*elevation))
    az = rng.uniform(0, 2 * math.pi)
    dist = rng.uniform(4, 12)
    target = np.array([0, 0, 0.5])
    cam = target + dist * np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)])
    fwd = (target - cam) / np.linalg.norm(target - cam)
    up = np.array([0, 0, 1.0]) if abs(fwd[2]) < 0.999 else np.array([0, 1.0, 0])
    right = np.cross(fwd, up); right /= np.linalg.norm(right)
    down = np.cross(fwd, right)
    rel = CUBE - cam
    zc = rel @ fwd
    px = np.stack([(rel @ right) / zc, (rel @ down) / zc], 1)
    # Spin the whole image so top-down views are not all axis-aligned.
    spin = rng.uniform(0, 2 * math.pi) if upright is None else math.radians(rng.uniform(-upright, upright))
    R = np.array([[math.cos(spin), -math.sin(spin)], [math.sin(spin), math.cos(spin)]])
    px = px @ R.T
    lo, hi = px.min(0), px.max(0)
    span = (hi - lo).max()
    scale = canvas * rng.uniform(*fill) / span
    centre = (lo + hi) / 2
    shift = canvas / 2 + rng.uniform(-0.08, 0.08, 2) * canvas
    pts = (px - centre) * scale + shift

    img = _background(rng, canvas)
    light = np.array([rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(0.6, 2.0)])
    light /= np.linalg.norm(light)
    hull = cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2)

    # Soft shadow on the table, away from the light.
    shadow = np.zeros((canvas, canvas), np.float32)
    off = -light[:2] / max(light[2], 0.3) * scale * 0.25
    cv2.fillConvexPoly(shadow, (hull + off).astype(np.int32), 1.0, lineType=cv2.LINE_AA)
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(1.0, scale * 0.12))
    img *= (1 - rng.uniform(0.2, 0.6) * shadow)[..., None]

    die_colour = face[1, 1].astype(np.float32)  # the face texture's corner is the die's colour
    body = np.zeros((canvas, canvas), np.float32)
    cv2.fillConvexPoly(body, hull.astype(np.int32), 1.0, lineType=cv2.LINE_AA)
    ambient = rng.uniform(0.35, 0.7)
    edge_shade = ambient * 0.8
    img = img * (1 - body[..., None]) + body[..., None] * die_colour * edge_shade

    radius = n * rng.uniform(0.06, 0.2)
    mask = _rounded_mask(n, radius)
    inset = rng.uniform(0.02, 0.06)
    src = np.float32([[0, 0], [n - 1, 0], [n - 1, n - 1], [0, n - 1]])
    for name, (idx, normal) in FACES.items():
        centre3 = CUBE[idx].mean(0)
        if np.dot(np.array(normal), cam - centre3) <= 0:
            continue
        quad = pts[idx]
        c = quad.mean(0)
        quad = c + (quad - c) * (1 - inset)
        if name == 'top':
            tex = face
        elif len(side_faces):
            tex = side_faces[int(rng.integers(len(side_faces)))]
        else:
            tex = np.ones_like(face) * face[1, 1]
        H = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
        warped = cv2.warpPerspective(tex, H, (canvas, canvas), flags=cv2.INTER_LINEAR).astype(np.float32)
        alpha = cv2.warpPerspective(mask, H, (canvas, canvas), flags=cv2.INTER_LINEAR).astype(np.float32) / 255
        shade = ambient + (1 - ambient) * max(0.0, float(np.dot(normal, light)))
        layer = warped * shade
        if name == 'top' and rng.random() < 0.5:  # a specular highlight
            hx, hy = c + rng.uniform(-0.3, 0.3, 2) * scale
            r = np.arange(canvas, dtype=np.float32)
            sig2 = 2 * (scale * rng.uniform(0.1, 0.35)) ** 2
            blob = np.exp(-((r[None, :] - hx) ** 2) / sig2) * np.exp(-((r[:, None] - hy) ** 2) / sig2)
            layer = layer + blob[..., None] * rng.uniform(20, 110)
        img = img * (1 - alpha[..., None]) + layer * alpha[..., None]

    # Light colour, exposure and camera.
    img *= rng.uniform(0.8, 1.2, 3) * rng.uniform(0.7, 1.3)
    img = np.clip(img, 0, 255)
    if rng.random() < 0.5:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.3))
    img += rng.normal(0, rng.uniform(0, 8), (canvas, canvas, 1)).astype(np.float32)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:  # a small, soft die: down and up again
        f = rng.uniform(0.3, 0.7)
        small = cv2.resize(img, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (canvas, canvas), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.4:
        ok, buf = cv2.imencode('.jpg', img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 95))])
        img = cv2.imdecode(buf, cv2.IMREAD_UNCHANGED)
    x0, y0 = hull.min(0)
    x1, y1 = hull.max(0)
    return img, (float(x0), float(y0), float(x1 - x0), float(y1 - y0))


TRAINED_CROP = (0.5, 0.0, 1.0)


def embedder_crop(img, box, K, margin, crop=TRAINED_CROP):
    """The die's box squared (longer side) and enlarged by `margin`, clamped at the edges, to K x K.

    crop: (centre, lift, side) as the sidecar's `readingCrop` (face-embedder.ts
    `embedderCropSquare`): the crop's centre `centre` of the way down the box, raised by `lift`
    times the box's height beyond its width, its side `side` times the trained crop's."""
    x, y, w, h = box
    centre, lift, side_factor = crop
    side = max(w, h) * margin * side_factor
    cx, cy = x + w / 2, y + h * centre - lift * max(0.0, h - w)
    x0, y0 = int(round(cx - side / 2)), int(round(cy - side / 2))
    s = max(1, int(round(side)))
    H, W = img.shape[:2]
    pad = max(0, -x0, -y0, x0 + s - W, y0 + s - H)
    if pad:
        img = cv2.copyMakeBorder(img, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
        x0 += pad; y0 += pad
    patch = img[y0:y0 + s, x0:x0 + s]
    interp = cv2.INTER_AREA if s > K else cv2.INTER_LINEAR
    return cv2.resize(patch, (K, K), interpolation=interp)


def jitter_box(box, rng, shift=0.06, scale=0.1):
    """A detector's box is never exact: move and resize it a little."""
    x, y, w, h = box
    cx = x + w / 2 + rng.normal(0, shift) * w
    cy = y + h / 2 + rng.normal(0, shift) * h
    w2, h2 = w * math.exp(rng.normal(0, scale)), h * math.exp(rng.normal(0, scale))
    return (cx - w2 / 2, cy - h2 / 2, w2, h2)
