"""Take the screenshots of docs/web.md: the page of ``goldrush serve`` at setup, mid-game and at the end.

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
            page.goto(url)
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
            browser.close()
    finally:
        server.should_exit = True
    for name in ("web_setup", "web_game", "web_end"):
        path = OUT / f"{name}.png"
        print(f"wrote {path} ({path.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main()
