#!/bin/sh
# lto-sizediff --html: the page is opened in headless Chromium and its DOM
# read back (--dump-dom).  The checks here recompute the treemap from the
# leaves the browser laid out: their areas must add up to the treemap's,
# each in proportion to its bytes, the bytes to NEW's total and, by
# directory, to the --json directories.  No self-check line is on the
# page, and no script error reaches the page or the console.  Two broken pages (a wrong cell, a script error)
# must fail the same checks.  Then the errors: an unwritable --html path
# and two images of different architectures, each exit 1, named, with no
# output left behind.
. "${TOP_SRCDIR:-$(dirname "$0")/../..}/tests/lib.sh"

: "${TOP_BUILDDIR:?}"
sd=$TOP_BUILDDIR/lto-sizediff
chromium=${CHROMIUM:-/usr/bin/chromium}

mkdir -p a b
cat > a/a1.c <<'C'
static __attribute__((noinline)) int scale(int x, int k) { return x * k + (x >> 3) * k; }
int table_a[64] = { 1 };
int use_a(int x) { return scale(x, 7) + scale(x + 1, 7) + table_a[x & 63]; }
int removed_fn(int x) { return x * x * 13 + (x >> 1) * 5 - 77; }
C
cat > b/b1.c <<'C'
int bss_b[32];
int use_b(int x) { bss_b[x & 31] = x; return bss_b[(x + 1) & 31]; }
C
cat > main.c <<'C'
int use_a(int), use_b(int);
int main(int argc, char **argv) { (void)argv; return (use_a(argc) + use_b(argc)) & 0x7f; }
C
for u in a/a1 b/b1 main; do
	gcc -O2 -c "$u.c" -o "$u.o" && gcc -O2 -flto -c "$u.c" -o "$u.lto.o" ||
		{ not_ok "compiling $u.c"; done_testing; exit 1; }
done
gcc -o prog-nolto main.o a/a1.o b/b1.o
# NEW from a whole-program ld -r with its report, when the plugin is built
report=
if [ -f "$TOP_BUILDDIR/lto-ld-plugin.so" ]; then
	"$LTO_LD" -r --lto-whole-program --lto-keep-symbol=main --lto-report=r.json \
		-o r.o main.lto.o a/a1.lto.o b/b1.lto.o && gcc -o prog-lto r.o && report=--report=r.json
else
	gcc -O2 -flto -o prog-lto main.lto.o a/a1.lto.o b/b1.lto.o
fi
[ -x prog-lto ] || { not_ok "linking prog-lto"; done_testing; exit 1; }
set -- --objects=a/a1.o --objects=b/b1.o --objects=main.o $report prog-nolto prog-lto

if "$sd" --html=page.html "$@" > with-html.txt 2>err.txt &&
   "$sd" "$@" > text.txt && "$sd" --json --top=0 "$@" > all.json; then
	ok "--html=page.html with --objects and ${report:-no report}"
else
	not_ok "--html=page.html"; diag "$(cat err.txt)"; done_testing; exit 1
fi
cmp -s with-html.txt text.txt && ok "the text on stdout is the same with --html" ||
	not_ok "the text on stdout is the same with --html"
# self-contained: nothing is loaded, and the CSP forbids it anyway
if ! grep -Eiq '<(link|img|iframe)|(src|href)=|https?://|@import' page.html &&
   grep -q "Content-Security-Policy\" content=\"default-src 'none'" page.html; then
	ok "the page loads nothing from elsewhere (no src/href/URL; CSP default-src 'none')"
else
	not_ok "the page loads nothing from elsewhere"; diag "$(grep -Eio '.{30}((src|href)=|https?://).{30}' page.html)"
fi

# render FILE DOM: load FILE in headless Chromium, DOM to DOM, console to DOM.err
render() {
	rm -rf "$WORK/chrome"
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$WORK/chrome" --enable-logging=stderr --v=0 \
		--dump-dom "file://$WORK/$1" > "$2" 2> "$2.err"
}

# What the browser drew, checked against the JSON; prints why not, exit 1.
cat > check-dom.py <<'PY'
import json, re, sys
from html.parser import HTMLParser

