"""Whose request the rate limit counts behind reverse proxies (``WEB_TRUSTED_PROXIES``): the
header is believed only from a trusted proxy, read from the right, and a client's own entries
never count; the setting is checked with a message naming it."""

from __future__ import annotations

import pytest

from adapters.web.limits import LOOPBACK, client_address, proxies
from chatbots.settings import SettingsError, load_settings

PROXY = proxies(("10.0.0.5", "192.168.1.0/24"))


@pytest.mark.parametrize(
    ("peer", "header", "trusted", "client"),
    [
        ("203.0.113.9", None, LOOPBACK, "203.0.113.9"),
        # A client that writes the header itself is counted by its own address.
        ("203.0.113.9", "198.51.100.1", LOOPBACK, "203.0.113.9"),
        ("203.0.113.9", "198.51.100.1", PROXY, "203.0.113.9"),
        # A proxy on this machine: the address it appended, not the client's forged first one.
        ("127.0.0.1", "6.6.6.6, 198.51.100.1", LOOPBACK, "198.51.100.1"),
        ("::ffff:127.0.0.1", "198.51.100.1", LOOPBACK, "198.51.100.1"),
        ("::1", "2001:db8::7", LOOPBACK, "2001:db8::7"),
        # Two proxies: the nearest hop that is not one of them.
        ("10.0.0.5", "6.6.6.6, 198.51.100.1, 192.168.1.20", PROXY, "198.51.100.1"),
        # A proxy elsewhere is not believed where only this machine's are.
        ("10.0.0.5", "198.51.100.1", LOOPBACK, "10.0.0.5"),
        # Nothing believed at all (none).
        ("127.0.0.1", "198.51.100.1", (), "127.0.0.1"),
        # Garbage from the proxy's side ends the walk at the hop before it.
        ("127.0.0.1", "198.51.100.1, unknown", LOOPBACK, "127.0.0.1"),
        ("10.0.0.5", "junk, 192.168.1.3", PROXY, "192.168.1.3"),
        (None, "198.51.100.1", LOOPBACK, "?"),
        ("unix-socket", "198.51.100.1", LOOPBACK, "unix-socket"),
    ],
)
def test_the_client_is_read_from_trusted_proxies_only(
    peer: str | None, header: str | None, trusted: tuple[object, ...], client: str
) -> None:
    assert client_address(peer, header, trusted) == client  # type: ignore[arg-type]


def test_the_setting_lists_proxies_or_none() -> None:
    assert load_settings({}, None).web_trusted_proxies == ("127.0.0.0/8", "::1/128")
    chosen = load_settings(
        {"WEB_PORT": "8765", "WEB_TRUSTED_PROXIES": "10.0.0.5, 10.1.0.0/16"}, None
    )
    assert chosen.web_trusted_proxies == ("10.0.0.5/32", "10.1.0.0/16")
    assert proxies(chosen.web_trusted_proxies) == proxies(("10.0.0.5", "10.1.0.0/16"))
    assert (
        load_settings({"WEB_PORT": "8765", "WEB_TRUSTED_PROXIES": "none"}, None).web_trusted_proxies
        == ()
    )
    with pytest.raises(SettingsError) as raised:
        load_settings({"WEB_PORT": "8765", "WEB_TRUSTED_PROXIES": "10.0.0.5, proxy.lan"}, None)
    assert any(
        p.startswith("WEB_TRUSTED_PROXIES: 'proxy.lan' is not an IP address")
        for p in raised.value.problems
    ), raised.value.problems
    with pytest.raises(SettingsError) as raised:
        load_settings({"WEB_TRUSTED_PROXIES": "10.0.0.5"}, None)
    assert "WEB_PORT: missing, but WEB_TRUSTED_PROXIES is set" in raised.value.problems[0]
