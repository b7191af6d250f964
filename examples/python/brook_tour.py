#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
"""A tour of Brook from Python, cell by cell: SAXPY, Segment's update and a reduction, each
checked against NumPy. Run it from a build tree with

    PYTHONPATH=build/python python3 examples/python/brook_tour.py

on the backend BRT_RUNTIME names (cpu by default; gl, vulkan, cuda where they start)."""

import sys

import numpy as np

import brook

# %% Kernels come from a string (or a .br file): brook.compile translates them with brcc's front
# end and builds every backend's code once; a second run of this script finds the build cached.
prog = brook.compile("""
kernel void saxpy(float a, float x<>, float y<>, out float r<>) {
    r = a * x + y;
}

reduce void sum(float v<>, reduce float s<>) {
    s += v;
}

// Segment's iteration (examples/segment.br): each pixel holds (intensity, level); the level
// diffuses in from the four neighbours with the Perona-Malik conductance, only where the
// intensity lies in the seed's window, and a pixel at 1/2 or more joins the region.
kernel float conductance(float difference, float inverse_k2) {
    return 1.0 / (1.0 + difference * difference * inverse_k2);
}

kernel float2 diffuse(float2 centre, float2 up, float2 down, float2 left, float2 right, float low,
                      float high, float inverse_k2, float rate) {
    float flux = conductance(up.x - centre.x, inverse_k2) * (up.y - centre.y) +
                 conductance(down.x - centre.x, inverse_k2) * (down.y - centre.y) +
                 conductance(left.x - centre.x, inverse_k2) * (left.y - centre.y) +
                 conductance(right.x - centre.x, inverse_k2) * (right.y - centre.y);
    float level = centre.y >= 0.5 ? 1.0 : saturate(centre.y + rate * flux);
    bool inside = centre.x >= low && centre.x <= high;
    return float2(centre.x, inside ? level : 0.0);
}

kernel void evolve(float2 pixels[][], float low, float high, float inverse_k2, float rate,
                   out float2 next<>) {
    int2 p = int2(indexof(next).xy);
    next = diffuse(pixels[p], pixels[p - int2(0, 1)], pixels[p + int2(0, 1)],
                   pixels[p - int2(1, 0)], pixels[p + int2(1, 0)], low, high, inverse_k2, rate);
}
""")
print(f"backend: {brook.backend_name()}")
failures = 0


def check(name, got, expected, tolerance):
    global failures
    error = float(np.max(np.abs(np.asarray(got, np.float64) - expected)))
    ok = error <= tolerance
    failures += not ok
    print(f"{name}: largest difference from NumPy {error:.3g} -> {'OK' if ok else 'WRONG'}")


# %% SAXPY on NumPy arrays: the result is a new array of the inputs' shape.
rng = np.random.default_rng(1)
x = rng.standard_normal((512, 512), dtype=np.float32)
y = rng.standard_normal((512, 512), dtype=np.float32)
r = prog.saxpy(2.0, x, y)
check("saxpy", r, 2.0 * x.astype(np.float64) + y, 1e-5)

# %% A reduction to one value returns a Python float.
total = prog.sum(r)
check("sum", total, r.astype(np.float64).sum(), 1e-2)

# %% Segment: the image stays on the backend between iterations as brook.streams; a float32
# array of shape (rows, columns, 2) is a stream of float2.
size, iterations = 96, 60
rows, columns = np.mgrid[0:size, 0:size]
intensity = np.where((rows - 40) ** 2 + (columns - 50) ** 2 < 30 ** 2, 0.6, 0.2)
image = np.stack([intensity, np.zeros_like(intensity)], axis=-1).astype(np.float32)
image[36:45, 46:55, 1] = 1.0  # the seed
low, high, inverse_k2, rate = 0.5, 0.7, 1.0 / 0.01, 0.2
current, following = brook.stream(image), brook.stream(shape=(size, size), type="float2")
for _ in range(iterations):
    prog.evolve(current, low, high, inverse_k2, rate, out=following)
    current, following = following, current


def diffuse_numpy(pixels):
    """The same iteration in NumPy: gathers clamp at the border, so an edge pixel is its own
    missing neighbour."""
    padded = np.pad(pixels, ((1, 1), (1, 1), (0, 0)), mode="edge")
    centre = pixels
    flux = 0.0
    for shifted in (padded[:-2, 1:-1], padded[2:, 1:-1], padded[1:-1, :-2], padded[1:-1, 2:]):
        difference = shifted[..., 0] - centre[..., 0]
        flux = flux + (shifted[..., 1] - centre[..., 1]) / (1.0 + difference ** 2 * inverse_k2)
    level = np.where(centre[..., 1] >= 0.5, 1.0, np.clip(centre[..., 1] + rate * flux, 0.0, 1.0))
    inside = (centre[..., 0] >= low) & (centre[..., 0] <= high)
    return np.stack([centre[..., 0], np.where(inside, level, 0.0)], axis=-1)


expected = image.astype(np.float64)
for _ in range(iterations):
    expected = diffuse_numpy(expected)
segmented = current.numpy()
check("segment", segmented, expected, 1e-3)
print(f"segment: {int((segmented[..., 1] >= 0.5).sum())} of {size * size} pixels in the region "
      f"after {iterations} iterations")
sys.exit(1 if failures else 0)
