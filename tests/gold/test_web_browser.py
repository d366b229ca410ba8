"""Gold's page of ``goldrush serve`` (``/gold``) and the index of the games in a real browser: Playwright driving
Debian's Chromium, headless. The plain page of a game without a page of its own is tested in
tests/test_web_games.py.

Needs the dev extra (playwright) and ``/usr/bin/chromium`` (``apt-get install -y chromium``); the module is
skipped without them. Games are dealt on the quarter table (16 cards) so that a whole game takes seconds.
"""

from __future__ import annotations

import json
import re

import pytest

from conftest import BROWSER_PATIENCE_MS, chromium, require_browser, served

require_browser()

from playwright.sync_api import expect  # noqa: E402

from goldrush_agents import cli  # noqa: E402
from goldrush_agents.web import create_app  # noqa: E402



@pytest.fixture(scope="module")
def app():
    return create_app()


@pytest.fixture(scope="module")
def root(app):
    """The app on a free local port, served by uvicorn in a background thread: its address, without a slash."""
    with served(app) as port:
        yield f"http://127.0.0.1:{port}"


@pytest.fixture(scope="module")
def url(root):
    """Gold's page."""
    return f"{root}/gold"


@pytest.fixture(scope="module")
def browser():
    with chromium() as browser:
        yield browser


@pytest.fixture
def page(browser, url):
    context = browser.new_context(viewport={"width": 1000, "height": 750})
    page = context.new_page()
    page.set_default_timeout(BROWSER_PATIENCE_MS)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    yield page
    context.close()
    assert errors == [], errors


def instant(page):
    page.fill("[data-testid=speed]", "4")
    page.dispatch_event("[data-testid=speed]", "input")


def deal(page, opponents="greedy", seed=3, **choices):
    page.select_option("[data-testid=table]", choices.get("table", "quarter"))
    if "players" in choices:
        page.select_option("[data-testid=players]", str(choices["players"]))
    if "seat" in choices:
        page.select_option("[data-testid=seat]", str(choices["seat"]))
    page.fill("[data-testid=opponents]", opponents)
    page.fill("[data-testid=seed]", "" if seed is None else str(seed))
    page.click("[data-testid=play-start]")
    expect(page.locator(".cell.legal").first).to_be_visible()


def watch_quarter(page, agents, seed=None):
    """Open Watch at the instant speed and start ``agents`` on the quarter table (``seed`` None: the server's)."""
    page.get_by_test_id("tab-watch").click()
    instant(page)
    page.fill("[data-testid=watch-agents]", agents)
    page.select_option("[data-testid=watch-table]", "quarter")
    if seed is not None:
        page.fill("[data-testid=watch-seed]", str(seed))
    page.get_by_test_id("watch-start").click()


def play_to_the_end(page):
    end = page.get_by_test_id("end-screen")
    for _ in range(200):
        expect(page.locator("body")).to_have_attribute("data-busy", "false")
        if end.is_visible():
            return
        page.locator(".cell.legal").first.click()
    raise AssertionError("the game did not end in 200 flips")


def board(page) -> list[tuple[str, str]]:
    """Each cell's card and state as the page shows them."""
    cells = page.locator(".cell")
    return [(cells.nth(i).get_attribute("data-card"), cells.nth(i).get_attribute("data-state"))
            for i in range(cells.count())]


