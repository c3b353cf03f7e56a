"""Training crops for the die-face reader (train_die_face.py).

Every crop is cut like the app cuts a die for the reader (src/lib/vision/die-face-reader.ts,
through the face embedder's crop): the die's box squared on its longer side, times the crop
margin, resampled to K x K. Training crops add what a detector's box and a phone add: the box
moved and resized like a detector's box, any rotation, mirror, a little perspective, colour,
blur, lower resolution, noise and JPEG.

Sources (train splits only; `part` = 'train' leaves out the held-out slice, datasets.is_holdout):
- real dice: every labelled die of byler-train, epanemu-train, matteop65-train (matteop65's
  pip-pattern boxes grown to whole-die boxes as datasets.load_split does);
- real `none`: table patches of those photos, away from every die (half of them at the
  die-sized blobs a detector mistakes for dice: tray dimples, shadows, stains);
- synthetic dice (pip_crops.render_die): pip dice, and symbol dice (`other`).
"""
from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np

from datasets import OBLIQUE_SPLITS, TRAIN_SPLITS, cache_records, load_split, read_rgb
from die_crops import _background, embedder_crop, jitter_box
from die_face_model import CLASSES
from hard_negatives import is_off_centre
from pip_crops import FacePool, render_die

K = 48
CROP_MARGIN = 1.2
NONE = CLASSES.index('none')
OTHER = CLASSES.index('other')


def square_of(box, margin):
    """The app's crop square of a box x, y, w, h: centre and side (src/lib/vision/face-embedder.ts)."""
    x, y, w, h = box
    return x + w / 2, y + h / 2, max(w, h) * margin


