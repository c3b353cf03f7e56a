"""Synthetic dice photographs for training Rollcall's detectors (see ../README.md)."""
from .dice import Die, make_die, make_pip_die, make_symbol_die, paint_face
from .faces import face_from_image, paint_pip_face, paint_symbol_face, pip_positions
from .render import SceneConfig, render_die_crop, render_onto_photo, render_scene

__all__ = [
    "Die", "SceneConfig", "face_from_image", "make_die", "make_pip_die", "make_symbol_die", "paint_face",
    "paint_pip_face", "paint_symbol_face", "pip_positions", "render_die_crop", "render_onto_photo", "render_scene",
]
