"""Paper that is not flat, and a pinhole camera with lens distortion that photographs it.

World coordinates are millimetres: X and Y on the table (the unbent paper's x and y), Z pointing
*into* the table, so the paper's lifted points have Z < 0 and the camera sits at Z < 0 looking
toward +Z.  Bending is developable (like real paper): along one axis the sheet follows a curve
parametrised by arc length, so printed distances along the paper are kept.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Bend:
    """The paper's shape: along ``axis`` (0 = x, 1 = y) arc length ``s`` maps to table position ``x`` and lift ``z`` (mm)."""

    axis: int
    length_mm: float
    other_mm: float
    s: np.ndarray
    x: np.ndarray
    z: np.ndarray

    @property
    def max_lift_mm(self) -> float:
        return float(self.z.max())

    def world(self, paper_xy: np.ndarray) -> np.ndarray:
        """Paper points (N, 2) in page mm to world points (N, 3)."""
        along = paper_xy[:, self.axis]
        across = paper_xy[:, 1 - self.axis]
        out = np.empty((len(paper_xy), 3))
        out[:, self.axis] = np.interp(along, self.s, self.x)
        out[:, 1 - self.axis] = across
        out[:, 2] = -np.interp(along, self.s, self.z)
        return out

    def lift_at(self, world_along: np.ndarray) -> np.ndarray:
        # Past its edges the surface is continued at the edge's height, so rays just beside a lifted
        # edge land just outside the paper (and then on the table), not on a cliff that jags the outline.
        return np.interp(world_along, self.x, self.z)

    def paper_along(self, world_along: np.ndarray) -> np.ndarray:
        # Beyond the paper, continue at slope 1 so that interpolating between samples keeps the edge straight.
        inside = np.interp(world_along, self.x, self.s)
        return inside + np.minimum(world_along - self.x[0], 0) + np.maximum(world_along - self.x[-1], 0)

    def slope_at(self, world_along: np.ndarray) -> np.ndarray:
        dz = np.gradient(self.z, self.x)
        return np.interp(world_along, self.x, dz, left=0.0, right=0.0)


def bend(kind: str, size_mm: tuple[float, float], lift_mm: float, rng: np.random.Generator) -> Bend:
    """``flat``, ``curl`` (one edge lifts over its last 40-90 mm) or ``bow`` (middle up or both edges up)."""
    axis = int(rng.integers(0, 2))
    length, other = size_mm[axis], size_mm[1 - axis]
    s = np.arange(0.0, length + 0.25, 0.25)
    if kind == "flat" or lift_mm <= 0:
        return Bend(axis, length, other, s, s.copy(), np.zeros_like(s))
    if kind == "curl":
        curl = min(rng.uniform(40, 90) + 2.5 * lift_mm, length * 0.6)
        # Constant curvature over the curled end, chosen so that it lifts by lift_mm.
        lo, hi = 1e-6, np.pi / 2 / curl
        for _ in range(60):
            k = (lo + hi) / 2
            lo, hi = (k, hi) if (1 - np.cos(k * curl)) / k < lift_mm else (lo, k)
        start = length - curl
        theta = np.clip(s - start, 0, None) * k
        dz = np.sin(theta)
        z = np.cumsum(dz) * 0.25
        z -= z[0]
        if rng.random() < 0.5:  # the near edge curls instead of the far one
            z = z[::-1].copy()
    else:
        t = s / length
        z = lift_mm * np.sin(np.pi * t) if rng.random() < 0.5 else lift_mm * (2 * t - 1) ** 2
    dzds = np.gradient(z, s)
    x = np.concatenate([[0.0], np.cumsum(np.sqrt(np.clip(1 - dzds**2, 0.05, 1))[1:] * 0.25)])
    return Bend(axis, length, other, s, x, z)


def _rotation(axis: np.ndarray, angle: float) -> np.ndarray:
    rot, _ = cv2.Rodrigues((np.asarray(axis, dtype=np.float64) * angle).reshape(3, 1))
    return np.asarray(rot)


