// The Gold Rush page of goldrush serve: play against the agents, watch them, replay a record.
// What the server sends of a played game is the person's seat's knowledge only (Game.known_to); everything the
// server or a record says is put on the page as text (textContent, attributes), never as HTML.
"use strict";
const $ = (id) => document.getElementById(id);
const SUITS = "MSAC";
const SUIT_NAMES = ["Moons", "Suns", "Arms", "Crowns"];
const BUILDINGS = ["Farm", "Windmill", "Mine", "Gold Mine", "Trade Route", "Market", "Warehouse"];
const RESOURCES = ["Food", "Energy", "Ore", "Gold"];
const RANKS = ["Null", "Ace", "2", "3", "4", "5"];
const DICE = ["Moon", "Sun", "Arms", "Crown"];  // the production dice, in resource order (the rule sheet's names)
const ui = { mode: "play", play: null, watch: null, replay: null, picked: null, busy: false,
  watching: false, wake: null };  // watching: a Play loop is under way; wake: ends its wait between steps
const saved = new Kept("piecepack");  // what survives a reload, in this tab only
const steps = takingTurns();  // a watched game's steps, one after another however quickly they are asked for

function showError(error) { $("error").textContent = error.message || String(error); $("error").classList.remove("hidden"); }
function hideError() { $("error").classList.add("hidden"); }

// --- drawing a state: {names, knowledge, scores, over, winners, legal, your_turn, seat?} ---------------------

function pieceBox(known, piece, suitShown) {
  const code = known.face_up[piece] ?? known.identities[piece];
  const up = piece in known.face_up;
  const assays = known.assayed_by[piece].map((s) => el("span", { class: "dot" + s, title: "assayed by seat " + s }, "\u25CF"));
  const text = code ?? (suitShown === null ? "?" : SUITS[suitShown] + "?");
  const what = code ? `${SUIT_NAMES[SUITS.indexOf(code[0])]} ${RANKS[Number(code[1])]}` : "not seen";
  return el("div", { class: "piece" + (up ? "" : code ? " assayed" : " down"), title: (up ? "face up: " : "face down: ") + what,
    "data-piece": piece }, el("span", {}, text), el("span", { class: "dots" }, ...assays));
}

function drawField(state) {
  const known = state.knowledge;
  const field = $("field");
  field.replaceChildren();
  const produced = new Map(known.produced.map(([plot, resource, units]) => [plot, [resource, units]]));
  for (let row = 3; row >= 0; row--) {
    for (let col = 0; col < 6; col++) {
      const plot = 6 * row + col;
      const owner = known.owners[plot];
      const building = known.buildings[plot];
      const words = building >= 0 ? BUILDINGS[building] + (known.levels[plot] ? `, level ${known.levels[plot]}` : "") : "";
      const cell = el("div", { class: "plot" + (owner >= 0 ? " owned" + owner : "") + (ui.picked === plot ? " picked" : ""),
        "data-plot": plot, "data-testid": "plot-" + plot,
        title: `plot ${plot}` + (owner >= 0 ? `, ${state.names[owner]}'s` : ", unclaimed") },
      el("span", { class: "id" }, `plot ${plot}`),
      pieceBox(known, plot, null),
      pieceBox(known, 24 + plot, known.coin_suits[plot]),
      el("div", { class: "building" + (known.powered.includes(plot) ? " powered" : "") }, words || "\u00a0"),
      yieldBadge(plot, produced.get(plot)));
      cell.addEventListener("click", () => { ui.picked = ui.picked === plot ? null : plot; redraw(); });
      field.append(cell);
    }
  }
}

// What the plot's production building yielded this round (public): "+2 Ore", "+0 Food" when its die was too high.
function yieldBadge(plot, produced) {
  if (!produced) return "";
  const [resource, units] = produced;
  return el("div", { class: "yield" + (units ? "" : " none"), "data-testid": "yield-" + plot,
    title: `produced this round: ${units} ${RESOURCES[resource]}` }, `+${units} ${RESOURCES[resource]}`);
}