def test_play_a_whole_game_by_clicking_until_the_winners_are_shown(page):
    instant(page)
    deal(page)
    assert page.locator(".cell.down").count() == page.locator(".cell").count() == 16  # the quarter table's 2 rows
    expect(page.get_by_test_id("turn-text")).to_have_text("Your turn: flip a card")
    end = page.get_by_test_id("end-screen")
    flips = 0
    while not end.is_visible():
        expect(page.locator("body")).to_have_attribute("data-busy", "false")
        if end.is_visible():
            break
        cell = page.locator(".cell.legal").last  # the last card offered: 14 flips of seed 3 where the first take 32
        square = cell.get_attribute("data-square")
        cell.click()
        flips += 1
        if flips == 1:
            expect(page.get_by_test_id("log").locator("li").first).to_contain_text("you flip")
            expect(page.get_by_test_id("log").locator("li").first).to_contain_text(f"at {square}")
        assert flips < 200
    expect(page.get_by_test_id("winners")).to_contain_text("Winner")
    assert page.get_by_test_id("end-title").inner_text() in ("You win!", "You lose", "A shared victory")
    expect(page.get_by_test_id("cards-left")).to_have_text("0")
    page.get_by_test_id("play-again").click()
    expect(end).to_be_hidden()
    expect(page.get_by_test_id("turn-text")).to_have_text("Your turn: flip a card")
    assert page.locator(".cell.down").count() == 16


def test_a_whole_game_on_the_full_table_against_taught_with_the_mouse(page):
    """What a new user does: the default table, the shipped model, a click on a face-down card each turn. The last
    card offered each time, not the first: flipping the first cards again and again runs to the turn limit (200
    turns), where this game ends with its last card, in 45 flips."""
    instant(page)
    deal(page, opponents="taught", seed=1, table="full")
    assert page.locator(".cell.down").count() == 64
    end = page.get_by_test_id("end-screen")
    flips = 0
    while not end.is_visible():
        expect(page.locator("body")).to_have_attribute("data-busy", "false")
        if not end.is_visible():
            page.locator(".cell.legal").last.click()
            flips += 1
            assert flips < 400
    assert page.get_by_test_id("end-title").inner_text() in ("You win!", "You lose", "A shared victory")
    expect(page.get_by_test_id("winners")).to_contain_text("Winner")
    expect(page.get_by_test_id("cards-left")).to_have_text("0")  # the whole game: every card taken


def test_the_first_card_stays_face_up_and_outcomes_are_told(page):
    instant(page)
    deal(page, seed=8)
    page.get_by_test_id("cell-a1").click()
    expect(page.get_by_test_id("cell-a1")).to_have_attribute("data-state", "up")
    expect(page.get_by_test_id("turn-text")).to_contain_text("flip a second card (a1 is face up)")
    expect(page.get_by_test_id("message")).to_contain_text("you flip")
    assert page.get_by_test_id("cell-a1").is_disabled()
    page.get_by_test_id("cell-b1").click()
    expect(page.locator("body")).to_have_attribute("data-busy", "false")
    outcome = page.get_by_test_id("message").get_attribute("data-outcome")
    assert outcome in ("first", "strike", "duel", "dynamite", "nothing")
    assert page.get_by_test_id("log").locator("li").count() >= 2


def test_keyboard_play_flips_the_square_typed(page):
    instant(page)
    deal(page, seed=5)
    page.locator("body").click(position={"x": 5, "y": 5})
    page.keyboard.type("c2")
    expect(page.get_by_test_id("square-input")).to_have_value("c2")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("cell-c2")).to_have_attribute("data-state", "up")
    expect(page.get_by_test_id("message")).to_contain_text("at c2")
    page.get_by_test_id("square-input").fill("c2")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("error")).to_contain_text("c2 is already face up")
    page.get_by_test_id("square-input").fill("z9")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("error")).to_contain_text("z9 is not a square")


def test_watch_agents_step_by_step_then_play_to_the_end(page):
    watch_quarter(page, "greedy,expert", 2)
    expect(page.get_by_test_id("watch-step")).to_be_enabled()
    assert page.locator(".cell.known").count() == 16  # watching: every card shown, face down
    page.get_by_test_id("watch-step").click()
    expect(page.get_by_test_id("log").locator("li")).to_have_count(1)
    expect(page.get_by_test_id("message")).to_contain_text("greedy flips")
    page.get_by_test_id("watch-step").click()
    expect(page.get_by_test_id("log").locator("li")).to_have_count(2)
    page.get_by_test_id("watch-play").click()
    expect(page.get_by_test_id("end-screen")).to_be_visible()
    expect(page.get_by_test_id("winners")).to_contain_text("Winner")
    expect(page.get_by_test_id("watch-step")).to_be_disabled()


