"""Privacy by non-interference, for Gold Rush: what a seat has not seen cannot change what it observes.

As tests/gold/test_noninterference.py does for Gold, these tests do not ask the environment what a seat knows:
they play a game, deal it again with the face-down pieces a seat has not seen shuffled among their places, replay
the same actions and require that seat to observe exactly the same: observation vector, legal mask and view.
"""

from __future__ import annotations

import dataclasses

import numpy as np


def _piecepack_seen(env, seat: int) -> tuple:
    agent = env.possible_agents[seat]
    observed = env.observe(agent)
    view = dataclasses.asdict(env.view(agent))
    return (observed["observation"].tolist(), observed["action_mask"].tolist(),
            {key: value.tolist() if isinstance(value, np.ndarray) else value for key, value in view.items()})


def hidden_from(game, seat: int, rng: np.random.Generator, record: dict) -> dict:
    """``record`` with the pieces ``seat`` has not seen shuffled: face-down tiles it has not assayed among
    themselves, and face-down coins it has not assayed among those of their row (a coin's back shows its suit)."""
    from goldrush_env.piecepack.components import COLUMNS, NUM_PLOTS

    def unseen(piece: int) -> bool:
        return not game.face_up[piece] and not game.assayed[piece] >> seat & 1

    tiles, coins = list(record["tiles"]), list(record["coins"])
    places = [p for p in range(NUM_PLOTS) if unseen(p)]
    for place, source in zip(places, rng.permutation(places)):
        tiles[place] = record["tiles"][source]
    for row in range(NUM_PLOTS // COLUMNS):
        places = [p for p in range(row * COLUMNS, (row + 1) * COLUMNS) if unseen(NUM_PLOTS + p)]
        for place, source in zip(places, rng.permutation(places)):
            coins[place] = record["coins"][source]
    return dict(record, tiles=tiles, coins=coins)


def test_pieces_a_seat_has_not_seen_do_not_change_what_it_observes():
    """A seat's face-down pieces it has not assayed, shuffled (the same dice, the same actions), leave its
    observation, mask and view as they were, whenever the shuffle leaves the public table as it was (a piece the
    rules make produce in public tells everybody something, which is no leak)."""
    from goldrush_env.piecepack.aec import raw_env
    from goldrush_env.piecepack.engine import Game

    rng = np.random.default_rng(11)
    compared = 0
    for deal in range(6):
        players = 3 + deal % 2
        game = Game.new(players, seed=deal)
        while not game.is_over and len(game.history) < 400:
            game.step(int(rng.choice(np.flatnonzero(game.legal_mask()))))
        record = game.to_record()
        actions = record["actions"]
        for turns in sorted({0, 3, 20, len(actions) // 4, len(actions) // 2, len(actions) - 1}):
            prefix = {key: value for key, value in record.items() if key != "final"}
            prefix.update(actions=actions[:turns], rounds=[])
            env = raw_env(num_players=players)
            env.reset(options={"record": prefix})
            for seat in range(players):
                twin_record = hidden_from(env.game, seat, rng, prefix)
                twin = raw_env(num_players=players)
                twin.reset(options={"record": twin_record})
                if twin.game.public_state() != env.game.public_state():
                    continue
                assert _piecepack_seen(twin, seat) == _piecepack_seen(env, seat), (deal, turns, seat)
                compared += 1
    assert compared >= 100  # a public state that told the hidden pieces would leave too few to compare
