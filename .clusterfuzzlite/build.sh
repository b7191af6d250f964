#!/bin/bash -eu
# ClusterFuzzLite and OSS-Fuzz call this; the build itself is fuzz/build.sh.
exec "$SRC/brook/fuzz/build.sh"