def test_replay_a_record_forwards_and_back(page, tmp_path):
    path = tmp_path / "game.json"
    assert cli.main(["watch", "--agents", "greedy,random", "--seed", "6", "--table", "quarter",
                     "--save", str(path)]) == 0
    record = json.loads(path.read_text())
    page.get_by_test_id("tab-replay").click()
    page.get_by_test_id("replay-input").fill(json.dumps(record))
    page.get_by_test_id("replay-load").click()
    total = len(record["flips"])
    expect(page.get_by_test_id("replay-position")).to_have_text(f"flip 0 / {total}")
    page.get_by_test_id("replay-forward").click()
    page.get_by_test_id("replay-forward").click()
    expect(page.get_by_test_id("replay-position")).to_have_text(f"flip 2 / {total}")
    expect(page.get_by_test_id("log").locator("li")).to_have_count(2)
    page.get_by_test_id("replay-back").click()
    expect(page.get_by_test_id("replay-position")).to_have_text(f"flip 1 / {total}")
    first = f"at {'abcdefgh'[record['flips'][0] % 8]}{record['flips'][0] // 8 + 1}"
    expect(page.get_by_test_id("message")).to_contain_text(first)
    page.keyboard.press("ArrowRight")
    expect(page.get_by_test_id("replay-position")).to_have_text(f"flip 2 / {total}")
    page.get_by_test_id("replay-last").click()
    expect(page.get_by_test_id("end-screen")).to_be_visible()
    expect(page.get_by_test_id("winners")).to_contain_text(record["players"][record_winner(record)])
    page.get_by_test_id("replay-input").fill("{not json")
    page.get_by_test_id("replay-load").click()
    expect(page.get_by_test_id("error")).to_contain_text("not valid JSON")


def record_winner(record):
    from goldrush_env.gold.engine import Game

    return Game.from_record(record).winners[0]


def test_a_finished_game_replays_in_the_replay_tab(page):
    instant(page)
    deal(page, opponents="random", seed=4)
    play_to_the_end(page)
    page.get_by_test_id("end-replay").click()
    expect(page.get_by_test_id("replay-position")).to_contain_text("flip 0 /")
    expect(page.get_by_test_id("tab-replay")).to_have_attribute("aria-selected", "true")


def test_the_page_fits_a_phone(browser, url):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(url)
    deal(page, opponents="expert")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.get_by_test_id("cell-a1").tap()
    expect(page.get_by_test_id("cell-a1")).to_have_attribute("data-state", "up")
    context.close()


# --- issue 34: what a hostile record or server answer can do, and a page that keeps its games -------------

PWNED = "document.body.dataset.pwned = 'yes'"
HOSTILE = [f'<img src=x onerror="{PWNED}">', f"<script>{PWNED}</script>", f'<svg onload="{PWNED}">']


def test_4_a_hostile_record_is_refused_and_its_words_are_shown_as_text(page, tmp_path):
    record = saved_record(tmp_path)
    page.get_by_test_id("tab-replay").click()
    page.get_by_test_id("replay-input").fill(json.dumps({**record, "seed": HOSTILE[0]}))
    page.get_by_test_id("replay-load").click()
    expect(page.get_by_test_id("error")).to_contain_text("the record's seed must be an int")
    expect(page.get_by_test_id("error")).to_contain_text("<img src=x")  # the words, as text
    assert page.locator("#error img, #error script").count() == 0
    assert page.locator("body").get_attribute("data-pwned") is None


