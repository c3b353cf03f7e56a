"""Die models: six painted faces plus a material. Faces are indexed by the die's local axes:
0 = +x, 1 = -x, 2 = +y, 3 = -y, 4 = +z, 5 = -z.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .faces import FACE_RES, face_from_image, paint_pip_face, paint_symbol_face, random_pip_style
from .noise import hsv_colour, random_colour

OPPOSITE = [1, 0, 3, 2, 5, 4]
MATERIALS = ("plastic", "translucent", "marbled", "metallic", "pearl", "wood")


@dataclass
class Die:
    faces: list[tuple[np.ndarray, np.ndarray]]   # (albedo [T,T,3], height [T,T]) per local face
    values: list[int | None]                      # pip value per face, None for symbol faces
    body: np.ndarray                              # body colour (RGB [0, 1])
    material: str = "plastic"
    rounding: float = 0.1                         # edge radius, fraction of the side
    size: float = 1.0                             # side length relative to a standard 16 mm die
    specular: float = 0.3
    shininess: float = 40.0
    translucency: float = 0.0                     # 0 opaque .. ~0.8 clear
    marble_colour: np.ndarray | None = None
    marble_seed: int = 0
    kind: str = "pips"                            # pips | symbol
    face_ids: list[str] | None = None             # a kit die's face id per local face (labels only)

    def label_for(self, face_index: int) -> int:
        """Detector class of a face on top: value - 1 for pip faces, 6 (`other`) otherwise."""
        v = self.values[face_index]
        return 6 if v is None else v - 1


def _body_colour(rng: np.random.Generator) -> np.ndarray:
    r = rng.random()
    if r < 0.28:
        return hsv_colour(rng.uniform(10, 30), rng.uniform(0, 0.12), rng.uniform(0.85, 1.0))     # white / ivory
    if r < 0.40:
        return hsv_colour(rng.uniform(0, 180), rng.uniform(0, 0.3), rng.uniform(0.03, 0.18))     # black
    if r < 0.52:
        return hsv_colour(rng.uniform(-5, 5), rng.uniform(0.7, 1.0), rng.uniform(0.5, 0.95))     # red
    named = [(60, 0.8), (110, 0.8), (25, 0.85), (15, 0.9), (140, 0.7), (90, 0.7), (165, 0.6), (5, 0.6)]
    if r < 0.85:
        h, s = named[int(rng.integers(len(named)))]
        return hsv_colour(h + rng.uniform(-6, 6), s * rng.uniform(0.7, 1.1), rng.uniform(0.35, 0.95))
    return random_colour(rng, (0, 1), (0.1, 1))


def _material(rng: np.random.Generator, die: Die, material: str | None = None) -> None:
    m = material if material is not None else rng.choice(MATERIALS, p=[0.52, 0.17, 0.14, 0.06, 0.06, 0.05])
    die.material = str(m)
    die.rounding = float(rng.choice([rng.uniform(0.06, 0.2), rng.uniform(0.015, 0.05)], p=[0.85, 0.15]))
    die.specular = float(rng.uniform(0.05, 0.6))
    die.shininess = float(np.exp(rng.uniform(np.log(8), np.log(250))))
    if m == "translucent":
        die.translucency = float(rng.uniform(0.3, 0.8))
        die.specular = float(rng.uniform(0.3, 0.8))
        die.shininess = float(rng.uniform(60, 300))
    elif m == "marbled":
        die.marble_colour = random_colour(rng, (0, 1), (0.05, 1))
        die.marble_seed = int(rng.integers(1 << 30))
    elif m == "metallic":
        die.specular = float(rng.uniform(0.6, 1.2))
        die.shininess = float(rng.uniform(20, 120))
    elif m == "pearl":
        die.marble_colour = np.clip(die.body + 0.25, 0, 1)
        die.marble_seed = int(rng.integers(1 << 30))
    elif m == "wood":
        die.body = hsv_colour(rng.uniform(10, 22), rng.uniform(0.35, 0.7), rng.uniform(0.4, 0.85))
        die.marble_colour = die.body * 0.7
        die.marble_seed = int(rng.integers(1 << 30))
        die.specular = float(rng.uniform(0.02, 0.15))


def make_pip_die(rng: np.random.Generator, res: int = FACE_RES, body: np.ndarray | None = None,
                 material: str | None = None, pip: np.ndarray | None = None) -> Die:
    """A standard d6: opposite faces sum to 7, random handedness and pip orientation. `body`,
    `material` (one of MATERIALS) and `pip` fix the die's colour, material and pip colour, else
    they are drawn."""
    body = _body_colour(rng) if body is None else np.asarray(body, np.float64)
    die = Die(faces=[], values=[None] * 6, body=body)
    _material(rng, die, material)
    style = random_pip_style(rng, die.body)
    if pip is not None:
        style.pip = np.asarray(pip, np.float32)
    if die.material == "metallic":
        style.depth = max(style.depth, 2.0)
    low = [1, 2, 3]
    rng.shuffle(low)
    values = [0] * 6
    for axis, v in zip((0, 2, 4), low):          # +x, +y, +z get 1..3 in random order
        values[axis], values[axis + 1] = (v, 7 - v) if rng.random() < 0.5 else (7 - v, v)
    die.values = list(values)
    angle = rng.uniform(0, 360) if style.shape != "round" else 0.0
    for f in range(6):
        albedo, height = paint_pip_face(values[f], style, res, angle)
        k = int(rng.integers(4))
        die.faces.append((np.ascontiguousarray(np.rot90(albedo, k)), np.ascontiguousarray(np.rot90(height, k))))
    die.size = float(rng.uniform(0.85, 1.2))
    return die


def make_symbol_die(rng: np.random.Generator, res: int = FACE_RES) -> Die:
    """A die of any other kind: every face a glyph, icon, numeral or picture (class `other`)."""
    body = _body_colour(rng)
    die = Die(faces=[], values=[None] * 6, body=body, kind="symbol")
    _material(rng, die)
    for f in range(6):
        die.faces.append(paint_symbol_face(rng, die.body, res))
    die.size = float(rng.uniform(0.85, 1.4))
    return die


def make_die(rng: np.random.Generator, symbol_probability: float = 0.12) -> Die:
    return make_symbol_die(rng) if rng.random() < symbol_probability else make_pip_die(rng)


def paint_face(die: Die, face_index: int, image: np.ndarray, alpha: np.ndarray | None = None,
               margin: float = 0.12, engrave: float = 0.0, value: int | None = None) -> None:
    """Replace one face of `die` with any picture (e.g. a reference face of a symbol kit);
    `value` is the pip value to label it with, None for `other`."""
    T = die.faces[face_index][0].shape[0]
    die.faces[face_index] = face_from_image(image, die.body, T, alpha, margin, engrave)
    die.values[face_index] = value
    if value is None:
        die.kind = "symbol"
