"""Play from here and puzzles: practices, puzzles, puzzle_answers (app.lobby.practice,
app.analysis.puzzles)

Revision ID: 0009_puzzles
Revises: 0008_player_stats
"""

import sqlalchemy as sa
from alembic import op

revision = '0009_puzzles'
down_revision = '0008_player_stats'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'practices',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('table_id', sa.Integer(), nullable=False),
        sa.Column('source_table_id', sa.Integer(), nullable=False),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('index', sa.Integer(), nullable=False),
        sa.Column('deal', sa.Integer(), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('level', sa.String(length=16), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['table_id'], ['tables.id'], name=op.f('fk_practices_table_id_tables'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['source_table_id'], ['tables.id'],
                                name=op.f('fk_practices_source_table_id_tables'), ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_practices_user_id_users'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_practices')),
        sa.UniqueConstraint('table_id', name=op.f('uq_practices_table_id')),
    )
    op.create_index(op.f('ix_practices_user_id'), 'practices', ['user_id'], unique=False)
    op.create_table(
        'puzzles',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('match_id', sa.Integer(), nullable=False),
        sa.Column('table_id', sa.Integer(), nullable=False),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('index', sa.Integer(), nullable=False),
        sa.Column('seat', sa.Integer(), nullable=False),
        sa.Column('game', sa.String(length=32), nullable=False),
        sa.Column('view', sa.JSON(), nullable=False),
        sa.Column('taken', sa.JSON(), nullable=False),
        sa.Column('best', sa.String(length=64), nullable=False),
        sa.Column('best_action', sa.JSON(), nullable=False),
        sa.Column('action_values', sa.JSON(), nullable=False),
        sa.Column('good', sa.JSON(), nullable=False),
        sa.Column('cost', sa.Float(), nullable=False),
        sa.Column('unit', sa.String(length=32), nullable=False),
        sa.Column('why', sa.JSON(), nullable=True),
        sa.Column('seats', sa.JSON(), nullable=False),
        sa.Column('public', sa.Boolean(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_puzzles_user_id_users'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_puzzles_match_id_matches'),
                                ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['table_id'], ['tables.id'], name=op.f('fk_puzzles_table_id_tables'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_puzzles')),
        sa.UniqueConstraint('match_id', 'round', 'index', name=op.f('uq_puzzles_match_id_round_index')),
    )
    op.create_index(op.f('ix_puzzles_user_id'), 'puzzles', ['user_id'], unique=False)
    op.create_index(op.f('ix_puzzles_public'), 'puzzles', ['public'], unique=False)
    op.create_table(
        'puzzle_answers',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('puzzle_id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('answer', sa.String(length=64), nullable=False),
        sa.Column('correct', sa.Boolean(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['puzzle_id'], ['puzzles.id'],
                                name=op.f('fk_puzzle_answers_puzzle_id_puzzles'), ondelete='CASCADE'),
        sa.ForeignKeyConstraint(['user_id'], ['users.id'], name=op.f('fk_puzzle_answers_user_id_users'),
                                ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_puzzle_answers')),
        sa.UniqueConstraint('puzzle_id', 'user_id', name=op.f('uq_puzzle_answers_puzzle_id_user_id')),
    )
    op.create_index(op.f('ix_puzzle_answers_user_id'), 'puzzle_answers', ['user_id'], unique=False)


def downgrade() -> None:
    op.drop_index(op.f('ix_puzzle_answers_user_id'), table_name='puzzle_answers')
    op.drop_table('puzzle_answers')
    op.drop_index(op.f('ix_puzzles_public'), table_name='puzzles')
    op.drop_index(op.f('ix_puzzles_user_id'), table_name='puzzles')
    op.drop_table('puzzles')
    op.drop_index(op.f('ix_practices_user_id'), table_name='practices')
    op.drop_table('practices')
