// The page of goldrush serve: play against the agents, watch them, replay a record.
// Everything the server or a record says is put on the page as text (textContent, attributes), never as HTML:
// a record may come from anywhere. The page keeps the ids of its games in sessionStorage, so that a reload, or
// Back then Forward, returns to them.
"use strict";
const $ = (id) => document.getElementById(id);
const COLS = "abcdefgh";
const COLOUR_NAMES = ["red", "blue", "purple", "orange", "grey"];
const LARGEST_SEED = Number.MAX_SAFE_INTEGER;  // the largest seed a browser's numbers hold exactly
const square = (p) => COLS[p % 8] + (Math.floor(p / 8) + 1);
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
const saved = new Kept("gold");  // what survives a reload, in this tab only
const steps = takingTurns();  // a watched game's steps, one after another however quickly they are asked for

const ui = {
  mode: "play",
  play: null,    // {id, state, cards, up, scores, gold, log, busy, ...}
  watch: null,   // the same, plus playing
  replay: null,  // {data, index}
};

const icon = (name) => $("icon-" + name).content.firstElementChild.cloneNode(true);

function showError(error) { const box = $("error"); box.textContent = error.message || String(error); box.classList.remove("hidden"); }
function hideError() { $("error").classList.add("hidden"); }

// --- drawing -------------------------------------------------------------------------------

const isPerson = (name) => name === "you";
const displayName = (name) => (isPerson(name) ? "You" : name);

function face(code, owners, names) {
  if (code === "D") return el("div", {class: "face dyn"}, icon("dynamite"), el("span", {class: "k"}, "dynamite"));
  if (code[0] === "G") return el("div", {class: "face gold"}, el("span", {class: "v"}, code[1]), el("span", {class: "k"}, "gold"));
  const colour = +code[1], owner = owners[colour];
  const mine = owner >= 0 && isPerson(names[owner]);
  const who = owner < 0 ? "whoever flips it" : mine ? "you" : "seat " + owner;
  return el("div", {class: `face m${colour}`, title: `${COLOUR_NAMES[colour]} miner ${code[2]}, works for ${who}`},
            icon("pick"), el("span", {class: "v"}, code[2]),
            el("span", {class: "k"}, owner < 0 ? "for any" : mine ? "yours" : "seat " + owner));
}

// The grid of a table of `rows` rows (a smaller table is laid on the first rows: the quarter table on 2).
function buildBoard(rows = 8) {
  const board = $("board");
  board.dataset.rows = rows;
  board.replaceChildren(el("div", {class: "lbl"}), ...[...COLS].map((c) => el("div", {class: "lbl"}, c)));
  for (let row = 0; row < rows; row++) {
    board.append(el("div", {class: "lbl"}, row + 1));
    for (let col = 0; col < 8; col++) {
      const p = row * 8 + col;
      const cell = el("button", {type: "button", class: "cell down", id: "cell-" + square(p), "data-testid": "cell-" + square(p),
                                 "data-position": p, "data-square": square(p)},
                      el("span", {class: "sq"}, square(p)), el("span", {class: "q"}, "?"));
      cell.addEventListener("click", () => clickCell(p));
      board.append(cell);
    }
  }
}

// cards: 64 codes ("?" unknown, "-" empty); up: positions face up; legal: clickable positions; rows: those the table covers
function drawBoard(cards, up, legal, owners, names, gone = [], rows = 8) {
  if (+$("board").dataset.rows !== rows) buildBoard(rows);
  for (let p = 0; p < 8 * rows; p++) {
    const cell = $("cell-" + square(p)), code = cards ? cards[p] : "?";
    const state = code === "-" ? "empty" : code === "?" ? "down" : up.includes(p) ? "up" : "known";
    const key = `${code}|${state}|${legal.includes(p)}|${gone.includes(p)}|${owners.join()}|${names.join()}`;
    if (cell.dataset.key === key) continue;
    cell.dataset.key = key;
    cell.className = "cell " + state + (legal.includes(p) ? " legal" : "") + (gone.includes(p) ? " gone" : "");
    cell.dataset.card = state === "empty" ? "empty" : code === "?" ? "unknown" : code;
    cell.dataset.state = state;
    cell.disabled = !legal.includes(p);
    const label = el("span", {class: "sq"}, square(p));
    if (state === "empty") cell.replaceChildren(label);
    else if (state === "down") cell.replaceChildren(label, el("span", {class: "q"}, "?"));
    else cell.replaceChildren(label, face(code, owners, names));
    cell.setAttribute("aria-label", `${square(p)}: ${state === "empty" ? "empty" : state === "down" ? "face down"
      : (state === "up" ? "face up " : "remembered ") + code}`);
  }
}

