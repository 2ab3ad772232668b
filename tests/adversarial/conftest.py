"""The adversarial suite: every input runs in a forked child under a time bound."""

from __future__ import annotations

import pytest
from adv_harness import warm


@pytest.fixture(scope="session", autouse=True)
def _warm_caches() -> None:
    warm()
