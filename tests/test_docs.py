"""What the docs name exists: every file or folder path of ours and every dotted name of a module
(or of something in one) that docs/*.md and the README write, and every link between the docs.
A moved or renamed module otherwise leaves the docs pointing at nothing without a word."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = (*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md")

TOP = ("core", "adapters", "chatbots", "tests", "benchmarks", "deploy")
# A path starts a word ("core/store/", not "./data/chatbots.sqlite3") and runs to a character no
# path of ours has; a sentence's full stop or comma after it is not part of it.
PATH = re.compile(r"(?<![\w./-])((?:" + "|".join(TOP) + r")/[\w./-]*)")
DOTTED = re.compile(r"(?<![\w./-])((?:core|adapters|chatbots)\.[A-Za-z_][\w.]*)")
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")
# A member of a class (or of a constant) of ours, as the docs write it: `GameService.handle_pick`.
MEMBER = re.compile(r"`([A-Z]\w*)\.([a-z_]\w*)")

# Names that look like ours and are not: each says why.
NOT_OURS = {
    "tests/e2e/artifacts/web/": "written by the browser test, git-ignored",
    "chatbots.dump": "the file pg_dump writes in docs/admins.md's example",
    "Connection.backup": "Python's sqlite3, in the README's backup",
}


def named(pattern: re.Pattern[str]) -> dict[str, set[str]]:
    """Each name ``pattern`` finds in the docs, with the ``doc:line`` places that write it."""
    places: dict[str, set[str]] = {}
    for doc in DOCS:
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            for match in pattern.finditer(line):
                name = ".".join(match.groups()).rstrip(".,")
                if name not in NOT_OURS:
                    places.setdefault(name, set()).add(f"{doc.relative_to(ROOT)}:{number}")
    return places


def report(missing: dict[str, set[str]]) -> str:
    return "\n".join(f"{name}  (named in {', '.join(sorted(missing[name]))})" for name in missing)


def test_every_path_the_docs_name_exists() -> None:
    paths = named(PATH)
    assert {"core/ports.py", "chatbots/app.py"} <= set(paths), "the scan found the known paths"
    missing = {name: places for name, places in sorted(paths.items()) if not (ROOT / name).exists()}
    assert not missing, "paths the docs name that do not exist:\n" + report(missing)


def resolves(dotted: str) -> bool:
    """Whether ``dotted`` is a module, or a module and attributes in it (``core.ports.SHUTDOWN``,
    ``core.admin.keys.Effective``)."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            if not hasattr(found, attribute):
                return False
            found = getattr(found, attribute)
        return True
    return False


def test_every_module_and_name_the_docs_write_with_dots_exists() -> None:
    dotted = named(DOTTED)
    assert {"core.ports.SHUTDOWN", "core.commands"} <= set(dotted), "the scan found the known names"
    missing = {name: places for name, places in sorted(dotted.items()) if not resolves(name)}
    assert not missing, "modules or names the docs write that do not exist:\n" + report(missing)


def test_every_link_between_the_docs_leads_to_a_file() -> None:
    local = 0
    missing: dict[str, set[str]] = {}
    for doc in DOCS:
        for number, line in enumerate(doc.read_text(encoding="utf-8").splitlines(), 1):
            for match in LINK.finditer(line):
                target = match.group(1)
                if "://" in target or target.startswith("mailto:"):
                    continue
                local += 1
                if not (doc.parent / target).exists():
                    key = f"{target} from {doc.relative_to(ROOT)}"
                    missing.setdefault(key, set()).add(f"{doc.relative_to(ROOT)}:{number}")
    assert local > 10, "the scan found the links between the docs"
    assert not missing, "links to nothing:\n" + report(missing)


def top_level_names() -> dict[str, list[str]]:
    """Each class, alias of one or constant defined at the top of a module of ours, with those
    modules."""
    defined: dict[str, list[str]] = {}
    for package in ("core", "adapters", "chatbots"):
        for path in sorted((ROOT / package).rglob("*.py")):
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                if isinstance(node, ast.ClassDef):
                    defined.setdefault(node.name, []).append(module)
                elif isinstance(node, ast.Assign | ast.AnnAssign):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    for target in targets:
                        if isinstance(target, ast.Name) and target.id[0].isupper():
                            defined.setdefault(target.id, []).append(module)
    return defined


def has_member(owner: object, member: str) -> bool:
    """Whether ``owner`` has ``member``: an attribute, or a field a dataclass or a protocol only
    annotates, its bases' included."""
    if hasattr(owner, member):
        return True
    return any(
        member in getattr(base, "__annotations__", {}) for base in getattr(owner, "__mro__", ())
    )


def test_every_member_of_a_class_the_docs_name_exists() -> None:
    members = named(MEMBER)
    assert "GameService.abandon_games" in members, "the scan found the known members"
    defined = top_level_names()
    missing: dict[str, set[str]] = {}
    for name, places in sorted(members.items()):
        owner, member = name.split(".")
        modules = defined.get(owner, [])
        found = (getattr(importlib.import_module(module), owner) for module in modules)
        if not any(has_member(value, member) for value in found):
            missing[name] = places
    assert not missing, "members the docs name that no class of ours has:\n" + report(missing)