function drawStandings(state, scores, gold, current) {
  const rows = state.names.map((name, seat) => {
    const colours = state.owners.flatMap((o, c) => (o === seat ? [el("span", {class: `sw c${c}`, title: COLOUR_NAMES[c]})] : []));
    const who = el("td", {}, displayName(name));
    if (!isPerson(name) && state.seat === seat) who.append(" ", el("b", {}, "(you)"));
    if (state.finished && state.winners.includes(seat)) who.append(" ", el("b", {class: "win"}, "winner"));
    return el("tr", {"data-testid": `standing-${seat}`, class: current === seat ? "turn" : ""},
              el("td", {}, seat), who, el("td", {}, ...colours),
              el("td", {class: "num", "data-testid": `score-${seat}`}, scores[seat]), el("td", {class: "num"}, gold[seat]));
  });
  const free = state.owners.flatMap((o, c) => (o < 0 ? [el("span", {class: `sw c${c}`, title: COLOUR_NAMES[c]})] : []));
  if (free.length) rows.push(el("tr", {}, el("td"), el("td", {class: "hint"}, "unowned: gold goes to whoever flips"),
                                el("td", {}, ...free), el("td"), el("td")));
  $("standings").tBodies[0].replaceChildren(...rows);
}

function drawStatus(state) {
  let who;
  if (state.finished) who = state.over ? "Game over" : `Stopped at the turn limit (${state.max_turns} turns)`;
  else if (state.mode === "play" && state.your_turn) who = state.face_up === null ? "Your turn: flip a card"
    : `Your turn: flip a second card (${square(state.face_up)} is face up)`;
  else {
    const name = state.names[state.current_player], seat = state.current_player;
    who = isPerson(name) ? `You (seat ${seat}) are flipping` : `${name} (seat ${seat}) is flipping`;
  }
  const extras = [];
  if (!state.finished) extras.push(state.gold_rush ? "one card a turn, gold to the flipper" : `Gold Rush at ${state.rush_at} cards`);
  if (state.seed !== null && state.seed !== undefined) extras.push(`seed ${state.seed}`);
  const sub = el("span", {class: "sub"}, `turn ${state.turn + 1} \u00b7 `, el("span", {"data-testid": "cards-left"}, state.cards_left),
                 " cards left", ...extras.flatMap((extra) => [" \u00b7 ", extra]));
  const line = [el("span", {"data-testid": "turn-text"}, who)];
  if (state.gold_rush && !state.finished) line.push(el("span", {class: "rush", "data-testid": "gold-rush"}, "GOLD RUSH"));
  $("status").replaceChildren(...line, el("br"), sub);
}

function setStatusText(text) { $("status").replaceChildren(text); }

function setMessage(text, outcome, before) {
  const box = $("message"); box.textContent = text || "\u00a0"; box.dataset.outcome = outcome || "";
  if (before) box.append(el("span", {class: "before", "data-testid": "message-before"}, `before: ${before}`));
}

// The latest flip, and the outcome before it while a first card waits for its partner.
function lastWords(events) {
  const last = events[events.length - 1], before = events[events.length - 2];
  if (!last) return ["", "", ""];
  return [last.text, last.outcome, last.outcome === "first" && before ? before.text : ""];
}

function drawLog(events) {
  $("log").replaceChildren(...events.slice().reverse().map((e) => el("li", {"data-outcome": e.outcome}, e.text)));
  $("log").start = events.length;
}

