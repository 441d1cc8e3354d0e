"""Texts of the links to the web pages under a reply (:mod:`core.sessions.players.weblinks`):
a Discord link button's label (at most 80 characters), or the words before the address on
Matrix and the console."""

from __future__ import annotations

from collections.abc import Mapping

MESSAGES: Mapping[str, Mapping[str, str]] = {
    "links.game": {
        "en": "This game on the web",
        "ca": "Aquesta partida al web",
        "es": "Esta partida en la web",
        "pt": "Esta partida na web",
        "ru": "Эта партия на сайте",
    },
    "links.live": {
        "en": "Watch live",
        "ca": "Mira-la en directe",
        "es": "Mírala en directo",
        "pt": "Ver em direto",
        "ru": "Смотреть вживую",
    },
    "links.event": {
        "en": "Tournament on the web",
        "ca": "Torneig al web",
        "es": "Torneo en la web",
        "pt": "Torneio na web",
        "ru": "Турнир на сайте",
    },
    "links.ladder": {
        "en": "Ladder on the web",
        "ca": "Classificació al web",
        "es": "Clasificación en la web",
        "pt": "Classificação na web",
        "ru": "Рейтинг на сайте",
    },
    "links.player": {
        "en": "{player} on the web",
        "ca": "{player} al web",
        "es": "{player} en la web",
        "pt": "{player} na web",
        "ru": "{player} на сайте",
    },
    "links.recent": {
        "en": "Recent game {index}",
        "ca": "Partida recent {index}",
        "es": "Partida reciente {index}",
        "pt": "Partida recente {index}",
        "ru": "Недавняя партия {index}",
    },
}
