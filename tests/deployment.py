"""The deployment as docker-compose.yml and the Dockerfile say it, read for the tests that run
it (tests/test_deployment.py) or check it (tests/security/test_forwarded_for.py), so that the
tests and those files cannot drift apart. Not a test module."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Deployment:
    """What the files say: the app services (their environment over the image's ENV, and the
    command), and nginx (its template, its environment, its fixed address)."""

    image_env: dict[str, str]
    command: list[str]
    app_services: dict[str, dict[str, str]]
    nginx_template: Path
    nginx_env: dict[str, str]
    nginx_ip: str
    #: the compose file's ${NAME...} interpolations in the app environment, by variable
    required: dict[str, str] = field(default_factory=dict)

    def app_env(self, service: str) -> dict[str, str]:
        """The environment an app container starts with: the Dockerfile's ENV, then the
        service's own (as Docker merges them)."""
        return {**self.image_env, **self.app_services[service]}


def dockerfile_env(text: str) -> dict[str, str]:
    """Every ``ENV`` of a Dockerfile (``ENV A=1 B=2`` and ``ENV A 1``), later ones winning."""
    env: dict[str, str] = {}
    for line in _instructions(text, "ENV"):
        words = shlex.split(line)
        if words and "=" not in words[0]:
            env[words[0]] = " ".join(words[1:])
            continue
        for word in words:
            name, _, value = word.partition("=")
            env[name] = value
    return env


def dockerfile_command(text: str) -> list[str]:
    """The ``CMD`` of a Dockerfile in exec form (a JSON list)."""
    import json

    commands = list(_instructions(text, "CMD"))
    assert commands, "the Dockerfile has no CMD"
    return json.loads(commands[-1])


def _instructions(text: str, name: str):
    joined = re.sub(r"\\\n", " ", text)
    for line in joined.splitlines():
        words = line.strip().split(None, 1)
        if len(words) == 2 and words[0].upper() == name:
            yield words[1]


def _interpolated(value: str, required: dict[str, str]) -> str:
    """A compose value; ``${NAME:?message}`` and ``${NAME}`` are noted in ``required`` and
    kept for the caller to fill in."""
    for match in re.finditer(r"\$\{(\w+)(?::?\?([^}]*))?\}", value):
        required[match.group(1)] = match.group(0)
    return value


def read() -> Deployment:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    dockerfile = (ROOT / "Dockerfile").read_text()
    services = compose["services"]
    required: dict[str, str] = {}
    apps = {name: {key: _interpolated(str(value), required)
                   for key, value in (spec.get("environment") or {}).items()}
            for name, spec in services.items()
            if spec.get("build") is not None}
    nginx = services["nginx"]
    template = next(volume.split(":")[0] for volume in nginx["volumes"]
                    if "/etc/nginx/templates/" in volume)
    networks = nginx.get("networks") or {}
    addresses = [net.get("ipv4_address") for net in networks.values() if isinstance(net, dict)]
    return Deployment(image_env=dockerfile_env(dockerfile), command=dockerfile_command(dockerfile),
                      app_services=apps, nginx_template=(ROOT / template).resolve(),
                      nginx_env={k: str(v) for k, v in (nginx.get("environment") or {}).items()},
                      nginx_ip=next((a for a in addresses if a), ""), required=required)