function showEnd(state) {
  let title = "Game over";
  if (state.mode === "play") {
    const won = state.winners.includes(state.seat);
    title = won && state.winners.length === 1 ? "You win!" : won ? "A shared victory" : "You lose";
  }
  $("end-title").textContent = title;
  const score = state.scores[state.winners[0]], shared = state.winners.length > 1;
  $("winners").textContent = `Winner${shared ? "s" : ""}: ${winnerNames(state.names, state.winners)} with ${score} ` +
    `gold${shared ? " each" : ""}` + (state.truncated ? " (the turn limit ended the game)" : "");
  $("play-again").textContent = state.mode === "watch" ? "Watch again" : "Play again";
  $("play-again").classList.toggle("hidden", state.mode === "replay");
  $("end-save").classList.toggle("hidden", state.mode === "replay");
  $("end-replay").classList.toggle("hidden", state.mode === "replay");
  $("end").classList.remove("hidden");
}

function clearTable(text) {
  drawBoard(null, [], [], [], []);
  setStatusText(text); setMessage(""); drawLog([]);
  $("standings").tBodies[0].replaceChildren();
  $("end").classList.add("hidden");
}

// --- a game on the server (play and watch) --------------------------------------------------

// closed: the person closed the end card to look at the table (it comes back when the tab is shown again)
function freshView(data) {
  const s = data.state;
  return {id: data.id, state: s, cards: s.cards.slice(), up: s.face_up === null ? [] : [s.face_up],
          scores: s.scores.slice(), gold: s.gold_cards.slice(), log: s.events.slice(),
          busy: false, playing: false, closed: false};
}

function drawView(view) {
  if (ui.mode === "replay") return;
  $("end").classList.add("hidden");
  if (!view) { clearTable(ui.mode === "watch" ? "Choose the agents and deal." : "Deal a game to start."); return; }
  const s = view.state;
  const legal = (s.mode === "play" && s.your_turn && !view.busy) ? s.legal : [];
  document.body.dataset.busy = String(view.busy);
  drawBoard(view.cards, view.up, legal, s.owners, s.names, view.gone || [], s.rows);
  drawStandings(s, view.scores, view.gold, view.busy ? view.current : s.current_player);
  drawStatus(view.busy ? {...s, finished: false, your_turn: false, current_player: view.current, seed: null} : s);
  setMessage(...lastWords(view.log));
  drawLog(view.log);
  if (s.finished && !view.busy && !view.closed) showEnd(s);
}

// Show each flip on the board at the page's pace, then the state the server sent.
async function animate(view, events, finalState) {
  view.busy = true;
  for (const e of events) {
    view.current = e.player;
    view.cards[e.position] = e.card;
    view.up = e.partner === null ? [e.position] : [e.partner, e.position];
    view.gone = [];
    if (e.receiver !== null) { view.scores[e.receiver] += e.gained; view.gold[e.receiver] += 1; }
    view.log.push(e);
    if (ui[ui.mode] === view) drawView(view);
    const mine = view.state.mode === "play" && e.player === view.state.seat;
    if (e.outcome === "first" && mine) continue;  // the person's first card simply stays up
    await sleep(e.outcome === "first" ? delay() * 0.7 : delay());
    if (e.outcome !== "first") {
      if (e.removed.length && delay() > 0) {
        view.gone = e.removed; view.up = [];
        if (ui[ui.mode] === view) drawView(view);
        await sleep(Math.min(400, delay() / 2));
      }
      for (const p of e.removed) view.cards[p] = "-";
      view.up = []; view.gone = [];
    }
  }
  const fresh = freshView({id: view.id, state: finalState});
  Object.assign(view, {state: finalState, cards: fresh.cards, up: fresh.up, scores: fresh.scores, gold: fresh.gold,
                       log: fresh.log, busy: false, gone: []});
  if (ui[ui.mode] === view) drawView(view);
}

// The server no longer has the game (dropped after a while without a request, or the server restarted).
function lostGame(kind, error) {
  ui[kind] = null;
  saved.drop(kind);
  if (kind === "watch") $("watch-play").disabled = $("watch-step").disabled = true;
  $("setup-" + kind).open = true;
  if (ui.mode === kind) drawView(null);
  hideError();
  showNotice(goneWords(error));
}

