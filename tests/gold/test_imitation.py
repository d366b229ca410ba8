"""The warm start's data: collected from a teacher, saved, loaded, fitted."""

import hashlib
import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from goldrush_agents.gold.trained import SHIPPED_MODEL  # noqa: E402
from goldrush_env.gold.cards import NUM_POSITIONS  # noqa: E402
from goldrush_env.gold.encoder import OBSERVATION_SIZE  # noqa: E402
from goldrush_train.gold.decisions import FIELDS, collect, load, pretrain, save  # noqa: E402
from goldrush_train.gold.imitation import main  # noqa: E402
from goldrush_train.gold.network import GoldNet  # noqa: E402


def test_a_scripted_teacher_teaches_its_flips():
    data = collect(2, teacher="expert", seed=3, workers=1)
    n = len(data["actions"])
    assert n > 50 and all(len(data[key]) == n for key in FIELDS)
    assert data["observations"].shape == (n, OBSERVATION_SIZE) and data["targets"].shape == (n, NUM_POSITIONS)
    assert data["masks"][np.arange(n), data["actions"]].all()
    one_hot = np.zeros((n, NUM_POSITIONS), np.float32)
    one_hot[np.arange(n), data["actions"]] = 1
    np.testing.assert_array_equal(data["targets"], one_hot)


def test_a_search_teacher_teaches_its_moves():
    data = collect(1, teacher="ismcts[iterations=30]", seed=3, workers=1)
    targets, masks, actions = data["targets"], data["masks"], data["actions"]
    np.testing.assert_allclose(targets.sum(axis=1), 1, atol=1e-5)
    assert np.all(targets[~masks] == 0) and np.all(targets[np.arange(len(actions)), actions] > 0)
    # A move is spread evenly over the positions it stands for (an unknown card: every unknown legal one).
    spread = np.count_nonzero(targets, axis=1) > 1
    assert spread.any() and not spread.all()
    np.testing.assert_allclose(targets.max(axis=1), 1 / np.count_nonzero(targets, axis=1), rtol=1e-6)


def test_a_search_teacher_also_records_its_visit_shares():
    data = collect(1, teacher="ismcts[iterations=60]", seed=3, workers=1)
    visits, targets, masks = data["visits"], data["targets"], data["masks"]
    np.testing.assert_allclose(visits.sum(axis=1), 1, atol=1e-5)
    assert np.all(visits[~masks] == 0) and np.all(visits[targets > 0] > 0)  # the move played was visited
    assert (np.count_nonzero(visits, axis=1) > np.count_nonzero(targets, axis=1)).any()  # other moves were too
    scripted = collect(1, teacher="greedy", seed=3, workers=1)  # a teacher without shares: its flip
    np.testing.assert_array_equal(scripted["visits"], scripted["targets"])


def test_visit_shares_load_as_the_targets_with_the_moves_kept(tmp_path):
    data = collect(1, teacher="ismcts[iterations=30]", seed=4, workers=1)
    save(data, tmp_path / "new.npz")
    shares = load(tmp_path / "new.npz", target="visits")
    np.testing.assert_array_equal(shares["targets"], data["visits"])
    np.testing.assert_array_equal(shares["moves"], data["targets"])
    assert set(load(tmp_path / "new.npz")) == set(FIELDS)  # the moves, as before
    save({key: data[key] for key in FIELDS}, tmp_path / "old.npz")  # as collected before the shares were kept
    with pytest.raises(ValueError, match=r"old\.npz holds no visit shares"):
        load(tmp_path / "old.npz", target="visits")
    with pytest.raises(ValueError, match=r"target must be one of \['move', 'visits'\], got 'visit'"):
        load(tmp_path / "new.npz", target="visit")


