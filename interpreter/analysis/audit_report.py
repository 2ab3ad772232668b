"""The audit's report: ``index.html`` (self-contained) and PNG plots, from ``audit.json``.

Everything is drawn from the JSON form of :class:`spelbok.analysis.audit.Audit`,
so a report can be written again from a saved ``audit.json``.  The page has no
external resource: its style is inline and its plots are embedded as ``data:``
URIs (the same PNGs are also written beside it).  The page is rendered from the
Jinja2 template ``templates/audit.html`` with autoescaping, so every text that comes
from a spec (names, labels, option values) is escaped.

Plots need matplotlib (``pip install '.[plot]'`` from the checkout); without it the page is
written without them and says so.
"""

from __future__ import annotations

import base64
import io
import os
from collections.abc import Sequence
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape

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


_ENV = Environment(loader=PackageLoader("spelbok.analysis", "templates"),
                   autoescape=select_autoescape(default=True), undefined=StrictUndefined,
                   trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
_ENV.filters["measure"] = _fmt


def _cell(m: dict[str, Any] | None, baseline: bool) -> dict[str, Any] | None:
    """One measure's cell of a table: its class, its p-values (``q``: adjusted) and mark."""
    if m is None:
        return None
    mark = m.get("mark") or ""
    cls = "base" if baseline else {"*": "m1", "**": "m2"}.get(mark, "")
    return {"value": m["value"], "ci95": m["ci95"], "kind": m["kind"], "mark": mark,
            "cls": cls, "p": m.get("p"), "q": m.get("q")}


def _table(players: int, lineup: str, cells: list[dict[str, Any]],
           labels: dict[int, str]) -> dict[str, Any]:
    """One player count and line-up: readings as columns, measures as rows, the rows in
    runs of one section each."""
    rows: dict[str, tuple[str, str]] = {}
    for c in cells:
        for m in c["measures"]:
            rows.setdefault(m["key"], (m["section"], m["label"]))
    sections: list[dict[str, Any]] = []
    for key, (sec, label) in rows.items():
        if not sections or sections[-1]["name"] != sec:
            sections.append({"name": sec, "rows": []})
        found = [next((x for x in c["measures"] if x["key"] == key), None) for c in cells]
        sections[-1]["rows"].append({"key": key, "label": label, "cells": [
            _cell(m, c["baseline"] is None) for c, m in zip(cells, found)]})
    return {"players": players, "lineup": lineup, "sections": sections,
            "columns": [labels[c["reading"]] for c in cells]}


def render_html(data: dict[str, Any], images: Sequence[tuple[str, str, bytes]],
                note: str = "") -> str:
    """The page: settings, plots (``(file, title, png)``), then one table per player
    count and line-up, readings as columns.

    Rendered from the template ``analysis/templates/audit.html``, autoescaped: the
    spec's own text cannot write markup.

    >>> data = {"specs": [{"game": "<G>", "spec": "g"}], "readings": [], "cells": [],
    ...         "lineups": [], "design": "single", "games": 1, "seed": 0, "max_hands": 0,
    ...         "tests": {"rate": "r", "mean": "m", "count": 0, "correction": "c"}}
    >>> "Reading audit: &lt;G&gt; (g)" in render_html(data, [])
    True
    """
    labels = _reading_labels(data)
    groups: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for c in data["cells"]:
        groups.setdefault((c["players"], c["lineup"]), []).append(c)
    lineups = {lu["id"]: lu["label"] for lu in data["lineups"]}
    return _ENV.get_template("audit.html").render(
        specs=", ".join(f"{s['game']} ({s['spec']})" for s in data["specs"]),
        readings=[{"label": labels[r["id"]], "default": r["default"]} for r in data["readings"]],
        design=data["design"], games=data["games"], seed=data["seed"],
        max_hands=data["max_hands"], tests=data["tests"], note=note,
        images=[{"name": name, "title": title,
                 "uri": "data:image/png;base64," + base64.b64encode(png).decode("ascii")}
                for name, title, png in images],
        tables=[_table(players, lineups[lineup], cells, labels)
                for (players, lineup), cells in sorted(groups.items())])


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
        note = "No plots: matplotlib is not installed (pip install '.[plot]' from the checkout)."
    with open(os.path.join(out_dir, "index.html"), "w", encoding="utf-8") as f:
        f.write(render_html(data, images, note))
    written.append("index.html")
    return written
