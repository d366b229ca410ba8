"""``goldrush serve``: every game of the registry in the browser. Play against the agents, watch them play,
replay a saved record.

:func:`create_app` builds a Starlette app by looping over the registry: an index page that lists the games, each
game's page at ``/<game>`` (plain HTML, CSS and JavaScript, nothing fetched from elsewhere) and one JSON API with
the same routes for every game under ``/api/<game>/`` (docs/web.md). A game's web part lives with its players
(the module ``web`` of its players package: Gold's :mod:`goldrush_agents.gold.web`, Gold Rush's
:mod:`goldrush_agents.piecepack.web`); a game that brings none is served by the plain part,
:class:`~goldrush_agents.web.game.WebGame`, from the game protocol alone.

The server holds the truth. A game played by a person lives here, and what is sent to the page is the person's
seat's knowledge only (each web part's ``seat_state``): never what the seat has not seen, another seat's memory,
or a seed the server chose before the game has ended. Watched games and replays have no person at the table.

Every request is bounded (:class:`~goldrush_agents.web.limits.Limits`): its body (JSON only), its fields, the
agents it may ask for and what their moves may cost, the games one client and the whole server may have in play;
each is checked before any work is done, and a refusal is a JSON error that names the value and what is allowed.

The modules: :mod:`~goldrush_agents.web.limits` (the bounds), :mod:`~goldrush_agents.web.inputs` (reading
requests), :mod:`~goldrush_agents.web.game` (a game as the server plays it, its sessions),
:mod:`~goldrush_agents.web.store` (the games held), :mod:`~goldrush_agents.web.database` (the SQLite file that
keeps them, so that a restarted server loses none), :mod:`~goldrush_agents.web.ratings` (the agents' Elo against
people), :mod:`~goldrush_agents.web.app` (the routes).
"""

from goldrush_agents.web.app import create_app, serve
from goldrush_agents.web.game import Session, WebGame
from goldrush_agents.web.inputs import AgentRules, WebError
from goldrush_agents.web.limits import Limits

__all__ = ["create_app", "serve", "Limits", "WebGame", "Session", "AgentRules", "WebError"]
