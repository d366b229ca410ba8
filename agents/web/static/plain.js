// The plain page of a game that brings no page of its own: the game's text of what your seat knows, and its legal
// actions as buttons. The game is the page's path (/nim); its API is under /api/<game>/.
"use strict";
const $ = (id) => document.getElementById(id);
const GAME = location.pathname.split("/").filter(Boolean)[0];
const ui = {mode: "play", play: null, watch: null};
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
  if (!data) { $("status").textContent = ""; return; }
  const state = data.state;
  // The last moves in the game's words, as the server tells them (a played game's only where every move is public).
  const moves = state.events || [];
  $("moves").start = Math.max(1, moves.length - MOVES_SHOWN + 1);
  for (const move of moves.slice(-MOVES_SHOWN)) $("moves").append(el("li", {"data-testid": "move"}, move.text));
  const texts = state.text !== undefined ? [state.text] : state.texts.map((text, seat) => `seat ${seat}:\n${text}`);
  for (const text of texts) $("texts").append(el("pre", {"data-testid": "text"}, text));
  if (state.finished) {
    $("status").textContent = `${names(state)}. Game over: scores ${state.scores.join(", ")}; ` +
      `winner${state.winners.length > 1 ? "s" : ""} ${state.winners.map((s) => state.names[s]).join(", ")}.`;
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

async function act(action) {
  await run(async () => { ui.play = await api("POST", `/api/${GAME}/games/${ui.play.id}/act`, {action}); });
}

function setMode(mode) {
  ui.mode = mode;
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
                  seat: Number($("seat").value), seed: seedOf($("seed"))};
    const made = await api("POST", `/api/${GAME}/games`, body);
    if (ui.play && !ui.play.state.finished) api("DELETE", `/api/${GAME}/games/${ui.play.id}`).catch(() => {});
    ui.play = made;
  });
});
$("watch-form").addEventListener("submit", (event) => {
  event.preventDefault();
  run(async () => {
    ui.watch = await api("POST", `/api/${GAME}/watch`, {agents: $("watch-agents").value, seed: seedOf($("watch-seed"))});
  });
});
$("watch-step").addEventListener("click", () => run(async () => {
  if (ui.watch) ui.watch = await api("POST", `/api/${GAME}/watch/${ui.watch.id}/step`);
}));
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
