"""A user's name key follows the name: setting ``User.name`` (a new account, a guest, a
rename) sets ``User.name_key`` to :func:`app.accounts.names.name_key` of it.

The accounts package owns this rule; the database models know only the column. Importing
:mod:`app.accounts` registers it (every process that creates users does, through its
services; the test suite's conftest imports it too).
"""

from __future__ import annotations

from sqlalchemy import event

from app.accounts.names import name_key
from app.db.models import User


@event.listens_for(User.name, "set")
def _key_follows_name(user: User, value: str, _old: object, _initiator: object) -> None:
    user.name_key = name_key(value)
