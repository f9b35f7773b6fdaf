"""Users, guests, passwords and server-side sessions (service.py); signed cookies (cookies.py)."""