def warp_crop(img, box, rng=None, margin=CROP_MARGIN, k=K, jitter=True, geometry=True, any_turn=True):
    """The K x K crop of `box` (x, y, w, h), with a detector-like box error, a turn (any angle, or
    a small roll when `any_turn` is False: oblique photos keep the table's up), a mirror, a
    stretch along the image axes and a little perspective when rng is given; edges repeat the
    border pixels, as the app's crop does. Without rng it is the app's crop, up to resampling."""
    cx, cy, side = square_of(box, margin)
    if rng is not None and jitter:
        wide = rng.random() < 0.15
        s_c, s_s = (0.14, 0.25) if wide else (0.07, 0.12)
        cx += rng.normal(0, s_c) * box[2]
        cy += rng.normal(0, s_c) * box[3]
        side *= math.exp(rng.normal(0, s_s))
    side = max(side, 2.0)
    # Output corners in crop units [-0.5, 0.5], mapped to source pixels.
    corners = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]], np.float64)
    if rng is not None and geometry:
        if rng.random() < 0.5:
            corners[:, 0] *= -1
        a = rng.uniform(0, 2 * math.pi) if any_turn else math.radians(rng.normal(0, 12))
        R = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        corners = corners @ R.T
        # photos stretched to another aspect ratio (epanemu's export) and lens/pose differences
        stretch = math.exp(rng.normal(0, 0.12))
        corners[:, 0] *= stretch
        corners[:, 1] /= stretch
        corners += rng.normal(0, 0.03, corners.shape)
    srcpts = np.array([cx, cy]) + corners * side
    # Shrinking: average the region down first (area resampling, as the app does), then warp.
    f = 1.0
    reach = side * 0.75 + 2
    x0, y0 = int(math.floor(cx - reach)), int(math.floor(cy - reach))
    x1, y1 = int(math.ceil(cx + reach)), int(math.ceil(cy + reach))
    H_, W_ = img.shape[:2]
    pad = max(0, -x0, -y0, x1 - W_, y1 - H_)
    region = img[max(0, y0):min(H_, y1), max(0, x0):min(W_, x1)]
    if pad:
        region = cv2.copyMakeBorder(region, max(0, -y0), max(0, y1 - H_), max(0, -x0), max(0, x1 - W_), cv2.BORDER_REPLICATE)
    srcpts = srcpts - [x0, y0]
    if side > k * 1.2:
        f = k * 1.1 / side
        region = cv2.resize(region, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        srcpts = srcpts * f
    dst = np.float32([[0, 0], [k, 0], [k, k], [0, k]])
    H = cv2.getPerspectiveTransform(dst, srcpts.astype(np.float32))
    # Sample at pixel centres: output pixel (i + 0.5) -> source position, minus 0.5.
    S = np.array([[1, 0, 0.5], [0, 1, 0.5], [0, 0, 1]])
    Sm = np.array([[1, 0, -0.5], [0, 1, -0.5], [0, 0, 1]])
    H = Sm @ H @ S
    return cv2.warpPerspective(region, H, (k, k), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)


def photometric(img, rng, motion_share=0.08, motion_max=4, defocus=(0.0, 1.2), grey=0.08):
    """Light, colour and camera: gain, gamma, hue, saturation, grey, blur, low resolution, noise, JPEG.
    motion_share of the crops get a motion blur of 2 to motion_max pixels (of K), any direction;
    defocus (SHARE, SIGMA): that share a focus missed, a Gaussian blur of sd 1.2 to SIGMA pixels
    (log-uniform; the soft blur of 30% of the crops stops at 1.2). With no share the random
    numbers are drawn exactly as before it existed. grey: the share of crops without colour (each
    pixel its channels' mean), as `npm run eval -- --condition mono` reads."""
    x = img.astype(np.float32)
    if rng.random() < 0.5:
        hsv = cv2.cvtColor(img, cv2.COLOR_RGB2HSV).astype(np.float32)
        hsv[..., 0] = (hsv[..., 0] + rng.uniform(0, 180)) % 180
        hsv[..., 1] = np.clip(hsv[..., 1] * rng.uniform(0.5, 1.4), 0, 255)
        x = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2RGB).astype(np.float32)
    if rng.random() < grey:
        x = np.repeat(x.mean(-1, keepdims=True), 3, -1)
    mean = x.mean()
    x = (x - mean) * rng.uniform(0.6, 1.3) + mean
    x = x * rng.uniform(0.65, 1.35) * rng.uniform(0.88, 1.12, 3)
    x = 255 * (np.clip(x, 0, 255) / 255) ** rng.uniform(0.7, 1.4)
    k = x.shape[0]
    r = rng.random()
    if r < 0.3:
        x = cv2.GaussianBlur(x, (0, 0), rng.uniform(0.3, 1.2))
    elif r < 0.3 + motion_share:
        n = int(rng.integers(2, motion_max + 1))
        kern = np.zeros((n, n), np.float32)
        kern[n // 2, :] = 1.0 / n
        M = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), rng.uniform(0, 180), 1.0)
        kern = cv2.warpAffine(kern, M, (n, n))
        x = cv2.filter2D(x, -1, kern / max(kern.sum(), 1e-6))
    elif r < 0.3 + motion_share + defocus[0]:
        x = cv2.GaussianBlur(x, (0, 0), float(np.exp(rng.uniform(np.log(1.2), np.log(defocus[1])))))
    if rng.random() < 0.25:
        f = rng.uniform(0.35, 0.8)
        s = max(4, int(k * f))
        x = cv2.resize(cv2.resize(x, (s, s), interpolation=cv2.INTER_AREA), (k, k), interpolation=cv2.INTER_LINEAR)
    x += rng.normal(0, rng.uniform(0, 7), x.shape[:2] + (1,)) + rng.normal(0, rng.uniform(0, 3), x.shape)
    if rng.random() < 0.15:  # salt-and-pepper specks, as some exported datasets add (not pips!)
        m = rng.random(x.shape[:2]) < rng.uniform(0.005, 0.03)
        x[m] = rng.choice([0.0, 255.0], size=(int(m.sum()), 1))
    out = np.clip(x, 0, 255).astype(np.uint8)
    if rng.random() < 0.35:
        ok, buf = cv2.imencode('.jpg', out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 95))])
        out = cv2.imdecode(buf, cv2.IMREAD_UNCHANGED)
    return out


def _blob_points(img, side):
    """Die-sized blobs (difference of Gaussians at the die's scale): where detectors see dice that are not there."""
    g = cv2.cvtColor(img, cv2.COLOR_RGB2GRAY).astype(np.float32)
    s = max(1.0, side / 4)
    dog = np.abs(cv2.GaussianBlur(g, (0, 0), s) - cv2.GaussianBlur(g, (0, 0), s * 2.5))
    peaks = (dog == cv2.dilate(dog, np.ones((5, 5), np.uint8))) & (dog > np.percentile(dog, 97))
    ys, xs = np.nonzero(peaks)
    return np.stack([xs, ys], 1).astype(np.float32)


