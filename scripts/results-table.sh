# results_table, shared by the scripts that write their measured tables
# into docs/results.md (scripts/kernel.sh, scripts/busybox.sh). Sourced;
# uses top (the project folder).

# results_marked NAME: docs/results.md has the NAME markers
results_marked() {
	grep -qxF "<!-- $1 -->" "$top/docs/results.md" &&
		grep -qxF "<!-- /$1 -->" "$top/docs/results.md"
}

# results_table NAME FILE: put FILE between the NAME markers of docs/results.md
# (a page without them is an error: the table would be lost)
results_table() {
	if ! results_marked "$1"; then
		echo "results: docs/results.md has no <!-- $1 --> ... <!-- /$1 --> markers; the table is in $2" >&2
		return 1
	fi
	awk -v table="$2" -v begin="<!-- $1 -->" -v end="<!-- /$1 -->" '
		$0 == begin { print; while ((getline line < table) > 0) print line; skip = 1; next }
		$0 == end { skip = 0 }
		!skip { print }' "$top/docs/results.md" > "$top/docs/results.md.tmp" &&
	mv "$top/docs/results.md.tmp" "$top/docs/results.md"
}
