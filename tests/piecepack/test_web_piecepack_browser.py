"""Gold Rush's page of ``goldrush serve`` (``/piecepack``) in a real browser: Playwright driving Debian's Chromium.

Whole games are played by clicking the choices their words name, watched step by step and replayed from the record
the page saves; the page must show only what the person's seat knows, and speak the rule sheet's words, never the
engine's names. Skipped, like ``tests/gold/test_web_browser.py``, without playwright or Chromium.
"""

from __future__ import annotations

import json
import re

import pytest

from conftest import BROWSER_PATIENCE_MS, chromium, require_browser, served

require_browser()

from playwright.sync_api import expect  # noqa: E402

from goldrush_agents import make_agent  # noqa: E402
from goldrush_agents.arena import play_game  # noqa: E402
from goldrush_agents.web import create_app  # noqa: E402
from goldrush_env.piecepack.components import RESOURCES  # noqa: E402
from goldrush_env.piecepack.engine import Game  # noqa: E402
from goldrush_env.piecepack.words import event_words  # noqa: E402

ENGINE_NAME = re.compile(r"[A-Z]{2,}|_|=")
"""What only the engine writes in a choice or a log line: an ALL_CAPS kind (``OFFER(``, ``END_FREE_TRADE``),
``dice=(...)``."""
PREFERENCES = ("Build", "Claim", "Upgrade", "Decline", "Leave", "Sell no", "End your")
"""What the person of :func:`play_to_the_end` clicks, by the first words of a choice: the first that one offers."""


@pytest.fixture(scope="module")
def app():
    return create_app()


@pytest.fixture(scope="module")
def url(app):
    with served(app) as port:
        yield f"http://127.0.0.1:{port}/piecepack"


@pytest.fixture(scope="module")
def browser():
    with chromium() as browser:
        yield browser


