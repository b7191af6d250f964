# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
"""brook.compile: sources from strings and files, errors located in them, and the cache."""

import os

import numpy as np
import pytest

import brook
from brook import _brook

SAXPY = "kernel void saxpy(float a, float x<>, float y<>, out float r<>) { r = a * x + y; }\n"


def test_a_source_from_a_string(cache, compiling):
    prog = brook.compile(SAXPY)
    np.testing.assert_array_equal(prog.saxpy(2.0, [1, 2], [3, 4]), [5, 8])
    assert os.path.commonpath([prog.library, str(cache)]) == str(cache)


def test_a_source_from_a_file_with_its_includes(tmp_path, cache, compiling):
    (tmp_path / "offset.h").write_text("#define OFFSET 10.0\n")
    source = tmp_path / "shift.br"
    source.write_text('#include "offset.h"\n'
                      "kernel void shift(float x<>, out float r<>) { r = x + OFFSET; }\n")
    for path in (source, str(source)):
        np.testing.assert_array_equal(brook.compile(path).shift([1, 2]), [11, 12])


def test_errors_name_the_file_line_and_column(tmp_path, cache):
    with pytest.raises(brook.CompileError) as raised:
        brook.compile("kernel void k(float a<>, out float b<>) {\n    b = a + ;\n}\n")
    error = raised.value
    assert (error.file, error.line, error.column) == ("<string>", 2, 13)
    assert "<string>:2:13: error: " in str(error)
    assert "tmp" not in error.message  # the scratch file's name is not the user's
    source = tmp_path / "bad.br"
    source.write_text("kernel void k(float a<>, out float b<>) { b = undefined_name; }\n")
    with pytest.raises(brook.CompileError) as raised:
        brook.compile(source)
    assert (raised.value.file, raised.value.line) == (str(source), 1)
    assert "undefined_name" in raised.value.message


def test_a_second_compile_of_the_same_source_runs_no_compiler(cache, monkeypatch, compiling):
    first = brook.compile(SAXPY)

    def no_build(*arguments):
        raise AssertionError("the second compile built the library again")

    monkeypatch.setattr(_brook, "build", no_build)
    second = brook.compile(SAXPY)
    assert second.library == first.library
    np.testing.assert_array_equal(second.saxpy(1.0, [1], [1]), [2])
    # Another source is another library, whose kernel of the same name is its own.
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache.parent.parent))
    other = brook.compile(SAXPY.replace("a * x", "a * a * x"))
    assert other.library != first.library
    np.testing.assert_array_equal(other.saxpy(3.0, [1], [1]), [10])
    np.testing.assert_array_equal(first.saxpy(3.0, [1], [1]), [4])


def test_a_program_without_the_kernel(prog):
    with pytest.raises(AttributeError, match="no kernel 'nope'.*saxpy"):
        prog.nope