def _corners(box):
    """x, y, w, h as x1, y1, x2, y2 (hard_negatives' boxes)."""
    x, y, w, h = box
    return np.array([x, y, x + w, y + h])


class RealCrops:
    """The labelled photos of the train splits, decoded once, with their dice and table spots."""

    def __init__(self, part='train', splits=TRAIN_SPLITS, hard_negatives=None, reads=None, off_centre=None):
        """hard_negatives: {photo path: [[x, y, w, h, objectness], ...]} (hard_negatives.mine);
        reads: {photo path: per labelled die, the detector's box on it or None} (hard_negatives.mine_reads);
        off_centre: the detector's boxes half on a die, as hard_negatives (hard_negatives.mine(off_centre=True))."""
        self.images, self.dice, self.ignored, self.spots, self.median_side = [], [], [], [], []
        self.items = []   # (image index, box x y w h, class, split)
        self.read_boxes = []  # per item, the detector's box on that die (x y w h), or None
        self.hard = []    # (image index, box x y w h): the detector's boxes where there is no die
        self.off_centre = []  # (image index, box x y w h): the detector's boxes half on a die
        self.draw_p = None  # per-die draw probabilities (weight_splits); None draws every die alike
        self.photo_oblique = []  # per photo, whether it was taken from the side (datasets.OBLIQUE_SPLITS)
        for split in splits:
            for s in load_split(split, part):
                img = read_rgb(s['file'])
                i = len(self.images)
                self.images.append(img)
                self.photo_oblique.append(split in OBLIQUE_SPLITS)
                boxes = [(float(b[0]), float(b[1]), float(b[2] - b[0]), float(b[3] - b[1])) for b in s['boxes']]
                self.dice.append(boxes)
                side = float(np.median([max(b[2], b[3]) for b in boxes])) if boxes else 40.0
                self.median_side.append(side)
                ignored = [(float(b[0]), float(b[1]), float(b[2] - b[0]), float(b[3] - b[1])) for b in s['ignore']]
                self.ignored.append(ignored)
                self.spots.append(self._free(_blob_points(img, side), boxes + ignored, side))  # table spots, off dice and ignored regions
                for x, y, w, h, _ in (hard_negatives or {}).get(s['file'], []):
                    self.hard.append((i, (x, y, w, h)))
                for x, y, w, h, _ in (off_centre or {}).get(s['file'], []):
                    self.off_centre.append((i, (x, y, w, h)))
                photo_reads = (reads or {}).get(s['file']) or [None] * len(boxes)
                for b, c, r in zip(boxes, s['classes'], photo_reads):
                    self.items.append((i, b, int(c), split))
                    self.read_boxes.append(tuple(r) if r else None)

    @staticmethod
    def _free(points, boxes, side):
        """Points whose die-sized box would not be centred on any die."""
        if len(boxes) == 0 or len(points) == 0:
            return points
        keep = np.ones(len(points), bool)
        for x, y, w, h in boxes:
            c = np.array([x + w / 2, y + h / 2])
            r = 0.65 * max(w, h, side)
            keep &= np.abs(points - c).max(1) > r
        return points[keep]

    def weight_splits(self, weights: dict[str, float]) -> None:
        """Draw each split's dice this many times as often as another's die (default 1)."""
        unknown = set(weights) - {it[3] for it in self.items}
        if unknown:
            raise ValueError(f"split weights for splits with no dice here: {sorted(unknown)}")
        p = np.array([weights.get(it[3], 1.0) for it in self.items], float)
        self.draw_p = p / p.sum()

    def die(self, rng, as_read=0.0):
        """A labelled die: (photo, box, class, whether the photo is oblique, whether the box is the
        detector's). With probability `as_read` the box is the detector's own box on that die,
        where it found one (mine_reads), rather than the labelled one."""
        p = self.draw_p
        k = int(rng.choice(len(self.items), p=p)) if p is not None else int(rng.integers(len(self.items)))
        i, box, cls, split = self.items[k]
        read = self.read_boxes[k]
        if read is not None and rng.random() < as_read:
            return self.images[i], read, cls, self.photo_oblique[i], True
        return self.images[i], box, cls, self.photo_oblique[i], False

    def background_box(self, rng, i=None):
        """A die-sized box on the table of photo i (random when None), not centred on any die."""
        for _ in range(50):
            if i is None or _ > 10:
                i = int(rng.integers(len(self.images)))
            img, boxes = self.images[i], self.dice[i]
            side = self.median_side[i] * math.exp(rng.normal(0, 0.25))
            if rng.random() < 0.5 and len(self.spots[i]):
                cx, cy = self.spots[i][int(rng.integers(len(self.spots[i])))]
            else:
                cx, cy = rng.uniform(0, img.shape[1]), rng.uniform(0, img.shape[0])
            ok = all(max(abs(cx - (x + w / 2)), abs(cy - (y + h / 2))) > 0.65 * max(w, h, side) for x, y, w, h in boxes)
            if ok:
                return img, (cx - side / 2, cy - side / 2, side, side)
        return img, (cx - side / 2, cy - side / 2, side, side)

    def off_centre_box(self, rng):
        """A die-sized box half on a die and centred on none (hard_negatives.is_off_centre): a
        labelled die's box moved 0.4-0.75 of its size, or a box midway between two dice that
        nearly touch, the boxes a detector makes a second time on a die or between two."""
        for _ in range(100):
            i, (x, y, w, h), _, _ = self.items[int(rng.integers(len(self.items)))]
            dice = self.dice[i]
            near = [d for d in dice if d != (x, y, w, h) and
                    abs(d[0] + d[2] / 2 - x - w / 2) < 1.4 * max(w, d[2]) and abs(d[1] + d[3] / 2 - y - h / 2) < 1.4 * max(h, d[3])]
            if near and rng.random() < 0.4:
                d = near[int(rng.integers(len(near)))]
                cx, cy = (x + w / 2 + d[0] + d[2] / 2) / 2, (y + h / 2 + d[1] + d[3] / 2) / 2
            else:
                a, r = rng.uniform(0, 2 * math.pi), rng.uniform(0.4, 0.75)
                cx, cy = x + w / 2 + r * w * math.cos(a), y + h / 2 + r * h * math.sin(a)
            # about a die's size: a box much larger could hold the whole die, as a detector's loose box on it does
            bw, bh = w * math.exp(np.clip(rng.normal(0, 0.12), -0.2, 0.2)), h * math.exp(np.clip(rng.normal(0, 0.12), -0.2, 0.2))
            box = (cx - bw / 2, cy - bh / 2, bw, bh)
            if is_off_centre(_corners(box), [_corners(d) for d in dice], [_corners(g) for g in self.ignored[i]], self.photo_oblique[i]):
                return self.images[i], box
        raise ValueError('no off-centre box found in 100 tries: are there dice in these photos?')

    def table_patch(self, rng, size):
        """A square of real table (for synthetic dice to stand on)."""
        img, box = self.background_box(rng)
        return warp_crop(img, box, rng, margin=2.2, k=size, jitter=False)