function drawHoldings(state) {
  const known = state.knowledge;
  const rows = state.names.map((name, s) => el("tr", { class: known.current_player === s ? "turn" : "" },
    el("td", {}, el("span", { class: "sw c" + s }), s), el("td", {}, name + (state.winners.includes(s) && state.over ? " \u2605" : "")),
    ...known.holdings[s].map((n) => el("td", { class: "num" }, n)),
    el("td", { class: "num" }, known.markers[s]), el("td", { class: "num" }, state.scores[s])));
  $("holdings").tBodies[0].replaceChildren(...rows);
}

function drawStatus(state) {
  const known = state.knowledge;
  const who = known.current_player === null ? "" : state.names[known.current_player];
  let text = `Round ${known.round} of 9: ${state.phase_words}`;
  if (!state.over) text += state.your_turn ? ": your turn" : `: ${who} to act`;
  $("status").textContent = text;
  const parts = [];
  if (known.dice) parts.push("Production dice: " + known.dice.map((face, die) => `${DICE[die]} ${face || "Null"}`).join(", "));
  if (known.market_sum !== null) parts.push(`Market roll: ${known.market_sum}`);
  if (known.pending_offer) {
    const [from, to, give, a, take, b] = known.pending_offer;
    parts.push(`Offer: ${state.names[from]} gives ${a} ${RESOURCES[give]} to ${state.names[to]} for ${b} ${RESOURCES[take]}`);
  }
  $("dice").replaceChildren(...parts.map((part) => el("div", {}, part)));
  $("dice").classList.toggle("hidden", !parts.length);
  $("pp-end").classList.toggle("hidden", !state.over);
  if (state.over) {
    $("end-title").textContent = `The game is over: ${winnersWin(state.names, state.winners)} (scores ${state.scores.join(", ")})`;
    $("end-save").classList.toggle("hidden", ui.mode === "replay");
    $("end-replay").classList.toggle("hidden", ui.mode === "replay");
  }
}

function drawChoices(state) {
  const box = $("choices");
  box.replaceChildren();
  if (ui.mode !== "play" || !state.your_turn || state.over) {
    box.append(el("span", { class: "hint" }, ui.mode === "play" && !state.over ? "Waiting for the other players." : "No choice to make here."));
    return;
  }
  const shown = ui.picked === null ? state.legal : state.legal.filter((c) => c.plot === ui.picked || c.plot === null);
  if (ui.picked !== null) box.append(el("div", { class: "hint" }, `Plot ${ui.picked}'s choices (click it again for all).`));
  const groups = new Map();  // by the choice's first word: Claim, Build, Offer, ...
  for (const choice of shown) {
    const kind = choice.text.split(" ")[0];
    if (!groups.has(kind)) groups.set(kind, []);
    groups.get(kind).push(choice);
  }
  for (const [kind, choices] of groups) {
    const group = el("div", { class: "group" }, el("b", {}, kind));
    for (const choice of choices) {
      const button = el("button", { class: "btn light", type: "button", "data-action": choice.action, "data-testid": "choice" }, choice.text);
      button.addEventListener("click", () => act(choice.action));
      group.append(button);
    }
    box.append(group);
  }
}

function drawLog(events, fresh) {
  const log = $("log");
  if (fresh) log.replaceChildren();
  for (const event of events) log.prepend(el("li", {}, event.text));
}

function current() { return ui.mode === "play" ? ui.play : ui.mode === "watch" ? ui.watch : ui.replay && ui.replay.data.frames[ui.replay.index]; }

function redraw() {
  const state = current();
  if (!state) {
    $("field").replaceChildren(); $("choices").replaceChildren(); $("holdings").tBodies[0].replaceChildren();
    $("status").textContent = ui.mode === "watch" ? "Choose the agents and deal." : ui.mode === "replay"
      ? "Load a record to replay it." : "Deal a game to start.";
    $("dice").classList.add("hidden"); $("pp-end").classList.add("hidden");
    return;
  }
  drawField(state); drawHoldings(state); drawStatus(state); drawChoices(state);
  document.body.dataset.drawn = String(Number(document.body.dataset.drawn || 0) + 1);  // for tests: a new state is drawn
}

// --- playing, watching, replaying ---------------------------------------------------------------------------

async function busy(work) {
  if (ui.busy) return;
  ui.busy = true; hideError();
  try { await work(); } catch (error) { showError(error); } finally { ui.busy = false; }
}

function seedOf(input) { return input.value === "" ? null : Number(input.value); }

