"""RATE_LIMITS overrides a policy for a whole site; other policies keep their defaults."""

from __future__ import annotations

from app.config import Settings
from app.guard.ratelimit import DEFAULT_POLICIES, Policy, RateLimits
from tests.platform_helpers import make_services, settings_for


def test_the_setting_reads_json_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("RATE_LIMITS", '{"table_create": "3/minute"}')
    assert Settings(data_dir=tmp_path).rate_limits == {"table_create": "3/minute"}


async def test_an_overridden_policy_is_enforced_and_the_others_keep_their_defaults(tmp_path):
    services = make_services(settings_for(tmp_path, rate_limits={"table_create": "3/minute"}))
    try:
        limits = services.limits
        decisions = [limits.check(Policy.TABLE_CREATE, "account-1").allowed for _ in range(4)]
        assert decisions == [True, True, True, False]
        default = RateLimits().windows(Policy.CHAT_LINE)
        assert limits.windows(Policy.CHAT_LINE) == default
        assert str(DEFAULT_POLICIES[Policy.TABLE_CREATE]) != "3/minute"
    finally:
        await services.close()
