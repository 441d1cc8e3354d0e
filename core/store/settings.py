"""The admins' settings in the store (:mod:`core.admin` reads and writes them): one value per
platform, scope and key."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.store.models.session import SettingRow
from core.store.sql import Op, count, placeholders, rows


def settings_rows(platform: str, scopes: Sequence[str]) -> Op[list[SettingRow]]:
    """Every setting stored for the platform in any of ``scopes``, in no order."""
    scopes = tuple(scopes)
    found = yield rows(
        "SELECT platform, scope, key, value, updated_at, updated_by FROM settings"
        f" WHERE platform = $1 AND scope IN ({placeholders(2, len(scopes))})",
        platform,
        *scopes,
    )
    return [_row(r) for r in found]


def setting_put(setting: SettingRow) -> Op[None]:
    """Store (or replace) the value of ``setting.key`` in ``setting.scope``."""
    yield count(
        "INSERT INTO settings (platform, scope, key, value, updated_at, updated_by)"
        " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (platform, scope, key) DO UPDATE SET"
        " value = excluded.value, updated_at = excluded.updated_at,"
        " updated_by = excluded.updated_by",
        setting.platform,
        setting.scope,
        setting.key,
        setting.value,
        setting.updated_at,
        setting.updated_by,
    )


def setting_delete(platform: str, scope: str, key: str) -> Op[bool]:
    """Forget a setting; True if there was one."""
    deleted = yield count(
        "DELETE FROM settings WHERE platform = $1 AND scope = $2 AND key = $3",
        platform,
        scope,
        key,
    )
    return bool(deleted)


def settings_of_keys(keys: Sequence[str]) -> Op[list[SettingRow]]:
    """Every value stored for any of ``keys``, on every platform and in every scope, in no
    order (the daily post's look for chats due)."""
    keys = tuple(keys)
    found = yield rows(
        "SELECT platform, scope, key, value, updated_at, updated_by FROM settings"
        f" WHERE key IN ({placeholders(1, len(keys))})",
        *keys,
    )
    return [_row(r) for r in found]


def _row(r: Sequence[Any]) -> SettingRow:
    return SettingRow(str(r[0]), str(r[1]), str(r[2]), str(r[3]), float(r[4]), str(r[5]))
