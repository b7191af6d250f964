# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
"""Element types, ranks and brook.stream: arrays into streams and back."""

import numpy as np
import pytest

import brook

RNG = np.random.default_rng(7)

# (kernel, dtype, components): every scalar the language has, vectors of several of them.
TYPES = [
    ("copy_float", np.float32, 0),
    ("copy_float2", np.float32, 2),
    ("copy_float3", np.float32, 3),
    ("copy_float4", np.float32, 4),
    ("copy_int", np.int32, 0),
    ("copy_int4", np.int32, 4),
    ("copy_uint", np.uint32, 0),
    ("copy_char", np.int8, 0),
    ("copy_uchar2", np.uint8, 2),
    ("copy_short", np.int16, 0),
    ("copy_ushort", np.uint16, 0),
    ("copy_fixed4", np.uint8, 4),
    ("copy_double", np.float64, 0),
    ("copy_double2", np.float64, 2),
]


def values(shape, dtype):
    if np.issubdtype(dtype, np.floating):
        return RNG.standard_normal(shape).astype(dtype)
    info = np.iinfo(dtype)
    return RNG.integers(info.min, info.max, size=shape, endpoint=True, dtype=dtype)


@pytest.mark.parametrize("kernel,dtype,components", TYPES)
@pytest.mark.parametrize("extents", [(37,), (5, 7), (3, 4, 5), (2, 3, 2, 3)])
def test_every_element_type_and_rank_round_trips(prog, kernel, dtype, components, extents):
    shape = extents + ((components,) if components else ())
    x = values(shape, dtype)
    r = getattr(prog, kernel)(x)
    assert r.dtype == np.dtype(dtype)
    assert r.shape == shape
    np.testing.assert_array_equal(r, x)


def test_a_stream_keeps_its_elements_on_the_backend(prog):
    x = brook.stream(np.arange(12, dtype=np.float32))
    r = brook.stream(np.zeros(12, dtype=np.float32))
    prog.saxpy(3.0, x, x, out=r)
    prog.saxpy(1.0, r, x, out=r)
    np.testing.assert_array_equal(np.asarray(r), 5.0 * np.arange(12, dtype=np.float32))
    np.testing.assert_array_equal(r.numpy(), np.asarray(r))


def test_a_stream_takes_the_type_of_the_parameter_it_meets_first(prog):
    data = values((6, 4), np.float32)
    s = brook.stream(data)
    assert s.shape == (6, 4)
    r = prog.copy_float4(s)
    assert s.type == "float4"
    assert s.shape == (6, 4)
    assert s.dtype == np.float32
    np.testing.assert_array_equal(r, data)


def test_a_stream_of_a_named_type_or_shape(prog):
    s = brook.stream(values((3, 2, 4), np.float32), "float4")
    assert s.type == "float4"
    assert s.shape == (3, 2, 4)
    empty = brook.stream(shape=(3, 2), type="float4")
    prog.copy_float4(s, out=empty)
    np.testing.assert_array_equal(empty.numpy(), s.numpy())


def test_the_stream_copies_the_array_it_is_made_from(prog):
    data = np.ones(8, dtype=np.float32)
    s = brook.stream(data)
    data[:] = 5.0
    np.testing.assert_array_equal(prog.copy_float(s), np.ones(8, dtype=np.float32))


def test_a_domain_view_writes_only_its_region(prog):
    whole = brook.stream(np.zeros((6, 8), dtype=np.float32))
    region = whole.domain((1, 2), (4, 6))
    assert region.shape == (3, 4)
    prog.saxpy(0.0, np.ones((3, 4), np.float32), np.full((3, 4), 7.0, np.float32), out=region)
    expected = np.zeros((6, 8), dtype=np.float32)
    expected[1:4, 2:6] = 7.0
    np.testing.assert_array_equal(whole.numpy(), expected)
    # The same view by slicing; reading it gives only the region.
    np.testing.assert_array_equal(whole[1:4, 2:6].numpy(), expected[1:4, 2:6])


def test_a_view_of_one_dimension(prog):
    whole = brook.stream(np.arange(10, dtype=np.float32))
    np.testing.assert_array_equal(prog.copy_float(whole.domain(3, 7)),
                                  np.arange(3, 7, dtype=np.float32))


def test_writing_into_a_stream(prog):
    s = brook.stream(shape=(4,), type="float")
    s.write(np.array([1, 2, 3, 4], dtype=np.float32))
    np.testing.assert_array_equal(prog.copy_float(s), [1, 2, 3, 4])
    with pytest.raises(ValueError, match="shape"):
        s.write(np.zeros(5, dtype=np.float32))


def test_non_contiguous_arrays_in_and_out(prog):
    x = values((8, 6), np.float32)
    out = np.zeros((6, 8), dtype=np.float32).T  # a transposed, Fortran-ordered view
    prog.copy_float(x, out=out)
    np.testing.assert_array_equal(out, x)
    np.testing.assert_array_equal(prog.copy_float(x[:, ::2]), x[:, ::2])


def test_lists_are_arrays_of_the_parameter_type(prog):
    np.testing.assert_array_equal(prog.saxpy(2, [1, 2, 3], [1, 1, 1]), [3, 5, 7])
