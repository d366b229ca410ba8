// The Gold Rush page of goldrush serve: play against the agents, watch them, replay a record.
// What the server sends of a played game is the person's seat's knowledge only (Game.known_to); everything the
// server or a record says is put on the page as text (textContent, attributes), never as HTML.
"use strict";
const $ = (id) => document.getElementById(id);
const SUITS = "MSAC";
const SUIT_NAMES = ["Moons", "Suns", "Arms", "Crowns"];
const BUILDINGS = ["Farm", "Windmill", "Mine", "Gold Mine", "Trade Route", "Market", "Warehouse"];
const RESOURCES = ["Food", "Energy", "Ore", "Gold"];
const PHASES = {
  warehouse_food: "Warehouse: protect your Food?", warehouse_energy: "Warehouse: protect your Energy?",
  free_trade_turn: "Free Trade", offer_response: "an offer to answer", market_sell: "Market: sell",
  claim: "Stake Claim", development_turn: "Development", game_over: "the game is over",
};
const ui = { mode: "play", play: null, watch: null, replay: null, picked: null, busy: false };

function showError(error) { $("error").textContent = error.message || String(error); $("error").classList.remove("hidden"); }
function hideError() { $("error").classList.add("hidden"); }

// --- drawing a state: {names, knowledge, scores, over, winners, legal, your_turn, seat?} ---------------------

function pieceBox(known, piece, suitShown) {
  const code = known.face_up[piece] ?? known.identities[piece];
  const up = piece in known.face_up;
  const assays = known.assayed_by[piece].map((s) => el("span", { class: "dot" + s, title: "assayed by seat " + s }, "\u25CF"));
  const text = code ?? (suitShown === null ? "?" : SUITS[suitShown] + "?");
  const what = code ? `${SUIT_NAMES[SUITS.indexOf(code[0])]} ${code[1]}` : "not seen";
  return el("div", { class: "piece" + (up ? "" : code ? " assayed" : " down"), title: (up ? "face up: " : "face down: ") + what,
    "data-piece": piece }, el("span", {}, text), el("span", { class: "dots" }, ...assays));
}