def test_4_nothing_a_replay_answer_holds_is_run_even_if_the_server_passed_it_on(page, tmp_path, app):
    """The page's own defence, whatever the server checks: every value of a replay (seed, names, the events'
    words, outcomes) is made hostile on its way to the page, and no script runs, no element is made of it."""
    from starlette.testclient import TestClient

    record = saved_record(tmp_path)
    answer = TestClient(app).post("/api/gold/replay", json=record).json()
    names = [HOSTILE[1], HOSTILE[2]]
    answer = {**answer, "seed": HOSTILE[0], "names": names,
              "frames": [{**frame, "names": names} for frame in answer["frames"]],
              "events": [{**event, "text": HOSTILE[event["index"] % 3], "name": HOSTILE[0],
                          "outcome": f'x" onmouseover="{PWNED}'} for event in answer["events"]]}
    page.route("**/api/gold/replay", lambda route: route.fulfill(json=answer))
    page.get_by_test_id("tab-replay").click()
    page.get_by_test_id("replay-input").fill(json.dumps(record))
    page.get_by_test_id("replay-load").click()
    for _ in range(3):
        page.get_by_test_id("replay-forward").click()
    page.get_by_test_id("log").locator("li").first.hover()
    page.get_by_test_id("replay-last").click()
    expect(page.get_by_test_id("end-screen")).to_be_visible()
    expect(page.get_by_test_id("status")).to_contain_text(f"seed {HOSTILE[0]}")
    expect(page.get_by_test_id("standings")).to_contain_text(HOSTILE[1])
    expect(page.get_by_test_id("winners")).to_contain_text("Winner")
    made = page.locator("main img, main script, #standings svg, #status svg, #log svg, #message svg, #winners svg")
    assert made.count() == 0
    assert page.locator("body").get_attribute("data-pwned") is None


def test_4_the_page_forbids_inline_scripts(url):
    import urllib.request

    with urllib.request.urlopen(url) as response:
        policy = response.headers["Content-Security-Policy"]
        text = response.read().decode()
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert "<script>" not in text and "onclick" not in text and " style=" not in text


def saved_record(tmp_path) -> dict:
    path = tmp_path / "game.json"
    assert cli.main(["watch", "--agents", "greedy,random", "--seed", "6", "--table", "quarter",
                     "--save", str(path)]) == 0
    return json.loads(path.read_text())


def test_1_the_page_shows_a_seed_it_did_not_choose_only_at_the_end(page):
    instant(page)
    deal(page, opponents="random", seed=None)
    expect(page.get_by_test_id("status")).not_to_contain_text("seed")
    page.locator(".cell.legal").first.click()
    expect(page.locator("body")).to_have_attribute("data-busy", "false")
    expect(page.get_by_test_id("status")).not_to_contain_text("seed")
    play_to_the_end(page)
    expect(page.get_by_test_id("status")).to_contain_text("seed ")


def test_8_a_reload_returns_to_the_game_in_play(page):
    instant(page)
    deal(page, opponents="greedy", seed=12, table="half")
    for _ in range(3):
        page.locator(".cell.legal").first.click()
        expect(page.locator("body")).to_have_attribute("data-busy", "false")
    before = board(page)
    turn = page.get_by_test_id("turn-text").inner_text()
    page.reload()
    expect(page.get_by_test_id("turn-text")).to_have_text(turn)
    assert board(page) == before
    instant(page)  # a reload sets the Speed control back to its default
    page.locator(".cell.legal").first.click()  # and the game goes on
    expect(page.locator("body")).to_have_attribute("data-busy", "false")
    assert board(page) != before


def test_8_back_then_forward_returns_to_the_game(page):
    instant(page)
    deal(page, opponents="expert", seed=13, table="half")
    page.locator(".cell.legal").first.click()
    expect(page.locator("body")).to_have_attribute("data-busy", "false")
    before = board(page)
    page.go_back()
    page.go_forward()
    expect(page.get_by_test_id("turn-text")).to_contain_text("Your turn")
    assert board(page) == before


