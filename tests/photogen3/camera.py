"""The photo: paper shape, a pinhole phone camera, the table, the light and the phone's processing.

Geometry is physical: the page lies on the table plane (z = 0, page millimetres, x right, y down the
page) and bends as an inextensible sheet (a bow across one axis, a curl at one edge or corner), so a
lifted part both rises towards the camera and pulls in.  A pinhole camera at a distance, tilt and roll
looks at it.  Each output pixel is traced back to the page (or the table) through the inverse of that map.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from .conditions import Conditions

GRID_MM = 2.0
"""Spacing of the page grid the bend is computed on."""
MAP_STEP_PX = 8
"""The inverse map is solved every this many output pixels and interpolated between."""


# --------------------------------------------------------------------------- the bent page


def _profile(length: float, theta: np.ndarray, anchor: float, step: float) -> tuple[np.ndarray, np.ndarray]:
    """In-plane position and height along a bent strip, from its bend angle at each sample (arc length)."""
    n = len(theta)
    cos, sin = np.cos(theta), np.sin(theta)
    s = np.concatenate([[0.0], np.cumsum((cos[1:] + cos[:-1]) / 2 * step)])
    h = np.concatenate([[0.0], np.cumsum((sin[1:] + sin[:-1]) / 2 * step)])
    a = min(n - 1, max(0, round(anchor / step)))
    s = s - s[a] + a * step
    h = h - h.min()
    return s, h


@dataclass
class Surface:
    """The page's shape: for each page grid point, where it lies in 3-D (table millimetres)."""

    page_mm: tuple[float, float]
    xyz: np.ndarray
    """(rows, cols, 3) on the grid ``GRID_MM`` apart, row = y."""
    bent: bool

    @classmethod
    def make(cls, page_mm: tuple[float, float], c: Conditions, rng: np.random.Generator) -> Surface:
        w, h = page_mm
        xs = np.arange(0, w + GRID_MM, GRID_MM)
        ys = np.arange(0, h + GRID_MM, GRID_MM)
        gx, gy = np.meshgrid(xs, ys)
        xyz = np.stack([gx, gy, np.zeros_like(gx)], axis=-1)
        if c.bow_mm:
            along_x = rng.random() < 0.5
            length = w if along_x else h
            t = np.arange(0, length + GRID_MM, GRID_MM)
            # A parabolic bow: the slope of h = A (1 - (2t/L - 1)^2) is -4A (2t/L - 1) / L.
            theta = np.arctan(-4 * c.bow_mm * (2 * t / length - 1) / length)
            # A > 0 is a hump (the edges on the table), A < 0 a valley (the middle on it): _profile puts the lowest at 0.
            s, lift = _profile(length, theta, length / 2, GRID_MM)
            coord = gx if along_x else gy
            xyz[..., 0 if along_x else 1] = np.interp(coord, t, s)
            xyz[..., 2] += np.interp(coord, t, lift)
        if c.curl_mm:
            # Curl an edge or a corner: bending starts some way in and grows towards the edge.
            angle = rng.choice([0, 90, 180, 270]) + (rng.choice([0, 45]) if rng.random() < 0.4 else 0)
            d = np.array([math.cos(math.radians(angle)), math.sin(math.radians(angle))])
            proj = gx * d[0] + gy * d[1]
            lo, hi = float(proj.min()), float(proj.max())
            span = rng.uniform(30, 90)
            start = hi - span
            t = np.arange(lo, hi + GRID_MM, GRID_MM)
            u = np.clip((t - start) / span, 0, None)
            power = rng.uniform(1.5, 2.5)
            theta_max = min(1.2, c.curl_mm * (power + 1) / span)
            theta = theta_max * u**power
            s, lift = _profile(hi - lo, theta, 0.0, GRID_MM)
            moved = np.interp(proj, t, s + lo) - proj
            xyz[..., 0] += moved * d[0]
            xyz[..., 1] += moved * d[1]
            xyz[..., 2] += np.interp(proj, t, lift)
        return cls(page_mm, xyz, bool(c.bow_mm or c.curl_mm))

    def at(self, points_mm: np.ndarray) -> np.ndarray:
        """3-D positions of page points (bilinear on the grid)."""
        pts = np.asarray(points_mm, dtype=np.float64).reshape(-1, 2) / GRID_MM
        rows, cols = self.xyz.shape[:2]
        x = np.clip(pts[:, 0], 0, cols - 1.000001)
        y = np.clip(pts[:, 1], 0, rows - 1.000001)
        x0, y0 = np.floor(x).astype(int), np.floor(y).astype(int)
        fx, fy = (x - x0)[:, None], (y - y0)[:, None]
        g = self.xyz
        top = g[y0, x0] * (1 - fx) + g[y0, x0 + 1] * fx
        bottom = g[y0 + 1, x0] * (1 - fx) + g[y0 + 1, x0 + 1] * fx
        out = top * (1 - fy) + bottom * fy
        # Beyond the page (only asked for while framing), extend the plane flatly.
        out[:, 0] += (pts[:, 0] - x) * GRID_MM
        out[:, 1] += (pts[:, 1] - y) * GRID_MM
        return out

    def normals(self) -> np.ndarray:
        z = self.xyz[..., 2]
        gy, gx = np.gradient(z, GRID_MM)
        n = np.stack([-gx, -gy, np.ones_like(z)], axis=-1)
        return n / np.linalg.norm(n, axis=-1, keepdims=True)


