"""/help: a short overview and one message per topic, each within Discord's 2,000 characters
in every language and with every platform's prefix, and every command of the table in a topic."""

from __future__ import annotations

import pytest

from core.commands import COMMANDS, PREFIXES, CommandError, Help, help_text, parse
from core.commands.topics import HELP_TOPICS, TOPIC_NOTES
from core.i18n import LOCALES, render

DISCORD_LIMIT = 2000
_TOPICS: tuple[str | None, ...] = (None, *HELP_TOPICS)


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("prefix", PREFIXES)
@pytest.mark.parametrize("topic", _TOPICS)
def test_the_overview_and_every_topic_fit_one_discord_message(
    locale: str, prefix: str, topic: str | None
) -> None:
    text = help_text(locale, prefix, topic)
    assert len(text) <= DISCORD_LIMIT
    assert "{" not in text


def test_every_command_of_the_table_is_in_exactly_one_topic() -> None:
    listed = [name for names in HELP_TOPICS.values() for name in names]
    assert sorted(listed) == sorted(spec.name for spec in COMMANDS)


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("prefix", PREFIXES)
def test_every_command_alias_syntax_and_note_is_shown_somewhere(locale: str, prefix: str) -> None:
    overview = help_text(locale, prefix)
    topics = {topic: help_text(locale, prefix, topic) for topic in HELP_TOPICS}
    everything = "\n".join([overview, *topics.values()])
    for spec in COMMANDS:
        assert f"{prefix}{spec.name}" in overview  # the overview names every command
        shown = next(text for topic, text in topics.items() if spec.name in HELP_TOPICS[topic])
        for name in spec.names:
            assert f"{prefix}{name}" in shown
        assert render(spec.description, locale) in shown
        if spec.syntax:
            assert spec.syntax in shown
    # What the old single help said after the commands is still said.
    for key in ("help.options", "help.levels", "help.moves"):
        assert render(key, locale, prefix=prefix) in everything
    assert render("help.moves", locale, prefix=prefix) in overview
    for topic, keys in TOPIC_NOTES.items():
        assert all(render(key, locale, prefix=prefix) in topics[topic] for key in keys)
    for topic in HELP_TOPICS:
        assert f"{topic}: " in overview and render(f"help.topic.{topic}", locale) in overview


def test_the_overview_is_in_the_language_asked_for_and_names_the_topics() -> None:
    assert help_text("en").startswith("Commands:")
    assert help_text("ca").startswith("Ordres:")
    assert help_text("pt-BR").startswith("Comandos:")
    assert help_text("ru").startswith("Команды:")
    assert help_text("xx") == help_text("en")
    assert "!help TOPIC" in help_text("en", "!")
    assert help_text("es", "/", "seek").startswith("/help seek — ")


@pytest.mark.parametrize("prefix", PREFIXES)
def test_help_takes_a_topic_or_a_command_name(prefix: str) -> None:
    assert parse(f"{prefix}help") == Help()
    for topic, names in HELP_TOPICS.items():
        assert parse(f"{prefix}help {topic}") == Help(topic)
        assert parse(f"{prefix}help {topic.upper()}") == Help(topic)
        for name in names:
            assert parse(f"{prefix}help {name}") == Help(topic)
            assert parse(f"{prefix}help {prefix}{name}") == Help(topic)
    assert parse(f"{prefix}help connect4") == Help("play")  # an alias finds its command's topic
    assert parse(f"{prefix}help quit") == Help("game")


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("text", ["!help chess", "/help play seek", "/help 5"])
def test_an_unknown_topic_is_answered_with_the_topics(locale: str, text: str) -> None:
    with pytest.raises(CommandError) as caught:
        parse(text)
    assert caught.value.key == "parse.unknown_topic"
    bad = text.split()[-1]
    assert caught.value.params["topic"] == bad
    assert caught.value.params["keys"] == ", ".join(HELP_TOPICS)
    assert caught.value.params["help"] == text.split()[0]
    message = render("parse.unknown_topic", locale, **caught.value.params)
    assert f"'{bad}'" in message and all(topic in message for topic in HELP_TOPICS)
