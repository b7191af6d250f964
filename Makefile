# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
# A thin wrapper over CMake's presets (CMakePresets.json); `cmake --preset dev` and friends work
# just as well. `make demo` and `make test` first make sure the Debian packages are there.

# Debian packages the build needs (the C++ compiler's libgomp provides OpenMP; EGL, libepoxy and
# Mesa's llvmpipe driver give the gl backend a headless OpenGL 4.5 context).
PACKAGES := cmake g++ make pkg-config libgtest-dev libgmock-dev libcli11-dev libegl-dev libepoxy-dev \
    libgl1-mesa-dri libpng-dev libfftw3-dev libembree-dev
# What only tests use (each missing one is a named skip): dpkg-shlibdeps (dpkg-dev) for cpack -G
# DEB and the package test, gdb for brcc -g's test, nlohmann-json to read BRT_PROFILE's trace back,
# Doxygen for the docs test (and `make docs`), reuse to check every file's licence.
PACKAGES += dpkg-dev gdb nlohmann-json3-dev doxygen reuse
# The mpi backend (docs/mpi.md) and its conformance runs on 1, 2 and 4 ranks.
PACKAGES += openmpi-bin libopenmpi-dev
# The cuda backend's emulation (docs/testing.md), whose fibers switch with Boost.Context.
PACKAGES += libboost-context-dev
# The vulkan backend (docs/vulkan_backend.md): the loader's headers; for brcc, shaderc (and
# glslang, which it pulls in) to compile kernels to SPIR-V and spirv-tools to validate them;
# glslc for the backend's own shaders (the scan of variable outputs, built into libbrook) and its
# test shaders; to run the tests, Mesa's lavapipe and the Khronos validation layer, which every
# vulkan test runs under.
PACKAGES += libvulkan-dev libshaderc-dev spirv-tools glslc mesa-vulkan-drivers \
    vulkan-validationlayers
# The Python module (docs/python.md): pybind11 and Python's headers to build it, NumPy to run it,
# pytest for its tests.
PACKAGES += python3-dev pybind11-dev python3-numpy python3-pytest
# What `make bench` adds: OpenBLAS built on OpenMP (one thread pool with Brook's and the baselines'),
# gnuplot for the plots, Python for the driver script.
BENCH_PACKAGES := libopenblas-openmp-dev gnuplot-nox python3
# What `make fuzz` adds: clang with libFuzzer and its sanitizer runtimes, glslang to compile the
# generated GLSL as a driver would (glslang-tools too: Debian 12's glslang-dev CMake package names
# its glslangValidator, and configuring fails without it).
FUZZ_PACKAGES := clang libclang-rt-dev glslang-dev glslang-tools
FUZZ_SECONDS ?= 60
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CTEST_JOBS ?= 2
# The build's own make runs below this one; keep its output free of "Entering directory" lines.
MAKEFLAGS += --no-print-directory

.PHONY: demo test asan tsan fuzz fuzz-diff release bench docs deps configure clean format

demo: configure
	cmake --build --preset dev --parallel $(JOBS) --target brcc brook
	@mkdir -p build/examples
	build/bin/brcc examples/saxpy.br -o build/examples/saxpy
	build/examples/saxpy

test: configure
	cmake --build --preset dev --parallel $(JOBS)
	ctest --preset dev --parallel $(CTEST_JOBS)

