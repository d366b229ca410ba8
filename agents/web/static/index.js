// The index page: a link to each game the server plays (GET /api/games).
"use strict";
const $ = (id) => document.getElementById(id);
function showError(error) { $("error").textContent = error.message || String(error); $("error").classList.remove("hidden"); }
function hideError() { $("error").classList.add("hidden"); }

api("GET", "/api/games").then((data) => {
  for (const game of data.games) {
    $("games").append(el("li", {}, el("a", {href: game.page, "data-testid": `game-${game.game}`}, game.title),
                         ` (${game.players} players)`));
  }
}).catch(showError);