class RenderedDice:
    """The rendered dice of an `on-boards` render cache (render_cache.py --preset on-boards): dice in
    a board game's colours rendered onto real epanemu-train board photos, the last `rendered` boxes
    of each scene. The photos' own dice are left to RealCrops."""

    def __init__(self, folder):
        self.images, self.items = [], []
        folder = Path(folder)
        records = cache_records(folder)
        if not any(r.get('rendered') for r in records):
            raise ValueError(f'{folder} holds no rendered dice: make it with render_cache.py --preset on-boards')
        for r in records:
            n = r.get('rendered', 0)
            if not n:
                continue
            i = len(self.images)
            self.images.append(read_rgb(folder / r['file']))
            for b, c in zip(r['boxes'][-n:], r['classes'][-n:]):
                self.items.append((i, (b[0], b[1], b[2] - b[0], b[3] - b[1]), int(c)))

    def die(self, rng):
        i, box, cls = self.items[int(rng.integers(len(self.items)))]
        return self.images[i], box, cls


class Mixer:
    """Training batches: real dice, synthetic dice, `other` and `none` in fixed shares.

    Synthetic scenes come from a pool (`scenes` renders, `refresh` of them re-rendered per batch);
    each use cuts its own crop (box error, rotation, mirror, perspective) and colour."""

    SHARES = {'real': 0.42, 'synthetic': 0.30, 'other': 0.10, 'none_real': 0.14, 'none_synthetic': 0.04}
    # with the detector's own false boxes (hard_negatives.py): part of the table patches give way to them
    SHARES_WITH_HARD = {'real': 0.40, 'synthetic': 0.28, 'other': 0.10, 'none_real': 0.10, 'none_hard': 0.08, 'none_synthetic': 0.04}

    def __init__(self, real: RealCrops, seed: int, scenes=6000, refresh=16, log=print, as_read=0.0, motion_blur=(0.08, 4),
                 defocus=(0.0, 1.2), translucent=0.0, on_boards: RenderedDice | None = None, on_boards_share=0.0, off_centre_share=0.0, k=K, grey=0.08):
        """as_read: the share of real dice cut from the detector's box on them, as the app cuts
        them, instead of the labelled box moved like a detector's (RealCrops.die). motion_blur:
        the share of crops blurred by motion and the longest blur in pixels (`photometric`).
        defocus: the share of crops out of focus and the widest blur's sd in pixels (`photometric`).
        translucent: the share of synthetic scenes whose die is see-through (pip_crops.render_die).
        on_boards, on_boards_share: rendered board dice (RenderedDice) drawn as this share of the
        crops, the other shares shrunk to make room. off_centre_share: the share of crops cut from a
        box half on a die and taught `none`, half the detector's own (real.off_centre, when mined),
        half made (RealCrops.off_centre_box); the other shares shrunk to make room. k: the crop's
        side in pixels (the reader's input size). grey: the share of crops without colour (`photometric`)."""
        self.k = k
        self.real = real
        self.on_boards = on_boards
        self.translucent = translucent
        self.motion_blur = motion_blur
        self.defocus = defocus
        self.grey = grey
        self.as_read = as_read
        self.rng = np.random.default_rng(seed)
        shares = dict(self.SHARES_WITH_HARD if real.hard else self.SHARES)
        if on_boards is not None and on_boards_share > 0:
            shares = {k: v * (1 - on_boards_share) for k, v in shares.items()}
            shares['on_boards'] = on_boards_share
        if off_centre_share > 0:
            shares = {k: v * (1 - off_centre_share) for k, v in shares.items()}
            shares['none_off_centre'] = off_centre_share
        self.kinds = list(shares)
        self.p = np.array([shares[k] for k in self.kinds])
        self.p /= self.p.sum()
        self.faces = FacePool(self.rng)
        self.refresh = refresh
        share_other = self.SHARES['other'] / (self.SHARES['other'] + self.SHARES['synthetic'])
        self.scene_kinds = ['pips' if self.rng.random() >= share_other else 'symbol' for _ in range(scenes)]
        self.scenes = []
        for i, k in enumerate(self.scene_kinds):
            self.scenes.append(render_die(self.rng, self.real.table_patch, kind=k, pool=self.faces, translucent=translucent))
            if log and (i + 1) % 2000 == 0:
                log(f'  {i + 1} synthetic scenes rendered')
        self.pips = [i for i, k in enumerate(self.scene_kinds) if k == 'pips']
        self.others = [i for i, k in enumerate(self.scene_kinds) if k != 'pips']

    def sample(self):
        rng = self.rng
        kind = self.kinds[int(rng.choice(len(self.kinds), p=self.p))]
        if kind == 'real':
            img, box, cls, oblique, read = self.real.die(rng, self.as_read)
            # an oblique photo is mostly seen upright; now and then turned, as a phone can be;
            # the detector's own box already carries a detector's error
            crop = warp_crop(img, box, rng, jitter=not read, any_turn=not oblique or rng.random() < 0.25, k=self.k)
        elif kind in ('synthetic', 'other'):
            ids = self.pips if kind == 'synthetic' else self.others
            scene, box, cls = self.scenes[ids[int(rng.integers(len(ids)))]]
            crop = warp_crop(scene, box, rng, any_turn=False, k=self.k)  # the render has already turned it
        elif kind == 'on_boards':
            img, box, cls = self.on_boards.die(rng)
            crop = warp_crop(img, box, rng, any_turn=rng.random() < 0.25, k=self.k)  # oblique board photos, as epanemu's
        elif kind == 'none_real':
            img, box = self.real.background_box(rng)
            crop, cls = warp_crop(img, box, rng, jitter=False, k=self.k), NONE
        elif kind == 'none_off_centre':
            if self.real.off_centre and rng.random() < 0.5:
                i, box = self.real.off_centre[int(rng.integers(len(self.real.off_centre)))]
                img = self.real.images[i]
            else:
                img, box = self.real.off_centre_box(rng)
            # moved no further (warp_crop's jitter could centre it on the die)
            crop, cls = warp_crop(img, box, rng, jitter=False, k=self.k), NONE
        elif kind == 'none_hard':
            i, box = self.real.hard[int(rng.integers(len(self.real.hard)))]
            crop, cls = warp_crop(self.real.images[i], box, rng, k=self.k), NONE
        else:
            cls = NONE
            if rng.random() < 0.5:
                crop = self.real.table_patch(rng, self.k)
            else:
                crop = np.clip(_background(rng, self.k), 0, 255).astype(np.uint8)
        return photometric(crop, rng, *self.motion_blur, defocus=self.defocus, grey=self.grey), cls

    def batch(self, n):
        for _ in range(self.refresh):
            i = int(self.rng.integers(len(self.scenes)))
            self.scenes[i] = render_die(self.rng, self.real.table_patch, kind=self.scene_kinds[i], pool=self.faces,
                                        translucent=self.translucent)
        self.faces.refresh(2)
        xs, ys = zip(*(self.sample() for _ in range(n)))
        return np.stack(xs), np.array(ys, np.int64)