def test_8_a_reload_returns_to_the_watched_game_and_the_replay(page):
    watch_quarter(page, "greedy,random")
    page.get_by_test_id("watch-step").click()
    expect(page.get_by_test_id("log").locator("li")).to_have_count(1)
    page.reload()
    expect(page.get_by_test_id("tab-watch")).to_have_attribute("aria-selected", "true")
    expect(page.get_by_test_id("log").locator("li")).to_have_count(1)
    page.get_by_test_id("watch-step").click()
    expect(page.get_by_test_id("log").locator("li")).to_have_count(2)


def test_8_a_square_typed_while_the_agents_flip_is_refused_with_a_message(page):
    page.clock.install(time=0)
    page.clock.pause_at(3600)  # the page's time stands still: the agents' opening flips show until the test moves it
    page.select_option("[data-testid=table]", "quarter")
    page.select_option("[data-testid=seat]", "1")
    page.fill("[data-testid=opponents]", "greedy")
    page.fill("[data-testid=seed]", "5")
    page.click("[data-testid=play-start]")
    expect(page.locator("body")).to_have_attribute("data-busy", "true")
    page.get_by_test_id("square-input").fill("a1")
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("error")).to_contain_text("wait for your turn: the agents are still flipping "
                                                         "(a1 was not flipped)")
    expect(page.get_by_test_id("square-input")).to_have_value("a1")  # kept for when it is your turn
    instant(page)
    page.clock.resume()  # the flip shown waits out its time, the rest none
    expect(page.locator("body")).to_have_attribute("data-busy", "false")
    square = page.locator(".cell.legal").first.get_attribute("data-square")  # a1 may have left the table
    page.get_by_test_id("square-input").fill(square)
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("message")).to_contain_text("you flip")
    expect(page.get_by_test_id("message")).to_contain_text(f"at {square}")


def test_8_a_game_the_server_dropped_clears_the_board_and_says_so_once(page, app):
    instant(page)
    deal(page, opponents="greedy", seed=14)
    game_id = next(s.id for s in app.state.store.live.values() if s.names[1] == "greedy" and s.seed == 14)
    app.state.store.remove(game_id, "gold")
    page.locator(".cell.legal").first.click()
    expect(page.get_by_test_id("notice")).to_contain_text("That game is no longer on the server")
    expect(page.get_by_test_id("error")).to_be_hidden()
    assert page.locator(".cell.legal").count() == 0  # nothing left to click that would repeat the 404
    expect(page.get_by_test_id("turn-text")).to_have_count(0)
    page.reload()  # the page forgot the game: no second notice
    expect(page.get_by_test_id("status")).to_have_text("Deal a game to start.")
    expect(page.get_by_test_id("notice")).to_be_hidden()


def test_9_every_character_on_the_page_has_a_font_to_draw_it(root):
    """Debian's Chromium drew the old replay buttons (U+23EE, U+23ED) as empty boxes: no installed font has them.
    The page and the scripts and styles it loads, as served, are read for every character past ASCII."""
    import html
    import re
    import shutil
    import subprocess
    import urllib.request

    if shutil.which("fc-list") is None:
        pytest.skip("fc-list (fontconfig) is not installed")

    def get(path: str) -> str:
        with urllib.request.urlopen(root + path) as response:
            return response.read().decode()

    page_text = get("/gold")
    text = page_text + "".join(get(src) for src in re.findall(r'(?:src|href)="(/static/[^"]+)"', page_text))
    characters = {c for c in html.unescape(text) if ord(c) > 127}
    assert characters  # the page does draw some: the arrows, the middle dot
    missing = [f"U+{ord(c):04X}" for c in sorted(characters)
               if not subprocess.run(["fc-list", f":charset={ord(c):x}"], capture_output=True, text=True).stdout]
    assert missing == []