# Differential testing (CONTRIBUTING.md): N generated test programs (units: a kernel with its
# helpers, inputs and launch), linked FUZZ_UNITS to an executable (seeds SEED, SEED+1, ... name the
# executables) so the C++ compiler's start-up is paid once per FUZZ_UNITS; each executable runs
# on every backend that starts (the mpi backend on 3 ranks of one MPI job) and is compared with
# cpu; each disagreeing one is reduced and kept
# in tests/fuzz_diff/regressions/, which `make test` replays. The reducer is our own
# (tests/fuzz_diff/reducer.cpp), so nothing more is installed.
N ?= 100
SEED ?= 1
FUZZ_UNITS ?= 16
fuzz-diff: configure
	cmake --build --preset dev --parallel $(JOBS) --target brcc brook brook_fuzz_diff
	build/bin/brook_fuzz_diff --brcc build/bin/brcc --work build/fuzz_diff --seed $(SEED) \
	    --count $$((($(N) + $(FUZZ_UNITS) - 1) / $(FUZZ_UNITS))) --units $(FUZZ_UNITS) --jobs $(JOBS) --backends cpu,gl,cuda,vulkan,mpi:cpu@3 \
	    --keep tests/fuzz_diff/regressions

# The whole suite built with AddressSanitizer and UndefinedBehaviorSanitizer (build-asan/).
asan: deps
	cmake --preset asan
	cmake --build --preset asan --parallel $(JOBS)
	ctest --preset asan --parallel $(CTEST_JOBS)

# The thread tests (every test whose name says thread: COMPAT §3.6's programs, the shared-stream
# program, the runtime's thread unit tests) built and run with ThreadSanitizer (build-tsan/).
tsan: deps
	cmake --preset tsan
	cmake --build --preset tsan --parallel $(JOBS)
	ctest --preset tsan --parallel $(CTEST_JOBS)

# The libFuzzer harnesses of fuzz/ built with clang, AddressSanitizer and UBSan (build-fuzz/),
# run side by side for FUZZ_SECONDS each, FUZZ_JOBS at a time if set (CONTRIBUTING.md, "Fuzzing").
fuzz:
	@$(MAKE) deps PACKAGES="$(PACKAGES) $(FUZZ_PACKAGES)"
	cmake --preset fuzz
	cmake --build --preset fuzz --parallel $(JOBS) --target fuzzers
	fuzz/run_fuzzers.sh build-fuzz $(FUZZ_SECONDS)

release: deps
	cmake --preset release
	cmake --build --preset release --parallel $(JOBS)

# The benchmark suite (bench/) in the optimised build: every benchmark on every backend, then the
# tables and plots in build-release/bench-results/ and docs/performance.md.
bench:
	@$(MAKE) deps PACKAGES="$(PACKAGES) $(BENCH_PACKAGES)"
	cmake --preset release -DBROOK_BUILD_BENCH=ON
	cmake --build --preset release --parallel $(JOBS) --target benchmarks
	python3 bench/run_bench.py build-release --docs docs/performance.md

# The host-API reference from the public headers' comments, by Doxygen (Debian: doxygen), into
# build/docs/html. Configures again, since a build configured before Doxygen was installed has no
# docs target.
docs:
	@$(MAKE) deps
	cmake --preset dev >/dev/null
	cmake --build --preset dev --target docs

configure: deps
	@test -f build/CMakeCache.txt || cmake --preset dev

# Installs what is missing when running as root (a fresh Debian machine or CI); otherwise prints
# the command to run and stops.
deps:
	@missing=""; \
	if command -v dpkg-query >/dev/null 2>&1; then \
	    for package in $(PACKAGES); do \
	        dpkg-query -W -f='$${Status}\n' $$package 2>/dev/null | grep -q '^install ok installed' \
	            || missing="$$missing $$package"; \
	    done; \
	fi; \
	if [ -n "$$missing" ]; then \
	    if [ "$$(id -u)" = 0 ]; then \
	        echo "Installing Debian packages:$$missing"; \
	        apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y$$missing || exit 1; \
	    else \
	        echo "Missing Debian packages:$$missing. Install them with:"; \
	        echo "  sudo apt-get update && sudo apt-get install -y$$missing"; \
	        exit 1; \
	    fi; \
	fi

clean:
	rm -rf build build-release build-asan build-tsan build-fuzz

format:
	git ls-files '*.cpp' '*.hpp' | xargs clang-format -i
