// spelbok serve: the page. It draws what the server sends (a seat's view: see
// web/tableview.py) and sends back notation; every rule check happens on the server.
// No framework, no network resources beyond this server.
"use strict";

const $ = (id) => document.getElementById(id);
let current = null;     // the last table the server sent
let timer = null;       // the pending bot move
let paused = false;
let picked = new Set(); // cards chosen for an exchange or a play: their places in the hand
                        // (a pack of two decks holds two cards of one name)
let finalSeen = null;   // the match whose final table was closed

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
function cardName(c) { return c.rank + (c.symbol || c.suit); }

function cardEl(c, tag) {
  const x = el(tag || "span", "card " + (c.colour || "black"));
  x.dataset.card = c.name;
  x.appendChild(el("span", "rank", c.rank));
  x.appendChild(el("span", "sym", c.symbol || c.suit));
  x.setAttribute("aria-label", cardName(c));
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

function drawRules(blocks) {
  // describe's prose as headings and paragraphs (web/rules.py), not hard-wrapped text
  const box = $("rules");
  box.replaceChildren();
  for (const b of blocks) {
    const x = el(b.kind === "title" ? "h3" : b.kind === "heading" ? "h4" : "p", "", b.text);
    if (b.indent) x.style.marginLeft = b.indent * 0.5 + "em";
    box.appendChild(x);
  }
}

let rulesFor = null;  // the spec and player count the Rules tab describes

async function loadRules(spec, players) {
  if (rulesFor === spec + ":" + players) return;
  const info = await api("GET", "/api/spec?spec=" + encodeURIComponent(spec)
    + (players ? "&players=" + players : ""));
  drawRules(info.rules);
  rulesFor = spec + ":" + players;
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
    if (+p.value === info.described_for) {
      drawRules(info.rules);
      rulesFor = $("spec").value + ":" + p.value;
    } else await loadRules($("spec").value, +p.value);
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
  if ($("hands").value !== "") body.max_hands = +$("hands").value;
  try {
    const t = await api("POST", "/api/matches", body);
    await loadRules(t.spec, t.players).catch(() => {});  // the rules for this many players
    $("setupbox").open = false;
    show(t);
  } catch (e) { showError(e); }
}

async function openLog() {
  const file = $("logfile").files[0];
  if (!file) return;
  try {
    show(await api("POST", "/api/replays", await file.text()));
    $("setupbox").open = false;
  } catch (e) { showError(e); }
  $("logfile").value = "";
}

// -- the table --------------------------------------------------------------------------

function base() { return current.kind === "replay" ? "/api/replays/" + current.id : "/api/matches/" + current.id; }

function placeOf(t) {
  // each seat's side of the table (the server places them: tableview.around)
  const at = {};
  for (const [side, seats] of Object.entries(t.around)) for (const p of seats) at[p] = side;
  return at;
}

function seatEl(t, p) {
  const names = t.names;
  const s = el("div", "seat" + (t.current_player === p && !t.terminal ? " current" : "") + (t.out[p] ? " out" : ""));
  s.dataset.seat = p;
  s.style.order = String((p - t.seat + t.players) % t.players);
  const head = el("div", "");
  head.appendChild(el("span", "name", names[p] + (t.bots && t.bots[p] ? " (" + t.bots[p] + ")" : "")));
  if (t.dealer === p) head.appendChild(el("span", "dealer", "dealer"));
  s.appendChild(head);
  s.appendChild(el("span", "score", String(t.scores[p])));
  s.appendChild(el("span", "count", ` · ${t.hand_sizes[p]} cards · ${t.tricks[p] || 0} tricks`));
  if (t.aside_sizes && t.aside_sizes[p]) {  // cards laid aside face down (a concealed trump)
    s.appendChild(el("span", "aside", ` · ${t.aside_sizes[p]} face down`));
  }
  if (t.out[p]) s.appendChild(el("div", "", "out"));
  else if (t.sitting_out && t.sitting_out[p]) s.appendChild(el("div", "", "sits this hand out"));
  if (t.shown && t.shown[p] && t.shown[p].length) {  // cards shown to all (a dummy, melds)
    const d = el("div", "cards shown");
    d.setAttribute("aria-label", names[p] + " shows");
    for (const c of t.shown[p]) {
      if (c.legal === undefined) { d.appendChild(cardEl(c)); continue; }
      // a dummy's turn: the seat to act plays one of these cards (the legal ones)
      const b = cardEl(c, "button");
      b.type = "button";
      b.setAttribute("aria-disabled", c.legal ? "false" : "true");
      b.classList.add(c.legal ? "playable" : "illegal");
      b.title = (c.legal ? "play " : "may not play ") + cardName(c);
      b.addEventListener("click", () => { if (myTurn(current) && c.legal) act(c.name); });
      d.appendChild(b);
    }
    s.appendChild(d);
  }
  return s;
}

function drawSeats(t) {
  for (const side of ["top", "left", "right", "bottom"]) {
    const box = $("side-" + side);
    box.replaceChildren();
    for (const p of t.around[side]) box.appendChild(seatEl(t, p));
  }
}

function drawTrick(t) {
  const at = placeOf(t), names = t.names;
  const trick = $("trick");
  trick.replaceChildren();
  const slots = {};
  for (const [p, c] of t.trick) {
    const side = at[p] || "top";
    if (!slots[side]) { slots[side] = el("div", "slot at-" + side); trick.appendChild(slots[side]); }
    const x = cardEl(c);
    x.classList.add("trick-card");
    x.appendChild(el("span", "who", names[p]));
    slots[side].appendChild(x);
  }
  const last = $("last");
  last.replaceChildren();
  $("lastwin").textContent = "";
  $("lastbox").hidden = !t.last_trick;
  if (t.last_trick) {
    for (const [p, c] of t.last_trick.cards) {
      const x = cardEl(c);
      x.title = names[p];
      if (p === t.last_trick.winner) x.classList.add("winner");
      last.appendChild(x);
    }
    // a winner of -1: a tied trick, won by nobody (ranking.equal_best: tie)
    const taker = t.last_trick.winner < 0 ? "the trick is tied" : names[t.last_trick.winner];
    $("lastwin").textContent = `trick ${t.tricks_played}: ${taker}`
      + (t.last_trick.why ? ` (${t.last_trick.why})` : "");
  }
}

function drawInfo(t) {
  const info = $("info");
  info.replaceChildren();
  info.appendChild(el("span", "", `${t.game} · hand ${t.hand_number}`));
  const tr = el("span", "", "trump ");
  const ts = el("span", "suit " + (t.trump ? t.trump.colour : ""), suitText(t.trump));
  ts.id = "trump";
  tr.appendChild(ts);
  info.appendChild(tr);
  if (t.turn_up.length) {
    const tu = el("span", "", "turn-up ");
    for (const c of t.turn_up) tu.appendChild(el("b", "suit " + c.colour, cardName(c) + " "));
    info.appendChild(tu);
  }
  if (t.shown_aside && t.shown_aside.length) {
    const sa = el("span", "", "shown aside ");
    sa.id = "shown-aside";
    for (const c of t.shown_aside) sa.appendChild(el("b", "suit " + c.colour, cardName(c) + " "));
    info.appendChild(sa);
  }
  if (t.own_aside && t.own_aside.length) {  // the viewer's own cards laid aside: his alone
    const oa = el("span", "", "laid aside (face down) ");
    oa.id = "own-aside";
    for (const c of t.own_aside) oa.appendChild(el("b", "suit " + c.colour, cardName(c) + " "));
    info.appendChild(oa);
  }
  if (t.talon) info.appendChild(el("span", "", "talon " + t.talon));
  if (t.kind !== "replay") info.appendChild(el("span", "", "seed " + t.seed));
}

function show(t) {
  const sameMoment = current && current.id === t.id && current.step === t.step;
  current = t;
  if (!sameMoment) picked = new Set();
  clearTimeout(timer);
  showError("");
  $("hinttext").textContent = "";
  history.replaceState(null, "", "#" + t.kind + "=" + t.id);
  $("table").hidden = false;
  const names = t.names;
  drawInfo(t);
  drawSeats(t);
  drawTrick(t);
  let turn;
  if (t.terminal) {
    turn = t.final ? t.final.verdict : "Match over";
  } else if (myTurn(t)) {
    turn = "Your turn: " + (t.decision || "play");
  } else {
    turn = `${names[t.current_player]} to ${t.decision || "play"}`;
  }
  $("turn").textContent = turn;
  $("hand").setAttribute("aria-label", t.kind === "match" && t.human !== null ? "Your hand" : names[t.seat] + "'s hand");
  drawHand(t);
  drawActions(t);
  // controls by mode
  const isMatch = t.kind === "match";
  $("hintbox").hidden = !myTurn(t);
  $("undo").hidden = !(isMatch && t.human !== null);
  $("undo").disabled = !t.can_undo;
  $("watchbox").hidden = !(isMatch && (t.human === null || t.bot_turn));
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
  for (const id of ["download", "final-download"]) {
    const dl = $(id);
    dl.hidden = !(isMatch && t.terminal);
    dl.href = isMatch ? base() + "/log" : "#";
    dl.download = `spelbok-${t.seed}.json`;
  }
  $("showfinal").hidden = !(t.terminal && t.final);
  drawFinal(t);
  $("log").textContent = t.log.join("\n");
  $("log").scrollTop = $("log").scrollHeight;
  if (isMatch && t.bot_turn && !paused) {
    timer = setTimeout(advance, t.human === null ? +$("speed").value : Math.min(+$("speed").value, 600));
  } else if (myTurn(t) && !sameMoment) {
    focusFirst();
  }
}

function drawFinal(t) {
  // the final score screen: each seat's score, the winners, and the rule that made them
  const box = $("final");
  const closed = finalSeen === t.id + ":" + t.step || (t.kind === "replay" && finalSeen !== "ask");
  if (!t.terminal || !t.final || closed) { box.hidden = true; return; }
  $("final-title").textContent = t.final.verdict;
  const body = $("final-table").tBodies[0];
  body.replaceChildren();
  for (const r of t.final.rows) {
    const tr = el("tr", r.winner ? "won" : "");
    tr.appendChild(el("td", "", r.name));
    tr.appendChild(el("td", "num", String(r.score)));
    tr.appendChild(el("td", "", r.winner ? "★ winner" : ""));
    body.appendChild(tr);
  }
  $("final-why").textContent = t.final.why ? "Why: " + t.final.why : "";
  $("final-note").textContent = t.final.note;
  box.hidden = false;
  $("final-close").focus();
}

function myTurn(t) { return t.kind === "match" && t.human !== null && t.current_player === t.human && !t.terminal; }

function exchangeText(t) {
  const x = t.exchange, n = picked.size;
  if (!n) return x.min === x.max ? `${x.verb}: choose ${x.min} card${x.min === 1 ? "" : "s"}`
    : `${x.verb}: choose ${x.min}–${x.max} cards`;
  const shown = t.hand.filter((c, i) => picked.has(i)).map(cardName).join(" ");
  return `${x.verb} ${shown}`;
}

function updateExchange(t) {
  const go = $("exchange-go");
  if (!go) return;
  go.textContent = exchangeText(t);
  // plays of several cards, too many to list: how many, the engine judges the cards sent
  if (t.exchange.count) go.title = `${t.exchange.count.toLocaleString("en")} legal plays`;
  go.disabled = picked.size < t.exchange.min || picked.size > t.exchange.max || picked.size === 0;
}

function drawHand(t) {
  const hand = $("hand");
  hand.replaceChildren();
  const mine = myTurn(t);
  hand.classList.toggle("mine", mine);
  t.hand.forEach((c, i) => {
    const b = cardEl(c, "button");
    b.type = "button";
    // cards to pick (an exchange, or a play of several cards: those no play holds stay dimmed)
    const pickable = mine && t.exchange !== null && c.legal !== false;
    const ok = mine && (c.legal || pickable);
    b.setAttribute("aria-disabled", ok ? "false" : "true");
    if (ok) b.classList.add("playable");
    if (pickable && picked.has(i)) b.classList.add("picked");
    if (c.reason) {  // a card play, and this card may not be played: dimmed, and why
      b.classList.add("illegal");
      b.title = cardName(c) + ": " + c.reason;
    } else if (ok) {
      b.title = pickable ? "choose " + cardName(c) + " to " + t.exchange.verb : "play " + cardName(c);
    }
    if (!mine) b.tabIndex = -1;
    b.addEventListener("click", () => {
      if (!myTurn(current)) return;
      if (pickable) {
        picked.has(i) ? picked.delete(i) : picked.add(i);
        b.classList.toggle("picked");
        updateExchange(t);
      } else if (c.legal) {
        act(c.name);
      } else if (c.reason) {
        showError(cardName(c) + ": " + c.reason);  // a tap says why, and sends nothing
      }
    });
    hand.appendChild(b);
  });
}

function drawActions(t) {
  const box = $("actions");
  box.replaceChildren();
  if (!myTurn(t)) return;
  t.actions.forEach((a, i) => {  // one button per distinct choice (the server's labels)
    const b = el("button", "action", a.label);
    b.type = "button";
    b.dataset.action = a.text;
    if (i < 9) b.title = `key ${i + 1}`;
    b.addEventListener("click", () => act(a.text));
    box.appendChild(b);
  });
  if (t.exchange) {
    const b = el("button", "action exchange");
    b.id = "exchange-go";
    b.type = "button";
    b.addEventListener("click", () => act(`${t.exchange.verb} ${t.hand.filter((c, i) => picked.has(i)).map((c) => c.name).join(" ")}`.trim()));
    box.appendChild(b);
    updateExchange(t);
  }
}

function focusFirst() {
  const first = document.querySelector("#hand .card.playable:not(.picked), #actions button.action");
  if (first && $("final").hidden) first.focus({ preventScroll: true });
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

async function undo() {
  try {
    show(await api("POST", base() + "/undo", { step: current.step }));
    $("hinttext").textContent = "Taken back: your last decision.";
  } catch (e) { showError(e); }
}

async function hint() {
  try {
    const r = await api("POST", base() + "/hint", { bot: $("hintbot").value });
    $("hinttext").textContent = r.sentence;
    for (const b of document.querySelectorAll("#hand .card, #actions .action")) {
      const hit = (b.dataset.card || b.dataset.action) === r.action;
      b.classList.toggle("suggested", hit);
      if (hit) b.focus({ preventScroll: true });
    }
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
      await loadRules(t.spec, t.players).catch(() => {});
    }
    $("setupbox").open = false;
    show(t);
  } catch (e) { showError(e); }
}

function tab(which) {
  for (const name of ["log", "rules"]) {
    $(name).hidden = name !== which;
    $("tab-" + name).setAttribute("aria-selected", String(name === which));
  }
}

// -- the keyboard -----------------------------------------------------------------------

function onKey(ev) {
  if (!current || ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const tag = ev.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  if (!$("final").hidden) {
    if (ev.key === "Escape") closeFinal();
    return;
  }
  if (current.kind === "replay") {
    if (ev.key === "ArrowRight") goto(current.pos + 1);
    if (ev.key === "ArrowLeft") goto(current.pos - 1);
    return;
  }
  if (!myTurn(current)) return;
  const cards = [...document.querySelectorAll("#hand .card")];
  const at = cards.indexOf(document.activeElement);
  if (ev.key === "ArrowRight" || ev.key === "ArrowLeft") {  // move along the hand
    const step = ev.key === "ArrowRight" ? 1 : -1;
    const next = cards[at < 0 ? 0 : (at + step + cards.length) % cards.length];
    if (next) next.focus();
    ev.preventDefault();
  } else if (/^[1-9]$/.test(ev.key)) {  // the n-th decision
    const b = document.querySelectorAll("#actions button.action")[+ev.key - 1];
    if (b && !b.disabled) b.click();
  } else if (ev.key === "u" || ev.key === "U") {
    if (!$("undo").disabled) undo();
  } else if (ev.key === "h" || ev.key === "H") {
    hint();
  }
}

function closeFinal() {
  finalSeen = current.id + ":" + current.step;
  $("final").hidden = true;
}

$("setup").addEventListener("submit", start);
$("spec").addEventListener("change", specChanged);
$("players").addEventListener("change", () => {
  seatChoices();
  loadRules($("spec").value, +$("players").value).catch(showError);
});
$("logfile").addEventListener("change", openLog);
$("hint").addEventListener("click", hint);
$("undo").addEventListener("click", undo);
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
$("final-close").addEventListener("click", closeFinal);
$("final-new").addEventListener("click", () => {
  closeFinal();
  $("setupbox").open = true;
  $("start").focus();
});
$("showfinal").addEventListener("click", () => { finalSeen = "ask"; drawFinal(current); });
document.addEventListener("keydown", onKey);
loadSpecs().then(resume);
