"""nginx in front of app processes on this machine, from the template docker-compose.yml uses
(deploy/nginx.conf.template): for tests/test_deployment.py and benchmarks/load.py --nginx,
without Docker. Needs Debian's nginx (package nginx-light or nginx)."""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from pathlib import Path

import httpx

TEMPLATE = Path(__file__).resolve().parent / "nginx.conf.template"


def _open_files() -> None:
    """As many open files as this machine allows (a socket through nginx is two)."""
    import resource

    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def executable() -> str:
    """The nginx binary (PATH, else Debian's /usr/sbin/nginx)."""
    return shutil.which("nginx") or "/usr/sbin/nginx"


def render_template(text: str, env: dict[str, str]) -> str:
    """What the nginx image's entrypoint does with /etc/nginx/templates/*.template: replace
    ``${NAME}`` for each NAME set in ``env`` (envsubst with the defined names only), leaving
    nginx's own ``$variables`` alone. Raises KeyError for a ``${NAME}`` not in ``env`` (the
    image would leave it, and nginx would refuse the line)."""
    return re.sub(r"\$\{(\w+)\}", lambda match: env[match.group(1)], text)


def start(prefix: Path, site: str, *, workers: int = 1, ready_url: str | None = None,
          timeout: float = 10) -> subprocess.Popen:
    """nginx with ``site`` as its one server (the image's conf.d/default.conf), in the
    foreground, everything it writes under ``prefix``; with ``ready_url``, returns once that
    answers 200. Raises RuntimeError when the configuration is refused or nginx does not
    come up."""
    prefix.mkdir(parents=True, exist_ok=True)
    (prefix / "default.conf").write_text(site)
    (prefix / "nginx.conf").write_text(f"""
daemon off;
worker_processes {workers};
pid {prefix}/nginx.pid;
error_log {prefix}/error.log warn;
events {{ worker_connections 20000; }}
http {{
    access_log off;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    include {prefix}/default.conf;
}}
""")
    command = [executable(), "-p", str(prefix), "-c", str(prefix / "nginx.conf")]
    checked = subprocess.run([*command, "-t"], capture_output=True, text=True)
    if checked.returncode != 0:
        raise RuntimeError(f"nginx refused the configuration: {checked.stderr}")
    proc = subprocess.Popen(command, preexec_fn=_open_files)
    if ready_url is not None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                if httpx.get(ready_url, timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError("nginx did not come up")
            time.sleep(0.1)
    return proc