dom, data, errlog = sys.argv[1], json.load(open(sys.argv[2])), open(sys.argv[3]).read()
leaves, text, cur, ids = [], {}, None, set()

class P(HTMLParser):
    def handle_starttag(self, tag, attrs):
        global cur
        a = dict(attrs)
        if a.get("id"):
            ids.add(a["id"])
        if "leaf" in (a.get("class") or "").split():
            st = dict((k.strip(), v.strip()) for k, v in
                      (d.split(":", 1) for d in a["style"].split(";") if ":" in d))
            px = lambda k: float(st[k].replace("px", ""))
            leaves.append((px("width") * px("height"), int(a["data-bytes"]), a["title"]))
        if a.get("id") in ("errors", "changes", "reasons"):
            cur = a["id"]; text[cur] = []
    def handle_endtag(self, tag):
        global cur
        if (cur == "errors" and tag == "pre") or (cur in ("changes", "reasons") and tag == "table"):
            cur = None
    def handle_data(self, d):
        if cur:
            text[cur].append(d)

dom = open(dom).read()
P().feed(dom)
W, H = 1200, 720
total = data["totals"]["new"]
bad = []
if "".join(text.get("errors", ["missing"])).strip():
    bad.append("script errors in the page: " + "".join(text.get("errors", ["#errors missing"])))
if re.search(r"Uncaught|CONSOLE\(\d+\).*[Ee]rror", errlog):
    bad.append("console errors: " + errlog)
if "selfcheck" in ids or re.search(r"largest share error|MISMATCH|did not run", dom):
    bad.append("a self-check line on the page")
area = sum(l[0] for l in leaves)
if abs(area - W * H) > W * H * 1e-6:
    bad.append("leaf areas add up to %.3f, not %d" % (area, W * H))
if sum(l[1] for l in leaves) != total:
    bad.append("leaf bytes add up to %d, not NEW's %d" % (sum(l[1] for l in leaves), total))
for a, b, t in leaves:
    if abs(a / (W * H) - b / total) > 1e-6:
        bad.append("%s: area %.3f for %d bytes" % (t, a, b))
bydir = {}
for a, b, t in leaves:
    d = re.match(r".* \((.*)\): [0-9,]+ bytes", t).group(1)
    bydir[d] = bydir.get(d, 0) + b
want = dict((d["directory"], d["new"]) for d in data["directories"] if d["new"])
if bydir != want:
    bad.append("bytes by directory %s, --json says %s" % (bydir, want))
changes = "".join(text.get("changes", []))
for s in data["symbols"]:
    if s["name"] not in changes:
        bad.append("the table of changes lacks " + s["name"])
if data["reasons"]:
    reasons = "".join(text.get("reasons", []))
    for k in data["reasons"]["kept"]:
        if "kept: " + k not in reasons:
            bad.append("the keep-reason table lacks " + k)
print("\n".join(bad) if bad else "%d leaves, %.1f px, %d bytes" % (len(leaves), area, total))
sys.exit(1 if bad else 0)
PY

if [ ! -x "$chromium" ]; then
	skip_missing chromium "no $chromium: the page is not rendered"
