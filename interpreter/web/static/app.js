// spelbok serve: the page. It draws what the server sends (a seat's view) and sends
// back notation; every rule check happens on the server. No framework, no network
// resources beyond this server.
"use strict";

const $ = (id) => document.getElementById(id);
let current = null;     // the last table the server sent
let timer = null;       // the pending bot move
let paused = false;
let picked = new Set(); // cards chosen for an exchange

async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    init.headers["Content-Type"] = "application/json";
  }
  const r = await fetch(path, init);
  const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) throw new Error(data.error || `HTTP ${r.status}`);
  return data;
}

function showError(e) { $("error").textContent = e ? String(e.message || e) : ""; }

function el(tag, cls, text) {
  const x = document.createElement(tag);
  if (cls) x.className = cls;
  if (text !== undefined) x.textContent = text;
  return x;
}

// a card from the server's description: its rank, suit symbol and colour
function cardEl(c, tag) {
  const x = el(tag || "span", "card " + (c.colour || "black"));
  x.dataset.card = c.name;
  x.appendChild(el("span", "rank", c.rank));
  x.appendChild(el("span", "sym", c.symbol || c.suit));
  x.setAttribute("aria-label", c.rank + (c.symbol || c.suit));
  return x;
}

function suitText(s) { return s ? s.symbol || s.suit : "none"; }

// -- setup ------------------------------------------------------------------------------

async function loadSpecs() {
  const data = await api("GET", "/api/specs");
  const sel = $("spec");
  for (const name of data.specs) sel.appendChild(new Option(name, name));
  const preferred = data.local[0] || (data.specs.includes("knektpass") ? "knektpass" : data.specs[0]);
  sel.value = preferred;
  await specChanged();
}

async function specChanged() {
  try {
    const info = await api("GET", "/api/spec?spec=" + encodeURIComponent($("spec").value));
    const p = $("players");
    p.min = info.players.min; p.max = info.players.max;
    if (+p.value < info.players.min || +p.value > info.players.max) p.value = info.players.min;
    seatChoices();
    const box = $("options");
    box.replaceChildren();
    for (const [name, o] of Object.entries(info.options)) {
      const label = el("label", "", name + " ");
      label.title = o.about;
      let input;
      if (Array.isArray(o.values)) {
        input = el("select");
        for (const v of o.values) input.appendChild(new Option(String(v), String(v)));
      } else {
        input = el("input");
        input.size = 6;
      }
      input.value = String(o.default);
      input.dataset.option = name;
      input.dataset.default = String(o.default);
      label.appendChild(input);
      box.appendChild(label);
    }
    $("rules").textContent = info.describe;
    showError("");
  } catch (e) { showError(e); }
}

function seatChoices() {
  const sel = $("seat"), n = +$("players").value || 2, keep = sel.value;
  sel.replaceChildren();
  for (let i = 0; i < n; i++) sel.appendChild(new Option("P" + i, String(i)));
  sel.appendChild(new Option("watch bots", "watch"));
  sel.value = [...sel.options].some((o) => o.value === keep) ? keep : "0";
}

async function start(ev) {
  ev.preventDefault();
  const options = {};
  for (const input of document.querySelectorAll("[data-option]"))
    if (input.value !== input.dataset.default) options[input.dataset.option] = input.value;
  const body = {
    spec: $("spec").value, players: +$("players").value,
    seat: $("seat").value === "watch" ? null : +$("seat").value,
    bots: $("bots").value.split(",").map((b) => b.trim()).filter(Boolean), options,
  };
  if ($("seed").value !== "") body.seed = +$("seed").value;
  try {
    show(await api("POST", "/api/matches", body));
  } catch (e) { showError(e); }
}

async function openLog() {
  const file = $("logfile").files[0];
  if (!file) return;
  try {
    show(await api("POST", "/api/replays", await file.text()));
  } catch (e) { showError(e); }
  $("logfile").value = "";
}

// -- the table --------------------------------------------------------------------------

function base() { return current.kind === "replay" ? "/api/replays/" + current.id : "/api/matches/" + current.id; }

