"""tables.create_key: the New Game idempotency key, unique per owner

Revision ID: 0003_perf
Revises: 0003_i18n (branched from 0002; chained after the i18n branch's migration
once that was on main)
"""

import sqlalchemy as sa
from alembic import op

revision = '0003_perf'
down_revision = '0003_i18n'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('tables') as batch:
        batch.add_column(sa.Column('create_key', sa.String(length=64), nullable=True))
        batch.create_unique_constraint(op.f('uq_tables_owner_id_create_key'),
                                       ['owner_id', 'create_key'])


def downgrade() -> None:
    with op.batch_alter_table('tables') as batch:
        batch.drop_constraint(op.f('uq_tables_owner_id_create_key'), type_='unique')
        batch.drop_column('create_key')