def test_matches_are_counted_against_the_moves_when_fitting_the_shares():
    # Visit shares put weight on most legal positions: counted against them nearly any flip would match.
    data = collect(1, teacher="ismcts[iterations=30]", seed=4, workers=1)
    masks = data["masks"]
    spread = (masks / masks.sum(axis=1, keepdims=True)).astype(np.float32)
    torch.manual_seed(0)
    stats = pretrain(GoldNet(width=8, context=4), {**data, "targets": spread, "moves": data["targets"]}, epochs=1)
    torch.manual_seed(0)
    against_spread = pretrain(GoldNet(width=8, context=4), {**data, "targets": spread}, epochs=1)
    assert against_spread["matches"] == 1.0 and stats["matches"] < 0.9
    assert stats["loss"] == pytest.approx(against_spread["loss"])  # the same fit; only the count differs


def test_collection_is_reproducible_with_a_seed():
    first, again = collect(2, teacher="ismcts[iterations=10]", seed=7, workers=2), \
        collect(2, teacher="ismcts[iterations=10]", seed=7, workers=1)
    for key in FIELDS + ("visits",):
        np.testing.assert_array_equal(first[key], again[key])


def test_saved_data_loads_and_joins(tmp_path):
    part = collect(1, seed=1, workers=1)
    other = collect(1, seed=2, workers=1)
    save(part, tmp_path / "a.npz", teacher="expert")
    save(other, tmp_path / "b.npz", teacher="expert")
    joined = load(tmp_path / "a.npz", tmp_path / "b.npz")
    for key in FIELDS:
        np.testing.assert_array_equal(joined[key], np.concatenate([part[key], other[key]]))


def test_a_file_that_is_not_a_data_set_is_refused_by_name(tmp_path):
    np.savez(tmp_path / "weights.npz", observations=np.zeros((2, OBSERVATION_SIZE), np.float32))
    with pytest.raises(ValueError, match=r"weights\.npz is not an imitation data set: it lacks \['masks'"):
        load(tmp_path / "weights.npz")
    data = {key: value[:, :5] if key == "observations" else value for key, value in collect(1, workers=1).items()}
    save(data, tmp_path / "old.npz")
    with pytest.raises(ValueError, match=r"old\.npz holds observations of size \(5,\)"):
        load(tmp_path / "old.npz")
    save(collect(1, num_players=3, workers=1), tmp_path / "three.npz", num_players=3)
    assert len(load(tmp_path / "three.npz", num_players=3)["actions"]) > 0
    with pytest.raises(ValueError, match=r"three\.npz holds games of 3 players, not 2"):
        load(tmp_path / "three.npz", num_players=2)


def masked_entropy_ratio(net, data):
    """The network's entropy over the legal positions as a share of the uniform distribution's, on average."""
    with torch.no_grad():
        logits = net(torch.as_tensor(data["observations"]))[0].masked_fill(~torch.as_tensor(data["masks"]), -1e9)
        p = torch.softmax(logits, dim=1)
        entropy = -(p * torch.log(p.clamp_min(1e-12))).sum(dim=1)
    return float((entropy / torch.log(torch.as_tensor(data["masks"].sum(axis=1), dtype=torch.float32))).mean())


def test_pretraining_fits_the_targets_not_only_the_flips():
    # The same decisions, two teachers: one spreads every target evenly over the legal positions, the other
    # names the flip. Fitted to the first the network stays near uniform; fitted to the second it does not.
    data = collect(3, seed=5, workers=1)
    data = {key: value[data["masks"].sum(axis=1) > 1] for key, value in data.items()}
    spread = {**data, "targets": (data["masks"] / data["masks"].sum(axis=1, keepdims=True)).astype(np.float32)}
    ratios = []
    for fitted in (spread, data):
        torch.manual_seed(0)
        net = GoldNet(width=16, context=8)
        pretrain(net, fitted, epochs=30, batch_size=64, lr=3e-3)
        ratios.append(masked_entropy_ratio(net, fitted))
    assert ratios[0] > 0.98 and ratios[1] < ratios[0] - 0.1, ratios


def test_the_command_writes_a_data_set(tmp_path, capsys):
    path = main(["--teacher", "greedy", "--games", "2", "--seed", "4", "--workers", "1",
                 "--out", str(tmp_path / "sub" / "greedy.npz")])
    assert path == tmp_path / "sub" / "greedy.npz"
    assert "of 2 games of greedy in" in capsys.readouterr().out
    np.testing.assert_array_equal(load(path)["actions"], collect(2, teacher="greedy", seed=4, workers=1)["actions"])
    with pytest.raises(SystemExit):
        main(["--games", "0", "--out", str(tmp_path / "x.npz")])
    assert "--games must be an int >= 1, got 0" in capsys.readouterr().err


