"""A local web table for any spec: ``spelbok serve`` (needs the ``web`` extra).

:mod:`spelbok.web.sessions` keeps the matches and replays by id (undo, hints);
:mod:`spelbok.web.tableview` turns a state into what one seat may see, laid out
around a table; :mod:`spelbok.web.rules` lays ``describe``'s text out as prose;
:mod:`spelbok.web.app` is the Starlette application (its routes, the JSON API, the
page rendered from ``templates/`` with ``static/``).  The browser only ever
receives a seat's view; every rule check runs here, through the engine.
"""
