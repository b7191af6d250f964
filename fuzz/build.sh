#!/bin/bash -eu
# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
# Builds the fuzzers the way OSS-Fuzz and ClusterFuzzLite call a project's build.sh: the
# compiler, its flags (sanitizer and coverage) and the fuzzing engine come from $CXX, $CXXFLAGS
# and $LIB_FUZZING_ENGINE, and the fuzzers, their dictionaries and seed corpora go to $OUT.
# .clusterfuzzlite/ runs it; `make fuzz` builds the same harnesses through the fuzz preset.
# cuda_fuzzer is built only where CMake finds the CUDA toolkit (not in OSS-Fuzz's builder image);
# it loads libnvrtc at run time.
SOURCE_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${WORK:-/tmp}/brook-fuzz-build"

cmake -S "$SOURCE_DIR" -B "$BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER="$CXX" \
    -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
    -DBROOK_BUILD_FUZZERS=ON \
    -DBROOK_FUZZING_ENGINE="$LIB_FUZZING_ENGINE" \
    -DBROOK_BUILD_TESTS=OFF \
    -DBROOK_SANITIZED_BRCC=OFF
cmake --build "$BUILD_DIR" --parallel "$(nproc)" --target fuzzers

# The seed corpus: every Brook program of the tests and examples, and every input that once
# made a fuzzer fail.
seeds="$(mktemp -d)"
find "$SOURCE_DIR/tests" "$SOURCE_DIR/examples" -type f \( -name '*.br' -o -path '*/fuzz/regressions/*' \) |
    while read -r file; do
        relative="${file#"$SOURCE_DIR"/}"
        cp "$file" "$seeds/${relative//\//_}" # tests/a/main.br -> tests_a_main.br: names are unique
    done
for fuzzer in "$BUILD_DIR"/bin/*_fuzzer; do
    name="$(basename "$fuzzer")"
    cp "$fuzzer" "$OUT/"
    cp "$SOURCE_DIR/fuzz/brook.dict" "$OUT/$name.dict"
    (cd "$seeds" && zip -q -r "$OUT/${name}_seed_corpus.zip" .)
done
rm -rf "$seeds"