def test_9_your_own_game_replayed_says_you_are_flipping(page):
    instant(page)
    deal(page, opponents="random", seed=4)
    play_to_the_end(page)
    expect(page.get_by_test_id("status")).not_to_contain_text("Gold Rush at")  # the end explains no more rules
    expect(page.get_by_test_id("status")).not_to_contain_text("one card a turn")
    page.get_by_test_id("end-replay").click()
    expect(page.get_by_test_id("turn-text")).to_have_text("You (seat 0) are flipping")
    page.get_by_test_id("replay-forward").click()
    page.get_by_test_id("replay-forward").click()
    expect(page.get_by_test_id("turn-text")).to_have_text("random (seat 1) is flipping")


def test_9_each_tab_shows_its_own_hint(page):
    for mode in ("watch", "replay", "play"):
        page.get_by_test_id(f"tab-{mode}").click()
        for other in ("play", "watch", "replay"):
            hint = expect(page.get_by_test_id(f"hint-{other}"))
            hint.to_be_visible() if other == mode else hint.to_be_hidden()


# --- issue 56: a refused deal keeps the game in play; the index and the plain page of a game --------------------


def test_a_deal_the_server_refuses_leaves_the_game_in_play_and_the_watched_game(page, app):
    """A new game with an agent the server does not know is refused before anything is touched: the game in play
    (and, in the Watch tab, the watched game) stays on the server and goes on."""
    instant(page)
    deal(page, opponents="greedy", seed=15)
    page.locator(".cell.legal").first.click()
    expect(page.locator("body")).to_have_attribute("data-busy", "false")
    game_id = next(s.id for s in app.state.store.live.values() if s.names[1] == "greedy" and s.seed == 15)
    before = board(page)
    page.locator("[data-testid=play-setup] summary").click()
    page.fill("[data-testid=opponents]", "grandmaster")
    page.click("[data-testid=play-start]")
    expect(page.get_by_test_id("error")).to_contain_text("unknown agent 'grandmaster'")
    assert board(page) == before and game_id in app.state.store.live
    page.locator(".cell.legal").first.click()  # the old game is still playable
    expect(page.locator("body")).to_have_attribute("data-busy", "false")
    expect(page.get_by_test_id("notice")).to_be_hidden()
    assert board(page) != before and game_id in app.state.store.live

    page.get_by_test_id("tab-watch").click()
    page.fill("[data-testid=watch-agents]", "greedy,random")
    page.select_option("[data-testid=watch-table]", "quarter")
    page.get_by_test_id("watch-start").click()
    page.get_by_test_id("watch-step").click()
    expect(page.get_by_test_id("log").locator("li")).to_have_count(1)
    page.fill("[data-testid=watch-agents]", "greedy,chess")
    page.get_by_test_id("watch-start").click()
    expect(page.get_by_test_id("error")).to_contain_text("unknown agent 'chess'")
    page.get_by_test_id("watch-step").click()
    expect(page.get_by_test_id("log").locator("li")).to_have_count(2)
    expect(page.get_by_test_id("notice")).to_be_hidden()


