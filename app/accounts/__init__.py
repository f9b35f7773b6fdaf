"""Users, guests, passwords and server-side sessions (service.py); signed cookies (cookies.py).

Importing the package makes a user's name key follow its name (keys.py)."""

from app.accounts import keys as keys
