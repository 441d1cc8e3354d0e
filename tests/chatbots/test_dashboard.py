"""deploy/grafana-dashboard.json asks only for metrics that /metrics serves, and shows them all."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from prometheus_client.parser import text_string_to_metric_families

from chatbots.metrics import Metrics
from core.workers.runner import RunnerLoad

DASHBOARD = Path(__file__).resolve().parents[2] / "deploy" / "grafana-dashboard.json"

# What PromQL spells like a name but is not a metric.
_KEYWORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "bool", "offset"}
_KEYWORDS |= {"and", "or", "unless", "inf", "nan"}
_SUFFIXES = {"counter": ("_total",), "histogram": ("_bucket", "_sum", "_count"), "gauge": ("",)}


def metric_names(expr: str) -> set[str]:
    """The metric names an expression reads (a small PromQL tokenizer, enough for ours)."""
    text = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)  # label values and strings
    text = re.sub(r"\{[^}]*\}", "", text)  # label matchers
    text = re.sub(r"\[[^\]]*\]", "", text)  # ranges
    text = re.sub(r"\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", "", text)
    names = set()
    for match in re.finditer(r"[A-Za-z_:][A-Za-z0-9_:]*", text):
        following = text[match.end() :].lstrip()
        if following.startswith("("):  # a function
            continue
        if match.group() not in _KEYWORDS:
            names.add(match.group())
    return names


async def served() -> dict[str, str]:
    """Every series name /metrics shows, samples or not yet (a labelled counter starts empty),
    with the name of its family."""
    metrics = Metrics(["discord", "matrix"])

    class Link:
        name, connected = "discord", True

    async def count() -> int:
        return 3

    metrics.watch(connections=[Link()], load=lambda: RunnerLoad(1, 0, 0, 1.0), count_sessions=count)
    names: dict[str, str] = {}
    for family in text_string_to_metric_families((await metrics.render()).decode()):
        names |= {sample.name: family.name for sample in family.samples}
        names |= {family.name + suffix: family.name for suffix in _SUFFIXES.get(family.type, ())}
    return names


def expressions(dashboard: dict[str, Any]) -> list[tuple[str, str]]:
    found = []
    for panel in dashboard["panels"]:
        for target in panel.get("targets", []):
            found.append((panel["title"], target["expr"]))
    for variable in dashboard["templating"]["list"]:
        query = variable.get("query")
        if isinstance(query, dict):
            found.append((f"${variable['name']}", query["query"]))
    return found


def test_the_tokenizer_finds_the_metrics_only() -> None:
    expr = (
        'histogram_quantile(0.95, sum by (le, level) (rate(x_bucket{instance=~"a|b"}[5m])))'
        " / on (level) group_left y * 60"
    )
    assert metric_names(expr) == {"x_bucket", "y"}
    assert metric_names("label_values(chatbots_moves_total, instance)") == {
        "chatbots_moves_total",
        "instance",
    }


async def test_every_panel_reads_only_served_metrics_and_every_metric_is_shown() -> None:
    dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    available = await served()
    used: set[str] = set()
    for where, expr in expressions(dashboard):
        names = metric_names(expr)
        if where.startswith("$"):
            names.discard("instance")  # label_values(metric, label): the label is not a metric
        assert names, f"{where}: no metric in {expr!r}"
        unknown = names - available.keys()
        assert not unknown, f"{where}: {sorted(unknown)} not in /metrics"
        used |= names
    # The text format shows a counter's creation time as a family of its own: not a metric.
    ours = {f for f in available.values() if f.startswith("chatbots_")}
    ours = {f for f in ours if not f.endswith("_created")}
    missing = ours - {available[name] for name in used}
    assert not missing, f"not on the dashboard: {sorted(missing)}"


def test_panels_are_laid_out_and_use_the_datasource_variable() -> None:
    dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    ids = [panel["id"] for panel in dashboard["panels"]]
    assert len(ids) == len(set(ids))
    for panel in dashboard["panels"]:
        grid = panel["gridPos"]
        assert grid["x"] >= 0 and grid["x"] + grid["w"] <= 24, panel["title"]
        if panel["type"] != "row":
            assert panel["datasource"] == {"type": "prometheus", "uid": "${datasource}"}
            assert panel["targets"], panel["title"]
