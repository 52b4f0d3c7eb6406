"""The photo-wide conditions of one simulated photo, drawn from one generator.

The probabilities are the distribution the package docstring describes; change them there too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

REFUSALS: dict[str, tuple[float, tuple[str, ...]]] = {
    # cause: (probability, words a correct refusal message would contain, any of them)
    "marker_out_of_frame": (0.040, ("marker", "corner")),
    "cut_off": (0.020, ("marker", "corner", "sheet")),
    "too_blurry": (0.025, ("blur", "focus", "sharp")),
    "too_dark": (0.020, ("dark", "light")),
    "wrong_side": (0.025, ("side", "fill", "garden")),
    "not_a_sheet": (0.015, ("sheet", "garden", "marker")),
}
"""About 14 % of a game night's photos cannot be read; each cause with its share."""

PHONE_MP: tuple[tuple[float, float], ...] = ((2.0, 0.07), (5.0, 0.07), (8.0, 0.12), (12.0, 0.44), (16.0, 0.08), (24.0, 0.06), (48.0, 0.16))
"""(megapixels, share): most phones save 12 MP (48 MP sensors bin 4 to 1), some save full 48 MP,
old phones and photos forwarded through a messenger app come at 2-8 MP."""


@dataclass
class Conditions:
    refuse_cause: str | None
    megapixels: float
    aspect: float
    """Long side over short side."""
    portrait: bool
    paper: str
    mono: bool
    random_start: int | None
    """The --seed of a sheet printed with --random-start, else None (the edition's starting fields)."""
    light: str
    """"warm" (tungsten), "daylight", "cool" (LED or fluorescent)."""
    low_light: bool
    exposure: float
    """Sensor signal level: 1 is a well-lit kitchen, 0.05 a dim room."""
    tilt_deg: float
    azimuth_deg: float
    roll_deg: float
    fill: float
    """How much of the photo's short side the sheet's long side spans."""
    hfov_deg: float
    defocus_px_per_mp: float
    motion_px: float
    motion_angle_deg: float
    bow_mm: float
    curl_mm: float
    glare: bool
    shadow: str | None
    """None, "hand" or "phone"."""
    background: str
    jpeg_quality: int
    messenger: bool
    """Recompressed by a messenger app (downscaled and compressed again)."""
    sharpen: float
    two_up: bool = False
    """Printed two to a page (``--per-page 2``, scaled to 0.665) and cut out."""
    thumb: bool = False
    """A thumb holds the sheet flat at the middle of one edge (clear of the markers and the garden)."""
    tags: list[str] = field(default_factory=list)


def _pick(rng: np.random.Generator, weighted: tuple[tuple[object, float], ...]) -> object:
    values, weights = zip(*weighted, strict=True)
    p = np.asarray(weights, dtype=float)
    return values[int(rng.choice(len(values), p=p / p.sum()))]


