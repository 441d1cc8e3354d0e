"""``chatbots`` / ``python -m chatbots``: run the bot, check its settings, and the operator's
commands (:mod:`chatbots.operator`).

    chatbots run                 every configured platform; the terminal game when none is
    chatbots check               validate the settings and show them, secrets masked
    chatbots settings SCOPE [KEY [VALUE|reset]]   read or write a chat's settings
    chatbots backup PATH         a consistent copy of the SQLite database, while the bot runs
    chatbots stats               games per platform, live games, moves today
    chatbots ratings rebuild     recompute every rating from the stored results and compare
    chatbots archive backfill    give a page to the finished games still stored that have none
    chatbots puzzles generate COUNT OUT [--vcf] [--seed N] [--archive] [--minutes M] [--add]
                                 more puzzles, made on the AI workers, written to OUT
                                 (--add: and to the database, where the bot offers them)
    chatbots --env-file F run    read settings from F instead of ./.env
    chatbots --version           the installed release

Exit codes: 0 after a requested stop, 1 on a failure (the database, an adapter), 2 on bad
settings or usage.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import logging
import os
import sys
from collections.abc import Sequence

from chatbots import __version__
from chatbots.app import EXIT_CONFIG, EXIT_FAILED, plan_adapters, serve
from chatbots.logs import configure_logging
from chatbots.settings import CHAT_DEFAULTS, KEYS, Settings, SettingsError, load_settings

log = logging.getLogger("chatbots")


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; returns the exit code."""
    parser = argparse.ArgumentParser(
        prog="chatbots",
        description="Tic-tac-toe, Connect Four and k in a row on Discord, Matrix and the terminal.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    parser.add_argument(
        "--env-file", metavar="PATH", help="settings file to read (default: ./.env if present)"
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.add_parser("run", help="run the bot (the terminal game when no platform is set)")
    commands.add_parser("check", help="validate the settings and show them, secrets masked")
    chat = commands.add_parser(
        "settings",
        help="read or write the settings of a server, channel or room",
        description="SCOPE: discord:server:ID, discord:channel:ID, matrix:ROOM_ID, console:console",
    )
    chat.add_argument("scope", metavar="SCOPE")
    chat.add_argument("words", nargs="*", metavar="KEY [VALUE...|reset]")
    backup = commands.add_parser("backup", help="copy the SQLite database (online, consistent)")
    backup.add_argument("path", metavar="PATH", help="the new file")
    commands.add_parser("stats", help="games per platform, live games, moves today")
    ratings = commands.add_parser("ratings", help="the players' ratings")
    ratings.add_argument(
        "action", choices=("rebuild",), help="rebuild: recompute every rating and compare"
    )
    kept = commands.add_parser("archive", help="the finished games' pages (docs/web.md)")
    kept.add_argument(
        "action", choices=("backfill",), help="backfill: archive the stored games without a page"
    )
    made = commands.add_parser("puzzles", help="puzzles (see core/puzzles/data/README.txt)")
    made.add_argument("action", choices=("generate",), help="generate: make more puzzles")
    made.add_argument("count", type=int, metavar="COUNT", help="how many puzzles at most")
    made.add_argument("out", metavar="OUT", help="the file to write them to")
    made.add_argument("--vcf", action="store_true", help="VCF puzzles on 15x15 (five in a row)")
    made.add_argument("--seed", type=int, default=1, help="the games' seed (default 1)")
    made.add_argument(
        "--archive", action="store_true", help="from the finished games in the database"
    )
    made.add_argument("--minutes", type=float, default=10.0, help="time limit (default 10)")
    made.add_argument(
        "--add", action="store_true", help="add them to the database too: the bot offers them"
    )
    args = parser.parse_args(argv)
    if args.command == "puzzles" and (
        args.count < 1 or args.minutes <= 0 or (args.archive and args.vcf)
    ):
        parser.error("COUNT and --minutes must be above 0, and --archive is Connect Four only")

    env_file = args.env_file if args.env_file is not None else ".env"
    try:
        settings = load_settings(os.environ, env_file, required=args.env_file is not None)
    except SettingsError as error:
        return _bad_settings(error)

    # On the terminal game, INFO lines would interleave with the board: WARNING unless asked.
    level = settings.log_level or ("INFO" if settings.platforms else "WARNING")
    configure_logging(level, settings.log_format, settings.secrets())
    for warning in settings.warnings:
        log.warning("setting ignored", extra={"detail": warning})

    if args.command == "check":
        try:
            plan_adapters(settings, stdin=sys.stdin, stdout=sys.stdout)  # the platforms' checks
        except SettingsError as error:
            return _bad_settings(error)
        print(describe(settings))
        return 0
    if args.command in ("settings", "backup", "stats", "ratings", "archive", "puzzles"):
        return _operator(settings, args)
    try:
        return asyncio.run(serve(settings))
    except SettingsError as error:  # a platform's own checks, before anything connects
        return _bad_settings(error)
    except KeyboardInterrupt:  # only where signal handlers cannot be installed
        return 130
    except Exception:
        log.exception("crashed")
        return EXIT_FAILED


def _operator(settings: Settings, args: argparse.Namespace) -> int:
    from chatbots import operator

    if args.command == "settings":
        return asyncio.run(operator.settings_command(settings, args.scope, args.words))
    if args.command == "backup":
        return operator.backup_command(settings, args.path)
    if args.command == "archive":
        return asyncio.run(operator.archive_command(settings))
    if args.command == "ratings":
        from chatbots.ratings_cli import rebuild_command

        return asyncio.run(rebuild_command(settings))
    if args.command == "puzzles":
        from chatbots.puzzles_cli import generate_command

        return asyncio.run(
            generate_command(
                settings,
                args.count,
                args.out,
                vcf=args.vcf,
                seed=args.seed,
                archive=args.archive,
                minutes=args.minutes,
                add=args.add,
            )
        )
    return asyncio.run(operator.stats_command(settings))


def _bad_settings(error: SettingsError) -> int:
    print("chatbots: bad settings (see .env.example):", file=sys.stderr)
    for problem in error.problems:
        print(f"  {problem}", file=sys.stderr)
    return EXIT_CONFIG


def _chat_defaults(settings: Settings) -> dict[str, object]:
    """The .env defaults of the chat settings, as ``/settings`` writes them."""
    from core.admin.keys import BY_NAME

    shown: dict[str, object] = {}
    for name, setting in CHAT_DEFAULTS:
        key = BY_NAME[setting]
        if setting in settings.chat_defaults:
            shown[name] = key.show(settings.chat_defaults[setting])
        else:
            shown[name] = f"{key.show(key.default)} (built in)"
    return shown


def describe(settings: Settings) -> str:
    """The settings as ``KEY = value`` lines, secrets masked, and what will run."""
    values: dict[str, object] = {
        "DATABASE_PATH": settings.database_path,
        "DATABASE_URL": _database_url(settings),
        "LOG_LEVEL": settings.log_level or "(INFO; WARNING on the console)",
        "LOG_FORMAT": settings.log_format.value,
        "AI_BUDGET_SECONDS": settings.ai_budget,
        "AI_WORKERS": "(one per CPU)" if settings.ai_workers is None else settings.ai_workers,
    }
    values |= _chat_defaults(settings)
    if (d := settings.discord) is not None:
        values |= {
            "DISCORD_TOKEN": d.token,
            "DISCORD_GUILD_IDS": ",".join(map(str, d.guild_ids)),
            "DISCORD_API_BASE_URL": d.api_base_url,
            "DISCORD_GATEWAY_URL": d.gateway_url,
            "DISCORD_SHARD_COUNT": "(not sharded)" if d.shard_count is None else d.shard_count,
            "DISCORD_SHARD_IDS": ",".join(map(str, d.shard_ids))
            or ("" if d.shard_count is None else "(all)"),
        }
    if (m := settings.matrix) is not None:
        values |= {
            "MATRIX_HOMESERVER": m.homeserver,
            "MATRIX_USER_ID": m.user_id,
            "MATRIX_PASSWORD": m.password or "",
            "MATRIX_ACCESS_TOKEN": m.access_token or "",
            "MATRIX_DEVICE_ID": m.device_id or "",
            "MATRIX_STORE_PATH": m.store_path,
            "MATRIX_ALLOWED_SERVERS": ",".join(m.allowed_servers),
            "MATRIX_ALLOWED_USERS": ",".join(m.allowed_users),
        }
    values |= {
        "HTTP_PORT": "(off)" if settings.http_port is None else settings.http_port,
        "HTTP_HOST": settings.http_host,
        "WEB_PORT": "(off)" if settings.web_port is None else settings.web_port,
        "WEB_HOST": settings.web_host,
        "PUBLIC_URL": settings.public_url or "",
        "WEB_TRUSTED_PROXIES": ",".join(settings.web_trusted_proxies) or "none",
    }
    lines = [f"{key.name} = {values[key.name]}" for key in KEYS if key.name in values]
    lines += [f"warning: {warning}" for warning in settings.warnings]
    store = settings.database
    if settings.database_url is not None and importlib.util.find_spec("asyncpg") is None:
        store += " (but asyncpg is missing: pip install 'chatbots[postgres]')"
    lines.append(f"store: {store}")
    lines.append(f"runs: {', '.join(settings.platforms) or 'console (no platform configured)'}")
    return "\n".join(lines)


def _database_url(settings: Settings) -> str:
    from core.store.postgres_health import redact_url

    url = settings.database_url
    return "" if url is None else redact_url(url.value)


if __name__ == "__main__":  # not on import: the AI pool's workers may import this module
    sys.exit(main())
