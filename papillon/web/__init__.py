"""``papillon serve``: play in the browser and deal for paper games (Starlette, Jinja2, server-rendered SVG).

Needs the ``serve`` extra (``pip install 'papillon-gardens[serve]'``); ``import papillon`` never loads it.
:func:`papillon.web.app.create_app` builds the ASGI app; docs/SERVE.md describes the pages.
"""
