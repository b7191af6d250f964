#!/bin/bash -eu
# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
# `make fuzz`: runs every fuzzer built in BUILD_DIR (the fuzz preset's build-fuzz/) for SECONDS
# each, one after the other, each in one process. Each fuzzer keeps its
# corpus in BUILD_DIR/fuzz-corpus/NAME, seeded from the Brook programs of tests/ and examples/
# and from tests/fuzz/regressions/, so later runs start where earlier ones stopped. A crash, leak
# or timeout stops the run with its input saved under BUILD_DIR/fuzz-crashes/; add that input to
# tests/fuzz/regressions/ with the fix, where `make test` replays it through brcc_sanitized.
BUILD_DIR="$1"
SECONDS_PER_FUZZER="$2"
SOURCE_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

crashes="$BUILD_DIR/fuzz-crashes"
mkdir -p "$crashes"
seeds="$BUILD_DIR/fuzz-seeds"
rm -rf "$seeds"
mkdir -p "$seeds"
# Every Brook program of the tests (tests/fuzz/regressions/ among them) and examples.
find "$SOURCE_DIR/tests" "$SOURCE_DIR/examples" -type f \( -name '*.br' -o -path '*/fuzz/regressions/*' \) |
    while read -r file; do
        relative="${file#"$SOURCE_DIR"/}"
        cp "$file" "$seeds/${relative//\//_}" # tests/a/main.br -> tests_a_main.br: names are unique
    done
status=0
for fuzzer in "$BUILD_DIR"/bin/*_fuzzer; do
    name="$(basename "$fuzzer")"
    corpus="$BUILD_DIR/fuzz-corpus/$name"
    mkdir -p "$corpus"
    echo "== $name: $SECONDS_PER_FUZZER s"
    # One process (no -jobs): the machine may be shared. -max_len: the front end is linear in its
    # input, and a few kB reach every construct.
    "$fuzzer" -max_total_time="$SECONDS_PER_FUZZER" -timeout=10 -rss_limit_mb=4096 \
        -max_len=16384 -print_final_stats=1 -dict="$SOURCE_DIR/fuzz/brook.dict" \
        -artifact_prefix="$crashes/$name-" "$corpus" "$seeds" >"$BUILD_DIR/$name.log" 2>&1 || status=1
    grep -E 'DONE|stat::number_of_executed_units|ERROR|SUMMARY|Test unit written' \
        "$BUILD_DIR/$name.log" || true
    echo "   corpus: $(ls "$corpus" | wc -l) inputs; log: $BUILD_DIR/$name.log"
done
if [ "$status" != 0 ]; then
    echo "A fuzzer failed: its input is in $crashes/"
fi
exit "$status"
