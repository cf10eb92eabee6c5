#!/bin/sh
# relpath.sh DIR FILE: FILE as a path relative to the directory DIR, both
# absolute (as make install has them), for relative symbolic links:
# Debian policy 10.5, and a staged install (DESTDIR) whose links must
# point inside the stage.  /usr/libexec/lto-ld /usr/bin/lto-ld gives
# ../../bin/lto-ld.
set -eu
norm() { printf '%s\n' "$1" | sed 's|//*|/|g; s|/$||'; }
from=$(norm "$1") to=$(norm "$2")
case $from$to in
/*/*) ;;
*) echo "relpath.sh: '$1' and '$2' must be absolute" >&2; exit 1 ;;
esac
common=$from up=
while :; do
	case $to/ in "$common"/*) break ;; esac
	common=${common%/*}
	up=../$up
done
printf '%s\n' "$up${to#"$common"/}"
