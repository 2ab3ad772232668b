// spelbok serve: the reading workbench.  Every text from a spec or the server is put in the
// page with textContent (never as HTML); nothing is written on the server: "Save" downloads.
"use strict";

const $ = (id) => document.getElementById(id);
const state = {near: null, surface: "yaml", file: "<pasted>", sent: null, busy: false,
               dirty: false, timer: null, problems: [], options: {}, players: null};

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) {
    if (c === null || c === undefined) continue;
    node.append(typeof c === "string" ? document.createTextNode(c) : c);
  }
  return node;
}

async function api(path, body) {
  const init = body === undefined ? {} : {method: "POST", body: JSON.stringify(body),
                                         headers: {"Content-Type": "application/json"}};
  const r = await fetch(path, init);
  const data = await r.json().catch(() => ({error: `the server answered ${r.status}`}));
  if (!r.ok) throw new Error(data.error || `the server answered ${r.status}`);
  return data;
}

function specBody(extra) {
  return Object.assign({text: $("text").value, surface: state.surface, near: state.near}, extra);
}

// -- the editor ------------------------------------------------------------------------

function drawGutter() {
  const lines = $("text").value.split("\n").length;
  const marks = new Map();
  for (const p of state.problems) {
    if (p.line && (!marks.has(p.line) || p.severity === "error")) marks.set(p.line, p);
  }
  const gutter = $("gutter");
  gutter.replaceChildren();
  for (let i = 1; i <= lines; i++) {
    const p = marks.get(i);
    const row = el("div", {class: p ? `ln ${p.severity}` : "ln", text: String(i)});
    if (p) row.title = p.text;
    gutter.append(row);
  }
  gutter.scrollTop = $("text").scrollTop;
}

function showCaret() {
  const t = $("text");
  const before = t.value.slice(0, t.selectionStart).split("\n");
  $("caret").textContent = `Ln ${before.length}, Col ${before[before.length - 1].length + 1}`;
}

function goTo(line, col) {
  const t = $("text");
  const lines = t.value.split("\n");
  let at = 0;
  for (let i = 0; i < Math.min(line - 1, lines.length); i++) at += lines[i].length + 1;
  at += Math.max(0, (col || 1) - 1);
  t.focus();
  t.setSelectionRange(at, Math.min(at + 1, t.value.length));
  const lh = parseFloat(getComputedStyle(t).lineHeight) || 18;
  t.scrollTop = Math.max(0, (line - 4) * lh);
  showCaret();
}

function showProblems(result) {
  state.problems = result.problems || [];
  const list = $("problems");
  list.replaceChildren();
  for (const p of state.problems) {
    const item = el("li", {class: p.severity, tabindex: "0", text: p.text});
    if (p.line) {
      item.title = "Go to this line";
      item.addEventListener("click", () => goTo(p.line, p.col));
      item.addEventListener("keydown", (e) => { if (e.key === "Enter") goTo(p.line, p.col); });
    }
    list.append(item);
  }
  const errors = state.problems.filter((p) => p.severity === "error").length;
  const warnings = state.problems.length - errors;
  const status = $("status");
  status.className = errors ? "bad" : "good";
  $("views").classList.toggle("stale", errors > 0);  // what is shown is the last valid text's
  status.textContent = errors ? `${errors} error${errors > 1 ? "s" : ""}` +
      (warnings ? `, ${warnings} warning${warnings > 1 ? "s" : ""}` : "")
    : `valid${warnings ? ` (${warnings} warning${warnings > 1 ? "s" : ""})` : ""}`;
  drawGutter();
}

async function check() {
  if (state.busy) { state.dirty = true; return; }
  const body = specBody();
  if (body.text === state.sent) return;
  state.busy = true; state.dirty = false; state.sent = body.text;
  $("status").className = ""; $("status").textContent = "checking…";
  try {
    const result = await api("/api/workbench/check", body);
    if ($("text").value === body.text) {
      showProblems(result);
      if (result.ok) await describe(body);
    }
  } catch (err) {
    showProblems({problems: [{severity: "error", text: err.message}]});
  } finally {
    state.busy = false;
    if (state.dirty || $("text").value !== state.sent) schedule(0);
  }
}

function schedule(delay) {
  clearTimeout(state.timer);
  state.timer = setTimeout(check, delay === undefined ? 350 : delay);
}

function setText(text, file, near, surface) {
  $("text").value = text;
  state.file = file; state.near = near; state.surface = surface; state.sent = null;
  $("filename").textContent = file;
  $("surface").value = surface;
  drawGutter();
  schedule(0);
}

// -- describe and the variant's changes ---------------------------------------------------

