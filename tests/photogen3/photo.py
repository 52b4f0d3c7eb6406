"""From a marked page and a scene to JPEG bytes: table, light, optics, sensor and the phone's processing."""

from __future__ import annotations

import functools
import math

import cv2
import numpy as np

from .camera import GRID_MM, MAP_STEP_PX, Scene, upsample
from .conditions import Conditions

WHITE_BALANCE = {
    # What is left after the phone's auto white balance: it corrects tungsten only part of the way.
    "warm": ((1.0, 0.88, 0.60), 0.06),
    "daylight": ((1.0, 1.0, 0.98), 0.03),
    "cool": ((0.90, 0.99, 1.08), 0.04),
}


def _noise_image(rng: np.random.Generator, shape: tuple[int, int], cell: int) -> np.ndarray:
    """Smooth noise in [0, 1] with features about ``cell`` pixels wide."""
    h, w = shape
    small = rng.random((max(2, h // cell + 2), max(2, w // cell + 2)), dtype=np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


TO_LINEAR = ((np.arange(256, dtype=np.float32) / 255.0) ** 2).astype(np.float32)


def table_texture(kind: str, rng: np.random.Generator, shape: tuple[int, int], px_per_mm: float) -> np.ndarray:
    """The table or cloth under the sheet, linear RGB, in table millimetres (``px_per_mm``)."""
    h, w = shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32) / px_per_mm
    if kind == "wood":
        base = np.array(rng.choice([(0.42, 0.22, 0.09), (0.55, 0.33, 0.15), (0.30, 0.16, 0.07), (0.62, 0.45, 0.26)]), np.float32)
        base *= rng.uniform(0.7, 1.1)
        angle = rng.uniform(0, math.pi)
        along = xx * math.cos(angle) + yy * math.sin(angle)
        across = -xx * math.sin(angle) + yy * math.cos(angle)
        warp = _noise_image(rng, shape, max(4, int(40 * px_per_mm))) * rng.uniform(4, 12)
        period = rng.uniform(2.0, 6.0)
        rings = 0.5 + 0.5 * np.sin(2 * math.pi * (across + warp) / period + 0.02 * along)
        plank_w = rng.uniform(80, 160)
        plank = np.floor(across / plank_w)
        tint = 1 + 0.12 * np.sin(plank * 12.9898 + rng.uniform(0, 6))
        seam = np.clip(np.abs((across / plank_w) % 1 - 0.5) * 2 * plank_w - (plank_w - 1.2), 0, 1)
        fine = _noise_image(rng, shape, max(2, int(1.5 * px_per_mm)))
        shade = (0.78 + 0.22 * rings**3) * tint * (0.9 + 0.2 * fine) * (1 - 0.6 * seam)
        return base[None, None, :] * shade[..., None]
    if kind == "cloth":
        colour = np.array(rng.choice([(0.55, 0.05, 0.05), (0.06, 0.15, 0.45), (0.10, 0.35, 0.12), (0.60, 0.45, 0.05)]), np.float32)
        if rng.random() < 0.65:  # gingham
            stripe = rng.uniform(5, 12)
            a = ((xx // stripe) % 2).astype(np.float32)
            b = ((yy // stripe) % 2).astype(np.float32)
            amount = (a + b) / 2
            white = np.array([0.78, 0.76, 0.72], np.float32)
            cloth = white[None, None, :] * (1 - amount[..., None]) + colour[None, None, :] * amount[..., None]
        else:
            cloth = np.broadcast_to(colour * rng.uniform(0.8, 1.4), (h, w, 3)).copy()
        weave = 0.92 + 0.08 * np.sin(xx * px_per_mm * 2.5) * np.sin(yy * px_per_mm * 2.5)
        wrinkles = 0.85 + 0.3 * _noise_image(rng, shape, max(4, int(60 * px_per_mm)))
        return cloth * (weave * wrinkles)[..., None]
    if kind == "laminate":
        colour = np.array(rng.choice([(0.70, 0.68, 0.64), (0.55, 0.55, 0.56), (0.75, 0.66, 0.50), (0.35, 0.38, 0.42)]), np.float32)
        speck = 0.95 + 0.1 * _noise_image(rng, shape, max(2, int(1.0 * px_per_mm)))
        return colour[None, None, :] * speck[..., None]
    colour = np.array(rng.choice([(0.03, 0.03, 0.035), (0.07, 0.05, 0.04), (0.05, 0.06, 0.07)]), np.float32)
    return colour[None, None, :] * (0.85 + 0.3 * _noise_image(rng, shape, max(2, int(3 * px_per_mm))))[..., None]


def _shadow_mask(kind: str, rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    """A hand's or a phone's soft shadow (1 = full shadow), at low resolution."""
    h, w = shape
    mask = np.zeros((h, w), np.float32)
    if kind == "hand":
        side = rng.integers(4)
        centre = np.array([rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h])
        edge = [
            np.array([centre[0], -0.1 * h]),
            np.array([1.1 * w, centre[1]]),
            np.array([centre[0], 1.1 * h]),
            np.array([-0.1 * w, centre[1]]),
        ][side]
        palm = centre + (edge - centre) * rng.uniform(0.1, 0.4)
        arm_w = rng.uniform(0.12, 0.2) * min(w, h)
        cv2.line(mask, tuple(np.round(edge).astype(int)), tuple(np.round(palm).astype(int)), 1.0, int(arm_w))
        cv2.ellipse(
            mask, tuple(np.round(palm).astype(int)), (int(arm_w * 0.8), int(arm_w * 0.65)), float(rng.uniform(0, 180)), 0, 360, 1.0, -1
        )
        for k in range(4):  # fingers
            a = math.atan2(*(centre - edge)[::-1]) + (k - 1.5) * 0.35
            tip = palm + np.array([math.cos(a), math.sin(a)]) * arm_w * rng.uniform(1.0, 1.5)
            cv2.line(mask, tuple(np.round(palm).astype(int)), tuple(np.round(tip).astype(int)), 1.0, max(1, int(arm_w * 0.22)))
    else:
        cx, cy = rng.uniform(0.3, 0.7) * w, rng.uniform(0.35, 0.8) * h
        pw, ph = rng.uniform(0.15, 0.25) * min(w, h), rng.uniform(0.3, 0.45) * min(w, h)
        box = cv2.boxPoints(((cx, cy), (pw, ph), float(rng.uniform(-30, 30))))
        cv2.fillPoly(mask, [np.round(box).astype(np.int32)], 1.0)
    soft = rng.uniform(0.02, 0.07) * max(w, h)
    return cv2.GaussianBlur(mask, (0, 0), soft)


def _blur(image: np.ndarray, c: Conditions) -> np.ndarray:
    """Defocus (a disc) and motion (a line), in linear light; big kernels run on a smaller copy."""
    mp_scale = math.sqrt(c.megapixels)
    radius = c.defocus_px_per_mp * mp_scale
    length = c.motion_px * mp_scale / math.sqrt(12)
    if radius < 0.6 and length < 1.0:
        return image
    h, w = image.shape[:2]
    reduce = max(1, int(max(radius, length / 2) // 6))
    small = cv2.resize(image, (w // reduce, h // reduce), interpolation=cv2.INTER_AREA) if reduce > 1 else image
    r, ln = radius / reduce, length / reduce
    size = int(2 * math.ceil(max(r, ln / 2)) + 3)
    kernel = np.zeros((size, size), np.float32)
    centre = size // 2
    if r >= 0.6:
        cv2.circle(kernel, (centre * 16, centre * 16), int(r * 16), 1.0, -1, cv2.LINE_AA, 4)
    else:
        kernel[centre, centre] = 1.0
    if ln >= 1.0:
        line = np.zeros_like(kernel)
        a = math.radians(c.motion_angle_deg)
        dx, dy = math.cos(a) * ln / 2, math.sin(a) * ln / 2
        p1 = (round((centre - dx) * 16), round((centre - dy) * 16))
        p2 = (round((centre + dx) * 16), round((centre + dy) * 16))
        cv2.line(line, p1, p2, 1.0, 1, cv2.LINE_AA, 4)
        kernel = cv2.filter2D(kernel, -1, line / line.sum()) if kernel.sum() > 1.5 else line
    kernel /= kernel.sum()
    out = cv2.filter2D(small, -1, kernel, borderType=cv2.BORDER_REFLECT)
    return cv2.resize(out, (w, h), interpolation=cv2.INTER_LINEAR) if reduce > 1 else out


def render(
    scene: Scene, page: np.ndarray | None, raster_scale: float, c: Conditions, rng: np.random.Generator, props: bool = False
) -> np.ndarray:
    """The photo as sRGB uint8 (H, W, 3). ``page`` is the marked page raster (None: no paper at all).

    Light is handled with gamma 2 (square and square root), close to sRGB and cheap at 48 MP; smooth
    fields (light, shadows, the bend's shading) are made at low resolution and scaled up once.
    """
    w, h = scene.size
    page_coarse, table_coarse, _ = scene.inverse_map()
    table_coarse = table_coarse.astype(np.float32)
    # The table, in its own millimetres, at a modest resolution (the lens softens it anyway).
    tx0, ty0 = table_coarse[..., 0].min(), table_coarse[..., 1].min()
    tx1, ty1 = table_coarse[..., 0].max(), table_coarse[..., 1].max()
    extent = max(tx1 - tx0, ty1 - ty0, 1.0)
    t_scale = float(min(4.0, 2500 / extent))
    tshape = (int((ty1 - ty0) * t_scale) + 2, int((tx1 - tx0) * t_scale) + 2)
    texture = table_texture(c.background, rng, tshape, t_scale)
    if props:
        _props(texture, rng, t_scale)
    texture8 = np.clip(np.sqrt(np.clip(texture, 0, 1)) * 255 + 0.5, 0, 255).astype(np.uint8)
    tmap = upsample(table_coarse, scene.size)
    tmap[..., 0] -= tx0
    tmap[..., 1] -= ty0
    tmap *= t_scale
    image8 = cv2.remap(texture8, tmap, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    del tmap
    # The light on everything, at 1/16 of the size: gradient, vignetting, shadows, the page's shadow, the bend.
    sh, sw = page_coarse.shape[:2]
    light = _light_field(rng, (sh, sw), c)
    if page is not None:
        pw, ph = scene.page_mm
        page_map = upsample(page_coarse, scene.size)
        page_map *= raster_scale
        page_map -= 0.5
        paper = cv2.remap(page, page_map, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        del page_map
        # Distance inside the page edge is piecewise linear: made coarse and scaled up, it stays exact but at the corners.
        u, v = page_coarse[..., 0], page_coarse[..., 1]
        edge = np.minimum(np.minimum(u, pw - u), np.minimum(v, ph - v)).astype(np.float32)
        inside = upsample(edge, scene.size) > 0
        cv2.copyTo(paper, inside.view(np.uint8), image8)
        del paper, inside
        if c.thumb:
            _thumb(image8, scene, rng)
        coarse_mask = np.clip(edge * 2 + 0.5, 0, 1).astype(np.float32)
        halo = cv2.GaussianBlur(coarse_mask, (0, 0), max(0.7, 0.005 * max(w, h) / MAP_STEP_PX))
        light *= 1 - 0.5 * np.clip(halo - coarse_mask, 0, 1)
        light *= np.float32(rng.uniform(0.92, 1.0)) * (1 - coarse_mask) + coarse_mask
        if scene.surface.bent:
            light *= _bend_shading(scene, page_coarse, rng) * coarse_mask + (1 - coarse_mask)
    # No phone lens resolves a single pixel: soften everything a little (more on sensors with many small pixels).
    image8 = cv2.GaussianBlur(image8, (0, 0), float(rng.uniform(0.5, 1.0)) * max(1.0, math.sqrt(c.megapixels / 12)))
    image = cv2.LUT(image8, TO_LINEAR)  # to linear light (gamma 2, undone by a square root at the end)
    del image8
    gains, spread = WHITE_BALANCE[c.light]
    gain = np.asarray(gains, np.float32) * (1 + rng.normal(0, spread, 3)).astype(np.float32)
    gain /= gain.max()
    full_light = upsample(light, scene.size)
    image *= full_light[..., None]
    del full_light
    image = cv2.transform(image, np.diag(gain).astype(np.float32))
    if c.glare:
        image += _glare(rng, (w, h))[..., None] * np.float32(rng.uniform(0.4, 1.3))
    image = _blur(image, c)
    image = _sensor(image, c, rng)
    srgb = cv2.convertScaleAbs(cv2.sqrt(image), alpha=255.0)
    if c.sharpen > 0.05:
        soft = cv2.GaussianBlur(srgb, (0, 0), 1.2)
        srgb = cv2.addWeighted(srgb, 1 + c.sharpen, soft, -c.sharpen, 0)
    return srgb


SKIN = ((224, 172, 140), (198, 140, 105), (150, 100, 70), (95, 62, 45), (236, 190, 160))


def _thumb(image8: np.ndarray, scene: Scene, rng: np.random.Generator) -> None:
    """A thumb pressing the middle of one page edge flat: skin, a lighter nail, soft shaded sides."""
    pw, ph = scene.page_mm
    side = int(rng.integers(3))
    t = rng.uniform(0.35, 0.65)
    edge, out = [((0.0, ph * t), (-1.0, 0.0)), ((pw, ph * t), (1.0, 0.0)), ((pw * t, ph), (0.0, 1.0))][side]
    e, n = np.array(edge), np.array(out)
    across = np.array([-n[1], n[0]])
    tip = e - n * rng.uniform(6, 13)
    width = rng.uniform(19, 25)
    # The thumb's outline in page millimetres: a capsule from the tip out past the edge, then projected.
    angles = np.linspace(-math.pi / 2, math.pi / 2, 16)
    cap = [tip + (-n * math.cos(a) + across * math.sin(a)) * width / 2 for a in angles]
    far = e + n * 50  # the thumb widens into the hand
    outline = np.array([*cap, far + across * width * 1.1, far - across * width * 0.9])
    pts = scene.project_page(outline)
    h, w = image8.shape[:2]
    x0, y0 = np.floor(pts.min(axis=0)).astype(int) - 8
    x1, y1 = np.ceil(pts.max(axis=0)).astype(int) + 8
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if x1 <= x0 or y1 <= y0:
        return
    mask = np.zeros((y1 - y0, x1 - x0), np.float32)
    cv2.fillPoly(mask, [np.round((pts - (x0, y0)) * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
    px_per_mm = float(np.linalg.norm(scene.project_page(np.array([tip + across])) - scene.project_page(np.array([tip]))))
    inner = cv2.GaussianBlur(mask, (0, 0), max(1.0, width * 0.25 * px_per_mm))
    ring = np.linspace(0, 2 * math.pi, 20)
    nail_pts = scene.project_page(np.array([tip - n * 1.5 + (-n * math.cos(a) + across * math.sin(a)) * width * 0.3 for a in ring]))
    nail = np.zeros_like(mask)
    cv2.fillPoly(nail, [np.round((nail_pts - (x0, y0)) * 16).astype(np.int32)], 1.0, cv2.LINE_AA, 4)
    nail = cv2.GaussianBlur(nail, (0, 0), max(0.8, 0.6 * px_per_mm))
    skin = np.array(SKIN[int(rng.integers(len(SKIN)))], np.float32)
    colour = skin[None, None, :] * (0.55 + 0.5 * np.clip(inner, 0, 1))[..., None]
    colour = colour * (1 - 0.5 * nail[..., None]) + np.array([235, 205, 195], np.float32) * 0.5 * nail[..., None]
    roi = image8[y0:y1, x0:x1].astype(np.float32)
    a = mask[..., None]
    image8[y0:y1, x0:x1] = np.clip(roi * (1 - a) + colour * a, 0, 255).astype(np.uint8)


def _coarse_mask(page_coarse: np.ndarray, page_mm: tuple[float, float]) -> np.ndarray:
    pw, ph = page_mm
    u, v = page_coarse[..., 0], page_coarse[..., 1]
    inside = (u >= 0) & (u <= pw) & (v >= 0) & (v <= ph)
    return inside.astype(np.float32)


def _light_field(rng: np.random.Generator, shape: tuple[int, int], c: Conditions) -> np.ndarray:
    sh, sw = shape
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    xn, yn = xx / sw - 0.5, yy / sh - 0.5
    angle = rng.uniform(0, 2 * math.pi)
    light = 1 + rng.uniform(0.05, 0.35) * (xn * math.cos(angle) + yn * math.sin(angle)) * 2
    light *= 1 - rng.uniform(0.1, 0.35) * (xn**2 + yn**2) * 2
    if c.shadow:
        light *= 1 - rng.uniform(0.35, 0.65) * _shadow_mask(c.shadow, rng, (sh, sw))
    return light.astype(np.float32)


def _bend_shading(scene: Scene, page_coarse: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Brighter where the bent paper faces the lamp, darker where it turns away."""
    normals = scene.surface.normals()
    elev = math.radians(rng.uniform(35, 80))
    az = rng.uniform(0, 2 * math.pi)
    lamp = np.array([math.cos(elev) * math.cos(az), math.cos(elev) * math.sin(az), math.sin(elev)])
    ambient = 0.45
    shade = (ambient + (1 - ambient) * np.clip(normals @ lamp, 0, 1)) / (ambient + (1 - ambient) * lamp[2])
    shade = shade.astype(np.float32)
    grid = (page_coarse / GRID_MM).astype(np.float32)
    return cv2.remap(shade, grid, None, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _glare(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    w, h = size
    sh, sw = h // 8 + 1, w // 8 + 1
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    cx, cy = rng.uniform(0.2, 0.8) * sw, rng.uniform(0.2, 0.8) * sh
    sx, sy = rng.uniform(0.04, 0.14) * sw, rng.uniform(0.03, 0.1) * sh
    a = rng.uniform(0, math.pi)
    dx, dy = xx - cx, yy - cy
    rx, ry = dx * math.cos(a) + dy * math.sin(a), -dx * math.sin(a) + dy * math.cos(a)
    spot = np.exp(-((rx / sx) ** 2 + (ry / sy) ** 2)) + 0.35 * np.exp(-((rx / (3 * sx)) ** 2 + (ry / (3 * sy)) ** 2))
    return cv2.resize(spot.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)


def _sensor(image: np.ndarray, c: Conditions, rng: np.random.Generator) -> np.ndarray:
    """Auto exposure, shot and read noise (fine in luma, blotchy in chroma), the phone's denoising and colour."""
    h, w = image.shape[:2]
    level = float(np.percentile(image[:: max(1, h // 200), :: max(1, w // 200)], 97))
    target = rng.uniform(0.65, 0.95) if not c.low_light else rng.uniform(0.4, 0.75)
    if c.refuse_cause == "too_dark":
        target = rng.uniform(0.002, 0.006)  # paper white at 11-20 of 255: ink is a few JPEG levels under noise
    image *= np.float32(target / max(level, 1e-4))
    noise_rel = 0.008 / math.sqrt(max(c.exposure, 1e-4))
    if c.refuse_cause == "too_dark":
        noise_rel = max(noise_rel, 0.3)
    gray = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)
    sigma = cv2.sqrt(cv2.max(gray, 0.0) * np.float32(target)) * np.float32(noise_rel)
    luma = _noise_tile(rng, (h, w))
    if c.low_light or c.refuse_cause == "too_dark":
        luma = cv2.GaussianBlur(luma, (0, 0), 0.8) * 1.8  # the phone's denoiser leaves a grainy smear
    small = rng.standard_normal((h // 4 + 1, w // 4 + 1, 3), dtype=np.float32) * 0.6
    chroma = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    chroma += (luma)[..., None]
    chroma *= sigma[..., None]
    image += chroma
    del chroma
    # Phones push saturation a little.
    sat = float(rng.uniform(1.0, 1.25))
    mix = np.full((3, 3), (1 - sat) / 3, np.float32) + np.eye(3, dtype=np.float32) * sat
    image = cv2.transform(image, mix)
    return np.clip(image, 0.0, 1.0, out=image)


_TILE = 2048


@functools.cache
def _noise_source() -> np.ndarray:
    return np.random.default_rng(7).standard_normal((_TILE, _TILE), dtype=np.float32)


def _noise_tile(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    """Unit Gaussian noise: a fixed tile, shifted and flipped by the photo's generator (fresh noise per
    pixel at 48 MP costs more than the rest of the photo)."""
    h, w = shape
    tile = _noise_source()
    tile = np.roll(tile, (int(rng.integers(_TILE)), int(rng.integers(_TILE))), axis=(0, 1))
    if rng.random() < 0.5:
        tile = tile[::-1]
    if rng.random() < 0.5:
        tile = tile[:, ::-1]
    reps = (h // _TILE + 1, w // _TILE + 1)
    return np.ascontiguousarray(np.tile(tile, reps)[:h, :w])


def _props(texture: np.ndarray, rng: np.random.Generator, px_per_mm: float) -> None:
    """Things on the table in a photo of something else: a game box, cards, dice, a mug."""
    h, w = texture.shape[:2]
    for _ in range(int(rng.integers(2, 6))):
        colour = rng.uniform(0.02, 0.8, 3).astype(np.float32)
        cx, cy = rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h
        size = rng.uniform(20, 160) * px_per_mm
        if rng.random() < 0.5:
            box = cv2.boxPoints(((cx, cy), (size, size * rng.uniform(0.5, 1.5)), float(rng.uniform(0, 90))))
            cv2.fillPoly(texture, [np.round(box).astype(np.int32)], colour.tolist(), cv2.LINE_AA)
        else:
            cv2.circle(texture, (int(cx), int(cy)), int(size / 2), colour.tolist(), -1, cv2.LINE_AA)
            cv2.circle(texture, (int(cx), int(cy)), int(size / 2.6), (colour * 0.5).tolist(), -1, cv2.LINE_AA)


def encode(image: np.ndarray, c: Conditions, rng: np.random.Generator) -> bytes:
    """JPEG bytes; a photo sent through a messenger is shrunk and compressed a second time."""
    bgr = np.ascontiguousarray(image[:, :, ::-1])
    ok, data = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, c.jpeg_quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    if c.messenger:
        decoded = cv2.imdecode(data, cv2.IMREAD_COLOR)
        h, w = decoded.shape[:2]
        factor = min(1.0, 1600 / max(h, w))
        if factor < 1.0:
            decoded = cv2.resize(decoded, (int(w * factor), int(h * factor)), interpolation=cv2.INTER_AREA)
        ok, data = cv2.imencode(".jpg", decoded, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(55, 80))])
    return bytes(data)
