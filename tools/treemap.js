/*
 * lto-sizediff --html: the page's script, compiled into lto-sizediff
 * (tools/sizediff-html.c).  It reads the two JSON blocks of the page,
 * draws the treemap of NEW (directories, then symbols, squarified, each
 * leaf's area proportional to its bytes, coloured by its change against
 * OLD) and the tables.  Script errors go into #errors, where the user
 * sees them and a test reading the page's DOM (chromium --dump-dom)
 * finds them.
 */
"use strict";

var errorsShown = document.getElementById("errors");
window.addEventListener("error", function (e) {
	errorsShown.textContent += "script error: " + e.message + " (line " +
		e.lineno + ")\n";
});

var WIDTH = 1200, HEIGHT = 720;

function el(tag, text, cls) {
	var e = document.createElement(tag);
	if (text !== undefined)
		e.textContent = text;
	if (cls)
		e.className = cls;
	return e;
}

function bytes(n) {
	return n.toLocaleString("en-US");
}

function signed(n) {
	return (n > 0 ? "+" : "") + bytes(n);
}

/* The change from OLD to NEW, -1 (all gone) .. +1 (all new), as a colour. */
function changeColour(oldSize, newSize) {
	var big = Math.max(oldSize, newSize);
	var r = big ? (newSize - oldSize) / big : 0;
	if (r === 0)
		return "hsl(0,0%,85%)";
	var light = 88 - 38 * Math.abs(r);
	return r < 0 ? "hsl(120,55%," + light + "%)" : "hsl(0,70%," + light + "%)";
}

/* The worst aspect ratio of a row of areas laid along a side of SIDE. */
function worst(sum, min, max, side) {
	var s2 = side * side, sum2 = sum * sum;
	return Math.max(s2 * max / sum2, sum2 / (s2 * min));
}

/*
 * Squarified treemap (Bruls, Huizing, van Wijk): ITEMS, largest value
 * first, fill the rectangle (x, y, w, h); PLACE(item, x, y, w, h) for each.
 */
function squarify(items, x, y, w, h, place) {
	var total = 0, i = 0;
	items.forEach(function (it) { total += it.value; });
	if (!total)
		return;
	var scale = w * h / total;
	while (i < items.length) {
		var side = Math.min(w, h), sum = 0, min = Infinity, max = 0;
		var start = i, best = Infinity;
		while (i < items.length) {
			var a = items[i].value * scale;
			var ratio = worst(sum + a, Math.min(min, a), Math.max(max, a), side);
			if (i > start && ratio > best)
				break;
			sum += a; min = Math.min(min, a); max = Math.max(max, a);
			best = ratio;
			i++;
		}
		/*
		 * The row goes along the shorter side: a column at the left of
		 * a wide rectangle, a row at the top of a tall one.  The last
		 * row, and the last box of a row, take what is left, so that
		 * rounding leaves no gap.
		 */
		var wide = w >= h, pos = 0;
		var thick = i === items.length ? (wide ? w : h) : sum / side;
		for (var k = start; k < i; k++) {
			var len = k === i - 1 ? side - pos : items[k].value * scale / thick;
			if (wide)
				place(items[k], x, y + pos, thick, len);
			else
				place(items[k], x + pos, y, len, thick);
			pos += len;
		}
		if (wide) {
			x += thick; w -= thick;
		} else {
			y += thick; h -= thick;
		}
	}
}