// The server no longer has the game (dropped after a while without a request, or the server restarted): the page
// forgets it, shows the start of its tab again, and says so once.
function lostGame(kind, error) {
  ui[kind] = null;
  saved.drop(kind);
  if (kind === "watch") { $("watch-play").disabled = $("watch-step").disabled = true; $("watch-play").textContent = "Play"; }
  $("setup-" + kind).open = true;
  if (ui.mode === kind) { ui.picked = null; $("log").replaceChildren(); redraw(); }
  hideError();
  showNotice(goneWords(error));
}

// A game of `kind` the server sent ({id, state}), shown: from its first event (`events` null) or with those added.
function show(kind, data, events = null) {
  ui[kind] = { ...data.state, id: data.id, playing: kind === "watch" && ui.watch ? ui.watch.playing : false };
  if (kind === "watch") $("watch-play").disabled = $("watch-step").disabled = ui.watch.over;
  if (ui.mode !== kind) return;
  ui.picked = null;
  drawLog(events || data.state.events, events === null); redraw();
}

function startPlay(event) {
  event.preventDefault();
  busy(async () => {
    const body = { players: Number($("players").value), opponents: $("opponents").value, seat: Number($("seat").value),
      seed: seedOf($("seed")), name: nameOf($("name")) };
    const data = await api("POST", "/api/piecepack/games", body);
    // Only now that the new game is dealt is the old one let go: a refused deal leaves the game in play as it was.
    saved.hold("play", data.id, ui.play && !ui.play.over ? ui.play.id : null);
    showNotice("");
    show("play", data);
  });
}

function act(action) {
  busy(async () => {
    let data;
    try { data = await api("POST", `/api/piecepack/games/${ui.play.id}/act`, { action }); }
    catch (error) { if (gone(error)) { lostGame("play", error); return; } throw error; }
    show("play", data, data.events);
  });
}

function startWatch(event) {
  event.preventDefault();
  busy(async () => {
    const data = await api("POST", "/api/piecepack/watch", { agents: $("watch-agents").value, seed: seedOf($("watch-seed")) });
    if (ui.watch) ui.watch.playing = false;
    saved.hold("watch", data.id, ui.watch ? ui.watch.id : null);
    ui.watch = null;
    showNotice("");
    show("watch", data);
  });
}

async function stepWatch() {
  if (!ui.watch || ui.watch.over) return;
  const id = ui.watch.id;
  try {
    const data = await api("POST", `/api/piecepack/watch/${id}/step`);
    if (ui.watch && ui.watch.id === id) show("watch", data, data.events);  // not a game dealt since
  } catch (error) { if (gone(error)) lostGame("watch", error); else throw error; }
}

// A game the page had before a reload (or Back then Forward): shown as the server has it now.
async function resume(kind) {
  try {
    const data = await saved.resume(kind);
    if (data) show(kind, data);
  } catch (error) { if (gone(error)) lostGame(kind, error); else showError(error); }
}

// Play steps the watched game at the pace of the Speed control, read at every step (a change tells at the next one);
// Pause stops it at once, even in the middle of a slow wait between steps.
async function toggleWatch() {
  if (!ui.watch) return;
  ui.watch.playing = !ui.watch.playing;
  $("watch-play").textContent = ui.watch.playing ? "Pause" : "Play";
  if (ui.wake) ui.wake();  // a loop waiting between steps looks again now
  if (!ui.watch.playing || ui.watching) return;  // a loop still under way goes on
  ui.watching = true;
  try {
    while (ui.watch && ui.watch.playing && !ui.watch.over && ui.mode === "watch") {
      try { await steps(stepWatch); } catch (error) { showError(error); ui.watch.playing = false; }
      await new Promise((done) => { ui.wake = done; setTimeout(done, delay()); });
      ui.wake = null;
    }
  } finally { ui.watching = false; }
  $("watch-play").textContent = "Play";
}

async function loadReplay(text, index = 0) {
  await busy(async () => {
    let record;
    try { record = JSON.parse(text); } catch (error) { throw new Error("the record is not valid JSON: " + error.message); }
    const data = await api("POST", "/api/piecepack/replay", record);
    ui.replay = { data, index };
    if (text.length < 200000) saved.set("replay", text);
    for (const id of ["replay-first", "replay-back", "replay-forward", "replay-last", "replay-slider"]) $(id).disabled = false;
    $("replay-slider").max = data.frames.length - 1;
    showFrame(index);
  });
}