function seedFrom(input) {
  const text = $(input).value.trim();
  if (text === "") return undefined;
  const seed = Number(text);
  if (!Number.isSafeInteger(seed) || seed < 0) {
    throw new Error(`the seed must be a whole number from 0 to ${LARGEST_SEED} on this page, got ${text.slice(0, 30)}`);
  }
  return seed;
}

async function startPlay(event) {
  if (event) event.preventDefault();
  try {
    const body = {players: +$("players").value, opponents: $("opponents").value, seat: +$("seat").value,
                  memory: $("memory").value, table: $("table").value, seed: seedFrom("seed"),
                  name: nameOf($("name"))};
    const data = await api("POST", "/api/gold/games", body);
    // Only now that the new game is dealt is the old one let go: a refused deal leaves the game in play as it was.
    saved.hold("play", data.id, ui.play && !ui.play.state.finished ? ui.play.id : null);
    showNotice("");
    const events = data.events, view = freshView(data);
    // Start from the deal: the agents' opening flips (when you do not start) are then shown one by one.
    view.log = view.log.slice(0, view.log.length - events.length);
    for (const e of events) {
      view.cards[e.position] = "?";
      if (e.receiver !== null) { view.scores[e.receiver] -= e.gained; view.gold[e.receiver] -= 1; }
    }
    if (events.length) view.up = [];
    ui.play = view;
    $("setup-play").open = false;
    drawView(ui.play);
    await animate(ui.play, events, data.state);
    $("square-input").focus();
  } catch (error) { showError(error); }
}

async function flipPosition(position) {
  const view = ui.play;
  if (!view) { showError(new Error("there is no game in play: deal one first")); return; }
  if (view.busy) {
    showError(new Error(`wait for your turn: the agents are still flipping (${typeof position === "number" ? square(position) : position} was not flipped)`));
    return;
  }
  if (view.state.finished) { showError(new Error("the game is over: deal a new one")); return; }
  view.busy = true;
  view.current = view.state.current_player;
  drawView(view);  // no card is clickable until the answer is shown
  try {
    const data = await api("POST", `/api/gold/games/${view.id}/act`, {action: position});
    await animate(view, data.events, data.state);
  } catch (error) {
    view.busy = false;
    if (gone(error)) lostGame("play", error);
    else { drawView(view); showError(error); }
  }
}

function clickCell(p) { if (ui.mode === "play") flipPosition(p); }

async function startWatch(event) {
  if (event) event.preventDefault();
  try {
    const body = {agents: $("watch-agents").value, table: $("watch-table").value, seed: seedFrom("watch-seed")};
    const data = await api("POST", "/api/gold/watch", body);
    // As in startPlay: the old watched game is let go only once the new one is dealt.
    if (ui.watch) ui.watch.playing = false;
    saved.hold("watch", data.id, ui.watch ? ui.watch.id : null);
    ui.watch = freshView(data);
    showNotice("");
    $("watch-play").disabled = $("watch-step").disabled = false;
    $("watch-play").textContent = "Play";
    drawView(ui.watch);
  } catch (error) { showError(error); }
}

async function stepWatch() {
  const view = ui.watch;
  if (!view || view.busy || view.state.finished) return false;
  view.busy = true;
  try {
    const data = await api("POST", `/api/gold/watch/${view.id}/step`);
    await animate(view, data.events, data.state);
  } catch (error) {
    view.busy = false; view.playing = false; $("watch-play").textContent = "Play";
    if (gone(error)) lostGame("watch", error); else showError(error);
    return false;
  }
  if (view.state.finished) { view.playing = false; $("watch-play").textContent = "Play"; $("watch-step").disabled = true; }
  return true;
}

async function toggleWatch() {
  const view = ui.watch;
  if (!view) return;
  view.playing = !view.playing;
  $("watch-play").textContent = view.playing ? "Pause" : "Play";
  while (view.playing && !view.state.finished) {
    if (!(await steps(stepWatch))) break;
    await sleep(Math.max(30, delay() / 3));
  }
}

