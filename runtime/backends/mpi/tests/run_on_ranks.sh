#!/bin/sh
# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
# run_on_ranks.sh [--timed] MPIEXEC N PROGRAM [ARGS...]: runs PROGRAM on N ranks of one MPI job
# (more ranks than cores, and as root where CI runs as root) and prints rank 0's stdout as its
# own. Every rank must print the same (docs/mpi.md: host code runs on every rank): a rank whose
# stdout differs from rank 0's fails the run, unless --timed says that the program prints its
# timings (the examples, which check their own results and fail the job when one is wrong). The
# exit status is the job's.
set -u
same_output=yes
if [ "$1" = --timed ]; then
    same_output=no
    shift
fi
mpiexec=$1
ranks=$2
shift 2
outputs=$(mktemp -d) || exit 1
trap 'rm -rf "$outputs"' EXIT
root_flag=
if [ "$(id -u)" = 0 ]; then
    root_flag=--allow-run-as-root
fi
# The job's own TMPDIR: Open MPI keeps every job's session directory under one
# TMPDIR/ompi.HOST.UID that the last job to finish removes, so a job starting at that moment
# elsewhere on the machine fails ("mkdir ... File exists").
# Shared memory between the ranks of one machine (btl self,vader), through the ob1 layer: left
# to choose, Open MPI probes UCX first, which is 0.2 s of each job's 0.5 s here.
TMPDIR="$outputs" "$mpiexec" -np "$ranks" --oversubscribe $root_flag --mca btl self,vader \
    --mca pml ob1 \
    sh -c 'exec "$@" > "$0/rank.$OMPI_COMM_WORLD_RANK"' "$outputs" "$@"
status=$?
cat "$outputs/rank.0" 2>/dev/null
rank=1
while [ "$same_output" = yes ] && [ "$rank" -lt "$ranks" ]; do
    if ! cmp -s "$outputs/rank.0" "$outputs/rank.$rank"; then
        echo "run_on_ranks.sh: rank $rank printed other output than rank 0" >&2
        [ "$status" -ne 0 ] || status=1
    fi
    rank=$((rank + 1))
done
exit "$status"
