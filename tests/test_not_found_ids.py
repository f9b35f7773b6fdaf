"""A URL whose id cannot name anything (``/tables/abc``, ``/tables/0``, an id beyond the
database's range) answers 404 "No such table", exactly as an id nobody has: the site's error
page for a browser, ``{"detail": "no such table"}`` for a program — on every route with an id in
its path (tables, their replays, score sheets, scenarios, analyses, joining, leaving,
inviting), never 422 "The form was not filled in as expected"."""

from __future__ import annotations

from starlette.testclient import TestClient

from tests.platform_helpers import make_app, settings_for
from tests.security.test_ranges import _int_params, api_routes
from tests.test_attacks import Person, csrf, register

MALFORMED = ["abc", "0", "-1", "1.5", "9223372036854775808", "1e309"]
HTML = {"Accept": "text/html,application/xhtml+xml"}
#: the refusal of a malformed id per path parameter (app.main.PATH_NOT_FOUND)
WORDS = {"table_id": "no such table", "tournament_id": "no such tournament",
         "puzzle_id": "no such puzzle"}


def _id_routes(app):
    """(method, path template, the id parameter) of every route with a numeric id in its path."""
    for prefix, route in api_routes(app.routes):
        path_ints, _query = _int_params(route)
        for method in sorted(route.methods):
            for name in path_ints:
                yield method, prefix + route.path, name


def test_every_route_with_an_id_answers_a_malformed_id_with_404_no_such_table(tmp_path):
    app = make_app(settings_for(tmp_path))
    with TestClient(app, raise_server_exceptions=False) as client:
        person = Person(client)
        register(person, "Rita")
        token = csrf(person)
        routes = list(_id_routes(app))
        paths = {path for _m, path, _n in routes}
        for expected in ("/tables/{table_id}", "/tables/{table_id}/replay", "/tables/{table_id}/scores",
                         "/api/tables/{table_id}", "/api/tables/{table_id}/replay",
                         "/api/tables/{table_id}/analysis"):
            assert expected in paths, expected
        for method, template, name in routes:
            for value in MALFORMED:
                path = template.replace("{" + name + "}", value)
                extra = ({"data": {"csrf": token, "name": "x"}} if method == "POST" and
                         not path.startswith("/api/") else
                         {"json": {}, "headers": {"X-CSRF-Token": token}} if method == "POST" else {})
                response = person._call(method.lower(), path, **extra)
                assert response.status_code == 404, (method, path, response.status_code, response.text[:200])
                words = WORDS.get(name, "no such table")
                if path.startswith("/api/"):
                    assert response.json() == {"detail": words}, (method, path)
                page = person._call(method.lower(), path, **extra,
                                    **({} if "headers" in extra else {"headers": HTML}))
                if not path.startswith("/api/"):
                    assert page.status_code == 404 and words.capitalize() in page.text, (method, path)
                    assert "not filled in" not in page.text


def test_a_table_nobody_has_reads_the_same_as_a_malformed_id(tmp_path):
    app = make_app(settings_for(tmp_path))
    with TestClient(app, raise_server_exceptions=False) as client:
        person = Person(client)
        for path in ("/tables/abc", "/tables/999999"):
            page = person.get(path, headers=HTML)
            assert page.status_code == 404
            assert '<p class="error" role="alert">No such table</p>' in page.text, path
        german = person.get("/tables/abc", headers={**HTML, "Accept-Language": "de"})
        assert german.status_code == 404 and "Diesen Tisch gibt es nicht" in german.text
