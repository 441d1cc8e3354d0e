"""Texts of the game review (``/review``, the Review button): every move with the result its
player could force before and after it, and the mistakes marked.

``{before}`` and ``{after}`` are ``review.win`` / ``review.draw`` / ``review.loss`` texts;
``{move}`` and ``{best}`` are moves as players type them (``b2``, a column number); counts are
plain integers worded by the ``PLURALS`` below.
"""

# Cyrillic letters are the point of a translation, not look-alikes; a catalogue reads best with
# one translation per line.
# ruff: noqa: E501, RUF001

from __future__ import annotations

from collections.abc import Mapping

MESSAGES: Mapping[str, Mapping[str, str]] = {
    "help.review": {
        "en": "After a game: every move with its exact value, and the mistakes marked.",
        "ca": "Després d'una partida: cada jugada amb el seu valor exacte i els errors marcats.",
        "es": "Tras una partida: cada jugada con su valor exacto y los errores marcados.",
        "pt": "Depois de um jogo: cada lance com o seu valor exato e os erros marcados.",
        "ru": "После партии: каждый ход с точной оценкой и отмеченными ошибками.",
    },
    "review.text": {
        "en": "{lines}",
        "ca": "{lines}",
        "es": "{lines}",
        "pt": "{lines}",
        "ru": "{lines}",
    },
    "review.header": {
        "en": "Review of {game} (X: {player_x}, O: {player_o}). For each move: what its player could force before → after it.",
        "ca": "Revisió de {game} (X: {player_x}, O: {player_o}). Per a cada jugada: què podia forçar qui la va fer abans → després.",
        "es": "Revisión de {game} (X: {player_x}, O: {player_o}). Para cada jugada: lo que podía forzar quien la hizo antes → después.",
        "pt": "Análise de {game} (X: {player_x}, O: {player_o}). Para cada lance: o que quem jogou podia forçar antes → depois.",
        "ru": "Разбор партии «{game}» (X: {player_x}, O: {player_o}). Для каждого хода: чего мог добиться игрок до → после него.",
    },
    "review.move": {
        "en": "{number}. {mark} {move}: {before} → {after}",
        "ca": "{number}. {mark} {move}: {before} → {after}",
        "es": "{number}. {mark} {move}: {before} → {after}",
        "pt": "{number}. {mark} {move}: {before} → {after}",
        "ru": "{number}. {mark} {move}: {before} → {after}",
    },
    "review.move_mistake": {
        "en": "{number}. {mark} {move}: {before} → {after} ✗ {mistake}; best: {best}",
        "ca": "{number}. {mark} {move}: {before} → {after} ✗ {mistake}; millor: {best}",
        "es": "{number}. {mark} {move}: {before} → {after} ✗ {mistake}; mejor: {best}",
        "pt": "{number}. {mark} {move}: {before} → {after} ✗ {mistake}; melhor: {best}",
        "ru": "{number}. {mark} {move}: {before} → {after} ✗ {mistake}; лучше: {best}",
    },
    "review.win": {
        "en": "win in {plies:review.count.plies}",
        "ca": "victòria en {plies:review.count.plies}",
        "es": "victoria en {plies:review.count.plies}",
        "pt": "vitória em {plies:review.count.plies}",
        "ru": "победа за {plies:review.count.plies}",
    },
    "review.loss": {
        "en": "loss in {plies:review.count.plies}",
        "ca": "derrota en {plies:review.count.plies}",
        "es": "derrota en {plies:review.count.plies}",
        "pt": "derrota em {plies:review.count.plies}",
        "ru": "поражение за {plies:review.count.plies}",
    },
    "review.draw": {
        "en": "draw",
        "ca": "taules",
        "es": "tablas",
        "pt": "empate",
        "ru": "ничья",
    },
    "review.mistake.win_to_draw": {
        "en": "a win let slip to a draw",
        "ca": "una victòria deixada en taules",
        "es": "una victoria dejada en tablas",
        "pt": "uma vitória que virou empate",
        "ru": "победа упущена до ничьей",
    },
    "review.mistake.win_to_loss": {
        "en": "a win turned into a loss",
        "ca": "una victòria convertida en derrota",
        "es": "una victoria convertida en derrota",
        "pt": "uma vitória que virou derrota",
        "ru": "победа превратилась в поражение",
    },
    "review.mistake.draw_to_loss": {
        "en": "a draw turned into a loss",
        "ca": "unes taules convertides en derrota",
        "es": "unas tablas convertidas en derrota",
        "pt": "um empate que virou derrota",
        "ru": "ничья превратилась в поражение",
    },
    "review.summary": {
        "en": "{mistakes:review.count.mistakes} in this game.",
        "ca": "{mistakes:review.count.mistakes} en aquesta partida.",
        "es": "{mistakes:review.count.mistakes} en esta partida.",
        "pt": "{mistakes:review.count.mistakes} neste jogo.",
        "ru": "В этой партии: {mistakes:review.count.mistakes}.",
    },
    "review.perfect": {
        "en": "No mistakes: both sides kept what they could force.",
        "ca": "Cap error: tots dos bàndols han mantingut el que podien forçar.",
        "es": "Ningún error: los dos bandos mantuvieron lo que podían forzar.",
        "pt": "Nenhum erro: os dois lados mantiveram o que podiam forçar.",
        "ru": "Ошибок нет: обе стороны сохранили то, чего могли добиться.",
    },
    "review.unavailable": {
        "en": "{game} cannot be solved exactly here, so there is no review: better none than a guess.",
        "ca": "{game} no es pot resoldre exactament aquí, així que no hi ha revisió: millor cap que una suposició.",
        "es": "{game} no se puede resolver exactamente aquí, así que no hay revisión: mejor ninguna que una suposición.",
        "pt": "{game} não pode ser resolvido exatamente aqui, por isso não há análise: melhor nenhuma do que um palpite.",
        "ru": "Партию «{game}» здесь нельзя решить точно, поэтому разбора не будет: лучше никакого, чем догадки.",
    },
    "error.review_running": {
        "en": "The review opens once the game is over.",
        "ca": "La revisió s'obre quan s'acaba la partida.",
        "es": "La revisión se abre cuando termina la partida.",
        "pt": "A análise abre quando o jogo termina.",
        "ru": "Разбор откроется, когда партия закончится.",
    },
    "review.previous": {
        # /review while the player's game here runs: the review of their last finished one.
        "en": "Your game here is still running (its review opens once it is over); here is your last finished game.",
        "ca": "La teva partida d'aquí encara continua (la revisió s'obre quan s'acaba); aquí tens l'última partida acabada.",
        "es": "Tu partida de aquí sigue en curso (la revisión se abre cuando termina); aquí tienes la última partida terminada.",
        "pt": "Seu jogo aqui ainda está em andamento (a análise abre quando ele termina); aqui está o último jogo terminado.",
        "ru": "Ваша партия здесь ещё идёт (разбор откроется, когда она закончится); вот последняя законченная.",
    },
    "error.no_review": {
        "en": "There is no finished game in this chat to review. Finish one, then type {prefix}review.",
        "ca": "No hi ha cap partida acabada en aquest xat per revisar. Acaba'n una i escriu {prefix}review.",
        "es": "No hay ninguna partida terminada en este chat para revisar. Termina una y escribe {prefix}review.",
        "pt": "Não há nenhum jogo terminado neste chat para analisar. Termine um e escreva {prefix}review.",
        "ru": "В этом чате нет законченной партии для разбора. Доиграйте партию и напишите {prefix}review.",
    },
}

