"""podman for the deployment tests: the command, the options that work on this kind of machine,
and the image build (the base made by ``deploy/debian-base``, then the Dockerfile).

podman runs with runc and explicit rlimits: on this kind of machine (cgroups v1) podman cannot
raise the open-files limit to its default, and a container would not start ("error setting
rlimit type 7: operation not permitted").
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from tests.deploy.support import ROOT, copy_source, debian_mirror

IMAGE = "localhost/chatbots:test"
BASE_IMAGE = "localhost/debian:bookworm-slim"
ULIMITS = ("--ulimit=nofile=1024:1024", "--ulimit=nproc=4096:4096")
RUN_OPTIONS = (
    "--network=host",
    *ULIMITS,
    # The image's health check runs when a test asks; podman's timer for it needs systemd.
    "--health-interval=disable",
)


def podman(
    *args: str, timeout: float = 120, check: bool = True
) -> subprocess.CompletedProcess[str]:
    """Runs ``podman --runtime runc ARGS``; asserts success unless ``check`` is false."""
    result = subprocess.run(
        ["podman", "--runtime", "runc", *args], capture_output=True, text=True, timeout=timeout
    )
    if check:
        assert result.returncode == 0, f"podman {' '.join(args)}:\n{result.stderr[-3000:]}"
    return result


def pip_ca() -> Path | None:
    """The CA bundle pip trusts on this machine (a TLS proxy's CA may be in it)."""
    for candidate in (os.environ.get("PIP_CERT"), "/etc/ssl/certs/ca-certificates.crt"):
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    return None


def build_image(workdir: Path) -> str:
    """Makes the base image if missing, builds the Dockerfile from a copy of the checkout
    (layers cached by podman between runs) and returns the image name."""
    mirror = debian_mirror()
    started = time.monotonic()
    base = subprocess.run(
        [str(ROOT / "deploy" / "debian-base"), mirror, BASE_IMAGE],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert base.returncode == 0, base.stderr
    based = time.monotonic()

    context = copy_source(workdir)
    build = ["build", "--format=docker", "--network=host", "--pull=never", f"--tag={IMAGE}"]
    build += [f"--build-arg=BASE_IMAGE={BASE_IMAGE}", f"--build-arg=DEBIAN_MIRROR={mirror}"]
    if index := os.environ.get("PIP_INDEX_URL"):
        build.append(f"--build-arg=PIP_INDEX_URL={index}")
    if (ca := pip_ca()) is not None:
        build.append(f"--secret=id=pip-ca,src={ca}")
    podman(*build, str(context), timeout=1500)
    print(  # shown with -s: the figures of the README and of the CI's budget
        f"\nbase image {based - started:.0f} s, image build {time.monotonic() - based:.0f} s"
    )
    return IMAGE
