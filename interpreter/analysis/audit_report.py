"""The audit's report: ``index.html`` (self-contained) and PNG plots, from ``audit.json``.

Everything is drawn from the JSON form of :class:`spelbok.analysis.audit.Audit`,
so a report can be written again from a saved ``audit.json``.  The page has no
external resource: its style is inline and its plots are embedded as ``data:``
URIs (the same PNGs are also written beside it).  Every text that comes from a
spec (names, labels, option values) is escaped.

Plots need matplotlib (``pip install 'spelbok[plot]'``); without it the page is
written without them and says so.
"""

from __future__ import annotations

import base64
import html
import io
import os
from collections.abc import Sequence
from typing import Any

#: The measures plotted, in order: (key, title).  Skill measures come from the skill
#: line-up, the others from the first line-up.
PLOTS: tuple[tuple[str, str], ...] = (
    ("advantage.seat.0", "First dealer's wins"),
    ("advantage.seat.1", "Wins of the seat after the first dealer"),
    ("advantage.dealer", "Dealer's gain over the others, per hand"),
    ("match.decisive", "Matches with one winner"),
    ("length.hands", "Hands per match"),
    ("length.limit_reached", "Matches cut at max_hands"),
    ("hand.end_hand_early", "Hands ended early (e.g. a sole player)"),
    ("hand.redeal", "Hands redealt (all passed)"),
    ("hand.talon_exhausted", "Hands where an exchange emptied the talon"),
    ("skill.gain", "Stronger bot's gain over a weaker seat"),
)