# --------------------------------------------------------------------------- the camera


@dataclass
class Camera:
    rotation: np.ndarray
    """Rows: the image's right, down and forward axes in table coordinates."""
    position: np.ndarray
    focal_px: float
    centre_px: np.ndarray

    def project(self, xyz: np.ndarray) -> np.ndarray:
        cam = (np.asarray(xyz, dtype=np.float64) - self.position) @ self.rotation.T
        z = np.maximum(cam[:, 2], 1e-6)
        return np.stack([cam[:, 0] / z, cam[:, 1] / z], axis=1) * self.focal_px + self.centre_px

    @classmethod
    def aim(
        cls,
        target: np.ndarray,
        distance: float,
        tilt_deg: float,
        azimuth_deg: float,
        roll_deg: float,
        focal_px: float,
        size: tuple[int, int],
    ) -> Camera:
        t, a = math.radians(tilt_deg), math.radians(azimuth_deg)
        direction = np.array([math.sin(t) * math.cos(a), math.sin(t) * math.sin(a), math.cos(t)])
        position = np.asarray(target, dtype=np.float64) + distance * direction
        forward = -direction
        down = np.array([0.0, 1.0, 0.0]) - forward[1] * forward
        if np.linalg.norm(down) < 1e-6:
            down = np.array([1.0, 0.0, 0.0]) - forward[0] * forward
        down /= np.linalg.norm(down)
        right = np.cross(forward, down)
        r = math.radians(roll_deg)
        right, down = math.cos(r) * right + math.sin(r) * down, -math.sin(r) * right + math.cos(r) * down
        rotation = np.stack([right, down, forward])
        return cls(rotation, position, focal_px, np.array([size[0] / 2, size[1] / 2]))


