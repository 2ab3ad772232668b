"""A local web table for any spec: ``spelbok serve`` (needs the ``web`` extra).

:mod:`spelbok.web.sessions` keeps the matches and replays by id and turns a state
into what one seat may see; :mod:`spelbok.web.app` is the Starlette application
(its routes, the JSON API, the shipped page in ``static/``).  The browser only
ever receives a seat's view; every rule check runs here, through the engine.
"""
