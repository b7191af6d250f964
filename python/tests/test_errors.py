# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
"""Misuse raises TypeError or ValueError with the runtime's message; the interpreter goes on."""

import numpy as np
import pytest

import brook


def test_an_array_of_another_dtype(prog):
    with pytest.raises(TypeError, match=r"x is float: it takes a float32 array.*float64"):
        prog.saxpy(1.0, np.zeros(4), np.zeros(4, np.float32))
    with pytest.raises(TypeError, match="int64"):
        prog.add_int(1, np.arange(4))


def test_a_vector_array_without_its_components(prog):
    with pytest.raises(ValueError, match=r"last axis has the 4 components.*\(4, 3\)"):
        prog.copy_float4(np.zeros((4, 3), np.float32))


def test_a_stream_of_another_type(prog):
    s = brook.stream(np.zeros(4, np.float32), "float")
    with pytest.raises(TypeError, match="float4"):
        prog.copy_float4(s)
    with pytest.raises(TypeError, match=r"r is float4: it takes a stream of float4, not float<4>"):
        prog.copy_float4(np.zeros((4, 4), np.float32), out=s)


def test_outputs_of_different_shapes(prog):
    v = np.zeros((4, 4), np.float32)
    with pytest.raises(ValueError, match="split"):
        prog.split(v, out=(np.zeros(4, np.float32), np.zeros(5, np.float32)))
    # The failed call changed nothing, and the next one runs.
    low, high = prog.split(v)
    assert low.shape == high.shape == (4,)


def test_arguments_that_do_not_fit(prog):
    x = np.zeros(4, np.float32)
    with pytest.raises(TypeError, match=r"takes 3 arguments \(a, x, y\).*or all 4"):
        prog.saxpy(1.0, x, x, x, x)
    with pytest.raises(TypeError, match="missing its argument 'y'"):
        prog.saxpy(1.0, x)
    with pytest.raises(TypeError, match="no parameter 'z'"):
        prog.saxpy(1.0, x, x, z=1)
    with pytest.raises(TypeError, match="two values for 'x'"):
        prog.saxpy(1.0, x, x, x=x)
    with pytest.raises(TypeError, match="a is float"):
        prog.saxpy("one", x, x)
    with pytest.raises(TypeError, match="shape="):
        prog.position()
    with pytest.raises(TypeError, match="has 2 outputs"):
        prog.split(np.zeros((4, 4), np.float32), out=(x,))


def test_a_read_only_output(prog):
    x = np.zeros(4, np.float32)
    locked = np.zeros(4, np.float32)
    locked.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        prog.saxpy(1.0, x, x, out=locked)


def test_a_bad_stream(prog):
    with pytest.raises(ValueError, match="1 to 4 dimensions"):
        prog.copy_float(np.zeros((2, 2, 2, 2, 2), np.float32))
    with pytest.raises(TypeError, match="no element type"):
        brook.stream(np.zeros(3, dtype=np.complex64)).type
    with pytest.raises(ValueError, match="no element type is called 'float7'"):
        brook.stream(np.zeros(3, np.float32), "float7")
    whole = brook.stream(np.zeros((4, 4), np.float32))
    with pytest.raises(ValueError):
        whole.domain((0, 0), (5, 5))


def test_an_unknown_backend():
    with pytest.raises(ValueError, match="nosuch"):
        brook.use("nosuch")