def holdout_set(real: RealCrops, seed=123, jittered=2, backgrounds_per_image=3, off_centre_made=150, k=K):
    """The fixed model-selection set from the held-out slice, cut by the app's crop
    (die_crops.embedder_crop): every die from its labelled box and `jittered` times from a box
    moved like a detector's (no rotation, no colour change), table patches labelled `none`, and
    the detector's false boxes (`real.hard`, when mined) labelled `none`, its boxes half on a die
    (`real.off_centre`, when mined) and `off_centre_made` boxes made alike (RealCrops.off_centre_box)
    labelled `none` as source `off_centre`, and every die the
    detector boxed (`real.read_boxes`, when mined) from that box, as source `read`; each k x k.
    Returns crops, classes, split names."""
    rng = np.random.default_rng(seed)
    xs, ys, src = [], [], []
    for img_i, box, cls, split in real.items:
        img = real.images[img_i]
        xs.append(embedder_crop(img, box, k, CROP_MARGIN)); ys.append(cls); src.append(split)
        for _ in range(jittered):
            xs.append(embedder_crop(img, jitter_box(box, rng, 0.08, 0.12), k, CROP_MARGIN)); ys.append(cls); src.append(split)
    for i in range(len(real.images)):
        for _ in range(backgrounds_per_image):
            img, box = real.background_box(rng, i)
            xs.append(embedder_crop(img, box, k, CROP_MARGIN)); ys.append(NONE); src.append('background')
    for i, box in real.hard:
        xs.append(embedder_crop(real.images[i], box, k, CROP_MARGIN)); ys.append(NONE); src.append('hard')
    for i, box in real.off_centre:
        xs.append(embedder_crop(real.images[i], box, k, CROP_MARGIN)); ys.append(NONE); src.append('off_centre')
    made = np.random.default_rng(seed + 1)  # its own draws: the sets above stay as they were
    for _ in range(off_centre_made if real.items else 0):
        img, box = real.off_centre_box(made)
        xs.append(embedder_crop(img, box, k, CROP_MARGIN)); ys.append(NONE); src.append('off_centre')
    for (img_i, _, cls, _), read in zip(real.items, real.read_boxes):
        if read is not None:
            xs.append(embedder_crop(real.images[img_i], read, k, CROP_MARGIN)); ys.append(cls); src.append('read')
    return np.stack(xs), np.array(ys, np.int64), np.array(src)
