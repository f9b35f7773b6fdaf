"""user names compared by one canonical key: users.name_key (unique)

The key is app.accounts.names.name_key — PRECIS UsernameCaseMapped (RFC 8265) and the TR39
confusable skeleton — computed in Python, so SQLite and PostgreSQL agree ("JÜRGEN" is
"Jürgen", "аdmin" with a Cyrillic а is "admin"). It replaces the index on lower(name) of
0003_i18n (SQLite's lower() folds A-Z only).

Existing users that share a key (possible before: "Jürgen"/"JÜRGEN" on SQLite, "admin"/"аdmin"
anywhere) all stay: the oldest keeps the key, each later one gets ``<key>#<id>`` and still logs
in by its exact spelling (Accounts.user_by_name tries it first). Every such collision is
reported in the migration's log (WARNING), for an operator to settle with the people.

Revision ID: 0005_name_key
Revises: 0004_seated
"""

import logging
from collections import defaultdict

import sqlalchemy as sa
from alembic import op

revision = '0005_name_key'
down_revision = '0004_seated'
branch_labels = None
depends_on = None

log = logging.getLogger("alembic.runtime.migration")


def upgrade() -> None:
    from app.accounts.names import name_key

    with op.batch_alter_table('users') as batch:
        batch.add_column(sa.Column('name_key', sa.String(length=160), nullable=True))
    bind = op.get_bind()
    users = bind.execute(sa.text("SELECT id, name FROM users ORDER BY id")).all()
    by_key: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for user_id, name in users:
        by_key[name_key(name)].append((user_id, name))
    for key, holders in by_key.items():
        if len(holders) > 1:
            log.warning("user names that are one name now (key %r): %s; the first keeps it, "
                        "the others log in by their exact spelling", key,
                        ", ".join(f"{name!r} (id {user_id})" for user_id, name in holders))
        for index, (user_id, _name) in enumerate(holders):
            bind.execute(sa.text("UPDATE users SET name_key = :k WHERE id = :i"),
                         {"k": key if index == 0 else f"{key}#{user_id}", "i": user_id})
    op.drop_index('uq_users_name_lower', table_name='users')
    with op.batch_alter_table('users') as batch:
        batch.alter_column('name_key', existing_type=sa.String(length=160), nullable=False)
        batch.create_unique_constraint(op.f('uq_users_name_key'), ['name_key'])


def downgrade() -> None:
    with op.batch_alter_table('users') as batch:
        batch.drop_constraint(op.f('uq_users_name_key'), type_='unique')
        batch.drop_column('name_key')
    op.create_index('uq_users_name_lower', 'users', [sa.text('lower(name)')], unique=True)