@pytest.fixture
def page(browser, url):
    context = browser.new_context(viewport={"width": 1100, "height": 800}, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(BROWSER_PATIENCE_MS)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    yield page
    context.close()
    assert errors == [], errors


def shown_pieces(page) -> dict[int, str]:
    """What the field shows of each piece: its code, a suit and '?', or '?'."""
    texts = page.eval_on_selector_all("[data-piece]", "nodes => nodes.map(n => [n.dataset.piece, n.firstChild.textContent])")
    return {int(piece): text for piece, text in texts}


def click_and_wait(page, locator):
    """Click, and wait until the page has drawn the state the server answered with."""
    drawn_after(page, locator.click)


def drawn_after(page, act) -> None:
    """Do ``act``, and wait until the page has drawn a state again (the first, if it had drawn none)."""
    body = page.locator("body")
    drawn = body.get_attribute("data-drawn")
    act()
    if drawn is None:
        expect(body).to_have_attribute("data-drawn", re.compile("."))
    else:
        expect(body).not_to_have_attribute("data-drawn", drawn)


def texts(page, test_id: str) -> list[str]:
    return page.locator(f"[data-testid={test_id}]").all_text_contents()


def in_words(page) -> None:
    """The choices and the log read in the rule sheet's words, and no engine name is anywhere on the page."""
    for text in texts(page, "choice") + page.locator("[data-testid=log] li").all_text_contents():
        assert not ENGINE_NAME.search(text), text
    body = page.locator("body").inner_text()
    assert not re.search(r"[A-Z]{2,}\(|[A-Z]+_[A-Z]+|\w=\(", body), body


def play_to_the_end(page, app, seat: int) -> dict[str, int]:
    """Click, whenever it is the person's turn, the choice :data:`PREFERENCES` names first. At every turn the field
    must show exactly the pieces the seat knows (face up, or assayed by it) and nothing of the rest, each plot's
    production this round, and everything in words. Returns how many of each first word were clicked."""
    store = app.state.store
    clicked: dict[str, int] = {}
    while True:
        end = page.locator("[data-testid=end-screen]")
        expect(page.locator("[data-testid=end-screen]:visible, [data-testid=choice]").first).to_be_visible()
        in_words(page)
        if end.is_visible():
            return clicked
        (session,) = [s for s in store.live.values() if s.web.name == "piecepack"]
        known = session.env.game.known_to(seat)
        for piece, text in shown_pieces(page).items():
            code = known["face_up"].get(piece) or known["identities"].get(piece)
            if code is not None:
                assert text == code
            else:  # a coin's suit is public (its row's), its rank and a tile's identity are not
                assert re.fullmatch(r"[MSAC]?\?", text), (piece, text)
        badges = page.eval_on_selector_all("[data-testid^=yield-]",
                                           "nodes => nodes.map(n => [n.dataset.testid, n.textContent])")
        assert dict(badges) == {f"yield-{plot}": f"+{units} {RESOURCES[resource]}"
                                for plot, resource, units in known["produced"]}
        words = texts(page, "choice")
        first = next(w for w in PREFERENCES if any(text.startswith(w) for text in words))
        for text in words:
            if text.startswith(("Build", "Upgrade")):
                assert re.search(r" for \d (Food|Energy|Ore|Gold)", text), text  # the price is on the button
        clicked[first] = clicked.get(first, 0) + 1
        click_and_wait(page, page.locator("[data-testid=choice]", has_text=re.compile("^" + first)).first)


def test_a_whole_game_is_played_by_the_words_of_its_choices_and_the_page_shows_only_the_seats_knowledge(page, app):
    page.select_option("[data-testid=players]", "3")
    page.select_option("[data-testid=seat]", "1")
    page.fill("[data-testid=opponents]", "random,economist")
    page.fill("[data-testid=seed]", "11")
    click_and_wait(page, page.locator("[data-testid=play-start]"))
    clicked = play_to_the_end(page, app, seat=1)
    assert clicked["Build"] and clicked["Claim"] and clicked["End your"], clicked
    expect(page.locator("[data-testid=end-title]")).to_contain_text("The game is over")
    assert page.locator("[data-testid=holdings] tbody tr").count() == 3
    # The record the page saves replays on the Replay tab, to the same final scores.
    with page.expect_download() as download:
        page.click("[data-testid=end-save]")
    with open(download.value.path()) as file:
        record = json.load(file)
    assert record["names"][1] == "you" and record["seed"] == 11
    page.click("[data-testid=end-replay]")
    expect(page.locator("[data-testid=replay-position]")).to_contain_text("action 0 of")
    page.click("[data-testid=replay-last]")
    expect(page.locator("[data-testid=end-title]")).to_contain_text(", ".join(map(str, record["final"]["scores"])))


def test_a_picked_plot_narrows_the_choices(page, app):
    page.fill("[data-testid=opponents]", "random")
    page.fill("[data-testid=seed]", "4")
    click_and_wait(page, page.locator("[data-testid=play-start]"))
    claim = page.locator("[data-testid=choice]", has_text=re.compile("^Claim plot"))
    while not claim.first.is_visible():
        click_and_wait(page, page.locator("[data-testid=choice]").first)
    claims = claim.count()
    free = int(claim.first.get_attribute("data-action"))
    page.click(f"[data-testid=plot-{free}]")
    expect(claim).to_have_count(1)
    expect(claim).to_contain_text(f"Claim plot {free} (row ")
    assert claims > 1
    click_and_wait(page, claim)
    expect(page.locator(f"[data-testid=plot-{free}]")).to_have_class(re.compile("owned0"))


def at_speed(page, value: int) -> None:
    """Move the Watch tab's Speed control to ``value`` (0 slow to 4 instant), as a person dragging it would."""
    page.fill("[data-testid=speed]", str(value))
    page.dispatch_event("[data-testid=speed]", "input")


def test_a_watched_game_steps_to_its_end_showing_every_piece(page):
    page.click("[data-testid=tab-watch]")
    at_speed(page, 4)  # instant: the game plays as fast as the server answers
    expect(page.locator("#speed-name")).to_have_text("instant")
    page.fill("[data-testid=watch-agents]", "economist,random,random,taught")
    page.fill("[data-testid=watch-seed]", "2")
    click_and_wait(page, page.locator("[data-testid=watch-start]"))
    click_and_wait(page, page.locator("[data-testid=watch-step]"))
    pieces = shown_pieces(page)
    assert len(pieces) == 48 and all("?" not in text for text in pieces.values())  # nobody sits at the table
    page.click("[data-testid=watch-play]")
    expect(page.locator("[data-testid=end-screen]")).to_be_visible()
    assert page.locator("[data-testid=holdings] tbody tr").count() == 4
    in_words(page)
    expect(page.locator("[data-testid=log] li").first).to_contain_text("The game is over. Scores: economist ")


def test_the_speed_control_sets_the_pace_of_a_watched_game(page):
    """Play waits the Speed control's time between steps (slow 1800 ms, fast 250, instant 0), read at each step,
    and Pause stops it. The page's clock is Playwright's: time moves only when the test moves it, so each count
    of steps asked below is exact, whatever the machine's load."""
    page.click("[data-testid=tab-watch]")
    page.fill("[data-testid=watch-agents]", "economist,random,random")
    page.fill("[data-testid=watch-seed]", "5")
    click_and_wait(page, page.locator("[data-testid=watch-start]"))
    page.clock.install(time=0)
    page.clock.pause_at(3600)  # from here the page's time moves only by run_for
    page.evaluate("""() => {  // count the steps the page asks the server for, as it asks
        const fetched = window.fetch;
        document.body.dataset.steps = "0";
        window.fetch = (path, ...rest) => {
            if (String(path).endsWith("/step")) document.body.dataset.steps = String(+document.body.dataset.steps + 1);
            return fetched(path, ...rest);
        };
    }""")
    body = page.locator("body")

    def steps() -> int:
        return int(body.get_attribute("data-steps"))

    at_speed(page, 0)
    expect(page.locator("#speed-name")).to_have_text("slow")
    drawn_after(page, lambda: page.click("[data-testid=watch-play]"))  # the first step at once
    assert steps() == 1
    page.clock.run_for(1799)
    assert steps() == 1
    drawn_after(page, lambda: page.clock.run_for(1))
    assert steps() == 2
    at_speed(page, 3)  # read at the next step: this wait is still the slow one
    expect(page.locator("#speed-name")).to_have_text("fast")
    page.clock.run_for(1799)
    assert steps() == 2
    drawn_after(page, lambda: page.clock.run_for(1))
    assert steps() == 3
    page.clock.run_for(249)
    assert steps() == 3
    at_speed(page, 4)
    drawn_after(page, lambda: page.clock.run_for(1))
    assert steps() == 4
    drawn_after(page, lambda: page.clock.run_for(0))  # instant: the next step waits for no time at all
    assert steps() == 5
    page.click("[data-testid=watch-play]")
    expect(page.locator("[data-testid=watch-play]")).to_have_text("Play")
    page.clock.run_for(60_000)
    assert steps() == 5  # paused
    expect(page.locator("[data-testid=end-screen]")).to_be_hidden()
    expect(page.locator("[data-testid=watch-step]")).to_be_enabled()


def test_a_bad_record_is_refused_in_words(page):
    page.click("[data-testid=tab-replay]")
    page.fill("[data-testid=replay-input]", json.dumps({"tiles": [], "coins": []}))
    page.click("[data-testid=replay-load]")
    expect(page.locator("[data-testid=error]")).to_contain_text("the record cannot be replayed")


def test_the_header_leads_to_every_game(page):
    link = page.locator("[data-testid=other-game]")
    expect(link).to_have_text("All games")
    assert link.get_attribute("href") == "/"


def test_the_arrow_keys_before_a_record_is_loaded_do_nothing(page):
    """The Replay tab's arrows step through a loaded record; before one is, they must not throw (a TypeError once)."""
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.click("[data-testid=tab-replay]")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    page.evaluate("() => new Promise((done) => setTimeout(done, 50))")  # the key events' errors, if any, arrive
    assert errors == []
    expect(page.locator("[data-testid=replay-position]")).to_have_text("")
    expect(page.locator("[data-testid=status]")).to_have_text("Load a record to replay it.")


def test_the_replay_log_goes_as_far_as_the_action_shown(page):
    """At each action of a replay the log holds the events up to it, newest first, and the end only at the end."""
    names = ["ann", "bob", "cy"]
    record = play_game([make_agent("economist", game="piecepack") for _ in names], 6, game="piecepack",
                       names=names).record
    game = Game.from_record({**record, "actions": [], "rounds": [], "final": None}, check=False)
    dealt = len(game.events)
    page.click("[data-testid=tab-replay]")
    page.fill("[data-testid=replay-input]", json.dumps(record))
    page.click("[data-testid=replay-load]")
    log = page.locator("[data-testid=log] li")
    for action in [None, *record["actions"][:3]]:
        if action is not None:
            game.step(action)
            page.keyboard.press("ArrowRight")
        expect(log).to_have_count(len(game.events))
        assert log.first.text_content() == event_words(game.events[-1], names)
    assert not page.locator("[data-testid=log]", has_text="The game is over").count()
    page.click("[data-testid=replay-last]")
    expect(log.first).to_have_text(re.compile("^The game is over. Scores: ann "))
    page.click("[data-testid=replay-first]")
    expect(log).to_have_count(dealt)


# --- issue 69, item 5: the page keeps its game --------------------------------------------------------------------


def deal_and_act(page, seed: int) -> None:
    page.fill("[data-testid=opponents]", "random")
    page.fill("[data-testid=seed]", str(seed))
    click_and_wait(page, page.locator("[data-testid=play-start]"))
    click_and_wait(page, page.locator("[data-testid=choice]").first)


def session_of(app, seed: int):
    return next(s for s in app.state.store.live.values() if s.web.name == "piecepack" and s.seed == seed)


def test_a_reload_returns_to_the_game_in_play(page, app):
    deal_and_act(page, seed=21)
    status, choices, log = (texts(page, "status"), texts(page, "choice"),
                            page.locator("[data-testid=log] li").all_text_contents())
    drawn_after(page, page.reload)
    expect(page.locator("[data-testid=status]")).to_have_text(status[0])
    assert texts(page, "choice") == choices
    assert page.locator("[data-testid=log] li").all_text_contents() == log
    assert len([s for s in app.state.store.live.values() if s.web.name == "piecepack" and s.seed == 21]) == 1
    click_and_wait(page, page.locator("[data-testid=choice]").first)  # and the game goes on
    expect(page.locator("[data-testid=error]")).to_be_hidden()


def test_a_reload_returns_to_the_watched_game_and_its_tab(page):
    page.click("[data-testid=tab-watch]")
    page.fill("[data-testid=watch-agents]", "economist,random,random")
    page.fill("[data-testid=watch-seed]", "3")
    click_and_wait(page, page.locator("[data-testid=watch-start]"))
    click_and_wait(page, page.locator("[data-testid=watch-step]"))
    log = page.locator("[data-testid=log] li").all_text_contents()
    drawn_after(page, page.reload)
    expect(page.locator("[data-testid=tab-watch]")).to_have_attribute("aria-selected", "true")
    assert page.locator("[data-testid=log] li").all_text_contents() == log
    expect(page.locator("[data-testid=watch-step]")).to_be_enabled()
    click_and_wait(page, page.locator("[data-testid=watch-step]"))


def test_a_game_the_server_dropped_leaves_no_choice_to_click_and_is_forgotten(page, app):
    deal_and_act(page, seed=22)
    app.state.store.remove(session_of(app, 22).id, "piecepack")
    page.locator("[data-testid=choice]").first.click()
    expect(page.locator("[data-testid=notice]")).to_contain_text("That game is no longer on the server")
    expect(page.locator("[data-testid=choice]")).to_have_count(0)
    expect(page.locator("[data-testid=status]")).to_have_text("Deal a game to start.")
    expect(page.locator("[data-testid=error]")).to_be_hidden()
    page.reload()  # the page forgot it: no second notice
    expect(page.locator("[data-testid=status]")).to_have_text("Deal a game to start.")
    expect(page.locator("[data-testid=notice]")).to_be_hidden()


def test_a_reload_after_the_server_lost_the_game_shows_the_start(page, app):
    """As after a restart of the server: the page asks for its game once, is told it is gone, and says so."""
    deal_and_act(page, seed=23)
    app.state.store.remove(session_of(app, 23).id, "piecepack")
    page.reload()
    expect(page.locator("[data-testid=notice]")).to_contain_text("That game is no longer on the server")
    expect(page.locator("[data-testid=choice]")).to_have_count(0)
    expect(page.locator("[data-testid=status]")).to_have_text("Deal a game to start.")


def test_three_quick_steps_make_three_moves(page, app):
    page.click("[data-testid=tab-watch]")
    page.fill("[data-testid=watch-agents]", "economist,random,random")
    page.fill("[data-testid=watch-seed]", "24")
    click_and_wait(page, page.locator("[data-testid=watch-start]"))
    drawn = int(page.locator("body").get_attribute("data-drawn"))
    page.locator("[data-testid=watch-step]").evaluate("button => { button.click(); button.click(); button.click(); }")
    page.wait_for_function("(count) => Number(document.body.dataset.drawn) >= count", arg=drawn + 3)
    (session,) = [s for s in app.state.store.live.values() if s.web.name == "piecepack" and s.seed == 24]
    assert len(session.game.to_record()["actions"]) == 3


def test_the_winners_are_named_so_that_two_of_one_name_are_told_apart(page):
    said = page.evaluate("""() => [
        winnersWin(["economist", "economist", "idle"], [1]),
        winnersWin(["you", "idle", "idle"], [0, 1, 2]),
        winnersWin(["you", "economist", "idle"], [0]),
        winnersWin(["idle", "you", "economist"], [0, 1]),
    ]""")
    assert said == ["economist (seat 1) wins", "you, idle (seat 1) and idle (seat 2) share the win", "you win",
                    "idle (seat 0) and you share the win"]
    page.click("[data-testid=tab-watch]")
    at_speed(page, 4)
    page.fill("[data-testid=watch-agents]", "economist,economist,idle")
    page.fill("[data-testid=watch-seed]", "2")
    click_and_wait(page, page.locator("[data-testid=watch-start]"))
    page.click("[data-testid=watch-play]")
    expect(page.locator("[data-testid=end-title]")).to_have_text(re.compile(
        r"The game is over: (economist \(seat [01]\) wins|idle \(seat 2\) wins|.* share the win) \(scores "))


def test_the_name_a_person_gives_reaches_its_game(page, app):
    page.fill("[data-testid=name]", "Grace")
    deal_and_act(page, seed=33)
    assert session_of(app, 33).player == "Grace"