else
	if render page.html dom.html && out=$(python3 check-dom.py dom.html all.json dom.html.err 2>&1); then
		ok "chromium: no script error, no self-check line; leaf areas add up to the treemap and follow the bytes; by directory as --json; tables filled ($out)"
	else
		not_ok "chromium: the rendered page"; diag "$out" "$(tail -5 dom.html.err)"
	fi
	# the sortable table, through the page's own click handlers: a
	# script appended to a copy clicks "change" (largest first), copies
	# the order, then clicks "symbol" (by name)
	sed 's|^</body>$|<script>\
var t = document.getElementById("changes"), got = [];\
function col(i) { return Array.from(t.querySelectorAll("tbody tr")).map(function (r) { return r.children[i].textContent; }).join("\|"); }\
t.querySelectorAll("th")[4].click(); got.push(col(4));\
t.querySelectorAll("th")[0].click(); got.push(col(0));\
var p = document.createElement("p"); p.id = "sorted"; p.textContent = got.join("\\n"); document.body.appendChild(p);\
</script>\
</body>|' page.html > sorted.html
	if render sorted.html sorted.dom &&
	   out=$(python3 - sorted.dom all.json <<'PY'
import json, re, sys
dom, data = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
m = re.search(r'<p id="sorted">(.*?)</p>', dom, re.S)
assert m, "no result: the appended script did not run"
changes, names = [l.split("|") for l in m.group(1).split("\n")]
want = sorted(data["symbols"], key=lambda s: -abs(s["diff"]))
got = [abs(int(c.replace(",", "").replace("+", ""))) for c in changes]
assert got == [abs(s["diff"]) for s in want], (got, want)
assert names == sorted(s["name"] for s in data["symbols"]), names
print("%d rows" % len(names))
PY
); then
		ok "chromium: clicking 'change' sorts the changes largest first, 'symbol' by name ($out)"
	else
		not_ok "chromium: the table of changes sorts by the column clicked"; diag "$out" "$(tail -3 sorted.dom.err)"
	fi

	# broken pages must fail the same checks: a cell's bytes changed, a script error
	sed 's/^\(\[[0-9]*, "table_a", [0-9]*, \)\([0-9]*\)\]/\1999]/' page.html > wrong.html
	sed 's/^drawTables(report);$/drawTables(undefined);/' page.html > broken.html
	for bad in wrong broken; do
		if cmp -s page.html $bad.html; then
			not_ok "control $bad.html: the edit did not apply"
		elif render $bad.html $bad.dom && ! python3 check-dom.py $bad.dom all.json $bad.dom.err > $bad.out 2>&1; then
			ok "control: the checks fail on $bad.html ($(head -1 $bad.out))"
		else
			not_ok "control: the checks pass on $bad.html"
		fi
	done
fi

# errors: exit 1, the file named, nothing written (not even stdout's text)
check_html_error() {
	desc=$1 pattern=$2; shift 2
	out=$("$@" 2>err.txt); rc=$?
	if [ $rc -eq 1 ] && [ -z "$out" ] && grep -Eq -- "$pattern" err.txt; then
		ok "$desc"
	else
		not_ok "$desc (exit $rc)"; diag "$(cat err.txt)" "$out"
	fi
}
check_html_error "--html into a missing directory: exit 1, named" \
	"cannot create a temporary file for no/such/dir/p\.html in no/such/dir" \
	"$sd" --html=no/such/dir/p.html prog-nolto prog-lto
: > afile
check_html_error "--html under a regular file: exit 1, named" "afile/p\.html.*Not a directory" \
	"$sd" --html=afile/p.html prog-nolto prog-lto
if [ "$(id -u)" -ne 0 ]; then
	mkdir ro && chmod 555 ro
	check_html_error "--html into a read-only directory: exit 1, named" "ro/p\.html.*Permission denied" \
		"$sd" --html=ro/p.html prog-nolto prog-lto
else
	skip "--html into a read-only directory: root writes there anyway"
fi
"$sd" --html= prog-nolto prog-lto > out.txt 2>err.txt; rc=$?
[ $rc -eq 2 ] && [ ! -s out.txt ] && grep -q -- "--html: the page needs a file name" err.txt &&
	ok "--html= (empty): exit 2, said" || { not_ok "--html= (empty): exit 2 (got $rc)"; diag "$(cat err.txt)"; }

if have arm-linux-gnueabihf-gcc; then
	arm-linux-gnueabihf-gcc -O2 -o prog-arm main.c a/a1.c b/b1.c
	echo keep > kept.html
	check_html_error "images of two architectures: exit 1, both named with their machines" \
		"prog-nolto is for [^ ]+ \(ELF machine [0-9]+\) but prog-arm is for ARM \(ELF machine 40\)" \
		"$sd" --html=kept.html --nm=nm prog-nolto prog-arm
	[ "$(cat kept.html)" = keep ] && [ -z "$(ls -A | grep '^\.kept\.html')" ] &&
		ok "...and the existing page is left as it was, with no temporary file" ||
		not_ok "...and the existing page is left as it was, with no temporary file"
else
	skip_missing arm-linux-gnueabihf-gcc "two architectures not tested"
fi
done_testing
