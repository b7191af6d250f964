# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
"""Fixtures of the module's tests, which CTest runs once per backend (python/CMakeLists.txt):
BRT_RUNTIME chooses it, and under the cuda emulation BROOK_TEST_EMULATED_KERNELS says that only
kernels.br's kernels can run (the emulation runs kernels built beforehand)."""

import os
import pathlib

import pytest

import brook

HERE = pathlib.Path(__file__).parent


@pytest.fixture(scope="session")
def prog():
    """kernels.br, compiled once for the whole run."""
    return brook.compile(HERE / "kernels.br")


@pytest.fixture(scope="session")
def backend():
    return os.environ.get("BRT_RUNTIME", "cpu")


@pytest.fixture
def any_source():
    """For tests that call kernels of their own sources: the cuda emulation runs only
    kernels.br's, so they are skipped there, by name."""
    if os.environ.get("BROOK_TEST_EMULATED_KERNELS"):
        pytest.skip("the cuda emulation runs only kernels.br's kernels")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A compile cache of the test's own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    return tmp_path / "brook" / "python"


def pytest_sessionstart(session):
    """A backend that cannot start here skips the run, by name (CTest's SKIP_RETURN_CODE)."""
    try:
        brook.backend_name()
    except ValueError as error:
        pytest.exit(f"python tests skipped: {error}", returncode=77)