async function describe(body) {
  const players = $("players").value;
  const result = await api("/api/workbench/describe",
                           Object.assign({}, body, {players: players ? Number(players) : null}));
  if ($("text").value !== body.text) return;
  $("prose").textContent = result.describe;
  state.options = result.options || {};
  fillPlayers(result.players);
  fillOptions();
  const box = $("changes");
  box.replaceChildren();
  box.parentElement.parentElement.classList.toggle("base", !result.base);
  if (!result.base) {
    box.append(el("p", {class: "muted"}, "This spec extends no base spec: add ",
                  el("code", {text: "extends: NAME"}), " to see a variant's changes."));
    return;
  }
  box.append(el("p", {text: `Against ${result.base}:`}));
  const list = el("ul", {class: "changed"});
  for (const c of result.changes) list.append(el("li", {}, el("code", {text: c.path}), ` ${c.change}`));
  if (!result.changes.length) list.append(el("li", {text: "no rule changed"}));
  box.append(list);
  for (const n of result.notes) box.append(el("p", {class: "note", text: `note: ${n}`}));
  if (result.diff.length) {
    box.append(el("h3", {text: "What describe now says differently"}));
    const pre = el("pre", {class: "diff"});
    for (const d of result.diff) {
      const cls = d.op === "+" ? "add" : d.op === "-" ? "del" : d.op === "…" ? "gap" : "same";
      pre.append(el("span", {class: cls, text: `${d.op === "…" ? "…" : d.op} ${d.text}\n`}));
    }
    box.append(pre);
  }
}

function fillPlayers(range) {
  if (!range) return;
  const key = `${range.min}-${range.max}`;
  if (state.players === key) return;
  state.players = key;
  for (const id of ["players", "audit-players"]) {
    const sel = $(id);
    const keep = sel.value;
    sel.replaceChildren();
    if (id === "players") sel.append(el("option", {value: "", text: "every count"}));
    for (let n = range.min; n <= range.max; n++) sel.append(el("option", {value: String(n), text: String(n)}));
    if ([...sel.options].some((o) => o.value === keep)) sel.value = keep;
  }
}

function fillOptions() {
  const sel = $("option");
  const keep = sel.value;
  sel.replaceChildren();
  for (const [name, o] of Object.entries(state.options)) {
    const values = (o.values || []).map(String).join(" | ");
    sel.append(el("option", {value: name, text: `${name} (${values})`}));
  }
  if ([...sel.options].some((o) => o.value === keep)) sel.value = keep;
  $("run-audit").disabled = sel.options.length === 0;
}

// -- readings ------------------------------------------------------------------------------

function cardNode(c) {
  if (c === null || c === undefined) return el("span", {text: "–"});
  if (typeof c === "string") return el("span", {class: "card", text: c});
  return el("span", {class: `card ${c.colour}`, title: c.name, text: c.suit ? `${c.rank}${c.symbol}` : c.name});
}

function suitNode(s) {
  return s ? el("span", {class: `suit ${s.colour}`, title: s.suit, text: s.symbol}) : el("span", {text: "none"});
}

function positionTable(pos, caption) {
  const table = el("table", {class: "position"});
  table.append(el("caption", {text: caption}));
  const head = el("tr", {});
  for (const h of ["Seat", "", "Hand", "Tricks", "Score"]) head.append(el("th", {scope: "col", text: h}));
  table.append(el("thead", {}, head));
  const body = el("tbody", {});
  const trick = new Map(pos.trick.map(([p, c]) => [p, c]));
  for (const s of pos.seats) {
    const roles = [s.dealer ? "dealer" : "", s.to_act ? "to act" : "", s.out ? "out" : ""]
      .filter(Boolean).join(", ");
    const hand = el("td", {class: "hand"}, ...s.hand.map(cardNode));
    if (trick.has(s.seat)) hand.append(el("span", {class: "played", text: " played "}), cardNode(trick.get(s.seat)));
    const row = el("tr", {class: s.to_act ? "to-act" : ""}, el("th", {scope: "row", text: String(s.seat)}),
                   el("td", {class: "role", text: roles}), hand,
                   el("td", {text: String(s.tricks)}), el("td", {text: String(s.score)}));
    body.append(row);
  }
  table.append(body);
  const foot = el("p", {class: "table-info"}, "Trump ", suitNode(pos.trump),
                  pos.turn_up.length ? " · turned up " : "", ...pos.turn_up.map(cardNode),
                  ` · talon ${pos.talon} · hand ${pos.hand_number}`,
                  pos.decision ? ` · deciding: ${pos.decision}` : "",
                  pos.terminal ? " · the match is over" : "");
  return el("div", {class: "position-box"}, table, foot);
}

