"""tournaments: tournaments, their players, rounds and seats; tables.deal_seed (duplicate deals)

Revision ID: 0007_tournaments
Revises: 0006_analyses
"""

import sqlalchemy as sa
from alembic import op

revision = '0007_tournaments'
down_revision = '0006_analyses'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('tables') as batch:
        batch.add_column(sa.Column('deal_seed', sa.String(length=64), nullable=True))
    op.create_table(
        'tournaments',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=80), nullable=False),
        sa.Column('game', sa.String(length=32), nullable=False),
        sa.Column('preset', sa.String(length=32), nullable=True),
        sa.Column('rules', sa.JSON(), nullable=False),
        sa.Column('format', sa.String(length=16), nullable=False),
        sa.Column('table_size', sa.Integer(), nullable=False),
        sa.Column('rounds', sa.Integer(), nullable=False),
        sa.Column('deals', sa.Integer(), nullable=False),
        sa.Column('max_players', sa.Integer(), nullable=False),
        sa.Column('min_players', sa.Integer(), nullable=False),
        sa.Column('starts_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('duration', sa.Integer(), nullable=False),
        sa.Column('pause', sa.Integer(), nullable=False),
        sa.Column('fill_wait', sa.Integer(), nullable=False),
        sa.Column('bot_level', sa.String(length=16), nullable=False),
        sa.Column('turn_seconds', sa.Integer(), nullable=True),
        sa.Column('scoring', sa.String(length=16), nullable=False),
        sa.Column('visibility', sa.String(length=16), nullable=False),
        sa.Column('secret', sa.String(length=64), nullable=False),
        sa.Column('owner_id', sa.Integer(), nullable=True),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('current_round', sa.Integer(), nullable=False),
        sa.Column('registered', sa.Integer(), nullable=False),
        sa.Column('seed', sa.String(length=64), nullable=False),
        sa.Column('note', sa.String(length=200), nullable=True),
        sa.Column('schedule_key', sa.String(length=160), nullable=True),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('started_at', sa.DateTime(timezone=True), nullable=True),
        sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint('current_round >= 0', name=op.f('ck_tournaments_round_nonnegative')),
        sa.CheckConstraint('registered >= 0 AND registered <= max_players',
                           name=op.f('ck_tournaments_registered_in_range')),
        sa.ForeignKeyConstraint(['owner_id'], ['users.id'], name=op.f('fk_tournaments_owner_id_users'),
                                ondelete='SET NULL'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_tournaments')),
        sa.UniqueConstraint('schedule_key', name=op.f('uq_tournaments_schedule_key')),
    )
    op.create_index(op.f('ix_tournaments_starts_at'), 'tournaments', ['starts_at'], unique=False)
    op.create_index(op.f('ix_tournaments_status'), 'tournaments', ['status'], unique=False)
    op.create_table(
        'tournament_players',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('tournament_id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('registered_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('absences', sa.Integer(), nullable=False),
        sa.Column('free_since', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'],
                                name=op.f('fk_tournament_players_tournament_id_tournaments'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'],
                                name=op.f('fk_tournament_players_user_id_users'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_tournament_players')),
        sa.UniqueConstraint('tournament_id', 'user_id',
                            name=op.f('uq_tournament_players_tournament_id_user_id')),
    )
    op.create_index(op.f('ix_tournament_players_tournament_id'), 'tournament_players',
                    ['tournament_id'], unique=False)
    op.create_index(op.f('ix_tournament_players_user_id'), 'tournament_players', ['user_id'],
                    unique=False)
    op.create_table(
        'tournament_rounds',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('tournament_id', sa.Integer(), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('status', sa.String(length=16), nullable=False),
        sa.Column('deal_seed', sa.String(length=64), nullable=True),
        sa.Column('started_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('finished_at', sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'],
                                name=op.f('fk_tournament_rounds_tournament_id_tournaments'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_tournament_rounds')),
        sa.UniqueConstraint('tournament_id', 'number',
                            name=op.f('uq_tournament_rounds_tournament_id_number')),
    )
    op.create_table(
        'tournament_seats',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('tournament_id', sa.Integer(), nullable=False),
        sa.Column('round_id', sa.Integer(), nullable=True),
        sa.Column('table_id', sa.Integer(), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('absent', sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'],
                                name=op.f('fk_tournament_seats_tournament_id_tournaments'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['round_id'], ['tournament_rounds.id'],
                                name=op.f('fk_tournament_seats_round_id_tournament_rounds'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['table_id'], ['tables.id'],
                                name=op.f('fk_tournament_seats_table_id_tables'), ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'],
                                name=op.f('fk_tournament_seats_user_id_users'), ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_tournament_seats')),
        sa.UniqueConstraint('round_id', 'user_id', name=op.f('uq_tournament_seats_round_id_user_id')),
        sa.UniqueConstraint('table_id', 'seat', name=op.f('uq_tournament_seats_table_id_seat')),
    )
    op.create_index(op.f('ix_tournament_seats_tournament_id'), 'tournament_seats',
                    ['tournament_id'], unique=False)
    op.create_index(op.f('ix_tournament_seats_table_id'), 'tournament_seats', ['table_id'],
                    unique=False)
    op.create_index(op.f('ix_tournament_seats_user_id'), 'tournament_seats', ['user_id'],
                    unique=False)


def downgrade() -> None:
    op.drop_table('tournament_seats')
    op.drop_table('tournament_rounds')
    op.drop_table('tournament_players')
    op.drop_index(op.f('ix_tournaments_status'), table_name='tournaments')
    op.drop_index(op.f('ix_tournaments_starts_at'), table_name='tournaments')
    op.drop_table('tournaments')
    with op.batch_alter_table('tables') as batch:
        batch.drop_column('deal_seed')