@dataclass(frozen=True)
class Camera:
    """A pinhole camera: world-to-camera rotation ``r``, centre ``c`` (mm), focal length ``f`` (px), radial distortion k1, k2."""

    r: np.ndarray
    c: np.ndarray
    f: float
    width: int
    height: int
    k1: float
    k2: float

    @staticmethod
    def looking_at(
        target: np.ndarray,
        distance: float,
        tilt: float,
        azimuth: float,
        roll: float,
        f: float,
        size: tuple[int, int],
        k: tuple[float, float],
    ) -> Camera:
        tilt_axis = np.array([np.cos(azimuth), np.sin(azimuth), 0.0])
        r_wc = _rotation(tilt_axis, tilt) @ _rotation(np.array([0.0, 0.0, 1.0]), roll)
        forward = r_wc @ np.array([0.0, 0.0, 1.0])
        return Camera(r_wc.T, target - distance * forward, f, size[0], size[1], k[0], k[1])

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points (N, 3) to distorted pixel positions (N, 2)."""
        pc = (points - self.c) @ self.r.T
        x, y = pc[:, 0] / pc[:, 2], pc[:, 1] / pc[:, 2]
        r2 = x * x + y * y
        d = 1 + self.k1 * r2 + self.k2 * r2 * r2
        return np.stack([self.f * x * d + self.width / 2, self.f * y * d + self.height / 2], axis=1)

    def rays(self, u: np.ndarray, v: np.ndarray) -> np.ndarray:
        """World directions (…, 3) of the rays through pixels (u, v), undoing the distortion."""
        xd, yd = (u - self.width / 2) / self.f, (v - self.height / 2) / self.f
        x, y = xd.copy(), yd.copy()
        for _ in range(8):
            r2 = x * x + y * y
            d = 1 + self.k1 * r2 + self.k2 * r2 * r2
            x, y = xd / d, yd / d
        cam = np.stack([x, y, np.ones_like(x)], axis=-1)
        return cam @ self.r  # r is world-to-camera, so rows of r map back


@dataclass(frozen=True)
class Hits:
    """Where each sampled pixel's ray lands: on the paper (page mm, with a shading factor) and on the table (mm)."""

    paper_xy: np.ndarray
    on_paper: np.ndarray
    shade: np.ndarray
    table_xy: np.ndarray


def trace(camera: Camera, paper: Bend, u: np.ndarray, v: np.ndarray, light_tilt: float) -> Hits:
    """Intersect the rays through (u, v) with the paper's surface (fixed-point iteration on its height) and the table."""
    d = camera.rays(u, v)
    c = camera.c
    t_table = (0.0 - c[2]) / d[..., 2]
    table = c[:2] + t_table[..., None] * d[..., :2]
    lift = np.zeros(u.shape)
    point = table
    for _ in range(10):
        t = (-lift - c[2]) / d[..., 2]
        point = c[:2] + t[..., None] * d[..., :2]
        lift = 0.5 * lift + 0.5 * paper.lift_at(point[..., paper.axis])
    along = paper.paper_along(point[..., paper.axis])
    across = point[..., 1 - paper.axis]
    paper_xy = np.empty_like(point)
    paper_xy[..., paper.axis] = along
    paper_xy[..., 1 - paper.axis] = across
    size = (paper.length_mm, paper.other_mm) if paper.axis == 0 else (paper.other_mm, paper.length_mm)
    on = (paper_xy[..., 0] >= 0) & (paper_xy[..., 0] <= size[0]) & (paper_xy[..., 1] >= 0) & (paper_xy[..., 1] <= size[1])
    # Lambert shading of the bent paper under a light tilted along the bend.
    slope = paper.slope_at(point[..., paper.axis])
    theta = np.arctan(slope)
    shade = np.clip(np.cos(theta - light_tilt) / np.cos(light_tilt), 0.6, 1.15)
    return Hits(paper_xy, on, shade.astype(np.float32), table)
