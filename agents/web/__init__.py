"""``goldrush serve``: Gold in the browser. Play against the agents, watch them play, replay a saved record.

:func:`create_app` builds a Starlette app: one page (``static/``, plain HTML, CSS and JavaScript, nothing fetched
from elsewhere) and a small JSON API under ``/api`` (docs/web.md).

The server holds the truth. A game played by a person lives here, and what is sent to the page is the person's
seat's knowledge only (:meth:`~goldrush_agents.web.games.Session.state`): never the hidden table, another seat's
memory, or a seed the server chose before the game has ended. Watched games and replays have no person at the
table and show every card.

Every request is bounded (:class:`~goldrush_agents.web.limits.Limits`): its body, its fields, the agents it may
ask for and what their moves may cost, the games one client and the whole server may have in play; each is
checked before any work is done, and a refusal is a JSON error that names the value and what is allowed.

The modules: :mod:`~goldrush_agents.web.limits` (the bounds), :mod:`~goldrush_agents.web.inputs` (reading
requests), :mod:`~goldrush_agents.web.games` (the games held and what is sent of them),
:mod:`~goldrush_agents.web.app` (the routes).
"""

from goldrush_agents.web.app import create_app, serve
from goldrush_agents.web.games import event_json, open_state
from goldrush_agents.web.inputs import WEB_AGENTS, WebError
from goldrush_agents.web.limits import Limits

IDLE_SECONDS = Limits.idle_seconds
"""A game in play that no request has touched for this long (30 minutes) is dropped."""
MAX_GAMES = Limits.max_games
"""At most this many games are in play at once."""

__all__ = ["create_app", "serve", "Limits", "IDLE_SECONDS", "MAX_GAMES", "WEB_AGENTS", "WebError", "event_json",
           "open_state"]