PLURALS: Mapping[str, Mapping[str, Mapping[str, str]]] = {
    "review.count.plies": {
        # After "за" in Russian: accusative, which for "ход" is the nominative.
        "en": {"one": "{count} move", "other": "{count} moves"},
        "ca": {"one": "{count} jugada", "many": "{count} de jugades", "other": "{count} jugades"},
        "es": {"one": "{count} jugada", "many": "{count} de jugadas", "other": "{count} jugadas"},
        "pt": {"one": "{count} lance", "many": "{count} de lances", "other": "{count} lances"},
        "ru": {
            "one": "{count} ход",
            "few": "{count} хода",
            "many": "{count} ходов",
            "other": "{count} хода",
        },
    },
    "review.count.mistakes": {
        # Nominative in Russian ("в этой партии: 2 ошибки").
        "en": {"one": "{count} mistake", "other": "{count} mistakes"},
        "ca": {"one": "{count} error", "many": "{count} d'errors", "other": "{count} errors"},
        "es": {"one": "{count} error", "many": "{count} de errores", "other": "{count} errores"},
        "pt": {"one": "{count} erro", "many": "{count} de erros", "other": "{count} erros"},
        "ru": {
            "one": "{count} ошибка",
            "few": "{count} ошибки",
            "many": "{count} ошибок",
            "other": "{count} ошибки",
        },
    },
}