function byValue(a, b) {
	return b.value - a.value || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

function px(v) {
	return v.toFixed(4) + "px";
}

function drawTreemap(C, map) {
	var dirs = C.dirs.map(function (name) {
		return { name: name, value: 0, cells: [] };
	});
	C.cells.forEach(function (c) {
		var d = dirs[c[0]];
		d.cells.push({ name: c[1], old: c[2], value: c[3] });
		d.value += c[3];
	});
	dirs.sort(byValue);
	map.style.width = WIDTH + "px";
	map.style.height = HEIGHT + "px";
	squarify(dirs, 0, 0, WIDTH, HEIGHT, function (d, x, y, w, h) {
		d.cells.sort(byValue);
		squarify(d.cells, x, y, w, h, function (c, cx, cy, cw, ch) {
			var leaf = el("div", undefined, "leaf");
			leaf.style.left = px(cx); leaf.style.top = px(cy);
			leaf.style.width = px(cw); leaf.style.height = px(ch);
			leaf.style.background = changeColour(c.old, c.value);
			leaf.dataset.bytes = c.value;
			leaf.dataset.old = c.old;
			leaf.title = c.name + " (" + d.name + "): " + bytes(c.value) +
				" bytes, was " + bytes(c.old) + " (" + signed(c.value - c.old) + ")";
			if (cw > 50 && ch > 14)
				leaf.textContent = c.name;
			map.appendChild(leaf);
		});
		var frame = el("div", undefined, "frame");
		frame.style.left = px(x); frame.style.top = px(y);
		frame.style.width = px(w); frame.style.height = px(h);
		if (w > 60 && h > 20)
			frame.appendChild(el("span", d.name));
		map.appendChild(frame);
	});
}

/* A table whose header sorts it (numbers numerically), click again to reverse. */
function table(t, columns, rows) {
	var head = el("tr"), body = el("tbody");
	columns.forEach(function (c, i) {
		var th = el("th", c.title);
		th.addEventListener("click", function () { sortBy(i); });
		head.appendChild(th);
	});
	var thead = el("thead");
	thead.appendChild(head);
	t.appendChild(thead);
	t.appendChild(body);
	var order = { column: -1, up: false };
	function fill() {
		body.textContent = "";
		rows.forEach(function (r) {
			var tr = el("tr");
			columns.forEach(function (c) {
				var v = r[c.key];
				tr.appendChild(el("td", c.num ? (c.sign ? signed(v) : bytes(v)) : v,
					c.num ? "n" : undefined));
			});
			body.appendChild(tr);
		});
	}
	function sortBy(i) {
		var c = columns[i];
		order.up = order.column === i ? !order.up : !c.num;
		order.column = i;
		rows.sort(function (a, b) {
			var x = a[c.key], y = b[c.key];
			var d = c.num ? (c.sign ? Math.abs(x) - Math.abs(y) : x - y) :
				(x < y ? -1 : x > y ? 1 : 0);
			return order.up ? d : -d;
		});
		fill();
	}
	fill();
}

function drawTables(R) {
	table(document.getElementById("changes"), [
		{ title: "symbol", key: "name" },
		{ title: "status", key: "status" },
		{ title: "old", key: "old", num: true },
		{ title: "new", key: "new", num: true },
		{ title: "change", key: "diff", num: true, sign: true }
	], R.symbols);
	table(document.getElementById("dirs"), [
		{ title: "directory", key: "directory" },
		{ title: "old", key: "old", num: true },
		{ title: "new", key: "new", num: true },
		{ title: "change", key: "diff", num: true, sign: true }
	], R.directories);
	var k = R.reasons, about = document.getElementById("reasons-about");
	if (!k) {
		about.textContent = "No lto-ld report given (--report=FILE).";
		return;
	}
	about.textContent = "The report " + k.report + " of " + k.output + " (" +
		k.mode + "): " + k.definitions + " IR definitions; " +
		k.kept_names_in_new + " of the " + k.kept_names +
		" names it keeps are in NEW.";
	var rows = [];
	[["kept", k.kept], ["unexplained", k.unexplained]].forEach(function (g) {
		Object.keys(g[1]).forEach(function (name) {
			var b = g[1][name];
			rows.push({ reason: g[0] + ": " + name, bytes: b.bytes,
				share: (100 * b.bytes / (k.total.bytes || 1)).toFixed(2) + "%",
				symbols: b.symbols, names: b.names });
		});
	});
	table(document.getElementById("reasons"), [
		{ title: "reason", key: "reason" },
		{ title: "bytes", key: "bytes", num: true },
		{ title: "share", key: "share" },
		{ title: "symbols", key: "symbols", num: true },
		{ title: "names", key: "names", num: true }
	], rows);
}

function drawSummary(R) {
	var t = R.totals;
	document.title = "lto-sizediff: " + R.old.file + " -> " + R["new"].file;
	document.getElementById("title").textContent = document.title;
	document.getElementById("summary").textContent = "OLD " + R.old.file +
		": " + bytes(t.old) + " bytes; NEW " + R["new"].file + ": " +
		bytes(t["new"]) + " bytes (" + signed(t.diff) + (t.old ?
		", " + (100 * t.diff / t.old).toFixed(2) + "%" : "") + ").";
	var legend = document.getElementById("legend");
	legend.textContent = "Area: NEW's bytes. Colour: change against OLD";
	[["shrank", 2, 1], ["unchanged", 1, 1], ["grew or new", 1, 2]].forEach(function (s) {
		var sw = el("span", undefined, "swatch");
		sw.style.background = changeColour(s[1], s[2]);
		legend.appendChild(sw);
		legend.appendChild(document.createTextNode(s[0]));
	});
	legend.appendChild(document.createTextNode(". Hover over a box for its numbers."));
}

var report = JSON.parse(document.getElementById("report").textContent);
var cells = JSON.parse(document.getElementById("cells").textContent);
var map = document.getElementById("treemap");
drawSummary(report);
drawTreemap(cells, map);
drawTables(report);