// A game the page had before a reload (or Back then Forward): shown as the server has it now.
async function resume(kind) {
  try {
    const data = await saved.resume(kind);
    if (!data) return;
    ui[kind] = freshView(data);
    if (kind === "watch") {
      $("watch-play").disabled = false;
      $("watch-step").disabled = data.state.finished;
    } else $("setup-play").open = false;
    if (ui.mode === kind) drawView(ui[kind]);
  } catch (error) {
    if (gone(error)) lostGame(kind, error); else showError(error);
  }
}

// --- replay (every state from the server at once) --------------------------------------------

async function loadReplay(index = 0) {
  const text = $("replay-input").value;
  let record;
  try { record = JSON.parse(text); }
  catch (error) { showError(new Error("the record is not valid JSON: " + error.message)); return; }
  try {
    ui.replay = {data: await api("POST", "/api/gold/replay", record), index};
    if (text.length < 200000) saved.set("replay", text);
    $("replay-slider").max = ui.replay.data.frames.length - 1;
    for (const id of ["replay-first", "replay-back", "replay-forward", "replay-last", "replay-slider"]) $(id).disabled = false;
    showFrame(index);
  } catch (error) { showError(error); }
}

function showFrame(index) {
  const replay = ui.replay;
  if (!replay || ui.mode !== "replay") return;
  const frames = replay.data.frames;
  index = Math.max(0, Math.min(frames.length - 1, index));
  replay.index = index;
  saved.set("replay-index", String(index));
  const frame = {...frames[index], mode: "replay", seed: replay.data.seed};
  const event = index > 0 ? replay.data.events[index - 1] : null;
  let up = frame.face_up === null ? [] : [frame.face_up];
  if (event && event.outcome !== "first") up = [event.position, ...(event.partner === null ? [] : [event.partner])];
  const cards = frame.cards.slice();
  if (event) {  // the cards of the last flip, as they lay before they left the table
    cards[event.position] = event.card;
    if (event.partner !== null) cards[event.partner] = replay.data.events[index - 2].card;
  }
  $("end").classList.add("hidden");
  drawBoard(cards, up, [], frame.owners, frame.names, event ? event.removed : [], frame.rows);
  drawStandings(frame, frame.scores, frame.gold_cards, frame.current_player);
  drawStatus(frame);
  if (event) setMessage(...lastWords(replay.data.events.slice(0, index)));
  else setMessage("The deal: every card is shown, faded while it lies face down.");
  drawLog(replay.data.events.slice(0, index));
  $("replay-slider").value = index;
  $("replay-position").textContent = `flip ${index} / ${frames.length - 1}`;
  if (frame.finished && index === frames.length - 1) showEnd(frame);
}

// --- tabs, forms and keys ------------------------------------------------------------------------

function setMode(mode) {
  ui.mode = mode;
  saved.set("mode", mode);
  for (const m of ["play", "watch", "replay"]) {
    $("tab-" + m).setAttribute("aria-selected", String(m === mode));
    $("setup-" + m).classList.toggle("hidden", m !== mode);
    $("hint-" + m).classList.toggle("hidden", m !== mode);
  }
  $("square-form").classList.toggle("hidden", mode !== "play");
  hideError();
  if (ui[mode] && mode !== "replay") ui[mode].closed = false;  // a finished game's end card comes back with its tab
  if (mode !== "replay") drawView(ui[mode]);
  else if (ui.replay) showFrame(ui.replay.index);
  else clearTable("Load a record to replay it.");
}

function fillSeats() {
  const players = +$("players").value, seat = $("seat");
  const chosen = Math.min(+seat.value || 0, players - 1);
  seat.replaceChildren(...Array.from({length: players}, (_, s) => el("option", {value: s}, `${s}${s === 0 ? " (starts)" : ""}`)));
  seat.value = chosen;
}

function recordText() {
  const view = ui[ui.mode];
  return api("GET", `/api/gold/games/${view.id}/record`, undefined, true);  // as sent: a large seed stays exact
}