function caseNode(c) {
  const item = el("li", {class: `case ${c.status}`});
  const badge = el("span", {class: "badge", text: c.status});
  const summary = el("summary", {}, badge, " ", el("span", {class: "name", text: c.name}),
                     c.separates ? el("span", {class: "sep", text: " separates the readings"}) : null);
  const details = el("details", {}, summary);
  if (c.status !== "pass") details.open = true;
  for (const cite of c.cites || []) details.append(el("blockquote", {text: cite}));
  if (c.message) details.append(el("p", {class: "message", text: c.message}));
  if (c.step) details.append(el("p", {text: `at step ${c.step}${c.step_line ? ` (line ${c.step_line} of the reading file)` : ""}`
                                            + (c.history && c.history.length ? `, after ${c.history.join(", ")}` : "")}));
  if (c.mismatches && c.mismatches.length) {
    const t = el("table", {class: "mismatch"}, el("tr", {}, el("th", {text: "expected"}),
                 el("th", {text: ""}), el("th", {text: "but"})));
    for (const m of c.mismatches) t.append(el("tr", {}, el("td", {text: `${m.what}: ${m.expected}`}),
                                           el("td", {text: "≠"}), el("td", {text: m.actual})));
    details.append(t);
  }
  if (c.compared) details.append(el("p", {class: "muted", text: c.compared}));
  if (c.note) details.append(el("p", {class: "note", text: c.note}));
  if ($("show-start").checked && c.start) details.append(positionTable(c.start, "At the start"));
  if (c.end) details.append(positionTable(c.end, c.status === "pass" ? "After the last step" : "Where it stopped"));
  item.append(details);
  return item;
}

async function runReadings(event) {
  if (event) event.preventDefault();
  const cases = $("cases");
  $("reading-summary").className = "";
  $("reading-summary").textContent = "running…";
  cases.replaceChildren();
  const edited = $("reading-text").dataset.edited === "1";
  try {
    const r = await api("/api/workbench/readings", specBody({
      reading: $("reading").value, reading_text: edited ? $("reading-text").value : null}));
    if (r.error) {
      $("reading-summary").className = "bad";
      $("reading-summary").textContent = r.error;
      return;
    }
    $("reading-summary").className = r.ok ? "good" : "bad";
    $("reading-summary").textContent = `${r.passed} passed, ${r.failed} failed` +
      (r.separating.length ? `; ${r.separating.length} separate the readings` : "") +
      ` (${r.title || r.file})`;
    for (const c of r.cases) cases.append(caseNode(c));
  } catch (err) {
    $("reading-summary").className = "bad";
    $("reading-summary").textContent = err.message;
  }
}

async function loadReading(name) {
  if (!name) return;
  $("reading").value = name;
  const r = await api(`/api/workbench/reading?name=${encodeURIComponent(name)}`);
  $("reading-text").value = r.text;
  $("reading-text").dataset.edited = "0";
}

// -- the audit -----------------------------------------------------------------------------