def replay_student(seed, game, num_players, student, opponents, teacher):
    """The student's game ``game`` of ``collect(seed=seed, student=...)`` played again by hand: its views at the
    student's turns and the teacher's flips there."""
    from goldrush_agents import make_agent
    from goldrush_env.gold.aec import raw_env

    deal = seed * 1_000_003 + game
    seat, opponent = (game // len(opponents)) % num_players, opponents[game % len(opponents)]
    seeds = [int(s.generate_state(1)[0]) for s in np.random.SeedSequence(deal).spawn(num_players + 1)]
    players = [make_agent(student if k == seat else opponent, seed=s) for k, s in enumerate(seeds[:num_players])]
    labeller = make_agent(teacher, seed=seeds[num_players])
    env = raw_env(num_players=num_players)
    env.reset(seed=deal, options={"first_player": deal % num_players})
    observations, flips = [], []
    while not env.game.is_finished:
        view = env.view(env.game.current_player)
        if env.game.current_player == seat:
            observations.append(view.observation)
            flips.append(labeller.act(view))
        env.step_from_view(players[env.game.current_player].act(view))  # a player's flip is a position
    return np.array(observations), np.array(flips)


@pytest.mark.parametrize("num_players", [2, 3])
def test_a_student_plays_and_the_teacher_labels_its_states(num_players):
    opponents = ("random", "greedy")
    data = collect(4, num_players=num_players, teacher="expert", seed=2, workers=2, student="random",
                   opponents=opponents)
    assert data["masks"][np.arange(len(data["actions"])), data["actions"]].all()
    start = 0
    for game in range(4):  # the student's seat and its opponents rotate game by game
        observations, flips = replay_student(2, game, num_players, "random", opponents, "expert")
        np.testing.assert_array_equal(data["observations"][start:start + len(flips)], observations)
        np.testing.assert_array_equal(data["actions"][start:start + len(flips)], flips)
        start += len(flips)
    assert start == len(data["actions"])
    # The states are the student's: a random student's game is not the expert's own.
    own = collect(4, num_players=num_players, teacher="expert", seed=2, workers=1)
    assert len(own["actions"]) != len(data["actions"]) or (own["observations"] != data["observations"]).any()


def test_the_command_records_the_student_and_refuses_an_unknown_agent(tmp_path, capsys):
    path = main(["--teacher", "expert", "--student", "random", "--opponents", "greedy", "--games", "2",
                 "--workers", "1", "--out", str(tmp_path / "dagger.npz")])
    with np.load(path) as stored:
        about = json.loads(str(stored["about"]))
    assert about["student"] == "random" and about["opponents"] == ["greedy"] and about["teacher"] == "expert"
    assert about["student_sha256"] is None  # an agent name; a model file is recorded with its digest
    model = main(["--teacher", "greedy", "--student", str(SHIPPED_MODEL), "--games", "1", "--workers", "1",
                  "--out", str(tmp_path / "model.npz")])
    with np.load(model) as stored:
        digest = json.loads(str(stored["about"]))["student_sha256"]
    assert digest == hashlib.sha256(SHIPPED_MODEL.read_bytes()).hexdigest()
    np.testing.assert_array_equal(load(path)["actions"], collect(2, teacher="expert", student="random",
                                                                 opponents=["greedy"], workers=1)["actions"])
    for flag, bad in (("--student", "randum"), ("--opponents", "greedy,nobody")):
        with pytest.raises(SystemExit):
            main(["--student", "random", flag, bad, "--out", str(tmp_path / "x.npz")])
        assert f"unknown agent {bad.split(',')[-1]!r}" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--student", "random", "--opponents", "", "--out", str(tmp_path / "x.npz")])
    assert "--opponents needs at least one agent name, got ''" in capsys.readouterr().err
    assert not (tmp_path / "x.npz").exists()
