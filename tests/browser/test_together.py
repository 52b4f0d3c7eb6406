"""Play together in a real browser: a laptop makes a game of Ann, Bob and a greedy bot; Ann and Bob each join
from their own phone (390x844) and play their seats at the same time, Bob first in some rounds, to the end
screen; each phone can decide only for its seat; the end screen's gardens are those of the log replayed.

The phones do not rely on the live pages' script: a phone waiting for the others reloads until its next
choices (or the end) show, as a player who reloads must get the right page anyway."""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import Any

SHOTS = Path(os.environ.get("PAPILLON_SHOTS_DIR") or tempfile.gettempdir()) / "papillon-together-shots"
"""Screenshots to look at (the ones in docs/img were taken here and looked at)."""
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
FIRST_CHOICE = "#act button[name=action], .sheet-list button[name=action]"


def _choose_first(page: Any) -> bool:
    """Click the first offered choice (a folded list of the sheet's spaces opened first); False when there is none."""
    choices = page.locator(FIRST_CHOICE)
    if choices.count() == 0:
        return False
    first = choices.first
    first.evaluate("button => { const folded = button.closest('details'); if (folded) folded.open = true; }")
    with page.expect_navigation():
        first.click()
    return True


def _over(page: Any) -> bool:
    return page.locator("h1", has_text="The game is over").count() > 0


def _data(page: Any, url: str) -> dict[str, Any]:
    """The game's data as this phone's seat sees it (the page's own JSON answer, with the phone's cookies)."""
    data: dict[str, Any] = page.request.get(url, headers={"accept": "application/json"}).json()
    return data


def _play_turn(page: Any, url: str, name: str, round_: int) -> int:
    """Seat ``name``'s whole turn of round ``round_`` from its phone, reloading while the bots play: the clicks taken."""
    page.goto(url, wait_until="domcontentloaded")  # the page's parts are what a turn needs: its load event came late on a loaded CI machine
    clicks = 0
    for _ in range(400):
        data = _data(page, url)
        if data.get("over") or data.get("round") != round_ or name not in data.get("choosing", [name]):
            return clicks  # the seat's turn is done (its last decision may have brought the next round)
        if not data.get("actions") or page.locator(FIRST_CHOICE).count() == 0:  # the bots are at work: as a player would, reload
            page.wait_for_timeout(100)
            page.reload(wait_until="domcontentloaded")
            continue
        _choose_first(page)
        clicks += 1
    raise AssertionError(f"{name}'s turn of round {round_} did not end")


def test_two_phones_and_a_bot_play_a_whole_game_together(server: Any, browser: Any) -> None:
    from papillon.engine.log import parse_log, replay
    from papillon.render.svg import garden_svg

    laptop_context = browser.new_context(viewport=LAPTOP)
    laptop = laptop_context.new_page()
    laptop.set_default_timeout(30_000)
    laptop.goto(server.url + "/")
    laptop.fill("input[name=seed]", "5")
    laptop.fill("input[name=name1]", "Ann")
    laptop.select_option("#seat2", "human")
    laptop.fill("input[name=name2]", "Bob")
    laptop.select_option("#seat3", "greedy")
    with laptop.expect_navigation():
        laptop.locator("form[action='/games'] button[type=submit]").click()
    game = laptop.url
    assert re.fullmatch(rf"{re.escape(server.url)}/games/[0-9]+-[0-9a-f]{{8}}", game)
    joins = laptop.locator("a.join")
    assert joins.count() == 2 and laptop.locator("svg.qr").count() == 2
    links = {int(a.get_attribute("data-seat")): a.get_attribute("href") for a in joins.all()}
    SHOTS.mkdir(parents=True, exist_ok=True)
    laptop.screenshot(path=str(SHOTS / "together-join.png"), full_page=True)

    phones = {}
    for seat in (0, 1):
        context = browser.new_context(viewport=PHONE, device_scale_factor=1)
        page = context.new_page()
        page.set_default_timeout(30_000)
        page.goto(links[seat])
        phones[seat] = page
    ann, bob = phones[0], phones[1]
    assert "Ann" in ann.locator("header").inner_text() and "Bob" in bob.locator("header").inner_text()

    # A phone decides for its own seat only: the form naming Bob's seat is refused, whatever the page would send.
    refused = ann.evaluate(
        """async () => {
            const csrf = document.querySelector("#act input[name=csrf]").value;
            const body = new URLSearchParams({csrf, action: "start B4", seat: "1"});
            const answer = await fetch(location.pathname + "/act", {method: "POST", body});
            return [answer.status, await answer.text()];
        }"""
    )
    assert refused[0] == 403 and "This link plays Ann&#x27;s seat only: it cannot decide for another seat." in refused[1]

    laptop.goto(game)
    assert laptop.locator(".seat-status[data-seat='0']").inner_text().startswith("Ann · plays on their phone")
    laptop.locator(".seat-status[data-seat='2']", has_text="done").wait_for()  # the bot chose its start: it shows live

    clicks, bob_first, turns = 0, 0, 0
    while not (now := _data(laptop, game))["over"]:
        round_ = now["round"]
        order = ((bob, "Bob"), (ann, "Ann")) if round_ % 2 == 0 else ((ann, "Ann"), (bob, "Bob"))
        bob_first += order[0][0] is bob
        for page, name in order:
            if round_ == 3 and page is bob:  # Ann is done, Bob still choosing: what his phone and the table show
                bob.goto(game)
                assert bob.locator("section.others figure.other").count() == 2, "Bob's phone shows the others' gardens"
                assert bob.locator("#waiting").inner_text() == "Everyone else has finished this round."
                bob.screenshot(path=str(SHOTS / "together-phone.png"))
                laptop.goto(game)
                assert laptop.locator("[data-live=table] .big.offer .pair").count() == 3, "the round's cards and dice, large"
                assert "choosing" in laptop.locator(".seat-status[data-seat='1']").inner_text()
                laptop.screenshot(path=str(SHOTS / "together-table.png"))
            clicks += _play_turn(page, game, name, round_)
        turns += 1
        assert turns < 40
    assert bob_first >= 5 and clicks > 40
    bob.goto(game)
    assert _over(bob)

    game_id = game.rsplit("/", 1)[1]
    log = parse_log((server.folder / "games" / f"{game_id}.jsonl").read_text(encoding="utf-8"))
    assert {e["player"] for e in log.events if "player" in e} == {0, 1, 2}
    final = replay(log)
    assert final.is_over()
    end = ann.request.get(game).text()
    for seat, name in enumerate(("Ann", "Bob", "greedy bot")):
        card = final.score_card(seat)
        drawn = garden_svg(
            final.garden(seat), edition=final.edition, score=card, round=final.edition.rules.rounds + 1, label=f"{name}'s garden, scored"
        )
        assert drawn in end, f"{name}'s garden on the end screen is the log's replayed"
        assert f'<span class="total">{card.total}</span>' in end
    for page in (laptop, ann, bob):
        page.context.close()