function drawPlot(plot) {
  const W = 560, H = 300, L = 60, R = 16, T = 30, B = 80;
  const pts = plot.points;
  let lo = Math.min(...pts.map((p) => p.lo)), hi = Math.max(...pts.map((p) => p.hi));
  if (plot.kind === "rate") { lo = Math.min(0, lo); }
  if (hi === lo) { hi += 1; lo -= plot.kind === "rate" ? 0 : 1; }
  const y = (v) => T + (H - T - B) * (1 - (v - lo) / (hi - lo));
  const x = (i) => L + (W - L - R) * (i + 0.5) / pts.length;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", plot.title);
  const add = (tag, attrs, text) => {
    const n = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, String(v));
    if (text !== undefined) n.textContent = text;
    svg.append(n);
    return n;
  };
  add("text", {x: W / 2, y: 18, "text-anchor": "middle", class: "title"}, plot.title);
  for (let k = 0; k <= 4; k++) {
    const v = lo + (hi - lo) * k / 4;
    add("line", {x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid"});
    add("text", {x: L - 6, y: y(v) + 4, "text-anchor": "end", class: "tick"},
        plot.kind === "rate" ? `${Math.round(v * 100)}%` : v.toFixed(2));
  }
  pts.forEach((p, i) => {
    add("line", {x1: x(i), x2: x(i), y1: y(p.lo), y2: y(p.hi), class: "ci"});
    for (const v of [p.lo, p.hi]) add("line", {x1: x(i) - 5, x2: x(i) + 5, y1: y(v), y2: y(v), class: "ci"});
    const dot = add("circle", {cx: x(i), cy: y(p.value), r: 5, class: p.base ? "dot base" : "dot"});
    const title = document.createElementNS(ns, "title");
    title.textContent = `${p.label}: ${plot.kind === "rate" ? `${(p.value * 100).toFixed(1)}%` : p.value.toFixed(3)}` +
      ` (95% ${p.lo.toFixed(3)} to ${p.hi.toFixed(3)})${p.mark ? ` ${p.mark}` : ""}`;
    dot.append(title);
    if (p.mark) add("text", {x: x(i) + 8, y: y(p.hi) - 2, class: "mark"}, p.mark);
    const label = add("text", {x: x(i), y: H - B + 16, "text-anchor": "end", class: "label",
                               transform: `rotate(-30 ${x(i)} ${H - B + 16})`}, p.label);
    label.setAttribute("data-base", p.base ? "1" : "0");
  });
  $("plot").replaceChildren(svg);
}

async function runAudit(event) {
  event.preventDefault();
  const status = $("audit-status");
  status.className = "";
  status.textContent = "playing…";
  $("run-audit").disabled = true;
  try {
    const r = await api("/api/workbench/audit", specBody({
      option: $("option").value, games: Number($("games").value) || 40,
      players: Number($("audit-players").value) || null, seed: Number($("audit-seed").value) || 0}));
    status.className = "good";
    status.textContent = `${r.game}, ${r.players} players: ${r.matches} matches, ${r.games} for each value of ${r.option}`;
    const sel = $("measure");
    sel.replaceChildren();
    for (const p of r.plots) sel.append(el("option", {value: p.key, text: p.title}));
    $("measure-label").hidden = r.plots.length === 0;
    const show = () => drawPlot(r.plots.find((p) => p.key === sel.value) || r.plots[0]);
    sel.onchange = show;
    if (r.plots.length) show();
  } catch (err) {
    status.className = "bad";
    status.textContent = err.message;
  } finally {
    $("run-audit").disabled = $("option").options.length === 0;
  }
}

// -- opening and saving ---------------------------------------------------------------------

async function openSpec(event) {
  if (event) event.preventDefault();
  try {
    const r = await api(`/api/workbench/open?spec=${encodeURIComponent($("spec").value)}&surface=${$("surface").value}`);
    setText(r.text, r.file, r.spec, r.surface);
    if (r.reading) await loadReading(r.reading);
  } catch (err) {
    showProblems({problems: [{severity: "error", text: err.message}]});
  }
}

function download(text, name) {
  const url = URL.createObjectURL(new Blob([text], {type: "text/plain;charset=utf-8"}));
  const a = el("a", {href: url, download: name});
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function saveName() {
  const ext = state.surface === "dsl" ? ".spel" : ".yaml";
  return state.file.startsWith("<") ? `spec${ext}` : state.file.replace(/\.(yaml|spel)$/, "") + ext;
}

function selectTab(id) {
  for (const tab of document.querySelectorAll('[role="tab"]')) {
    const on = tab.id === id;
    tab.setAttribute("aria-selected", on ? "true" : "false");
    $(tab.getAttribute("aria-controls")).hidden = !on;
  }
}

function init() {
  const t = $("text");
  t.addEventListener("input", () => { drawGutter(); schedule(); });
  t.addEventListener("scroll", () => { $("gutter").scrollTop = t.scrollTop; });
  for (const ev of ["keyup", "click", "select"]) t.addEventListener(ev, showCaret);
  t.addEventListener("keydown", (e) => {
    if (e.key === "Tab" && !e.shiftKey && !e.ctrlKey && !e.altKey && !e.metaKey) {
      e.preventDefault();  // YAML indents with spaces
      t.setRangeText("  ", t.selectionStart, t.selectionEnd, "end");
      drawGutter(); schedule();
    }
  });
  $("opener").addEventListener("submit", openSpec);
  $("surface").addEventListener("change", () => {
    if (state.near === null) { state.surface = $("surface").value; state.sent = null; schedule(0); }
  });
  $("paste").addEventListener("click", () => {
    setText("", "<pasted>", null, $("surface").value);
    $("prose").textContent = "";
    t.focus();
  });
  $("save").addEventListener("click", () => download(t.value, saveName()));
  $("save-reading").addEventListener("click", () => download($("reading-text").value, `${$("reading").value || "reading"}.yaml`));
  $("reading").addEventListener("change", () => loadReading($("reading").value));
  $("reading-text").addEventListener("input", () => { $("reading-text").dataset.edited = "1"; });
  $("reading-form").addEventListener("submit", runReadings);
  $("audit-form").addEventListener("submit", runAudit);
  $("players").addEventListener("change", () => { state.sent = null; schedule(0); });
  for (const tab of document.querySelectorAll('[role="tab"]')) tab.addEventListener("click", () => selectTab(tab.id));
  const wanted = new URLSearchParams(location.search).get("spec");
  if (wanted && [...$("spec").options].some((o) => o.value === wanted)) $("spec").value = wanted;
  openSpec();
}

init();