def have_matplotlib() -> bool:
    """Whether the plots can be drawn."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _reading_labels(data: dict[str, Any]) -> dict[int, str]:
    many = len(data["specs"]) > 1
    out = {}
    for r in data["readings"]:
        label = r["label"]
        out[r["id"]] = f"{data['specs'][r['spec']]['game']}: {label}" if many else label
    return out


def _series(data: dict[str, Any], key: str) -> tuple[list[int], dict[int, list[
        tuple[int, dict[str, Any]]]]]:
    """(reading ids in order, players -> [(reading position, measure)]) for one plot."""
    skill = key.startswith("skill.")
    lineups = [lu["id"] for lu in data["lineups"] if (lu["strong"] is not None) == skill]
    if not lineups:
        return [], {}
    lineup = lineups[0]
    order = [r["id"] for r in data["readings"]]
    series: dict[int, list[tuple[int, dict[str, Any]]]] = {}
    for c in data["cells"]:
        if c["lineup"] != lineup:
            continue
        for m in c["measures"]:
            if m["key"] == key:
                series.setdefault(c["players"], []).append((order.index(c["reading"]), m))
    return order, series


def plot_png(data: dict[str, Any], key: str, title: str) -> bytes | None:
    """One measure across the readings, one series per player count (None: no data)."""
    order, series = _series(data, key)
    if not series:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = _reading_labels(data)
    n = len(order)
    fig, ax = plt.subplots(figsize=(max(5.0, 0.55 * n + 2.5), 3.6), dpi=80)
    width = 0.8 / max(1, len(series))
    rate = False
    for k, (players, points) in enumerate(sorted(series.items())):
        xs = [x - 0.4 + width * (k + 0.5) for x, _ in points]
        ys = [m["value"] for _, m in points]
        lo = [m["value"] - m["ci95"][0] for _, m in points]
        hi = [m["ci95"][1] - m["value"] for _, m in points]
        rate = rate or points[0][1]["kind"] == "rate"
        ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o", capsize=3, label=f"{players} players")
        for x, (_, m) in zip(xs, points):
            if m.get("mark"):
                ax.annotate(m["mark"], (x, m["ci95"][1]), ha="center", va="bottom", fontsize=9)
    ax.set_xticks(range(n))
    ax.set_xticklabels([labels[i] for i in order], rotation=35, ha="right", fontsize=8)
    ax.set_title(title, fontsize=10)
    if rate:
        ax.set_ylim(bottom=0)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue()


def _fmt(m: dict[str, Any]) -> str:
    v = m["value"]
    lo, hi = m["ci95"]
    if m["kind"] == "rate":
        return f"{100 * v:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
    return f"{v:.2f} [{lo:.2f}, {hi:.2f}]"


_STYLE = """
body{font-family:sans-serif;margin:1.5em;color:#222;max-width:100em}
table{border-collapse:collapse;font-size:0.8em;margin-bottom:1.5em}
td,th{border:1px solid #ccc;padding:2px 5px;text-align:right;white-space:nowrap}
th{background:#f3f3f3}td.l,th.l{text-align:left}
tr.s td{background:#fafafa;font-weight:bold;text-align:left}
.m1{background:#fff2cc}.m2{background:#f9cb9c}.base{background:#eef5ff}
img{max-width:100%;border:1px solid #eee;margin:0.3em 0}
"""


def render_html(data: dict[str, Any], images: Sequence[tuple[str, str, bytes]],
                note: str = "") -> str:
    """The page: settings, plots (``(file, title, png)``), then one table per player
    count and line-up, readings as columns."""
    e = html.escape
    labels = _reading_labels(data)
    specs = ", ".join(f"{s['game']} ({s['spec']})" for s in data["specs"])
    t = data["tests"]
    out = [
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Reading audit: {e(specs)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>Reading audit: {e(specs)}</h1>",
        f"<p>{len(data['readings'])} readings ({e(data['design'])} design), "
        f"{data['games']} matches per cell, seed {data['seed']}"
        + (f", at most {data['max_hands']} hands" if data["max_hands"] else "") + ". "
        f"Intervals: 95 % (Wilson for rates, normal for means). Each value is tested "
        f"against the default reading at the same player count and line-up "
        f"({e(t['rate'])} for rates, {e(t['mean'])} for means); the {t['count']} "
        f"p-values are adjusted together ({e(t['correction'])}): "
        f"<span class=m1>*</span> adjusted p &lt; 0.05, <span class=m2>**</span> &lt; 0.01.</p>",
    ]
    if note:
        out.append(f"<p><em>{e(note)}</em></p>")
    out.append("<h2>Readings</h2><ul>")
    for r in data["readings"]:
        out.append(f"<li>{e(labels[r['id']])}{' (baseline)' if r['default'] else ''}</li>")
    out.append("</ul><h2>Plots</h2>")
    for name, title, png in images:
        uri = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
        out.append(f'<figure><img src="{uri}" alt="{e(title)}">'
                   f"<figcaption>{e(title)} ({e(name)})</figcaption></figure>")
    groups: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for c in data["cells"]:
        groups.setdefault((c["players"], c["lineup"]), []).append(c)
    lineups = {lu["id"]: lu["label"] for lu in data["lineups"]}
    out.append("<h2>Measures</h2>")
    for (players, lineup), cells in sorted(groups.items()):
        out.append(f"<h3>{players} players, {e(lineups[lineup])}</h3><table><tr>"
                   "<th class=l>measure</th>"
                   + "".join(f"<th>{e(labels[c['reading']])}</th>" for c in cells) + "</tr>")
        rows: dict[str, tuple[str, str]] = {}
        for c in cells:
            for m in c["measures"]:
                rows.setdefault(m["key"], (m["section"], m["label"]))
        section = None
        for key, (sec, label) in rows.items():
            if sec != section:
                section = sec
                out.append(f"<tr class=s><td colspan={len(cells) + 1}>{e(sec)}</td></tr>")
            tds = []
            for c in cells:
                m = next((x for x in c["measures"] if x["key"] == key), None)
                if m is None:
                    tds.append("<td></td>")
                    continue
                cls = {"*": " class=m1", "**": " class=m2"}.get(m.get("mark") or "", "")
                if c["baseline"] is None:
                    cls = " class=base"
                tip = "" if m.get("q") is None else f' title="p={m["p"]:.3g}, adjusted {m["q"]:.3g}"'
                tds.append(f"<td{cls}{tip}>{e(_fmt(m))}{e(m.get('mark') or '')}</td>")
            out.append(f"<tr><td class=l title=\"{e(key)}\">{e(label)}</td>{''.join(tds)}</tr>")
        out.append("</table>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def write_report(data: dict[str, Any], out_dir: str | os.PathLike[str],
                 plots: bool = True) -> list[str]:
    """Write ``index.html`` and the plots' PNGs in ``out_dir``; the files written."""
    written = []
    images: list[tuple[str, str, bytes]] = []
    note = ""
    if plots and have_matplotlib():
        for key, title in PLOTS:
            png = plot_png(data, key, title)
            if png is None:
                continue
            name = "plot-" + key.replace(".", "-") + ".png"
            with open(os.path.join(out_dir, name), "wb") as f:
                f.write(png)
            written.append(name)
            images.append((name, title, png))
    elif plots:
        note = "No plots: matplotlib is not installed (pip install 'spelbok[plot]')."
    with open(os.path.join(out_dir, "index.html"), "w", encoding="utf-8") as f:
        f.write(render_html(data, images, note))
    written.append("index.html")
    return written
