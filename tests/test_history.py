"""Match history, profiles, leaderboards over the JSON API and pages; and the scenario download
of a finished match replays (app.scenario) to the stored result."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from sqlalchemy import select

from app.db.models import Result
from app.scenario import load_scenario, replay
from tests.conftest import ROOT
from tests.platform_helpers import Api
from tests.ratings.test_rating_store import play_out


async def me(api: Api):
    user = (await api.get("/api/me")).json()["user"]
    from app.lobby.service import Viewer
    return Viewer(id=user["id"], name=user["name"])


async def registered(new_client, name: str) -> Api:
    api = new_client()
    assert (await api.post("/api/register", {"name": name, "password": "long enough"})).status_code == 201
    return api


async def test_scenario_download_replays_to_the_stored_result(app, new_client, tmp_path):
    alice, bob = await registered(new_client, "alice"), await registered(new_client, "bob")
    table = (await alice.post("/api/tables", {"game": "doppelkopf", "deals": 2, "bots": 2})).json()
    assert (await bob.post(f"/api/tables/{table['id']}/join")).status_code == 200
    services = app.state.services
    actor = await play_out({"rooms": services.rooms}, table["id"], [await me(alice), await me(bob)])

    document = (await alice.get(f"/api/tables/{table['id']}/scenario")).json()
    outcome = replay(load_scenario(document))
    async with services.lobby._db() as db:
        stored = (await db.execute(select(Result).where(Result.match_id == actor.match_id)
                                   .order_by(Result.seat))).scalars().all()
    assert [r.score for r in stored] == outcome["totals"]
    assert [r.seat for r in stored if r.winner] == outcome["winners"]
    assert outcome["game_over"] is True and len(outcome["rounds"]) >= 2
    # and the command line gives the same outcome from the downloaded file
    path = tmp_path / "download.json"
    path.write_text(json.dumps(document))
    cli = subprocess.run([sys.executable, "-m", "app", "replay", str(path)], capture_output=True,
                         text=True, cwd=ROOT, timeout=60)
    assert cli.returncode == 0, cli.stderr
    assert json.loads(cli.stdout)["totals"] == [r.score for r in stored]


async def test_history_profile_and_leaderboard_after_a_rated_match(app, new_client):
    alice, bob = await registered(new_client, "alice"), await registered(new_client, "bob")
    table = (await alice.post("/api/tables", {"game": "doppelkopf", "deals": 1, "bots": 2})).json()
    await bob.post(f"/api/tables/{table['id']}/join")
    await play_out({"rooms": app.state.services.rooms}, table["id"], [await me(alice), await me(bob)])

    history = (await bob.get("/api/players/bob/matches")).json()
    assert history["total"] == 1
    (match,) = history["matches"]
    assert match["table"] == table["id"] and match["game"] == "doppelkopf" and match["seat"] == 1
    assert [p["name"] for p in match["players"]][:2] == ["alice", "bob"]
    assert match["rating"] is not None and match["rating"]["before"] == pytest.approx(0.0)

    profile = (await alice.get("/api/players/alice")).json()
    (games,) = profile["games"]
    assert games["game"] == "doppelkopf" and games["played"] == 1
    assert games["won"] in (0, 1) and games["win_rate"] == games["won"]
    assert games["rating"]["provisional"] is True and games["rating"]["matches"] == 1
    assert "history" not in games  # the rating's history is the statistics' (app/stats/profile.py)
    assert [m["table"] for m in profile["recent"]] == [table["id"]]

    board = (await alice.get("/api/leaderboards/doppelkopf")).json()
    assert board["entries"] == []  # both are provisional after one deal
    # ... and listed apart, each with about how many more matches settle the rating
    assert sorted(p["name"] for p in board["provisional"]) == ["alice", "bob"]
    new_player = board["eligible_after"]
    assert all(0 < p["settle_in"] <= new_player for p in board["provisional"])
    assert board["own"]["rank"] is None and board["own"]["reason"] == "provisional"
    assert 0 < board["own"]["settle_in"] <= new_player
    page = (await alice.get("/leaderboards/doppelkopf")).text
    assert f"about {new_player} rated matches for a new player" in page
    assert 'id="provisional"' in page and "more matches" in page
    profile_page = (await alice.get("/players/alice")).text
    assert f"provisional — {board['own']['settle_in']} more match" in profile_page


async def test_the_matches_left_add_up_on_the_profile_and_the_leaderboard(app, new_client):
    """One rule (app/ratings/display.py matches_left): after ONE rated match the profile says
    one fewer than the leaderboard's "about N rated matches for a new player"; an unrated match
    (alone with computer players) does not count."""
    alice, bob = await registered(new_client, "alice"), await registered(new_client, "bob")
    table = (await alice.post("/api/tables", {"game": "doppelkopf", "deals": 1, "bots": 2})).json()
    await bob.post(f"/api/tables/{table['id']}/join")
    await play_out({"rooms": app.state.services.rooms}, table["id"], [await me(alice), await me(bob)])
    alone = (await alice.post("/api/tables", {"game": "doppelkopf", "deals": 1, "bots": 3})).json()
    await play_out({"rooms": app.state.services.rooms}, alone["id"], [await me(alice)])

    board = (await alice.get("/api/leaderboards/doppelkopf")).json()
    new_player = board["eligible_after"]
    assert board["own"]["settle_in"] == new_player - 1
    assert {p["name"]: p["settle_in"] for p in board["provisional"]} == {
        "alice": new_player - 1, "bob": new_player - 1}
    (games,) = (await alice.get("/api/players/alice")).json()["games"]
    assert games["rating"]["matches"] == 1 and games["rating"]["settle_in"] == new_player - 1
    profile_page = (await alice.get("/players/alice")).text
    assert f"provisional — {new_player - 1} more matches" in profile_page
    assert (await new_client().get("/api/leaderboards/doppelkopf")).json()["own"] is None
    assert (await alice.get("/api/leaderboards/chess")).status_code == 404

    for path in ("/players/alice", "/players/alice/matches", "/leaderboards/doppelkopf"):
        page = await alice.get(path)
        assert page.status_code == 200, path
    assert f"/tables/{table['id']}/replay" in (await alice.get("/players/alice")).text


async def test_a_guest_sees_only_their_own_profile_and_keeps_the_games_on_registering(app, new_client):
    guest = new_client()
    name = (await guest.post("/api/guest")).json()["user"]["name"]
    table = (await guest.post("/api/tables", {"game": "doppelkopf", "deals": 1, "bots": 3})).json()
    await play_out({"rooms": app.state.services.rooms}, table["id"], [await me(guest)])
    # a guest sees their own profile (their statistics, while the guest exists); nobody else
    assert (await guest.get(f"/api/players/{name}")).json()["guest"] is True
    assert 'id="guest-profile-note"' in (await guest.get(f"/players/{name}")).text
    assert (await new_client().get(f"/api/players/{name}")).status_code == 404
    assert (await new_client().get(f"/players/{name}")).status_code == 404
    # ... but the guest sees its own matches (and from there the replays); nobody else does
    own = (await guest.get(f"/api/players/{name}/matches")).json()
    assert own["guest"] is True and [m["table"] for m in own["matches"]] == [table["id"]]
    page = (await guest.get(f"/players/{name}/matches")).text
    assert 'id="guest-history-note"' in page and f"/tables/{table['id']}/replay" in page
    assert f'href="/players/{name}#stats"' in page  # their statistics, on their own profile
    assert 'id="nav-matches"' in page and 'id="nav-profile"' not in page
    assert (await guest.get(f"/tables/{table['id']}/replay")).status_code == 200
    other = await registered(new_client, "otto")
    assert (await other.get(f"/api/players/{name}/matches")).status_code == 404
    assert (await new_client().get(f"/players/{name}/matches")).status_code == 404
    await guest.post("/api/register", {"name": "gerda", "password": "long enough"})
    profile = (await guest.get("/api/players/gerda")).json()
    assert [(g["game"], g["played"]) for g in profile["games"]] == [("doppelkopf", 1)]
    assert profile["games"][0]["rating"] is None  # one person and computer players: unrated
    assert [m["table"] for m in profile["recent"]] == [table["id"]]
    assert (await guest.get("/api/players/nobody")).status_code == 404


async def test_replay_frames_step_through_every_action_with_all_hands(app, new_client):
    alice, bob = await registered(new_client, "alice"), await registered(new_client, "bob")
    table = (await alice.post("/api/tables", {"game": "doppelkopf", "deals": 1, "bots": 2})).json()
    await bob.post(f"/api/tables/{table['id']}/join")
    assert (await alice.get(f"/api/tables/{table['id']}/replay")).status_code == 409
    assert (await alice.get(f"/tables/{table['id']}/replay")).status_code == 409
    await play_out({"rooms": app.state.services.rooms}, table["id"], [await me(alice), await me(bob)])

    data = (await alice.get(f"/api/tables/{table['id']}/replay")).json()
    document = (await alice.get(f"/api/tables/{table['id']}/scenario")).json()
    assert data["seats"][:2] == ["alice", "bob"]
    (round_,) = data["rounds"]
    actions = document["rounds"][0]["actions"]
    assert len(round_["frames"]) == len(actions) + 1
    assert round_["frames"][0]["hands"] == document["rounds"][0]["deal"]  # every hand, dealt
    assert all(len(hand) == 0 for hand in round_["frames"][-1]["hands"])
    played = [a for a in actions if a["type"] == "play"]
    assert len(played) == 48
    # "to a trick": after trick n, n tricks are done and no card of trick n+1 is down yet
    starts = round_["trick_starts"]
    assert len(starts) == 13 and starts == sorted(starts)
    for n, start in enumerate(starts):
        assert round_["frames"][start]["tricks"] == n
        assert round_["frames"][start]["trick"] == [] or n == 0
    # one step: the card the action plays leaves that seat's hand
    first_play = next(i for i, a in enumerate(actions) if a["type"] == "play")
    before, after = round_["frames"][first_play], round_["frames"][first_play + 1]
    seat, card = actions[first_play]["seat"], actions[first_play]["card"]
    assert len(after["hands"][seat]) == len(before["hands"][seat]) - 1
    assert after["trick"] == [{"seat": seat, "card": card}]
    # the table as a spectator saw it (the browser draws it with the live table's plugins):
    # the trick, no hand, and after each completed trick its winner
    assert after["view"]["trick"] == [{"seat": seat, "card": card}] and "hand" not in after["view"]
    done = round_["frames"][starts[1]]["view"]["last_trick"]
    assert len(done["cards"]) == 4 and done["winner"] in range(4)
    assert round_["scores"] is not None
    assert round_["details"]["game_value"] >= 0 and "score_lines" in round_["details"]
    page = await alice.get(f"/tables/{table['id']}/replay")
    assert page.status_code == 200 and "/static/js/replay.js" in page.text


async def test_my_matches_lists_the_running_table_i_sit_at_with_a_link_back(app, new_client):
    alice, bob = await registered(new_client, "alice"), await registered(new_client, "bob")
    table = (await alice.post("/api/tables", {"game": "doppelkopf", "deals": 4, "bots": 3})).json()
    assert (await alice.get(f"/api/tables/{table['id']}")).json()["status"] == "playing"

    data = (await alice.get("/api/players/alice/matches")).json()
    assert data["total"] == 0 and data["matches"] == []
    (running,) = data["running"]
    assert running["table"] == table["id"] and running["seat"] == 0 and running["game"] == "doppelkopf"
    assert [p["bot"] for p in running["players"]] == [None, "beginner", "beginner", "beginner"]
    page = (await alice.get("/players/alice/matches")).text
    assert 'id="running-matches"' in page and f'<tr data-table="{table["id"]}" data-status="playing">' in page
    assert f'<a href="/tables/{table["id"]}" class="back-to-table">Back to the table</a>' in page
    assert "Computer 2 (beginner)" in page
    # nobody else is told where alice plays now
    assert (await bob.get("/api/players/alice/matches")).json()["running"] == []
    assert 'id="running-matches"' not in (await bob.get("/players/alice/matches")).text
    # once she has left the match it is not hers to go back to
    assert (await alice.post(f"/api/tables/{table['id']}/leave")).status_code == 200
    assert (await alice.get("/api/players/alice/matches")).json()["running"] == []


async def test_a_guest_sees_the_running_table_under_my_matches(app, new_client):
    guest = new_client()
    assert (await guest.post("/api/guest")).status_code == 201
    name = (await guest.get("/api/me")).json()["user"]["name"]
    table = (await guest.post("/api/tables", {"game": "doppelkopf", "deals": 4, "bots": 3})).json()
    (running,) = (await guest.get(f"/api/players/{name}/matches")).json()["running"]
    assert running["table"] == table["id"]