function typedSquare(event) {
  event.preventDefault();
  const text = $("square-input").value.trim().toLowerCase();
  if (!/^[a-h][1-8]$/.test(text)) {
    $("square-input").value = "";
    showError(new Error(`${text.slice(0, 10) || "nothing"} is not a square: columns a-h, rows 1-8, e.g. c4`));
    return;
  }
  if (ui.play && ui.play.busy) {  // kept in the box, so that Enter flips it once it is your turn
    showError(new Error(`wait for your turn: the agents are still flipping (${text} was not flipped)`));
    return;
  }
  $("square-input").value = "";
  flipPosition(text);
}

function init() {
  buildBoard();
  fillSeats();
  $("players").addEventListener("change", fillSeats);
  $("play-form").addEventListener("submit", startPlay);
  $("watch-form").addEventListener("submit", startWatch);
  $("watch-step").addEventListener("click", () => { if (ui.watch) { ui.watch.playing = false; $("watch-play").textContent = "Play"; } steps(stepWatch); });
  $("watch-play").addEventListener("click", toggleWatch);
  for (const tab of document.querySelectorAll("nav button")) tab.addEventListener("click", () => setMode(tab.dataset.mode));
  $("replay-load").addEventListener("click", () => loadReplay());
  $("replay-file").addEventListener("change", async () => {
    const file = $("replay-file").files[0];
    if (file) { $("replay-input").value = await file.text(); loadReplay(); }
  });
  $("replay-first").addEventListener("click", () => showFrame(0));
  $("replay-back").addEventListener("click", () => showFrame(ui.replay.index - 1));
  $("replay-forward").addEventListener("click", () => showFrame(ui.replay.index + 1));
  $("replay-last").addEventListener("click", () => showFrame(Infinity));
  $("replay-slider").addEventListener("input", () => showFrame(+$("replay-slider").value));
  $("square-form").addEventListener("submit", typedSquare);
  nameSpeeds();
  $("play-again").addEventListener("click", () => {
    $("end").classList.add("hidden");
    if (ui.mode === "watch") startWatch(); else if (ui.mode === "play") startPlay(); });
  $("end-close").addEventListener("click", () => {
    $("end").classList.add("hidden");
    if (ui.mode !== "replay" && ui[ui.mode]) ui[ui.mode].closed = true;
  });
  $("end-save").addEventListener("click", async () => {
    try {
      const text = await recordText();
      const seed = /"seed":\s*(\d+)/.exec(text);
      const link = el("a", {href: URL.createObjectURL(new Blob([text], {type: "application/json"})),
                            download: `gold-${seed ? seed[1] : "record"}.json`});
      link.click();
    } catch (error) { showError(error); }
  });
  $("end-replay").addEventListener("click", async () => {
    try { $("replay-input").value = await recordText(); setMode("replay"); await loadReplay(); }
    catch (error) { showError(error); }
  });
  document.addEventListener("keydown", (event) => {
    const typing = ["INPUT", "TEXTAREA", "SELECT"].includes(document.activeElement.tagName);
    if (typing || event.ctrlKey || event.metaKey || event.altKey) return;
    if (ui.mode === "play" && /^[a-hA-H]$/.test(event.key)) {
      event.preventDefault(); $("square-input").value = event.key.toLowerCase(); $("square-input").focus();
    } else if (ui.mode === "watch" && event.key === " ") { event.preventDefault(); toggleWatch(); }
    else if (ui.mode === "watch" && event.key === "n") { steps(stepWatch); }
    else if (ui.mode === "replay" && ui.replay && event.key === "ArrowRight") showFrame(ui.replay.index + 1);
    else if (ui.mode === "replay" && ui.replay && event.key === "ArrowLeft") showFrame(ui.replay.index - 1);
  });
  api("GET", "/api/gold/agents").then((data) => {
    $("agent-names").replaceChildren(...data.agents.map((name) => el("option", {value: name})));
  }).catch(() => {});
  const mode = saved.get("mode");
  setMode(["play", "watch", "replay"].includes(mode) ? mode : "play");
  resume("play");
  resume("watch");
  const record = saved.get("replay");
  if (record) { $("replay-input").value = record; loadReplay(+(saved.get("replay-index") || 0)); }
}
init();
