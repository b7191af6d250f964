# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
"""Fixtures of the module's tests, which CTest runs once per backend (python/CMakeLists.txt),
the one BRT_RUNTIME names."""

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
def compiling(backend):
    """For the tests of brook.compile, which build sources of their own: what they check does
    not depend on the backend, so they run once, on cpu (the cuda emulation could not run their
    kernels anyway: it runs only kernels.br's, built beforehand)."""
    if backend != "cpu":
        pytest.skip("brook.compile's tests run on cpu only: the backend does not enter them")


@pytest.fixture(scope="module")
def module_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("cache")


@pytest.fixture
def cache(module_cache, monkeypatch):
    """A compile cache of the test module's own (each new source costs a C++ compile)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(module_cache))
    return module_cache / "brook" / "python"


def pytest_sessionstart(session):
    """A backend that cannot start here skips the run, by name (CTest's SKIP_RETURN_CODE)."""
    try:
        brook.backend_name()
    except ValueError as error:
        pytest.exit(f"python tests skipped: {error}", returncode=77)