def image_size(c: Conditions) -> tuple[int, int]:
    pixels = c.megapixels * 1e6
    long = int(math.sqrt(pixels * c.aspect))
    short = int(pixels // long)
    return (short, long) if c.portrait else (long, short)


# --------------------------------------------------------------------------- the scene


@dataclass
class Scene:
    """Where the page lands in the photo."""

    size: tuple[int, int]
    surface: Surface
    camera: Camera
    page_mm: tuple[float, float]

    def project_page(self, points_mm: np.ndarray) -> np.ndarray:
        return self.camera.project(self.surface.at(points_mm))

    def flat_homography(self) -> np.ndarray:
        """Page millimetres -> image pixels if the page lay flat."""
        w, h = self.page_mm
        corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64)
        flat = np.concatenate([corners, np.zeros((4, 1))], axis=1)
        return cv2.getPerspectiveTransform(corners.astype(np.float32), self.camera.project(flat).astype(np.float32))

    def visible_fraction(self, region_mm: tuple[float, float, float, float]) -> float:
        x0, y0, x1, y1 = region_mm
        gx, gy = np.meshgrid(np.linspace(x0, x1, 24), np.linspace(y0, y1, 24))
        q = self.project_page(np.stack([gx.ravel(), gy.ravel()], axis=1))
        w, h = self.size
        inside = (q[:, 0] >= 0) & (q[:, 0] < w) & (q[:, 1] >= 0) & (q[:, 1] < h)
        return float(inside.mean())

    def inside(self, points_mm: np.ndarray, margin: float = 0.0) -> np.ndarray:
        q = self.project_page(points_mm)
        w, h = self.size
        return (q[:, 0] >= margin) & (q[:, 0] < w - margin) & (q[:, 1] >= margin) & (q[:, 1] < h - margin)

    def inverse_map(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For every output pixel: the page point seen there (page mm) and the table point under it, if flat."""
        w, h = self.size
        step = MAP_STEP_PX
        qx, qy = np.meshgrid(np.arange(0, w + step, step, dtype=np.float64), np.arange(0, h + step, step, dtype=np.float64))
        q = np.stack([qx.ravel(), qy.ravel()], axis=1)
        hf = self.flat_homography()
        hinv = np.linalg.inv(hf)
        table = _apply(hinv, q)
        # Residual of the bend on the page grid: where a point really lands minus where flat would put it.
        grid = self.surface.xyz
        rows, cols = grid.shape[:2]
        page_pts = np.stack(np.meshgrid(np.arange(cols) * GRID_MM, np.arange(rows) * GRID_MM), axis=-1).reshape(-1, 2)
        if self.surface.bent:
            real = self.camera.project(grid.reshape(-1, 3))
            resid = (real - _apply(hf, page_pts)).reshape(rows, cols, 2).astype(np.float32)
            p = table.copy()
            for k in range(12):
                mx = (p[:, 0] / GRID_MM).astype(np.float32).reshape(qx.shape)
                my = (p[:, 1] / GRID_MM).astype(np.float32).reshape(qx.shape)
                r = cv2.remap(resid, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).reshape(-1, 2)
                # Damped after the first steps: a steep curl makes the plain fixed point overshoot and zigzag.
                p = _apply(hinv, q - r) if k < 3 else 0.4 * p + 0.6 * _apply(hinv, q - r)
        else:
            p = table
        shape = qx.shape
        return p.reshape(*shape, 2), table.reshape(*shape, 2), np.array([step])


def _apply(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    ones = np.ones((len(pts), 1))
    v = np.concatenate([pts, ones], axis=1) @ h.T
    return v[:, :2] / v[:, 2:3]


def upsample(coarse: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """A coarse map (every MAP_STEP_PX) to every pixel."""
    w, h = size
    step = MAP_STEP_PX
    rows, cols = coarse.shape[:2]
    big = cv2.resize(coarse.astype(np.float32), ((cols - 1) * step + 1, (rows - 1) * step + 1), interpolation=cv2.INTER_LINEAR)
    return big[:h, :w]


def place(
    c: Conditions,
    page_mm: tuple[float, float],
    surface: Surface,
    rng: np.random.Generator,
    markers_mm: np.ndarray | None,
    garden_mm: tuple[float, float, float, float] | None,
) -> Scene:
    """Aim the camera as the conditions say; for the framing refusals, aim it so the cause really holds."""
    size = image_size(c)
    w_px, h_px = size
    focal = (max(size) / 2) / math.tan(math.radians(c.hfov_deg) / 2)
    page_w, page_h = page_mm
    centre = np.array([page_w / 2, page_h / 2, 0.0]) + np.array([rng.normal(0, 8), rng.normal(0, 8), 0.0])
    fill, roll = c.fill, c.roll_deg
    if c.refuse_cause == "marker_out_of_frame":
        fill = rng.uniform(0.95, 1.12)
        roll += rng.choice([-1, 1]) * rng.uniform(4, 14)
    elif c.refuse_cause == "cut_off":
        fill = rng.uniform(1.0, 1.8)
    distance = 500.0
    corners = np.array([[0, 0], [page_w, 0], [page_w, page_h], [0, page_h]], dtype=np.float64)
    for _ in range(4):
        camera = Camera.aim(centre, distance, c.tilt_deg, c.azimuth_deg, roll, focal, size)
        scene = Scene(size, surface, camera, page_mm)
        q = scene.project_page(corners)
        bw, bh = np.ptp(q[:, 0]), np.ptp(q[:, 1])
        scale = fill * min(w_px / bw, h_px / bh)
        distance /= scale
    camera = Camera.aim(centre, distance, c.tilt_deg, c.azimuth_deg, roll, focal, size)
    scene = Scene(size, surface, camera, page_mm)
    q = scene.project_page(corners)
    # Centre the page, then move it by part of the slack (people rarely centre exactly).
    shift = np.array([w_px / 2, h_px / 2]) - (q.min(axis=0) + q.max(axis=0)) / 2
    slack = np.maximum(0, np.array([w_px, h_px]) - np.ptp(q, axis=0)) / 2
    shift += rng.uniform(-0.7, 0.7, 2) * slack
    camera.centre_px = camera.centre_px + shift
    if c.refuse_cause == "marker_out_of_frame" and markers_mm is not None and garden_mm is not None:
        _push_marker_out(scene, rng, markers_mm, garden_mm)
    elif c.refuse_cause == "cut_off":
        _cut_off(scene, rng)
    return scene


def _push_marker_out(scene: Scene, rng: np.random.Generator, markers_mm: np.ndarray, garden_mm: tuple[float, float, float, float]) -> None:
    """Slide (and if need be zoom) the framing until one or two corner markers are wholly outside while the garden stays in."""
    cam = scene.camera
    base = cam.centre_px.copy()
    for _ in range(8):
        best: tuple[float, np.ndarray] | None = None
        for k in rng.permutation(len(markers_mm)):
            for angle in rng.uniform(0, 2 * math.pi) + np.linspace(0, 2 * math.pi, 24, endpoint=False):
                direction = np.array([math.cos(angle), math.sin(angle)])
                for magnitude in np.linspace(0.0, 0.5, 51) * max(scene.size):
                    cam.centre_px = base + direction * magnitude
                    if scene.inside(markers_mm[k]).any():
                        continue
                    out = sum(not scene.inside(m).any() for m in markers_mm)
                    wholly_in = sum(bool(scene.inside(m).all()) for m in markers_mm)
                    closer = best is None or magnitude < best[0]
                    if closer and out <= 2 and wholly_in == 4 - out and scene.visible_fraction(garden_mm) > 0.9:
                        best = (magnitude, cam.centre_px.copy())
                    break
            if best is not None:
                cam.centre_px = best[1]
                return
        cam.focal_px *= 1.08  # framed tighter: a corner gets out sooner
        cam.centre_px = base
    raise AssertionError("could not frame a photo with a corner marker out of frame")


def _cut_off(scene: Scene, rng: np.random.Generator) -> None:
    """Slide the framing so that only a quarter to a half of the page is in the photo."""
    cam = scene.camera
    base = cam.centre_px.copy()
    angle = rng.uniform(0, 2 * math.pi)
    direction = np.array([math.cos(angle), math.sin(angle)])
    target = rng.uniform(0.2, 0.45)
    page = (0.0, 0.0, *scene.page_mm)
    lo, hi = 0.0, 1.5 * max(scene.size)
    for _ in range(20):
        mid = (lo + hi) / 2
        cam.centre_px = base + direction * mid
        if scene.visible_fraction(page) > target:
            lo = mid
        else:
            hi = mid
    cam.centre_px = base + direction * hi
