#!/bin/sh
# The main job, from a fresh checkout: set-up, build lto-ld, then the
# end-to-end demonstration (scripts/demo.sh).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
dir=$top/_build/default
"$top/scripts/setup.sh" "$dir"
make -C "$dir" -s -j"$(nproc)"
exec "$top/scripts/demo.sh" "$dir/lto-ld"
