"""turn timers (time per move, round start times) and departures from rated matches

Revision ID: 0003_chat
Revises: 0003_perf (branched from 0002; chained after the i18n and perf branches'
migrations once those were on main)
"""

import sqlalchemy as sa
from alembic import op

revision = '0003_chat'
down_revision = '0003_perf'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('tables') as batch:
        batch.add_column(sa.Column('turn_seconds', sa.Integer(), nullable=True))
    with op.batch_alter_table('rounds') as batch:
        batch.add_column(sa.Column('dealt_at', sa.DateTime(timezone=True), nullable=True))
    op.create_table('departures',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('match_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('user_id', sa.Integer(), nullable=False),
    sa.Column('left_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('returned_at', sa.DateTime(timezone=True), nullable=True),
    sa.Column('reason', sa.String(length=16), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_departures_match_id_matches'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_departures_user_id_users'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_departures')),
    sa.UniqueConstraint('match_id', 'seat', name=op.f('uq_departures_match_id_seat'))
    )
    op.create_index(op.f('ix_departures_user_id'), 'departures', ['user_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_departures_user_id'), table_name='departures')
    op.drop_table('departures')
    with op.batch_alter_table('rounds') as batch:
        batch.drop_column('dealt_at')
    with op.batch_alter_table('tables') as batch:
        batch.drop_column('turn_seconds')
