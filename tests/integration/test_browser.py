"""A real Neo4j Browser in a headless Chromium: the slot_lineage audit opened through the link
``belief-graph browser`` prints, with docker/browser-style.grass loaded.

Chromium is Debian's (``apt-get install chromium``), driven by the ``playwright`` package's
driver with ``executable_path``: no browser is ever downloaded. No Chromium is a failure.
The Browser is the session database's: its launcher server's HTTP port, else
``BELIEF_GRAPH_BROWSER_URL`` (required with NEO4J_URI or Docker).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from belief_graph import BeliefGraph, ClaimDraft
from belief_graph.cli import browser as audit
from belief_graph.server.provide import ConnectionInfo
from belief_graph.server.status import resource_path
from belief_graph.testing.factories import Clock

pytestmark = pytest.mark.browser

NS = "audit:browser"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
WAIT_MS = 60_000
CONNECTED = re.compile("You are connected to|You have a working connection")


def open_connected(browser: Any, url: str) -> Any:
    """A page with ``url`` open in Browser, once it says it is connected. Browser's first Bolt
    connect over WebSocket sometimes stalls on a loaded machine (seen in full runs of the suite,
    never alone, and a reload of the same page did not always start it again): each try is a
    fresh browser context (no state kept from the stalled one), three tries of half the wait.
    Browser says it is connected in either of two ways: "You are connected to ..." or, seen
    once in a full run on 2026 with the page connected and that line never shown, "You have a
    working connection and server auth is disabled". When none connects, the failure shows
    what Browser showed."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    shown = ""
    for _ in range(3):
        page = browser.new_context(viewport={"width": 1400, "height": 1000}).new_page()
        page.set_default_timeout(WAIT_MS)
        page.goto(url)
        try:
            page.get_by_text(CONNECTED).first.wait_for(timeout=WAIT_MS // 2)
            return page
        except PlaywrightTimeout:
            shown = page.inner_text("body")[:1500]
            page.context.close()
    pytest.fail(f"Neo4j Browser did not connect in three tries; it showed:\n{shown}")


def chromium_path() -> str:
    found = shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(found).is_file():
        pytest.fail("no chromium: install Debian's package (apt-get install -y chromium)")
    return found


def browser_target(info: ConnectionInfo) -> audit.BrowserTarget:
    explicit = os.environ.get(audit.BROWSER_URL_ENV)
    if info.source == "launcher" and info.browser_url:
        return audit.BrowserTarget(explicit or info.browser_url, info.uri, no_auth=True)
    if not explicit:
        pytest.fail(f"the session database is {info.source}: set {audit.BROWSER_URL_ENV}")
    return audit.BrowserTarget(explicit, info.uri, no_auth=info.auth is None)


def parse_grass(text: str) -> dict[str, dict[str, str]]:
    """GraSS as Neo4j Browser parses it (quotes protect braces; a declaration is key: value)."""
    bodies: dict[str, str] = {}
    selector = body = ""
    inside = quoted = False
    for ch in text:
        if ch in "'\"":
            quoted = not quoted
        elif ch == "{" and not quoted:
            inside = True
        elif ch == "}" and not quoted:
            bodies[selector], selector, body, inside = body, "", "", False
        elif inside:
            body += ch
        elif not ch.isspace():
            selector += ch
    rules: dict[str, dict[str, str]] = {}
    for name, decls in bodies.items():
        pairs = [d.split(":") for d in decls.split(";")]
        rules[name] = {p[0].strip(): p[1].strip() for p in pairs if len(p) == 2}
    return rules


def test_style_parses_as_browser_does() -> None:
    rules = parse_grass(resource_path("browser-style.grass").read_text())
    assert {"node", "relationship", "node.Claim", "node.Slot", "node.Episode"} <= set(rules)
    assert {"node.Revision", "relationship.SUPERSEDES", "relationship.CONTRADICTS"} <= set(rules)
    assert rules["node.Claim"]["caption"] == "{object} [{status} v{version}]"
    assert all(rule.get("color", "#").startswith("#") for rule in rules.values())


def build_slot(bg: BeliefGraph, clock: Clock) -> list[str]:
    ids = []
    for n, (obj, month) in enumerate((("Express.js", 3), ("Fastify", 5), ("Go", 7)), start=1):
        clock.set(datetime(2026, month, 2, tzinfo=UTC))  # learned the day after
        result = bg.remember(
            ClaimDraft(
                namespace=NS,
                subject="atlas",
                predicate="uses",
                object=obj,
                text=f"The project uses {obj}.",
                episode_id=f"S{n}",
                valid_from=datetime(2026, month, 1, tzinfo=UTC),
            )
        )
        ids.extend(result.added)
    return ids


def test_slot_lineage_renders_in_neo4j_browser(
    neo4j_info: ConnectionInfo,
    make_bg: Callable[..., BeliefGraph],
    tmp_path: Path,
) -> None:
    from playwright.sync_api import sync_playwright

    started = time.monotonic()
    executable = chromium_path()
    clock = Clock()
    ids = build_slot(make_bg(clock=clock), clock)
    target = browser_target(neo4j_info)
    link = audit.browser_link("slot-lineage", [f"namespace={NS}", f"claim_id={ids[1]}"], target)
    style = json.dumps(parse_grass(resource_path("browser-style.grass").read_text()))
    shot = tmp_path / "slot_lineage.png"

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            page = open_connected(browser, link.url)
            editor = page.get_by_test_id("activeEditor")
            # The link prefilled the editor with the audit query (?cmd=edit&arg=...).
            prefilled = editor.inner_text().replace("\xa0", " ")
            assert "// belief-graph audit slot_lineage" in prefilled
            assert "MATCH in_slot = (s)<-[:IN_SLOT]-(v:Claim" in prefilled
            page.get_by_test_id("editor-Run").click()
            page.get_by_text("Expected parameter").first.wait_for()

            def run(command: str) -> None:
                editor.click()
                page.keyboard.press("Control+a")
                page.keyboard.insert_text(command)
                page.get_by_test_id("editor-Run").click()

            # The style: GraSS holds semicolons, which multi-statement mode would split on, so
            # it goes in as the JSON form of the same rules.
            run(f":style {style}")
            for line in link.param_lines:  # what `belief-graph browser` tells a person to run
                run(line)
            page.get_by_test_id("frameCommand").filter(has_text=":param claim_id").wait_for()
            frame = page.get_by_test_id("frame").filter(has_text="belief-graph audit slot_lineage")
            frame.get_by_test_id("rerunFrameButton").click()

            # 3 versions, 1 slot, 3 episodes; 3 IN_SLOT, 3 DERIVED_FROM, 2 SUPERSEDES.
            frame.get_by_text("Displaying 7 nodes, 8 relationships").wait_for()
            # The summary can appear before the force layout has drawn the captions.
            for word in ("Express.js", "SUPERSEDES"):
                frame.locator("svg text", has_text=word).first.wait_for()
            captions = " ".join(
                frame.locator("svg text").evaluate_all("els => els.map(e => e.textContent)")
            )
            for word in ("Express.js", "Fastify", "Go", "superseded", "active", "SUPERSEDES"):
                assert word in captions, captions
            frame.get_by_test_id("property-details-overview-node-label-Claim").wait_for()
            frame.screenshot(path=str(shot))

            frame.get_by_test_id("cypherFrameSidebarTable").click()
            table = frame.get_by_text(ids[2]).first
            table.wait_for()
            text = frame.inner_text()
            for claim_id in ids:
                assert claim_id in text
            page.screenshot(path=str(tmp_path / "slot_lineage_table.png"))
        finally:
            browser.close()
    assert shot.stat().st_size > 10_000
    print(f"screenshots in {tmp_path}; browser test took {time.monotonic() - started:.1f} s")
