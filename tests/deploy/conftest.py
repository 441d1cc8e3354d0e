"""The image is built once per run and shared by the container and systemd tests."""

from __future__ import annotations

import os

import pytest

from tests.deploy.podman import build_image
from tests.deploy.support import ensure_tools


@pytest.fixture(scope="session")
def image(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The Dockerfile's image, built by podman (see tests/deploy/podman.py)."""
    if os.geteuid() != 0:
        pytest.skip("the container tests need root (debootstrap, rootful podman)")
    ensure_tools()
    return build_image(tmp_path_factory.mktemp("context"))
