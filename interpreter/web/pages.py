"""The web pages, rendered from Jinja2 templates (``web/templates/``), never assembled
in Python strings.

Autoescaping is on for every template: whatever a page shows from a spec or a match
(names, labels, reasons) is escaped by the template engine.

>>> "<!doctype html>" in render("index.html").lower()
True
"""

from __future__ import annotations

import os
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")

_ENV = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(default=True),
                   undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def render(name: str, **context: Any) -> str:
    """The page ``name`` of ``web/templates/`` rendered with ``context``."""
    return _ENV.get_template(name).render(**context)
