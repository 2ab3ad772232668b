"""The adversarial suite: every input runs in a forked child under a time bound."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest
from adv_harness import warm


@pytest.fixture(scope="session", autouse=True)
def _warm_caches() -> Iterator[None]:
    warm()  # the caches every child would otherwise build (and gc.freeze for cheap forks)
    yield
    gc.unfreeze()
