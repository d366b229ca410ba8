// The index page: a link to each game the server plays (GET /api/games), and how the agents fare against people
// (GET /api/ratings: each agent's Elo rating per game and number of players, with the games behind it).
"use strict";
const $ = (id) => document.getElementById(id);
function showError(error) { $("error").textContent = error.message || String(error); $("error").classList.remove("hidden"); }
function hideError() { $("error").classList.add("hidden"); }

// Rows of a ratings table: the game's title, the number of players, who, the rating and the games behind it.
function fill(table, rows, titles, who) {
  const body = table.querySelector("tbody");
  for (const row of rows) {
    body.append(el("tr", {"data-testid": "rating"}, el("td", {}, titles[row.game] || row.game),
                   el("td", {class: "num"}, row.players), el("td", {}, who(row)),
                   el("td", {class: "num"}, row.rating.toFixed(0)), el("td", {class: "num"}, row.games)));
  }
  table.classList.toggle("hidden", rows.length === 0);
}

Promise.all([api("GET", "/api/games"), api("GET", "/api/ratings")]).then(([data, rated]) => {
  const titles = {};
  for (const game of data.games) {
    titles[game.game] = game.title;
    $("games").append(el("li", {}, el("a", {href: game.page, "data-testid": `game-${game.game}`}, game.title),
                         ` (${game.players} players)`));
  }
  const elo = rated.elo;
  $("elo").textContent = `Elo ratings (K = ${elo.k}, starting at ${elo.start}) of each agent against people, per game ` +
                         `and number of players, from ${elo.counted}. A person who gives a name is rated too; ` +
                         "anonymous people share one rating.";
  fill($("ratings"), rated.agents, titles, (row) => row.agent);
  fill($("people"), rated.people, titles, (row) => row.name === null ? "anonymous" : row.name);
  $("people-title").classList.toggle("hidden", rated.people.length === 0);
  $("no-ratings").classList.toggle("hidden", rated.agents.length > 0);
}).catch(showError);
