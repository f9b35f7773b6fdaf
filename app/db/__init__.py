"""The database: SQLAlchemy 2 models (models.py), the async engine (engine.py), migrations."""