def test_the_index_leads_to_a_game_without_a_page_of_its_own_played_to_the_end_on_the_plain_page(browser, root,
                                                                                                   tmp_path):
    """Nim brings no page: the index links to the plain one, where a game is dealt, played to its end by clicking
    the legal actions (buttons in the game's words), and saved as a record that replays."""
    from goldrush_env.games import spec

    context = browser.new_context(viewport={"width": 1000, "height": 750}, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(BROWSER_PATIENCE_MS)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(root + "/")
    for game in ("gold", "piecepack", "nim", "kuhn"):
        expect(page.get_by_test_id(f"game-{game}")).to_have_attribute("href", f"/{game}")
    page.get_by_test_id("game-nim").click()
    expect(page.locator("#title")).to_have_text("Nim")
    expect(page.get_by_test_id("opponents")).to_have_value("perfect")
    page.fill("[data-testid=opponents]", "random")
    page.fill("[data-testid=seed]", "4")
    page.click("[data-testid=play-start]")
    status = page.get_by_test_id("status")
    expect(status).to_contain_text("your turn")
    clicks = 0
    while "Game over" not in status.inner_text():
        before = status.inner_text()
        buttons = page.locator("[data-testid=actions] button")
        assert buttons.first.inner_text().startswith("take ")  # the action in the game's words
        buttons.first.click()
        clicks += 1
        expect(status).not_to_have_text(before)
        assert clicks < 20
    expect(status).to_have_text(re.compile(r"Game over: scores \d+, \d+; (you win|random \(seat 1\) wins)\."))
    expect(page.locator("[data-testid=actions] button")).to_have_count(0)
    with page.expect_download() as saving:
        page.get_by_test_id("save").click()
    path = tmp_path / "nim.json"
    saving.value.save_as(path)
    record = json.loads(path.read_text())
    assert record["game"] == "nim" and record["seed"] == 4 and "you" in record["names"]
    assert spec("nim").load("rules").from_record(record).is_finished
    expect(page.get_by_test_id("move")).to_have_count(0)  # Nim does not declare its moves public: none in play
    page.get_by_test_id("tab-watch").click()
    page.fill("[data-testid=watch-agents]", "random,random")
    page.click("[data-testid=watch-start]")
    for count in (1, 2):  # a watched game tells each move, in the game's words
        page.click("[data-testid=watch-step]")
        expect(page.get_by_test_id("move")).to_have_count(count)
    expect(page.get_by_test_id("move").last).to_contain_text("from heap")
    context.close()
    assert errors == [], errors


# --- issue 69, item 5: the pages keep their game ----------------------------------------------------------------


@pytest.mark.parametrize("table, cells", [("quarter", 16), ("half", 32), ("full", 64)])
def test_a_table_is_drawn_on_the_rows_it_covers(page, table, cells):
    """A smaller table is laid on the first rows of the grid: the quarter table on 2, the half on 4, and the page
    draws those rows only, in play and in the replay of its record."""
    instant(page)
    deal(page, opponents="random", seed=6, table=table)
    expect(page.locator(".cell")).to_have_count(cells)
    expect(page.get_by_test_id("cell-h" + str(cells // 8))).to_be_visible()
    if table == "quarter":
        play_to_the_end(page)
        page.get_by_test_id("end-replay").click()
        expect(page.get_by_test_id("replay-position")).to_contain_text("flip 0 /")
        expect(page.locator(".cell")).to_have_count(16)
        page.get_by_test_id("tab-play").click()  # back: the game's own rows
        expect(page.locator(".cell")).to_have_count(16)


def test_the_end_card_comes_back_after_replaying_the_game(page):
    instant(page)
    deal(page, opponents="random", seed=4)
    play_to_the_end(page)
    page.get_by_test_id("end-replay").click()
    expect(page.get_by_test_id("replay-position")).to_contain_text("flip 0 /")
    expect(page.get_by_test_id("end-screen")).to_be_hidden()
    page.get_by_test_id("tab-play").click()
    expect(page.get_by_test_id("end-screen")).to_be_visible()
    expect(page.get_by_test_id("end-save")).to_be_visible()
    page.get_by_test_id("end-close").click()  # looking at the table: the card stays away until the tab is shown again
    expect(page.get_by_test_id("end-screen")).to_be_hidden()
    page.get_by_test_id("tab-watch").click()
    page.get_by_test_id("tab-play").click()
    expect(page.get_by_test_id("end-save")).to_be_visible()


def test_three_quick_steps_make_three_flips(page):
    watch_quarter(page, "greedy,random", 3)
    expect(page.get_by_test_id("watch-step")).to_be_enabled()
    page.get_by_test_id("watch-step").evaluate("button => { button.click(); button.click(); button.click(); }")
    expect(page.get_by_test_id("log").locator("li")).to_have_count(3)
    page.keyboard.press("n")
    page.keyboard.press("n")
    expect(page.get_by_test_id("log").locator("li")).to_have_count(5)


def test_the_winners_are_named_with_their_seats(page):
    watch_quarter(page, "greedy,greedy", 2)
    page.get_by_test_id("watch-play").click()
    expect(page.get_by_test_id("winners")).to_have_text(
        re.compile(r"Winner: greedy \(seat [01]\) with \d+ gold|Winners: greedy \(seat 0\) and greedy \(seat 1\) "
                   r"with \d+ gold each"))


def test_the_plain_page_keeps_its_game_across_a_reload_and_forgets_one_the_server_dropped(browser, root, app):
    context = browser.new_context(viewport={"width": 1000, "height": 750})
    page = context.new_page()
    page.set_default_timeout(BROWSER_PATIENCE_MS)
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(root + "/nim")
    expect(page.get_by_test_id("opponents")).to_have_value("perfect")
    page.fill("[data-testid=opponents]", "random")
    page.fill("[data-testid=seed]", "8")
    page.click("[data-testid=play-start]")
    status, buttons = page.get_by_test_id("status"), page.locator("[data-testid=actions] button")
    expect(status).to_contain_text("your turn")
    before = status.inner_text()
    buttons.first.click()
    expect(status).not_to_have_text(before)
    shown, actions = status.inner_text(), buttons.all_text_contents()
    page.reload()
    expect(status).to_have_text(shown)
    assert buttons.all_text_contents() == actions
    game_id = next(s.id for s in app.state.store.live.values() if s.web.name == "nim" and s.seed == 8)
    app.state.store.remove(game_id, "nim")
    buttons.first.click()
    expect(page.get_by_test_id("notice")).to_contain_text("That game is no longer on the server")
    expect(buttons).to_have_count(0)
    expect(status).to_have_text("Deal a game to start.")
    page.reload()  # forgotten: no second notice
    expect(status).to_have_text("Deal a game to start.")
    expect(page.get_by_test_id("notice")).to_be_hidden()

    page.get_by_test_id("tab-watch").click()
    page.fill("[data-testid=watch-agents]", "random,random")
    page.click("[data-testid=watch-start]")
    expect(status).to_contain_text("Turn 0")
    page.get_by_test_id("watch-step").evaluate("button => { button.click(); button.click(); button.click(); }")
    expect(page.get_by_test_id("move")).to_have_count(3)  # three quick clicks, three moves
    page.reload()
    expect(page.get_by_test_id("tab-watch")).to_have_attribute("aria-selected", "true")
    expect(page.get_by_test_id("move")).to_have_count(3)
    context.close()
    assert errors == [], errors


def test_a_person_may_give_a_name_to_be_rated_by_and_a_bad_one_is_refused(page, app):
    """The play form's name box (issue 69, item 4): empty is anonymous, a name reaches the game, and one the server
    refuses is explained on the page with nothing dealt."""
    page.fill("[data-testid=name]", "Ada L.")
    deal(page, seed=31)
    expect(page.get_by_test_id("status")).to_contain_text("seed 31")  # drawn: the server has the game
    assert next(s for s in app.state.store.live.values() if s.seed == 31).player == "Ada L."
    page.locator("[data-testid=play-setup] summary").click()
    page.fill("[data-testid=name]", "<b>Ada</b>")
    page.click("[data-testid=play-start]")
    expect(page.get_by_test_id("error")).to_contain_text("name holds '<'")
    page.fill("[data-testid=name]", "")
    deal(page, seed=32)  # the old game's cells are still legal until the new one is drawn
    expect(page.get_by_test_id("status")).to_contain_text("seed 32")
    assert next(s for s in app.state.store.live.values() if s.seed == 32).player is None
