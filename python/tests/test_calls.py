# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
"""Kernel calls: constants, outputs, gathers, reductions, structs, variable outputs, threads,
each result compared with NumPy's."""

import os
import threading

import numpy as np
import pytest

import brook

RNG = np.random.default_rng(11)


def floats(*shape):
    return RNG.standard_normal(shape).astype(np.float32)


def test_saxpy_against_numpy(prog):
    x, y = floats(64, 48), floats(64, 48)
    np.testing.assert_allclose(prog.saxpy(2.5, x, y), 2.5 * x + y, rtol=1e-5, atol=1e-6)


def test_outputs_in_place_are_the_arrays_returned(prog):
    x, y = floats(100), floats(100)
    r = np.empty(100, dtype=np.float32)
    assert prog.saxpy(-1.0, x, y, out=r) is r
    np.testing.assert_allclose(r, y - x, rtol=1e-5, atol=1e-6)
    # C++'s order: every parameter, outputs included.
    r2 = np.empty(100, dtype=np.float32)
    prog.saxpy(-1.0, x, y, r2)
    np.testing.assert_array_equal(r2, r)


def test_an_output_that_is_also_an_input(prog):
    x, y = floats(50), floats(50)
    expected = prog.saxpy(2.0, x, y)
    assert prog.saxpy(2.0, x, y, out=x) is x
    np.testing.assert_array_equal(x, expected)


def test_a_call_that_writes_what_it_gathers(prog):
    speed, phi = floats(20, 16), floats(20, 16)
    expected = prog.segment_update(speed, phi)
    prog.segment_update(speed, phi, out=phi)
    np.testing.assert_array_equal(phi, expected)


def test_arguments_by_name(prog):
    x, y = floats(10), floats(10)
    np.testing.assert_allclose(prog.saxpy(y=y, x=x, a=3.0), 3.0 * x + y, rtol=1e-5, atol=1e-6)