function showFrame(index) {
  if (!ui.replay) return;
  const frames = ui.replay.data.frames;
  ui.replay.index = Math.max(0, Math.min(frames.length - 1, index));
  saved.set("replay-index", String(ui.replay.index));
  $("replay-slider").value = ui.replay.index;
  $("replay-position").textContent = `action ${ui.replay.index} of ${frames.length - 1}`;
  if (ui.mode !== "replay") return;
  drawReplayLog();
  redraw();
}

// A step (-1 or +1) through the replay; nothing before a record is loaded.
function stepFrame(delta) { if (ui.replay) showFrame(ui.replay.index + delta); }

// The log as it stood at the frame shown, not the whole game's.
function drawReplayLog() {
  const { data, index } = ui.replay;
  drawLog(data.events.slice(0, data.frames[index].log_length), true);
}

function setMode(mode) {
  ui.mode = mode;
  saved.set("mode", mode);
  ui.picked = null;
  for (const tab of document.querySelectorAll("nav button")) tab.setAttribute("aria-selected", String(tab.dataset.mode === mode));
  for (const name of ["play", "watch", "replay"]) $("setup-" + name).classList.toggle("hidden", name !== mode);
  if (ui.watch) ui.watch.playing = false;
  $("log").replaceChildren();
  const state = current();
  if (state && state.events) drawLog(state.events, true);
  if (mode === "replay" && ui.replay) drawReplayLog();
  redraw();
}

function fillSeats() {
  const seats = Number($("players").value);
  $("seat").replaceChildren(...Array.from({ length: seats }, (_, s) => el("option", { value: s }, s)));
}

async function saveRecord() {
  await busy(async () => {
    const record = await api("GET", `/api/piecepack/games/${ui[ui.mode].id}/record`);
    const link = el("a", { href: URL.createObjectURL(new Blob([JSON.stringify(record)], { type: "application/json" })),
      download: "goldrush-piecepack-record.json" });
    link.click();
  });
}

async function replayThis() {
  const id = ui[ui.mode].id;
  let record;
  await busy(async () => { record = await api("GET", `/api/piecepack/games/${id}/record`); });
  if (!record) return;
  $("replay-input").value = JSON.stringify(record);
  setMode("replay");
  await loadReplay($("replay-input").value);
}

function init() {
  fillSeats();
  $("players").addEventListener("change", fillSeats);
  $("play-form").addEventListener("submit", startPlay);
  $("watch-form").addEventListener("submit", startWatch);
  $("watch-step").addEventListener("click", () => steps(stepWatch).catch(showError));
  $("watch-play").addEventListener("click", toggleWatch);
  nameSpeeds();
  for (const tab of document.querySelectorAll("nav button")) tab.addEventListener("click", () => setMode(tab.dataset.mode));
  $("replay-load").addEventListener("click", () => loadReplay($("replay-input").value));
  $("replay-file").addEventListener("change", async () => {
    const file = $("replay-file").files[0];
    if (file) { $("replay-input").value = await file.text(); await loadReplay($("replay-input").value); }
  });
  $("replay-first").addEventListener("click", () => showFrame(0));
  $("replay-back").addEventListener("click", () => stepFrame(-1));
  $("replay-forward").addEventListener("click", () => stepFrame(1));
  $("replay-last").addEventListener("click", () => showFrame(Infinity));
  $("replay-slider").addEventListener("input", () => showFrame(+$("replay-slider").value));
  $("end-save").addEventListener("click", saveRecord);
  $("end-replay").addEventListener("click", replayThis);
  document.addEventListener("keydown", (event) => {
    if (ui.mode !== "replay" || event.target.tagName === "TEXTAREA" || event.target.tagName === "INPUT") return;
    if (event.key === "ArrowRight") stepFrame(1);
    if (event.key === "ArrowLeft") stepFrame(-1);
  });
  const mode = saved.get("mode");
  setMode(["play", "watch", "replay"].includes(mode) ? mode : "play");
  resume("play");
  resume("watch");
  const record = saved.get("replay");
  if (record) { $("replay-input").value = record; loadReplay(record, Number(saved.get("replay-index") || 0)); }
}
init();
