"""player statistics: the projection of finished matches per player and game (app.stats)

Revision ID: 0008_player_stats
Revises: 0007_tournaments

player_stats (counters per player, game and scope), player_pairs (head to head),
stats_matches (a person's placing in a finished match: which matches are counted, and the
leaderboards by period), an index on results (user_id, match_id, winner) (a player's matches
and wins from the index alone) and one on rating_history (user_id, game, id) (the profile's
rating chart). The tables
start empty: `python -m app stats rebuild` fills them from the matches already finished,
and the server counts the matches not yet counted when it starts (app/stats/service.py).
"""

import sqlalchemy as sa
from alembic import op

revision = '0008_player_stats'
down_revision = '0007_tournaments'
branch_labels = None
depends_on = None


def _user(column: str, table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint([column], ['users.id'], name=op.f(f'fk_{table}_{column}_users'),
                                   ondelete='CASCADE')


def _counts_table(name: str, *extra: sa.schema.SchemaItem, keys: tuple[str, ...]) -> None:
    """A table of JSON counters per user, game and ``extra`` key, unique by ``keys``."""
    op.create_table(
        name,
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('game', sa.String(length=32), nullable=False),
        *extra,
        sa.Column('counts', sa.JSON(), nullable=False),
        _user('user_id', name),
        sa.PrimaryKeyConstraint('id', name=op.f(f'pk_{name}')),
        sa.UniqueConstraint(*keys, name=op.f(f"uq_{name}_{'_'.join(keys)}")),
    )


def upgrade() -> None:
    _counts_table('player_stats', sa.Column('scope', sa.String(length=8), nullable=False),
                  keys=('user_id', 'game', 'scope'))
    _counts_table('player_pairs', sa.Column('other_id', sa.Integer(), nullable=False),
                  _user('other_id', 'player_pairs'), keys=('user_id', 'other_id', 'game'))
    op.create_table(
        'stats_matches',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('match_id', sa.Integer(), nullable=False),
        sa.Column('user_id', sa.Integer(), nullable=False),
        sa.Column('game', sa.String(length=32), nullable=False),
        sa.Column('finished_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('placing', sa.Integer(), nullable=False),
        sa.Column('public', sa.Boolean(), nullable=False),
        sa.Column('rated', sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_stats_matches_match_id_matches'),
                                ondelete='CASCADE'),
        _user('user_id', 'stats_matches'),
        sa.PrimaryKeyConstraint('id', name=op.f('pk_stats_matches')),
        sa.UniqueConstraint('match_id', 'user_id', name=op.f('uq_stats_matches_match_id_user_id')),
    )
    op.create_index(op.f('ix_stats_matches_user_id'), 'stats_matches', ['user_id'], unique=False)
    op.create_index('ix_stats_matches_game_finished_at', 'stats_matches', ['game', 'finished_at'],
                    unique=False)
    op.create_index('ix_results_user_id_match_id_winner', 'results', ['user_id', 'match_id', 'winner'],
                    unique=False)
    op.create_index('ix_rating_history_user_id_game_id', 'rating_history', ['user_id', 'game', 'id'],
                    unique=False)


def downgrade() -> None:
    op.drop_index('ix_rating_history_user_id_game_id', table_name='rating_history')
    op.drop_index('ix_results_user_id_match_id_winner', table_name='results')
    op.drop_index('ix_stats_matches_game_finished_at', table_name='stats_matches')
    op.drop_index(op.f('ix_stats_matches_user_id'), table_name='stats_matches')
    op.drop_table('stats_matches')
    op.drop_table('player_pairs')
    op.drop_table('player_stats')
