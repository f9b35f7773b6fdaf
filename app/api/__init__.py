"""The JSON API (routes.py), the WebSocket endpoint (ws.py) and their dependencies (deps.py)."""