function show(t) {
  current = t;
  picked = new Set();
  clearTimeout(timer);
  showError("");
  $("hinttext").textContent = "";
  history.replaceState(null, "", "#" + t.kind + "=" + t.id);
  $("table").hidden = false;
  const names = t.names;
  // the bar: hand, dealer, trump, turn-up, talon
  const info = $("info");
  info.replaceChildren();
  info.appendChild(el("span", "", `${t.game} · hand ${t.hand_number}`));
  info.appendChild(el("span", "", "dealer " + names[t.dealer]));
  const tr = el("span", "", "trump ");
  const ts = el("span", "suit " + (t.trump ? t.trump.colour : ""), suitText(t.trump));
  ts.id = "trump";
  tr.appendChild(ts);
  info.appendChild(tr);
  if (t.turn_up.length) {
    const tu = el("span", "", "turn-up ");
    for (const c of t.turn_up) tu.appendChild(el("b", "suit " + c.colour, c.rank + c.symbol + " "));
    info.appendChild(tu);
  }
  if (t.talon) info.appendChild(el("span", "", "talon " + t.talon));
  if (t.kind !== "replay") info.appendChild(el("span", "", "seed " + t.seed));
  // the seats: cards held, tricks, score, out
  const seats = $("seats");
  seats.replaceChildren();
  for (let p = 0; p < t.players; p++) {
    const s = el("div", "seat" + (t.current_player === p ? " current" : "") + (t.out[p] ? " out" : ""));
    s.dataset.seat = p;
    s.appendChild(el("div", "", names[p] + (t.bots && t.bots[p] ? " (" + t.bots[p] + ")" : "")));
    s.appendChild(el("div", "score", String(t.scores[p])));
    s.appendChild(el("div", "", `${t.hand_sizes[p]} cards · ${t.tricks[p] || 0} tricks`));
    if (t.out[p]) s.appendChild(el("div", "", "out"));
    if (t.shown && t.shown[p] && t.shown[p].length) {  // cards shown to all (a dummy, melds)
      const d = el("div", "cards shown");
      d.setAttribute("aria-label", names[p] + " shows");
      for (const c of t.shown[p]) d.appendChild(cardEl(c));
      s.appendChild(d);
    }
    seats.appendChild(s);
  }
  // the trick as it forms, and the last one with its winner
  const trick = $("trick");
  trick.replaceChildren();
  for (const [p, c] of t.trick) {
    const x = cardEl(c);
    x.classList.add("trick-card");
    x.appendChild(el("span", "who", names[p]));
    trick.appendChild(x);
  }
  const last = $("last");
  last.replaceChildren();
  $("lastwin").textContent = "";
  if (t.last_trick) {
    for (const [p, c] of t.last_trick.cards) {
      const x = cardEl(c);
      x.classList.add("trick-card");
      if (p === t.last_trick.winner) x.classList.add("winner");
      x.appendChild(el("span", "who", names[p]));
      last.appendChild(x);
    }
    $("lastwin").textContent = `trick ${t.tricks_played}: won by ${names[t.last_trick.winner]}`
      + (t.last_trick.why ? ` (${t.last_trick.why})` : "");
  }
  // whose turn, or the end
  let turn;
  if (t.terminal) {
    const w = t.winners.map((p) => names[p]).join(", ");
    turn = t.winners.includes(t.seat) && t.kind === "match" && t.human !== null ? `You win! (${w})` : "Match over: " + w + " won";
  } else if (t.kind === "match" && t.current_player === t.human) {
    turn = "Your turn: " + (t.decision || "play");
  } else {
    turn = `${names[t.current_player]} to ${t.decision || "play"}`;
  }
  $("turn").textContent = turn;
  $("handtitle").textContent = t.kind === "match" && t.human !== null ? "Your hand" : names[t.seat] + "'s hand";
  drawHand(t);
  drawActions(t);
  // controls by mode
  const watching = t.kind === "match";
  $("hintbox").hidden = !(watching && t.human !== null && t.current_player === t.human);
  $("watchbox").hidden = !(watching && (t.human === null || t.bot_turn));
  $("replaybox").hidden = t.kind !== "replay";
  if (t.kind === "replay")
    $("pos").textContent = `${t.pos} / ${t.total}` + (t.next ? ` · next: ${t.next}` : "");
  // a replay or a watcher chooses whose cards to see
  $("seenby").hidden = !(t.kind === "replay" || t.human === null);
  const vs = $("viewseat");
  if (vs.options.length !== t.players) {
    vs.replaceChildren();
    for (let p = 0; p < t.players; p++) vs.appendChild(new Option("P" + p, String(p)));
  }
  vs.value = String(t.seat);
  const dl = $("download");
  dl.hidden = !(t.kind === "match" && t.terminal);
  dl.href = t.kind === "match" ? base() + "/log" : "#";
  dl.download = `spelbok-${t.seed}.json`;
  $("log").textContent = t.log.join("\n");
  $("log").scrollTop = $("log").scrollHeight;
  if (t.kind === "match" && t.bot_turn && !paused) {
    timer = setTimeout(advance, t.human === null ? +$("speed").value : Math.min(+$("speed").value, 600));
  }
}

function myTurn(t) { return t.kind === "match" && t.human !== null && t.current_player === t.human && !t.terminal; }

