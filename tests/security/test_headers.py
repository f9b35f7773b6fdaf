"""Issue 17 (12): every response — pages (lobby, table, replay, history, profile, leaderboard,
login), error pages (404, 500), the JSON API and static files — carries the security headers:
a Content-Security-Policy without inline script that no other site may frame, X-Frame-Options
DENY, X-Content-Type-Options nosniff, a Referrer-Policy; HSTS only when served over HTTPS."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from tests.platform_helpers import make_app, settings_for
from tests.test_attacks import Person, post, register


def _check(response, *, https: bool) -> None:
    where = f"{response.request.method} {response.request.url} ({response.status_code})"
    csp = response.headers.get("content-security-policy", "")
    directives = {part.split()[0]: part.split()[1:] for part in csp.split(";") if part.strip()}
    assert "frame-ancestors" in directives and directives["frame-ancestors"] == ["'none'"], where
    script = directives.get("script-src", directives.get("default-src"))
    assert script == ["'self'"], where  # no 'unsafe-inline', no eval, no other origin
    assert directives.get("object-src") == ["'none'"], where
    assert response.headers.get("x-frame-options") == "DENY", where
    assert response.headers.get("x-content-type-options") == "nosniff", where
    assert response.headers.get("referrer-policy"), where
    hsts = response.headers.get("strict-transport-security")
    assert (hsts is not None and "max-age=" in hsts) if https else hsts is None, where


@pytest.mark.parametrize("https", [False, True])
def test_every_kind_of_response_carries_the_security_headers(tmp_path, https):
    app = make_app(settings_for(tmp_path))

    @app.get("/boom-for-test")
    async def boom():
        raise RuntimeError("a bug")

    base = "https://testserver" if https else "http://testserver"
    with TestClient(app, base_url=base, raise_server_exceptions=False) as client:
        person = Person(client)
        register(person, "Heidi")
        table = post(person, "/api/tables", {"game": "doppelkopf", "bots": 3, "deals": 1}).json()
        responses = [
            person.get("/"), person.get(f"/tables/{table['id']}"),
            person.get(f"/tables/{table['id']}/replay"), person.get(f"/tables/{table['id']}/scores"),
            person.get("/players/Heidi"), person.get("/players/Heidi/matches"),
            person.get("/leaderboards"), person.get("/leaderboards/doppelkopf"),
            person.get("/login"), person.get("/register"),
            person.get("/rules"), person.get("/rules/doppelkopf"),
            person.get("/no-such-page", headers={"Accept": "text/html"}),
            person.get("/no-such-page"), person.get("/api/me"), person.get("/api/tables"),
            person.get("/static/css/site.css"), person.get("/static/js/table.js"),
            person.get("/boom-for-test"), person.get("/healthz"),
            client.post("/api/login", json={}),  # 403: no CSRF echo
        ]
        statuses = {r.status_code for r in responses}
        assert {200, 404, 500, 403} <= statuses, statuses
        for response in responses:
            _check(response, https=https)


@pytest.mark.browser
def test_the_pages_run_under_the_policy_without_a_violation(browser, site):
    """The lobby, a table in play, its replay, a rules page and the login page work under the
    CSP: the
    browser reports no violation (securitypolicyviolation events and console errors)."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    violations: list[str] = []
    page.on("console", lambda m: violations.append(m.text)
            if "Content Security Policy" in m.text else None)
    page.add_init_script("document.addEventListener('securitypolicyviolation', e => "
                         "console.error('Content Security Policy: ' + e.violatedDirective "
                         "+ ' ' + e.blockedURI))")
    page.goto(site + "/register")
    page.fill("input[name=name]", "Ulla")
    page.fill("input[name=password]", "long enough")
    page.click("form[action='/register'] button[type=submit]")
    page.wait_for_url(site + "/")
    page.wait_for_selector("#langs")
    csrf = page.evaluate("document.querySelector('meta[name=csrf-token]').content")
    table = page.evaluate("""async (csrf) => (await (await fetch('/api/tables', {method: 'POST',
        headers: {'Content-Type': 'application/json', 'X-CSRF-Token': csrf},
        body: JSON.stringify({game: 'doppelkopf', bots: 3, deals: 1})})).json())""", csrf)
    page.goto(f"{site}/tables/{table['id']}")
    # a selector, not wait_for_function: Playwright polls a function with eval, which the
    # policy refuses ('unsafe-eval' is not allowed), as it should
    page.wait_for_selector("#hand button, #hand .card", timeout=15000)
    page.goto(f"{site}/tables/{table['id']}/replay")
    page.goto(site + "/rules/doppio")
    page.goto(site + "/login")
    page.wait_for_timeout(300)
    context.close()
    assert violations == []
