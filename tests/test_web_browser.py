"""The page of ``goldrush serve`` in a real browser: Playwright driving Debian's Chromium, headless.

Needs the dev extra (playwright) and ``/usr/bin/chromium`` (``apt-get install -y chromium``); the module is
skipped without them. Games are dealt on the quarter table (16 cards) so that a whole game takes seconds.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time

import pytest

pytest.importorskip("playwright")
pytest.importorskip("uvicorn")
CHROMIUM = "/usr/bin/chromium"
if not os.path.exists(CHROMIUM):
    if os.environ.get("CI"):  # .ci/run installs it: in CI a missing browser is a failure, not a skip
        pytest.fail(f"no Chromium at {CHROMIUM}: .ci/run should have installed it", pytrace=False)
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install -y chromium)", allow_module_level=True)

import uvicorn  # noqa: E402
from playwright.sync_api import expect, sync_playwright  # noqa: E402

from goldrush_agents import cli  # noqa: E402
from goldrush_agents.web import create_app  # noqa: E402

TIMEOUT_MS = 20_000


@pytest.fixture(scope="module")
def url():
    """The app on a free local port, served by uvicorn in a background thread."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}/"
    server.should_exit = True
    thread.join(10)


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"], headless=True)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, url):
    context = browser.new_context(viewport={"width": 1000, "height": 750})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
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
    page.fill("[data-testid=opponents]", opponents)
    page.fill("[data-testid=seed]", str(seed))
    page.click("[data-testid=play-start]")
    expect(page.locator(".cell.legal").first).to_be_visible()


def test_play_a_whole_game_by_clicking_until_the_winners_are_shown(page):
    instant(page)
    deal(page)
    assert page.locator(".cell.down").count() == 16 and page.locator(".cell.empty").count() == 48
    expect(page.get_by_test_id("turn-text")).to_have_text("Your turn: flip a card")
    end = page.get_by_test_id("end-screen")
    flips = 0
    while not end.is_visible():
        page.wait_for_function("document.body.dataset.busy === 'false'")
        if end.is_visible():
            break
        cell = page.locator(".cell.legal").first
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


def test_a_whole_game_on_the_full_table_against_ppo_with_the_mouse(page):
    """What a new user does: the default table, the shipped model, a click on a face-down card each turn."""
    instant(page)
    deal(page, opponents="ppo", seed=1, table="full")
    assert page.locator(".cell.down").count() == 64
    end = page.get_by_test_id("end-screen")
    flips = 0
    while not end.is_visible():
        page.wait_for_function("document.body.dataset.busy === 'false'")
        if not end.is_visible():
            page.locator(".cell.legal").first.click()
            flips += 1
            assert flips < 400
    assert page.get_by_test_id("end-title").inner_text() in ("You win!", "You lose", "A shared victory")
    expect(page.get_by_test_id("winners")).to_contain_text("Winner")


def test_the_first_card_stays_face_up_and_outcomes_are_told(page):
    instant(page)
    deal(page, seed=8)
    page.get_by_test_id("cell-a1").click()
    expect(page.get_by_test_id("cell-a1")).to_have_attribute("data-state", "up")
    expect(page.get_by_test_id("turn-text")).to_contain_text("flip a second card (a1 is face up)")
    expect(page.get_by_test_id("message")).to_contain_text("you flip")
    assert page.get_by_test_id("cell-a1").is_disabled()
    page.get_by_test_id("cell-b1").click()
    page.wait_for_function("document.body.dataset.busy === 'false'")
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
    page.get_by_test_id("tab-watch").click()
    instant(page)
    page.fill("[data-testid=watch-agents]", "greedy,expert")
    page.select_option("[data-testid=watch-table]", "quarter")
    page.fill("[data-testid=watch-seed]", "2")
    page.get_by_test_id("watch-start").click()
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
    from goldrush_env.engine import Game

    return Game.from_dict(record).winners[0]


def test_a_finished_game_replays_in_the_replay_tab(page):
    instant(page)
    deal(page, opponents="random", seed=4)
    end = page.get_by_test_id("end-screen")
    while not end.is_visible():
        page.wait_for_function("document.body.dataset.busy === 'false'")
        if not end.is_visible():
            page.locator(".cell.legal").first.click()
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