function drawHand(t) {
  const hand = $("hand");
  hand.replaceChildren();
  hand.classList.toggle("mine", myTurn(t));
  for (const c of t.hand) {
    const b = cardEl(c, "button");
    b.type = "button";
    if (myTurn(t)) {
      const pickable = t.exchange !== null;
      const ok = c.legal || pickable;
      b.setAttribute("aria-disabled", ok ? "false" : "true");
      if (ok) b.classList.add("playable");
      b.title = ok ? (pickable ? "choose to " + t.exchange.verb : "play " + c.name) : c.reason;
      b.addEventListener("click", () => {
        if (pickable) {
          picked.has(c.name) ? picked.delete(c.name) : picked.add(c.name);
          b.classList.toggle("picked");
          $("exchange-go").textContent = `${t.exchange.verb} ${[...picked].join(" ")}`.trim();
        } else if (c.legal) {
          act(c.name);
        } else {
          showError(c.name + ": " + c.reason);
        }
      });
    } else {
      b.setAttribute("aria-disabled", "true");
      b.tabIndex = -1;
    }
    hand.appendChild(b);
  }
}

function drawActions(t) {
  const box = $("actions");
  box.replaceChildren();
  if (!myTurn(t)) return;
  for (const a of t.actions) {
    const b = el("button", "action");
    b.type = "button";
    b.dataset.action = a.text;
    b.appendChild(document.createTextNode(a.verb));
    for (const c of a.cards) {
      b.appendChild(document.createTextNode(" "));
      b.appendChild(el("span", "suit " + (c.colour || ""), (c.rank || "") + (c.symbol || c.suit)));
    }
    b.addEventListener("click", () => act(a.text));
    box.appendChild(b);
  }
  if (t.exchange) {
    const b = el("button", "action", t.exchange.verb);
    b.id = "exchange-go";
    b.type = "button";
    b.addEventListener("click", () => act(`${t.exchange.verb} ${[...picked].join(" ")}`.trim()));
    box.appendChild(b);
  }
}

async function act(text) {
  try {
    show(await api("POST", base() + "/act", { action: text, step: current.step }));
  } catch (e) { showError(e); }
}

async function advance() {
  if (!current || current.kind !== "match" || !current.bot_turn) return;
  try {
    show(await api("POST", base() + "/advance", { step: current.step }));
  } catch (e) { showError(e); }
}

async function hint() {
  try {
    const r = await api("POST", base() + "/hint", { bot: $("hintbot").value });
    $("hinttext").textContent = `${r.bot} suggests ${r.action}`;
    for (const b of document.querySelectorAll("#hand .card, #actions .action"))
      if ((b.dataset.card || b.dataset.action) === r.action) b.focus();
  } catch (e) { showError(e); }
}

async function goto(pos) {
  try {
    show(await api("POST", base() + "/goto", { pos: Math.max(0, Math.min(current.total, pos)) }));
  } catch (e) { showError(e); }
}

async function resume() {
  const m = /^#(match|replay)=([\w-]+)$/.exec(location.hash);
  if (!m) return;
  try {
    const t = await api("GET", (m[1] === "replay" ? "/api/replays/" : "/api/matches/") + m[2]);
    if ([...$("spec").options].some((o) => o.value === t.spec)) {
      $("spec").value = t.spec;  // the rules beside the table are this match's
      await specChanged();
    }
    show(t);
  } catch (e) { showError(e); }
}

function tab(which) {
  for (const name of ["log", "rules"]) {
    $(name).hidden = name !== which;
    $("tab-" + name).setAttribute("aria-selected", String(name === which));
  }
}

$("setup").addEventListener("submit", start);
$("spec").addEventListener("change", specChanged);
$("players").addEventListener("change", seatChoices);
$("logfile").addEventListener("change", openLog);
$("hint").addEventListener("click", hint);
$("pause").addEventListener("click", () => {
  paused = !paused;
  $("pause").textContent = paused ? "Play" : "Pause";
  if (!paused) advance();
});
$("first").addEventListener("click", () => goto(0));
$("back").addEventListener("click", () => goto(current.pos - 1));
$("fwd").addEventListener("click", () => goto(current.pos + 1));
$("last-step").addEventListener("click", () => goto(current.total));
$("viewseat").addEventListener("change", async () => {
  try { show(await api("POST", base() + "/seat", { seat: +$("viewseat").value })); } catch (e) { showError(e); }
});
$("tab-log").addEventListener("click", () => tab("log"));
$("tab-rules").addEventListener("click", () => tab("rules"));
document.addEventListener("keydown", (ev) => {
  if (!current || current.kind !== "replay" || ev.target.tagName === "INPUT") return;
  if (ev.key === "ArrowRight") goto(current.pos + 1);
  if (ev.key === "ArrowLeft") goto(current.pos - 1);
});
loadSpecs().then(resume);
