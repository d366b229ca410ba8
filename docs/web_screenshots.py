"""Take the screenshots of docs/web.md: Gold's page of ``goldrush serve`` (``/gold``) at setup, mid-game and at the
end, and Gold Rush's page (``/piecepack``) in a played game's Development phase and at the end of a watched game.

    .venv/bin/python docs/web_screenshots.py

Needs the web and dev extras (Starlette, uvicorn, Playwright) and Chromium at /usr/bin/chromium
(``apt-get install chromium``); nothing is fetched from the internet. The game is seeded, so the pictures
change only when the page or the agents do.
"""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import uvicorn
from playwright.sync_api import sync_playwright

from goldrush_agents.web import create_app

OUT = Path(__file__).parent / "img"
CHROMIUM = "/usr/bin/chromium"
SIZE = {"width": 1000, "height": 700}


def serve() -> tuple[uvicorn.Server, str]:
    """The app on a free local port, in a background thread."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(), host="127.0.0.1", port=port, log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    return server, f"http://127.0.0.1:{port}/"


def main() -> None:
    server, url = serve()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"], headless=True)
            page = browser.new_page(viewport=SIZE)
            page.goto(url + "gold")
            page.select_option("#table", "half")
            page.fill("#opponents", "greedy")
            page.fill("#seed", "11")
            page.screenshot(path=OUT / "web_setup.png")

            page.click("#play-start")
            page.fill("#speed", "4")  # instant: the agents' flips are not animated
            page.dispatch_event("#speed", "input")
            for _ in range(7):  # a few turns in, then one card face up with the last outcome shown
                page.locator(".cell.legal").first.click()
                page.wait_for_selector(".cell.legal")
                page.locator(".cell.legal").nth(3).click()
                page.wait_for_selector(".cell.legal")
            page.locator(".cell.legal").nth(5).click()
            page.wait_for_selector(".cell.up")
            page.screenshot(path=OUT / "web_game.png")

            while not page.is_visible("[data-testid=end-screen]"):
                page.locator(".cell.legal").first.click()
                page.locator(".cell.legal, #end:not(.hidden)").first.wait_for()  # the page's CSP allows no eval
            page.screenshot(path=OUT / "web_end.png")
            piecepack(browser.new_page(viewport={"width": 1100, "height": 760}), url + "piecepack")
            browser.close()
    finally:
        server.should_exit = True
    for name in ("web_setup", "web_game", "web_end", "web_piecepack_game", "web_piecepack_watch"):
        path = OUT / f"{name}.png"
        print(f"wrote {path} ({path.stat().st_size // 1024} KB)")


def piecepack(page, url: str) -> None:
    """Gold Rush: a seeded 3-player game against economists, played on to a Development turn with the choices of
    a plot of yours shown, then a watched 4-player game at its end."""
    page.goto(url)
    page.fill("#seed", "5")
    page.click("[data-testid=play-start]")
    turns = 0
    while True:
        page.locator("[data-testid=choice]").first.wait_for()
        if page.locator("#status").inner_text().endswith("Development: your turn") and turns > 6:
            break
        drawn = page.get_attribute("body", "data-drawn")
        choices = page.locator("[data-testid=choice]")
        claim = page.locator("[data-testid=choice]", has_text="Claim plot")
        (claim if claim.count() else choices).last.click()
        page.wait_for_selector(f"body:not([data-drawn='{drawn}'])")
        turns += 1
    page.click("[data-testid=plot-21]")  # one of yours: what you may build there, at its price
    page.screenshot(path=OUT / "web_piecepack_game.png")
    page.click("[data-testid=tab-watch]")
    page.fill("#watch-agents", "economist,taught,economist,random")
    page.fill("#watch-seed", "3")
    page.click("[data-testid=watch-start]")
    page.click("[data-testid=watch-play]")
    page.wait_for_selector("[data-testid=end-screen]:not(.hidden)", timeout=180_000)
    page.screenshot(path=OUT / "web_piecepack_watch.png")


if __name__ == "__main__":
    main()