function drawField(state) {
  const known = state.knowledge;
  const field = $("field");
  field.replaceChildren();
  for (let row = 3; row >= 0; row--) {
    for (let col = 0; col < 6; col++) {
      const plot = 6 * row + col;
      const owner = known.owners[plot];
      const building = known.buildings[plot];
      const words = building >= 0 ? BUILDINGS[building] + (known.levels[plot] ? ` +${known.levels[plot]}` : "") : "";
      const cell = el("div", { class: "plot" + (owner >= 0 ? " owned" + owner : "") + (ui.picked === plot ? " picked" : ""),
        "data-plot": plot, "data-testid": "plot-" + plot,
        title: `plot ${plot}` + (owner >= 0 ? `, ${state.names[owner]}'s` : ", unclaimed") },
      el("span", { class: "id" }, `plot ${plot}`),
      pieceBox(known, plot, null),
      pieceBox(known, 24 + plot, known.coin_suits[plot]),
      el("div", { class: "building" + (known.powered.includes(plot) ? " powered" : "") }, words || "\u00a0"));
      cell.addEventListener("click", () => { ui.picked = ui.picked === plot ? null : plot; redraw(); });
      field.append(cell);
    }
  }
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
  let text = `Round ${known.round} of 9: ${PHASES[known.phase] || known.phase}`;
  if (!state.over) text += state.your_turn ? ": your turn" : `: ${who} to act`;
  $("status").textContent = text;
  const parts = [];
  if (known.dice) parts.push("Dice: " + known.dice.map((face, die) => `${SUIT_NAMES[die]} ${face}`).join(", "));
  if (known.market_sum !== null) parts.push(`Market roll: ${known.market_sum}`);
  if (known.pending_offer) {
    const [from, to, give, a, take, b] = known.pending_offer;
    parts.push(`Offer: ${state.names[from]} gives ${a} ${RESOURCES[give]} to ${state.names[to]} for ${b} ${RESOURCES[take]}`);
  }
  $("dice").replaceChildren(...parts.map((part) => el("div", {}, part)));
  $("dice").classList.toggle("hidden", !parts.length);
  $("pp-end").classList.toggle("hidden", !state.over);
  if (state.over) {
    const names = state.winners.map((s) => state.names[s]).join(" and ");
    $("end-title").textContent = `The game is over: ${names} win${state.winners.length === 1 && names !== "you" ? "s" : ""}` +
      ` (scores ${state.scores.join(", ")})`;
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
  const forPlot = (choice) => ui.picked !== null && choice.text.includes(`plot ${ui.picked})`);
  const shown = ui.picked === null ? state.legal : state.legal.filter((c) => forPlot(c) || !c.text.includes("plot "));
  if (ui.picked !== null) box.append(el("div", { class: "hint" }, `Plot ${ui.picked}'s choices (click it again for all).`));
  const groups = new Map();
  for (const choice of shown) {
    const kind = choice.text.split("(")[0];
    if (!groups.has(kind)) groups.set(kind, []);
    groups.get(kind).push(choice);
  }
  for (const [kind, choices] of groups) {
    const group = el("div", { class: "group" }, el("b", {}, kind.toLowerCase().replaceAll("_", " ")));
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
  if (!state) { $("field").replaceChildren(); $("status").textContent = "Deal a game to start."; $("choices").replaceChildren(); return; }
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

function startPlay(event) {
  event.preventDefault();
  busy(async () => {
    const body = { players: Number($("players").value), opponents: $("opponents").value, seat: Number($("seat").value),
      seed: seedOf($("seed")) };
    const data = await api("POST", "/api/piecepack/games", body);
    ui.play = { ...data.state, id: data.id }; ui.picked = null;
    drawLog(data.state.events, true); redraw();
  });
}

function act(action) {
  busy(async () => {
    const data = await api("POST", `/api/piecepack/games/${ui.play.id}/act`, { action });
    ui.play = { ...data.state, id: data.id }; ui.picked = null;
    drawLog(data.events, false); redraw();
  });
}

function startWatch(event) {
  event.preventDefault();
  busy(async () => {
    const data = await api("POST", "/api/piecepack/watch", { agents: $("watch-agents").value, seed: seedOf($("watch-seed")) });
    ui.watch = { ...data.state, id: data.id, playing: false };
    $("watch-play").disabled = $("watch-step").disabled = false;
    drawLog(data.state.events, true); redraw();
  });
}

async function stepWatch() {
  if (!ui.watch || ui.watch.over) return;
  const data = await api("POST", `/api/piecepack/watch/${ui.watch.id}/step`);
  ui.watch = { ...data.state, id: data.id, playing: ui.watch.playing };
  drawLog(data.events, false); redraw();
  $("watch-play").disabled = $("watch-step").disabled = ui.watch.over;
}

async function toggleWatch() {
  if (!ui.watch) return;
  ui.watch.playing = !ui.watch.playing;
  $("watch-play").textContent = ui.watch.playing ? "Pause" : "Play";
  while (ui.watch.playing && !ui.watch.over && ui.mode === "watch") {
    try { await stepWatch(); } catch (error) { showError(error); ui.watch.playing = false; }
    await new Promise((done) => setTimeout(done, 250));
  }
  $("watch-play").textContent = "Play";
}

async function loadReplay(text) {
  await busy(async () => {
    let record;
    try { record = JSON.parse(text); } catch (error) { throw new Error("the record is not valid JSON: " + error.message); }
    const data = await api("POST", "/api/piecepack/replay", record);
    ui.replay = { data, index: 0 };
    for (const id of ["replay-first", "replay-back", "replay-forward", "replay-last", "replay-slider"]) $(id).disabled = false;
    $("replay-slider").max = data.frames.length - 1;
    drawLog(data.events, true);
    showFrame(0);
  });
}

function showFrame(index) {
  if (!ui.replay) return;
  const frames = ui.replay.data.frames;
  ui.replay.index = Math.max(0, Math.min(frames.length - 1, index));
  $("replay-slider").value = ui.replay.index;
  $("replay-position").textContent = `action ${ui.replay.index} of ${frames.length - 1}`;
  redraw();
}

function setMode(mode) {
  ui.mode = mode;
  ui.picked = null;
  for (const tab of document.querySelectorAll("nav button")) tab.setAttribute("aria-selected", String(tab.dataset.mode === mode));
  for (const name of ["play", "watch", "replay"]) $("setup-" + name).classList.toggle("hidden", name !== mode);
  if (ui.watch) ui.watch.playing = false;
  $("log").replaceChildren();
  const state = current();
  if (state && state.events) drawLog(state.events, true);
  if (mode === "replay" && ui.replay) drawLog(ui.replay.data.events, true);
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
  $("watch-step").addEventListener("click", () => busy(stepWatch));
  $("watch-play").addEventListener("click", toggleWatch);
  for (const tab of document.querySelectorAll("nav button")) tab.addEventListener("click", () => setMode(tab.dataset.mode));
  $("replay-load").addEventListener("click", () => loadReplay($("replay-input").value));
  $("replay-file").addEventListener("change", async () => {
    const file = $("replay-file").files[0];
    if (file) { $("replay-input").value = await file.text(); await loadReplay($("replay-input").value); }
  });
  $("replay-first").addEventListener("click", () => showFrame(0));
  $("replay-back").addEventListener("click", () => showFrame(ui.replay.index - 1));
  $("replay-forward").addEventListener("click", () => showFrame(ui.replay.index + 1));
  $("replay-last").addEventListener("click", () => showFrame(Infinity));
  $("replay-slider").addEventListener("input", () => showFrame(+$("replay-slider").value));
  $("end-save").addEventListener("click", saveRecord);
  $("end-replay").addEventListener("click", replayThis);
  document.addEventListener("keydown", (event) => {
    if (ui.mode !== "replay" || event.target.tagName === "TEXTAREA" || event.target.tagName === "INPUT") return;
    if (event.key === "ArrowRight") showFrame(ui.replay.index + 1);
    if (event.key === "ArrowLeft") showFrame(ui.replay.index - 1);
  });
}
init();
