"""user names are case-insensitive: one functional unique index on lower(name)

"Anna" and "anna" are the same account; the stored spelling is the display spelling.
lower() is the database's own: PostgreSQL folds every letter, SQLite only A-Z (so on SQLite
"Ä" and "ä" stay two names; app.accounts.service compares with the same lower()).
Fails (and changes nothing) if the table already holds two names that differ only in case.

Revision ID: 0003_i18n
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = '0003_i18n'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index('uq_users_name_lower', 'users', [sa.text('lower(name)')], unique=True)


def downgrade() -> None:
    op.drop_index('uq_users_name_lower', table_name='users')