def draw_conditions(rng: np.random.Generator, max_megapixels: float) -> Conditions:
    """The conditions of one photo."""
    u = rng.random()
    cause: str | None = None
    for name, (share, _) in REFUSALS.items():
        if u < share:
            cause = name
            break
        u -= share
    mp = float(_pick(rng, PHONE_MP))  # type: ignore[arg-type]
    messenger = mp <= 2.0 or rng.random() < 0.05
    aspect = float(_pick(rng, ((4 / 3, 0.8), (16 / 9, 0.14), (1.0, 0.06))))  # type: ignore[arg-type]
    portrait = rng.random() < 0.78
    light = str(_pick(rng, (("warm", 0.5), ("daylight", 0.3), ("cool", 0.2))))
    low_light = rng.random() < 0.22 or cause == "too_dark"
    exposure = float(rng.uniform(0.7, 1.3)) if not low_light else float(rng.uniform(0.08, 0.3))
    if cause == "too_dark":
        exposure = float(rng.uniform(0.004, 0.012))
    # Tilt: most people lean over the table; some shoot from their chair at a steep angle.
    tilt = float(abs(rng.normal(0, 12))) if rng.random() < 0.8 else float(rng.uniform(20, 38))
    roll_base = float(_pick(rng, ((0.0, 0.86), (180.0, 0.06), (90.0, 0.04), (-90.0, 0.04))))  # type: ignore[arg-type]
    roll = roll_base + float(rng.normal(0, 4 if rng.random() < 0.8 else 12))
    fill = float(rng.uniform(0.72, 0.97))
    defocus = float(abs(rng.normal(0, 0.25))) if rng.random() < 0.25 else 0.0
    motion = float(abs(rng.normal(0, 2.0))) if rng.random() < 0.18 else 0.0
    if low_light and rng.random() < 0.5:
        motion += float(rng.uniform(1, 4))  # slow shutter
    if cause == "too_blurry":
        # Far too blurry: a blur disc of 2-3.5 mm on the paper, or a shake of 7-14 mm (a bubble is 6.8 mm across).
        if rng.random() < 0.5:
            defocus = float(rng.uniform(6.0, 10.0))
        else:
            motion = float(rng.uniform(70, 140))
    flat_paper = rng.random() < 0.45
    bow = 0.0 if flat_paper or rng.random() < 0.35 else float(rng.uniform(2, 14)) * (1 if rng.random() < 0.6 else -1)
    curl = 0.0 if flat_paper or (bow and rng.random() < 0.5) else float(rng.uniform(3, 22))
    glare = rng.random() < 0.15
    shadow = str(_pick(rng, (("none", 0.68), ("hand", 0.17), ("phone", 0.15))))
    background = str(_pick(rng, (("wood", 0.45), ("cloth", 0.25), ("laminate", 0.2), ("dark", 0.1))))
    quality = int(rng.integers(62, 96))
    conditions = Conditions(
        refuse_cause=cause,
        megapixels=min(mp, max_megapixels),
        aspect=aspect,
        portrait=portrait,
        paper="letter" if rng.random() < 0.2 else "a4",
        mono=rng.random() < 0.08,
        random_start=int(rng.integers(1, 60)) if rng.random() < 0.12 else None,
        light=light,
        low_light=low_light,
        exposure=exposure,
        tilt_deg=tilt,
        azimuth_deg=float(rng.uniform(0, 360)),
        roll_deg=roll,
        fill=fill,
        hfov_deg=float(rng.uniform(62, 78)),
        defocus_px_per_mp=defocus,
        motion_px=motion,
        motion_angle_deg=float(rng.uniform(0, 180)),
        bow_mm=bow,
        curl_mm=curl,
        glare=glare,
        shadow=None if shadow == "none" else shadow,
        background=background,
        jpeg_quality=quality,
        messenger=messenger,
        sharpen=float(rng.uniform(0.0, 0.9)),
    )
    conditions.two_up = rng.random() < 0.05
    conditions.thumb = rng.random() < 0.1
    conditions.tags = _tags(conditions)
    return conditions


def _tags(c: Conditions) -> list[str]:
    tags = [f"mp_{round(c.megapixels):d}", f"light_{c.light}", f"bg_{c.background}", f"paper_{c.paper}"]
    if c.light == "warm":
        tags.append("warm_light")
    if c.low_light:
        tags.append("low_light")
    if c.tilt_deg > 20:
        tags.append("steep_angle")
    elif c.tilt_deg > 8:
        tags.append("angle")
    if abs(((c.roll_deg + 180) % 360) - 180) > 45:
        tags.append("rotated")
    elif abs(((c.roll_deg + 180) % 360) - 180) > 8:
        tags.append("tilted_frame")
    if c.motion_px > 1.5:
        tags.append("motion_blur")
    if c.defocus_px_per_mp * math.sqrt(c.megapixels) > 1.5:
        tags.append("defocus")
    if c.bow_mm:
        tags.append("bow")
    if c.curl_mm:
        tags.append("curl")
    if c.glare:
        tags.append("glare")
    if c.shadow:
        tags.append(f"shadow_{c.shadow}")
    if c.messenger:
        tags.append("messenger")
    if c.jpeg_quality < 72:
        tags.append("low_jpeg_quality")
    if c.mono:
        tags.append("mono_print")
    if c.random_start is not None:
        tags.append("random_start")
    if c.two_up:
        tags.append("two_up")
    if c.thumb:
        tags.append("thumb")
    return tags
