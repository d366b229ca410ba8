"""Gold Rush's page of ``goldrush serve`` (``/piecepack``) in a real browser: Playwright driving Debian's Chromium.

Whole games are played by clicking, watched step by step and replayed from the record the page saves; the page
must show only what the person's seat knows. Skipped, like ``test_web_browser.py``, without playwright or Chromium.
"""

from __future__ import annotations

import json
import re

import pytest

from conftest import chromium, require_browser, served

require_browser()

from playwright.sync_api import expect  # noqa: E402

from goldrush_agents.web import create_app  # noqa: E402

TIMEOUT_MS = 30_000


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
    page.set_default_timeout(TIMEOUT_MS)
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
    drawn = page.locator("body").get_attribute("data-drawn") or ""
    locator.click()
    expect(page.locator("body")).not_to_have_attribute("data-drawn", drawn)


def play_to_the_end(page, app, seat: int) -> int:
    """Click the first choice whenever it is the person's turn; at every turn, the field must show exactly the
    pieces the seat knows (face up, or assayed by it) and nothing of the rest."""
    store = app.state.store
    moves = 0
    while True:
        end = page.locator("[data-testid=end-screen]")
        choice = page.locator("[data-testid=choice]").first
        expect(page.locator("[data-testid=end-screen]:visible, [data-testid=choice]").first).to_be_visible()
        if end.is_visible():
            return moves
        (session,) = [s for s in store.live.values() if s.web.name == "piecepack"]
        known = session.env.game.known_to(seat)
        for piece, text in shown_pieces(page).items():
            code = known["face_up"].get(piece) or known["identities"].get(piece)
            if code is not None:
                assert text == code
            else:  # a coin's suit is public (its row's), its rank and a tile's identity are not
                assert re.fullmatch(r"[MSAC]?\?", text), (piece, text)
        click_and_wait(page, choice)
        moves += 1


def test_a_whole_game_is_played_by_clicking_and_the_page_shows_only_the_seats_knowledge(page, app):
    page.select_option("[data-testid=players]", "3")
    page.select_option("[data-testid=seat]", "1")
    page.fill("[data-testid=opponents]", "random")
    page.fill("[data-testid=seed]", "11")
    click_and_wait(page, page.locator("[data-testid=play-start]"))
    moves = play_to_the_end(page, app, seat=1)
    assert moves > 5
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
    while not page.locator("[data-testid=choice]", has_text="CLAIM").first.is_visible():
        click_and_wait(page, page.locator("[data-testid=choice]").first)
    claims = page.locator("[data-testid=choice]", has_text="CLAIM").count()
    free = int(page.locator("[data-testid=choice]", has_text="CLAIM").first.get_attribute("data-action"))
    page.click(f"[data-testid=plot-{free}]")
    expect(page.locator("[data-testid=choice]", has_text="CLAIM")).to_have_count(1)
    assert claims > 1
    click_and_wait(page, page.locator("[data-testid=choice]", has_text="CLAIM"))
    expect(page.locator(f"[data-testid=plot-{free}]")).to_have_class(re.compile("owned0"))


def test_a_watched_game_steps_to_its_end_showing_every_piece(page):
    page.click("[data-testid=tab-watch]")
    page.fill("[data-testid=watch-agents]", "economist,random,random,ppo")
    page.fill("[data-testid=watch-seed]", "2")
    page.click("[data-testid=watch-start]")
    page.click("[data-testid=watch-step]")
    assert all("?" not in text for text in shown_pieces(page).values())  # nobody sits at the table
    page.click("[data-testid=watch-play]")
    expect(page.locator("[data-testid=end-screen]")).to_be_visible(timeout=120_000)
    assert page.locator("[data-testid=holdings] tbody tr").count() == 4


def test_a_bad_record_is_refused_in_words(page):
    page.click("[data-testid=tab-replay]")
    page.fill("[data-testid=replay-input]", json.dumps({"tiles": [], "coins": []}))
    page.click("[data-testid=replay-load]")
    expect(page.locator("[data-testid=error]")).to_contain_text("the record cannot be replayed")


def test_the_header_leads_to_every_game(page):
    link = page.locator("[data-testid=other-game]")
    expect(link).to_have_text("All games")
    assert link.get_attribute("href") == "/"
