// The plain page of a game that brings no page of its own: the game's text of what your seat knows, and its legal
// actions as buttons. The game is the page's path (/nim); its API is under /api/<game>/.
"use strict";
const $ = (id) => document.getElementById(id);
const GAME = location.pathname.split("/").filter(Boolean)[0];
const ui = {mode: "play", play: null, watch: null};
const saved = new Kept(GAME);  // what survives a reload, in this tab only
const steps = takingTurns();  // a watched game's steps, one after another however quickly they are asked for
function showError(error) { $("error").textContent = error.message || String(error); $("error").classList.remove("hidden"); }
function hideError() { $("error").classList.add("hidden"); }
const seedOf = (input) => (input.value === "" ? null : Number(input.value));
const MOVES_SHOWN = 12;

function names(state) {
  return state.names.map((name, seat) => `seat ${seat} ${name}`).join(", ");
}

function draw() {
  const data = ui[ui.mode];
  $("texts").replaceChildren();
  $("actions").replaceChildren();
  $("moves").replaceChildren();
  $("save").classList.add("hidden");
  if (!data) { $("status").textContent = ui.mode === "watch" ? "Choose the agents and deal." : "Deal a game to start."; return; }
  const state = data.state;
  // The last moves in the game's words, as the server tells them (a played game's only where every move is public).
  const moves = state.events || [];
  $("moves").start = Math.max(1, moves.length - MOVES_SHOWN + 1);
  for (const move of moves.slice(-MOVES_SHOWN)) $("moves").append(el("li", {"data-testid": "move"}, move.text));
  const texts = state.text !== undefined ? [state.text] : state.texts.map((text, seat) => `seat ${seat}:\n${text}`);
  for (const text of texts) $("texts").append(el("pre", {"data-testid": "text"}, text));
  if (state.finished) {
    $("status").textContent = `${names(state)}. Game over: scores ${state.scores.join(", ")}; ` +
      `${winnersWin(state.names, state.winners)}.`;
    $("save").classList.remove("hidden");
    return;
  }
  const turn = state.your_turn ? "your turn" : `seat ${state.current_player} to play`;
  $("status").textContent = `${names(state)}. Turn ${state.turn}: ${turn}.`;
  if (ui.mode !== "play" || !state.your_turn) return;
  for (const choice of state.legal) {
    const button = el("button", {class: "btn light", type: "button", "data-action": choice.action}, choice.text);
    button.addEventListener("click", () => act(choice.action));
    $("actions").append(button);
  }
}

async function run(work) {
  hideError();
  try { await work(); } catch (error) { showError(error); }
  draw();
}

// The server no longer has the game (dropped after a while without a request, or the server restarted): the page
// forgets it, shows the start of its tab again, and says so once.
function lostGame(kind, error) {
  ui[kind] = null;
  saved.drop(kind);
  $(`setup-${kind}`).open = true;
  hideError();
  showNotice(goneWords(error));
}

// A move in the game of `kind` (the person's action, or a watched game's step): the server's answer replaces the game
// shown, unless another was dealt meanwhile; a game the server no longer has is lost.
async function move(kind, body) {
  const id = ui[kind].id;
  try {
    const data = await api("POST", `/api/${GAME}/${kind === "play" ? `games/${id}/act` : `watch/${id}/step`}`, body);
    if (ui[kind] && ui[kind].id === id) ui[kind] = data;
  } catch (error) { if (gone(error)) lostGame(kind, error); else throw error; }
}

async function act(action) {
  await run(() => move("play", {action}));
}

// A game the page had before a reload (or Back then Forward): shown as the server has it now.
async function resume(kind) {
  try {
    const data = await saved.resume(kind);
    if (data) { ui[kind] = data; draw(); }
  } catch (error) { if (gone(error)) { lostGame(kind, error); draw(); } else showError(error); }
}

function setMode(mode) {
  ui.mode = mode;
  saved.set("mode", mode);
  for (const tab of ["play", "watch"]) {
    $(`tab-${tab}`).setAttribute("aria-selected", String(tab === mode));
    $(`setup-${tab}`).classList.toggle("hidden", tab !== mode);
  }
  draw();
}

$("play-form").addEventListener("submit", (event) => {
  event.preventDefault();
  run(async () => {
    const body = {players: Number($("players").value), opponents: $("opponents").value,
                  seat: Number($("seat").value), seed: seedOf($("seed")), name: nameOf($("name"))};
    const made = await api("POST", `/api/${GAME}/games`, body);
    // Only now that the new game is dealt is the old one let go: a refused deal leaves the game in play as it was.
    saved.hold("play", made.id, ui.play && !ui.play.state.finished ? ui.play.id : null);
    showNotice("");
    ui.play = made;
  });
});
$("watch-form").addEventListener("submit", (event) => {
  event.preventDefault();
  run(async () => {
    const made = await api("POST", `/api/${GAME}/watch`, {agents: $("watch-agents").value, seed: seedOf($("watch-seed"))});
    saved.hold("watch", made.id, ui.watch ? ui.watch.id : null);
    showNotice("");
    ui.watch = made;
  });
});
$("watch-step").addEventListener("click", () => steps(() => run(async () => {
  if (ui.watch && !ui.watch.state.finished) await move("watch");
})));
$("save").addEventListener("click", () => run(async () => {
  const text = await api("GET", `/api/${GAME}/games/${ui[ui.mode].id}/record`, undefined, true);
  const link = el("a", {href: URL.createObjectURL(new Blob([text], {type: "application/json"})),
                        download: `${GAME}-record.json`});
  link.click();
}));
for (const tab of ["play", "watch"]) $(`tab-${tab}`).addEventListener("click", () => setMode(tab));

api("GET", `/api/${GAME}/agents`).then((info) => {
  document.title = `${info.title}: play, watch`;
  $("title").textContent = info.title;
  $("players").value = info.players.default;
  $("players").min = info.players.min;
  $("players").max = info.players.max;
  $("opponents").value = info.opponents;
  $("watch-agents").value = Array(info.players.default).fill(info.opponents).join(",");
  for (const name of info.agents) $("agent-names").append(el("option", {value: name}));
}).catch(showError);
const mode = saved.get("mode");
setMode(["play", "watch"].includes(mode) ? mode : "play");
resume("play");
resume("watch");
