"""The server-rendered pages (pages.py) with Jinja2 templates under templates/."""
