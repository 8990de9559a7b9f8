"""The report in a real browser: headless Chromium, driven by Playwright, fully offline."""

from __future__ import annotations

import shutil

import pytest

from simtool.reports import balance as report

from .test_cli import cli

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser():
    if CHROMIUM is None:
        pytest.skip("Chromium is not installed, and `make test` could not install it from the "
                    "system packages (apt-get install chromium): the browser check did not run")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=[
            "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync"])
        yield b
        b.close()


def test_report_renders_with_every_section_and_no_errors(browser, tmp_path):
    runs = [tmp_path / "bw", tmp_path / "kc", tmp_path / "kc-mixed"]
    assert cli("run", "--n", "2000", "--seed", "1", "-q", "-o", runs[0]).exit_code == 0
    assert cli("run", "-g", "kansas-city", "--n", "2000", "--seed", "1", "-q", "-o", runs[1]).exit_code == 0
    assert cli("run", "-g", "kansas-city", "--n", "2000", "--seed", "1", "-q", "-o", runs[2],
               "--seat", "0=greedy", "-s", "target", "--rotate").exit_code == 0
    page_file = report.write(runs, tmp_path / "report.html")

    page = browser.new_page(viewport={"width": 1280, "height": 900})
    problems, requests = [], []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}")
            if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"failed request {r.url}"))

    def only_the_file(route):
        requests.append(route.request.url)
        if route.request.url.startswith("file://"):
            route.continue_()
        else:
            route.abort()

    page.route("**/*", only_the_file)
    page.goto(page_file.resolve().as_uri())
    shot = tmp_path / "report.png"
    page.screenshot(path=str(shot), full_page=True)

    assert problems == []
    assert requests == [page_file.resolve().as_uri()]  # nothing fetched beyond the page itself
    assert page.title() == "simtool balance report"
    assert page.locator("section.game").count() == 2
    assert page.locator("section.game h2").all_inner_texts() == ["Trick Taking in Black & White", "Kansas City"]
    assert page.locator("article.run").count() == 3
    assert page.locator("table.comparison-table").count() == 1
    assert page.locator("table.seat-advantage").count() == 3
    assert page.locator("table.strategy-strength").count() == 1
    assert page.locator("ul.findings li").count() >= 12
    svgs = page.locator("figure svg")
    assert svgs.count() == 8  # with the ratings chart of the game with several runs
    assert page.locator("table.ratings").count() == 1
    for i in range(svgs.count()):  # every chart is laid out at a readable size
        box = svgs.nth(i).bounding_box()
        assert box["width"] > 300 and box["height"] > 150
    assert "Players over the trick limit" in page.locator("#run-kansas-city-1").inner_text()
    assert shot.stat().st_size > 50_000
