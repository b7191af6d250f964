#!/bin/bash -eu
# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
# `make fuzz`: runs every fuzzer built in BUILD_DIR (the fuzz preset's build-fuzz/) for SECONDS of
# wall time, side by side: all at once, or FUZZ_JOBS at a time when FUZZ_JOBS is set (the machine
# may be shared). Each fuzzer is one process (no -jobs) with its log in BUILD_DIR/NAME.log, and
# keeps its corpus in BUILD_DIR/fuzz-corpus/NAME, seeded from the Brook programs of tests/ and
# examples/ and from tests/fuzz/regressions/, so later runs start where earlier ones stopped. A
# crash, leak or timeout stops that fuzzer with its input saved under BUILD_DIR/fuzz-crashes/; add
# that input to tests/fuzz/regressions/ with the fix, where `make test` replays it through
# brcc_sanitized. At the end each fuzzer's final figures are printed, and the run fails if any
# fuzzer failed.
BUILD_DIR="$1"
SECONDS_PER_FUZZER="$2"
SOURCE_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

fuzzers=("$BUILD_DIR"/bin/*_fuzzer)
FUZZ_JOBS="${FUZZ_JOBS:-${#fuzzers[@]}}"

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

# Exit statuses of a fuzzer that found nothing: 0 when it stopped at -max_total_time, and
# libFuzzer's -interrupt_exitcode when `timeout` stopped it with SIGTERM (it may still have been
# running its seeds, which -max_total_time does not cut short: NVRTC is slow). libFuzzer prints
# its final stats either way.
interrupted=72

# Runs fuzzer $1 for SECONDS_PER_FUZZER; its exit status goes to BUILD_DIR/NAME.status.
run_fuzzer() {
    local fuzzer="$1"
    local name
    name="$(basename "$fuzzer")"
    local corpus="$BUILD_DIR/fuzz-corpus/$name"
    mkdir -p "$corpus"
    # -max_len: the front end is linear in its input, and a few kB reach every construct.
    # -timeout: one input of the cuda fuzzer may compile a few dozen kernels with NVRTC, each
    # taking a second or more (3 s with the machine shared), where the front end alone takes
    # milliseconds; a hang of the front end is front_end_fuzzer's to find. glslang takes seconds
    # on the shader of a kernel near the uniform limit (tests/unit/gl/too_many_uniform_components.br:
    # 12 s with the machine shared), which the gl backend refuses before compiling it.
    local timeout=10
    [ "$name" = glsl_fuzzer ] && timeout=120
    [ "$name" = cuda_fuzzer ] && timeout=600
    local status=0
    timeout --preserve-status --signal=TERM --kill-after=60 "$SECONDS_PER_FUZZER" \
        "$fuzzer" -max_total_time="$SECONDS_PER_FUZZER" -timeout="$timeout" -rss_limit_mb=4096 \
        -max_len=16384 -print_final_stats=1 -dict="$SOURCE_DIR/fuzz/brook.dict" \
        -artifact_prefix="$crashes/$name-" "$corpus" "$seeds" >"$BUILD_DIR/$name.log" 2>&1 ||
        status=$?
    echo "$status" >"$BUILD_DIR/$name.status"
}

echo "== ${#fuzzers[@]} fuzzers, $SECONDS_PER_FUZZER s each, $FUZZ_JOBS at a time"
running=0
for fuzzer in "${fuzzers[@]}"; do
    if [ "$running" -ge "$FUZZ_JOBS" ]; then
        wait -n || true
        running=$((running - 1))
    fi
    echo "   started $(basename "$fuzzer")"
    run_fuzzer "$fuzzer" &
    running=$((running + 1))
done
wait

failed=0
for fuzzer in "${fuzzers[@]}"; do
    name="$(basename "$fuzzer")"
    log="$BUILD_DIR/$name.log"
    status="$(cat "$BUILD_DIR/$name.status")"
    echo "== $name"
    if [ "$status" != 0 ] && [ "$status" != "$interrupted" ]; then
        failed=1
        echo "   FAILED (exit status $status):"
        grep -a -E "ERROR|SUMMARY|Test unit written|does not compile|^$name: " "$log" |
            sed 's/^/   /' || true
    fi
    # The last status line (#N ... cov: C edges, ft: F features, corp: K inputs/S bytes ...) and
    # the final stats.
    grep -a -E '^#[0-9]+' "$log" | tail -n 1 | sed 's/^/   /' || true
    executions="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
    echo "   executions: ${executions:-?}; saved corpus: $(ls "$BUILD_DIR/fuzz-corpus/$name" | wc -l) inputs; log: $log"
done
if [ "$failed" != 0 ]; then
    echo "A fuzzer failed: its input is in $crashes/"
fi
exit "$failed"
