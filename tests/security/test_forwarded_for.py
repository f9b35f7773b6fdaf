"""Issue 17 (8): behind the documented proxy, a client cannot choose its own rate-limit key
by writing X-Forwarded-For. The compose deployment (docker-compose.yml, deploy/nginx.conf.template)
trusts only the proxy's own hop (FORWARDED_ALLOW_IPS is nginx's fixed address) and nginx
*sets* X-Forwarded-For to the address it saw ($remote_addr) instead of appending to the
client's header. Checked by reading those files and by a real uvicorn server configured the
same way: requests arrive from the proxy's address (127.0.0.2 stands in for nginx's) with the
header nginx's directive would write, while the client (127.0.0.3) forges a new
X-Forwarded-For on every try; the login limit per address still stops it. (Real nginx runs
the whole deployment in tests/test_deployment.py.)"""

from __future__ import annotations

import re

import httpx

from tests.deployment import read as read_deployment
from tests.platform_helpers import live_server, settings_for

PROXY, CLIENT = "127.0.0.2", "127.0.0.3"


def deployment() -> tuple[str, str, str]:
    """(FORWARDED_ALLOW_IPS of the app services, nginx's own address, nginx's
    X-Forwarded-For value) as docker-compose.yml and deploy/nginx.conf.template say."""
    spec = read_deployment()
    allowed = {env["FORWARDED_ALLOW_IPS"] for env in spec.app_services.values()}
    assert len(allowed) == 1
    conf = spec.nginx_template.read_text()
    header = re.search(r"proxy_set_header\s+X-Forwarded-For\s+(\S+);", conf)
    return allowed.pop(), spec.nginx_ip, header.group(1) if header else ""


def test_the_deployment_trusts_only_the_proxy_and_the_proxy_sets_the_header():
    allowed, nginx_ip, header = deployment()
    assert allowed == nginx_ip and nginx_ip, (allowed, nginx_ip)
    assert header == "$remote_addr", header


def _nginx_header(directive: str, forged: str) -> str:
    """What nginx sends upstream as X-Forwarded-For for a client at CLIENT that sent
    ``forged``."""
    if directive == "$remote_addr":
        return CLIENT
    return f"{forged}, {CLIENT}"  # $proxy_add_x_forwarded_for appends


def test_a_forged_header_does_not_change_the_rate_limit_key(tmp_path):
    allowed, nginx_ip, directive = deployment()
    trusted = PROXY if allowed == nginx_ip else allowed  # "*" stays "*"
    settings = settings_for(tmp_path, forwarded_allow_ips=trusted)
    with live_server(settings) as url:
        via_proxy = httpx.Client(base_url=url, transport=httpx.HTTPTransport(local_address=PROXY))
        direct = httpx.Client(base_url=url, transport=httpx.HTTPTransport(local_address=CLIENT))
        token = via_proxy.get("/api/me").json()["csrf"]
        statuses = []
        for attempt in range(14):
            forged = f"198.51.100.{attempt}"
            client, header = ((via_proxy, _nginx_header(directive, forged)) if attempt % 2 == 0
                              else (direct, forged))  # also straight past the proxy
            answer = client.post("/api/login", json={"name": f"nobody{attempt}",
                                                     "password": "wrong password"},
                                 headers={"X-CSRF-Token": token, "X-Forwarded-For": header,
                                          "Cookie": f"dr_csrf={token}"})
            statuses.append(answer.status_code)
        via_proxy.close()
        direct.close()
    # LOGIN_ADDRESS allows 10 a minute: the 11th try from the one real address is refused
    assert statuses[:10] == [400] * 10 and statuses[10:] == [429] * 4, statuses
