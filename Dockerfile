# The bot as a container: Debian's python3, a venv with the package and its dependencies, run as
# a non-root user with the games in the /data volume. Built, run and stopped by
# tests/deploy/test_container.py.
#
#   podman build --format docker -t chatbots .     (docker build -t chatbots . ; see README)
#
# Package indexes come in from outside, never written here:
#   --build-arg DEBIAN_MIRROR=http://...   apt mirror replacing the base image's sources
#   --build-arg PIP_INDEX_URL=https://...  a PyPI mirror (unset: pypi.org)
#   --secret id=pip-ca,src=FILE            a CA bundle where a proxy re-signs TLS; pip uses it,
#                                          no layer keeps it
# BASE_IMAGE is any Debian bookworm image (tests: one made by deploy/debian-base).
ARG BASE_IMAGE=debian:bookworm-slim

FROM ${BASE_IMAGE} AS base
ARG DEBIAN_MIRROR=
# Debian's python3 (3.11 on bookworm); ca-certificates for TLS to Discord and the homeserver.
RUN set -eu; \
    if [ -n "$DEBIAN_MIRROR" ]; then \
        rm -f /etc/apt/sources.list.d/*; \
        echo "deb $DEBIAN_MIRROR bookworm main" > /etc/apt/sources.list; \
    fi; \
    apt-get update -q; \
    DEBIAN_FRONTEND=noninteractive apt-get install -q -y --no-install-recommends \
        python3 ca-certificates; \
    rm -rf /var/lib/apt/lists/*

# The dependencies, from pyproject.toml alone: this stage (numba, discord.py, ... ~500 MB) is
# rebuilt only when they change, not on every change of the code.
FROM base AS deps
ARG PIP_INDEX_URL=
# Extras to install with the package; e2e = encrypted Matrix rooms (vodozemac).
ARG EXTRAS=e2e
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_CACHE_DIR=1 PIP_ROOT_USER_ACTION=ignore
RUN set -eu; \
    apt-get update -q; \
    DEBIAN_FRONTEND=noninteractive apt-get install -q -y --no-install-recommends python3-venv; \
    rm -rf /var/lib/apt/lists/*; \
    python3 -m venv /opt/chatbots
COPY pyproject.toml /src/pyproject.toml
RUN --mount=type=secret,id=pip-ca,required=false set -eu; \
    if [ -n "$PIP_INDEX_URL" ]; then export PIP_INDEX_URL; else unset PIP_INDEX_URL; fi; \
    if [ -s /run/secrets/pip-ca ]; then export PIP_CERT=/run/secrets/pip-ca; fi; \
    /opt/chatbots/bin/python -c 'import os, tomllib; p = tomllib.load(open("/src/pyproject.toml", "rb"))["project"]; print("\n".join(p["dependencies"] + [d for e in os.environ["EXTRAS"].split(",") if e for d in p["optional-dependencies"][e]]))' > /tmp/requirements.txt; \
    /opt/chatbots/bin/pip install -q -r /tmp/requirements.txt

# The package itself, as a wheel.
FROM deps AS wheel
ARG PIP_INDEX_URL=
COPY . /src
RUN --mount=type=secret,id=pip-ca,required=false set -eu; \
    if [ -n "$PIP_INDEX_URL" ]; then export PIP_INDEX_URL; else unset PIP_INDEX_URL; fi; \
    if [ -s /run/secrets/pip-ca ]; then export PIP_CERT=/run/secrets/pip-ca; fi; \
    /opt/chatbots/bin/pip wheel -q --no-deps -w /wheel /src

FROM base
RUN useradd --user-group --uid 10001 --no-create-home --home-dir /nonexistent \
        --shell /usr/sbin/nologin chatbots; \
    mkdir -p /data /var/cache/chatbots; \
    chown chatbots:chatbots /data /var/cache/chatbots
COPY --from=deps /opt/chatbots /opt/chatbots
# A change of the code rebuilds from here only, adding layers of the package's size. (COPY, not
# RUN --mount=from=wheel: buildah does not key a RUN's cache on the content it mounts.)
# pip check: the dependencies installed above are the ones the wheel asks for.
COPY --from=wheel /wheel /tmp/wheel
RUN set -eu; \
    /opt/chatbots/bin/pip install -q --no-deps --no-index --no-cache-dir /tmp/wheel/chatbots-*.whl; \
    rm -rf /tmp/wheel; \
    /opt/chatbots/bin/pip check -q; \
    /opt/chatbots/bin/chatbots --version
ENV PATH=/opt/chatbots/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    DATABASE_PATH=/data/chatbots.sqlite3 \
    NUMBA_CACHE_DIR=/var/cache/chatbots/numba \
    HTTP_PORT=8080
USER chatbots
# Relative paths of the settings land in the volume (MATRIX_STORE_PATH: /data/data/matrix).
WORKDIR /data
# Compile the solver now, so a new container answers its first hard move at once instead of
# after a ~20 s compilation (numba recompiles into the cache by itself on a different CPU).
RUN python -c 'from core.ai import warm_up; print(f"solver compiled in {warm_up():.1f} s")'
VOLUME /data
# /healthz on HTTP_PORT (HTTP_HOST is 127.0.0.1 unless set: HTTP_HOST=0.0.0.0 publishes it and
# /metrics). Python, not curl: the image has no curl.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD python -c 'import os, urllib.request; urllib.request.urlopen("http://127.0.0.1:%s/healthz" % os.environ["HTTP_PORT"], timeout=4)'
# After SIGTERM the bot drains for up to 10 s: stop it with more than that (docker stop -t 20;
# compose: stop_grace_period: 20s).
STOPSIGNAL SIGTERM
ENTRYPOINT ["chatbots"]
CMD ["run"]