def test_constants_of_every_kind(prog):
    x = floats(9, 4)
    np.testing.assert_allclose(prog.scale4((1, 2, 3, 4), x), x * [1, 2, 3, 4], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(prog.scale4(np.array([0, 1, 0, 1], np.float32), x),
                               x * [0, 1, 0, 1])
    ints = np.arange(-5, 5, dtype=np.int32)
    np.testing.assert_array_equal(prog.add_int(7, ints), ints + 7)
    np.testing.assert_array_equal(prog.add_int(np.int64(-2), ints), ints - 2)
    np.testing.assert_array_equal(prog.choose(True, x[:, 0]), -x[:, 0])
    np.testing.assert_array_equal(prog.choose(False, x[:, 0]), x[:, 0])


def test_several_outputs(prog):
    v = floats(20, 4)
    low, high = prog.split(v)
    np.testing.assert_allclose(low, v[:, 0] + v[:, 1], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(high, v[:, 2] + v[:, 3], rtol=1e-5, atol=1e-6)
    a, b = np.empty(20, np.float32), np.empty(20, np.float32)
    assert prog.split(v, out=(a, b)) == (a, b)
    np.testing.assert_array_equal(a, low)


def test_an_output_domain_from_shape(prog):
    r = prog.position(shape=(3, 5))
    rows, columns = np.mgrid[0:3, 0:5]
    np.testing.assert_array_equal(r[..., 0], columns)
    np.testing.assert_array_equal(r[..., 1], rows)


def test_gathers(prog):
    table = floats(7, 9)
    at = np.array([[0, 0], [8, 6], [3, 2], [4.9, 1.1]], dtype=np.float32)  # (column, row)
    expected = [table[0, 0], table[6, 8], table[2, 3], table[1, 5]]
    np.testing.assert_array_equal(prog.pick(at, table), expected)


def test_sgemv_against_numpy(prog):
    m, x = floats(48, 32), floats(32)
    y = prog.sgemv(32.0, m, x, shape=(48,))
    np.testing.assert_allclose(y, m @ x, rtol=1e-4, atol=1e-4)


def test_reductions_to_values(prog):
    x = floats(300, 7)
    total = prog.sum(x)
    assert isinstance(total, float)
    assert total == pytest.approx(float(x.sum(dtype=np.float64)), rel=1e-4, abs=1e-3)
    assert prog.biggest(x) == x.max()
    v = floats(64, 4)
    np.testing.assert_allclose(prog.sum4(v), v.sum(axis=0), rtol=1e-4, atol=1e-4)
    ints = np.arange(1000, dtype=np.int32)
    assert prog.total(ints) == 499500
    assert isinstance(prog.total(ints), int)


def test_reductions_to_streams(prog):
    x = floats(8, 12)
    blocks = x.reshape(2, 4, 3, 4).sum(axis=(1, 3))
    np.testing.assert_allclose(prog.sum(x, shape=(2, 3)), blocks, rtol=1e-4, atol=1e-4)
    out = np.empty((2, 3), dtype=np.float32)
    assert prog.sum(x, out=out) is out
    np.testing.assert_allclose(out, blocks, rtol=1e-4, atol=1e-4)


def test_structs(prog):
    particle = prog.dtype("Particle")
    assert particle.itemsize == 16
    assert particle.names == ("position", "mass")  # the struct's own member names
    p = np.zeros(10, dtype=particle)
    p["position"] = floats(10, 3)
    p["mass"] = np.arange(10, dtype=np.float32)
    q = prog.drift(p, (1.0, 0.0, -1.0), 0.5)
    assert q.dtype == particle
    position, mass = particle.names
    np.testing.assert_allclose(q[position], p[position] + [0.5, 0.0, -0.5], rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(q[mass], p[mass])
    extra = np.zeros((), dtype=particle)
    extra[mass] = 100.0
    np.testing.assert_array_equal(prog.weigh(p, extra), p[mass] + 100.0)
    np.testing.assert_array_equal(prog.weigh(p, ((0, 0, 0), 1.0)), p[mass] + 1.0)
    heaviest = prog.heaviest(p)
    assert heaviest[mass] == 9.0
    np.testing.assert_array_equal(heaviest[position], p[9][position])


def test_nested_structs(prog):
    labelled = prog.dtype("Labelled")
    assert labelled.names == ("box.low", "box.high", "label")
    b = np.zeros(6, dtype=labelled)
    b["box.low"] = floats(6, 2)
    b["box.high"] = b["box.low"] + 1.0
    b["label"] = np.arange(6)
    r = prog.widen(b, 0.5)
    np.testing.assert_allclose(r["box.low"], b["box.low"] - 0.5, rtol=1e-6)
    np.testing.assert_allclose(r["box.high"], b["box.high"] + 0.5, rtol=1e-6)
    np.testing.assert_array_equal(r["label"], b["label"] + 1)


def test_a_struct_array_of_the_same_layout_under_other_names(prog):
    mine = np.dtype([("where", np.float32, (3,)), ("weight", np.float32)])
    p = np.zeros(4, dtype=mine)
    p["weight"] = [1, 2, 3, 4]
    np.testing.assert_array_equal(prog.weigh(p, ((0, 0, 0), 0.5)), [1.5, 2.5, 3.5, 4.5])


def test_a_variable_output(prog):
    x = floats(500)
    np.testing.assert_array_equal(prog.positives(x), x[x > 0])
    none = prog.positives(-np.ones(8, np.float32))
    assert none.shape == (0,)
    kept = brook.stream(shape=(1,), type="float")
    assert prog.positives(np.array([1, -1, 2], np.float32), out=kept) is kept
    np.testing.assert_array_equal(kept.numpy(), [1, 2])


def segment_step(speed, phi):
    """Segment's update in NumPy: gathers clamp to the edge."""
    padded = np.pad(phi, 1, mode="edge")
    neighbours = padded[:-2, 1:-1] + padded[2:, 1:-1] + padded[1:-1, :-2] + padded[1:-1, 2:]
    return phi + 0.25 * speed * (neighbours - 4.0 * phi)


def test_segment_update_against_numpy(prog):
    speed, phi = floats(40, 30), floats(40, 30)
    phi_stream = brook.stream(phi)
    expected = phi
    for _ in range(5):
        next_phi = prog.segment_update(speed, phi_stream)
        expected = segment_step(speed, expected)
        phi_stream = brook.stream(next_phi)
    np.testing.assert_allclose(phi_stream.numpy(), expected, rtol=1e-4, atol=1e-4)


def test_threads_call_kernels_at_once(prog, backend):
    if backend.startswith("mpi"):
        pytest.skip("the mpi backend matches threads across ranks by their start through "
                    "pthread_create, which Python's threads, started by the interpreter before "
                    "libbrook was loaded, do not go through")
    failures = []

    def work(seed):
        rng = np.random.default_rng(seed)
        try:
            for _ in range(20):
                x = rng.standard_normal(1000).astype(np.float32)
                y = rng.standard_normal(1000).astype(np.float32)
                np.testing.assert_allclose(prog.saxpy(2.0, x, y), 2.0 * x + y, rtol=1e-5, atol=1e-6)
                assert prog.total(np.ones(50, np.int32)) == 50
        except Exception as failure:  # the thread's failure fails the test below
            failures.append(failure)

    threads = [threading.Thread(target=work, args=(seed,)) for seed in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures


def test_the_backend(prog, backend):
    prog.copy_float(np.zeros(1, np.float32))
    assert brook.backend_name().split(":")[0] == backend.split(":")[0]
    assert "cpu" in brook.backends()
    brook.finish()


def test_a_kernel_describes_itself(prog):
    assert prog.saxpy.signature == "kernel saxpy(float a, float x<>, float y<>, out float r<>)"
    assert prog.sum.signature == "reduce sum(float v<>, reduce float s<>)"
    assert "saxpy" in dir(prog)
    assert os.path.isfile(prog.library)
