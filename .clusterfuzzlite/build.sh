#!/bin/bash -eu
# SPDX-FileCopyrightText: 2026 The Brook authors
# SPDX-License-Identifier: MIT
# ClusterFuzzLite and OSS-Fuzz call this; the build itself is fuzz/build.sh.
exec "$SRC/brook/fuzz/build.sh"
