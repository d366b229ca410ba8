// What every page of goldrush serve uses: building elements from text, never from HTML, and asking the API.
"use strict";
// An element with attributes (a "data-x" key sets a data attribute, "class" the class) and children (text or nodes).
function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  node.append(...children.map((child) => (child instanceof Node ? child : document.createTextNode(String(child)))));
  return node;
}

class ApiError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

// A call to the server's JSON API (each page's game under /api/<game>/); an error answer throws an ApiError with the server's message. A POST always
// sends a JSON body (the server refuses any other, so that a page of another site cannot drive it).
async function api(method, path, body, asText = false) {
  if (method === "POST" && body === undefined) body = {};
  const response = await fetch(path, {method, headers: {"Content-Type": "application/json"},
                                      body: body === undefined ? undefined : JSON.stringify(body)});
  const text = await response.text();
  let data;
  try { data = JSON.parse(text); } catch { data = {error: `the server answered ${response.status}`}; }
  if (!response.ok) throw new ApiError(data.error || `the server answered ${response.status}`, response.status);
  if (typeof hideError === "function") hideError();  // the page's error box: an answer clears the last error
  return asText ? text : data;
}

// The Speed control of a page that shows agents moving (a range input "speed", 0 to 4, and "speed-name" beside it):
// the milliseconds a page waits between moves at each value, slowest first, and the word shown for it.
const SPEEDS = [[1800, "slow"], [1100, "normal"], [600, "quick"], [250, "fast"], [0, "instant"]];
function delay() { return SPEEDS[+document.getElementById("speed").value][0]; }

// Keep the word beside the Speed control in step with it.
function nameSpeeds() {
  const control = document.getElementById("speed");
  const show = () => { document.getElementById("speed-name").textContent = SPEEDS[+control.value][1]; };
  control.addEventListener("input", show); show();
}

// The person's name as the play form gives it: null (anonymous) when the box is empty, otherwise as typed (the
// server says what a name may hold).
const nameOf = (input) => (input.value === "" ? null : input.value);

// The note box of a page ("notice"): something the page did on its own (a game it let go), told once.
function showNotice(text) { const box = document.getElementById("notice"); box.textContent = text; box.classList.toggle("hidden", !text); }

// Who won, in words, each winner named so that two players of one name are told apart (the person is "you"):
// winnerNames gives "economist (seat 2)" or "you, idle (seat 2) and idle (seat 3)", winnersWin the sentence,
// "economist (seat 2) wins", "you win" or "you, idle (seat 2) and idle (seat 3) share the win".
function winnerNames(names, winners) {
  const each = winners.map((seat) => (names[seat] === "you" ? "you" : `${names[seat]} (seat ${seat})`));
  return each.length < 2 ? each.join("") : `${each.slice(0, -1).join(", ")} and ${each[each.length - 1]}`;
}
function winnersWin(names, winners) {
  if (winners.length > 1) return `${winnerNames(names, winners)} share the win`;
  return `${winnerNames(names, winners)} ${names[winners[0]] === "you" ? "win" : "wins"}`;
}

// One at a time, in the order asked: what `inTurn(work)` is given runs once everything given before it has finished,
// so that Step clicked three times quickly makes three moves, one after another. It answers what `work` answers; a
// failure of one (shown by the work itself) does not stop the next.
function takingTurns() {
  let last = Promise.resolve();
  return (work) => {
    const next = last.then(work);
    last = next.catch(() => {});
    return next;
  };
}

// What a page keeps across a reload, or Back then Forward, in this tab only (sessionStorage, under the game's name:
// "gold.play"): the ids of its played and watched games, so that it returns to them as the server has them, and
// whatever else the page names (its tab, a record in the Replay tab).
class Kept {
  constructor(game) { this.game = game; }
  get(key) { try { return sessionStorage.getItem(`${this.game}.${key}`); } catch { return null; } }
  set(key, value) { try { sessionStorage.setItem(`${this.game}.${key}`, value); } catch { /* full or refused */ } }
  drop(key) { try { sessionStorage.removeItem(`${this.game}.${key}`); } catch { /* refused */ } }

  // A game of `kind` ("play" or "watch") was dealt: it is kept, and the page's game before it (`old`, its id, or
  // null) is let go, so that it does not count against the client's games in play.
  hold(kind, id, old = null) {
    this.set(kind, id);
    if (old !== null) api("DELETE", `/api/${this.game}/games/${encodeURIComponent(old)}`).catch(() => {});
  }

  // The game of `kind` the page kept before a reload, as the server has it now ({id, state}), or null when it kept
  // none. A game the server no longer has (dropped, or the server restarted) is forgotten, and its ApiError thrown:
  // gone(error) tells it apart, for the page to clear its table and say so.
  async resume(kind) {
    const id = this.get(kind);
    if (!id) return null;
    try { return await api("GET", `/api/${this.game}/${kind === "play" ? "games" : "watch"}/${encodeURIComponent(id)}`); }
    catch (error) { if (gone(error)) this.drop(kind); throw error; }
  }
}

// Whether an answer says the game is no longer on the server (404), and what a page then says.
const gone = (error) => error instanceof ApiError && error.status === 404;
const goneWords = (error) => `That game is no longer on the server (${error.message}). Deal a new one.`;
