"""Messages of the Matrix adapter (``matrix.*``): hints under boards, actions typed as commands.

Command words (``!accept``, ``!rematch``) come in as placeholders: they are what people type.
"""

# One line per translation: a catalogue reads best unwrapped, so long lines are fine here;
# Cyrillic letters and typographic dashes are the point of a translation, not look-alikes.
# ruff: noqa: E501, RUF001

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "matrix.hint.cells": {
        "en": "Move: type a cell number 1–{cells} or a coordinate such as {coord}.",
        "ca": "Per jugar: escriu un número de casella 1–{cells} o una coordenada com {coord}.",
        "es": "Para jugar: escribe un número de casilla 1–{cells} o una coordenada como {coord}.",
        "pt": "Para jogar: escreva um número de casa 1–{cells} ou uma coordenada como {coord}.",
        "ru": "Ход: напишите номер клетки 1–{cells} или координату, например {coord}.",
    },
    "matrix.hint.cells.reactions": {
        "en": "Move: type a cell number 1–{cells} or a coordinate such as {coord}, or react with {keycaps}.",
        "ca": "Per jugar: escriu un número de casella 1–{cells} o una coordenada com {coord}, o reacciona amb {keycaps}.",
        "es": "Para jugar: escribe un número de casilla 1–{cells} o una coordenada como {coord}, o reacciona con {keycaps}.",
        "pt": "Para jogar: escreva um número de casa 1–{cells} ou uma coordenada como {coord}, ou reaja com {keycaps}.",
        "ru": "Ход: напишите номер клетки 1–{cells} или координату, например {coord}, или поставьте реакцию {keycaps}.",
    },
    "matrix.hint.gravity": {
        "en": "Move: type a column number 1–{cols}.",
        "ca": "Per jugar: escriu un número de columna 1–{cols}.",
        "es": "Para jugar: escribe un número de columna 1–{cols}.",
        "pt": "Para jogar: escreva um número de coluna 1–{cols}.",
        "ru": "Ход: напишите номер столбца 1–{cols}.",
    },
    "matrix.hint.gravity.reactions": {
        "en": "Move: type a column number 1–{cols}, or react with {keycaps}.",
        "ca": "Per jugar: escriu un número de columna 1–{cols}, o reacciona amb {keycaps}.",
        "es": "Para jugar: escribe un número de columna 1–{cols}, o reacciona con {keycaps}.",
        "pt": "Para jogar: escreva um número de coluna 1–{cols}, ou reaja com {keycaps}.",
        "ru": "Ход: напишите номер столбца 1–{cols} или поставьте реакцию {keycaps}.",
    },
    "matrix.actions.rematch": {
        "en": "Type {rematch} to play again.",
        "ca": "Escriu {rematch} per tornar a jugar.",
        "es": "Escribe {rematch} para volver a jugar.",
        "pt": "Escreva {rematch} para jogar de novo.",
        "ru": "Напишите {rematch}, чтобы сыграть ещё раз.",
    },
    "matrix.actions.review": {
        "en": "{review} shows every move's exact value and the mistakes.",
        "ca": "{review} mostra el valor exacte de cada jugada i els errors.",
        "es": "{review} muestra el valor exacto de cada jugada y los errores.",
        "pt": "{review} mostra o valor exato de cada lance e os erros.",
        "ru": "{review} покажет точную оценку каждого хода и ошибки.",
    },
    "matrix.internal_error": {
        "en": "Sorry, something went wrong on my side. Please try again.",
        "ca": "Ho sento, alguna cosa ha fallat per la meva banda. Torna-ho a provar.",
        "es": "Lo siento, algo ha fallado por mi parte. Vuelve a intentarlo.",
        "pt": "Desculpe, algo correu mal do meu lado. Tente de novo.",
        "ru": "Извините, у меня что-то пошло не так. Попробуйте ещё раз.",
    },
    "matrix.upgraded.joined": {
        "en": "This room was upgraded. I have joined the new room; the games and challenges open here go on there.",
        "ca": "Aquesta sala s'ha actualitzat. M'he unit a la sala nova; les partides i els reptes oberts d'aquí continuen allà.",
        "es": "Esta sala se ha actualizado. Me he unido a la sala nueva; las partidas y los retos abiertos de aquí siguen allí.",
        "pt": "Esta sala foi atualizada. Entrei na sala nova; os jogos e os desafios abertos daqui continuam lá.",
        "ru": "Эта комната обновлена. Я перешёл в новую комнату; начатые партии и открытые вызовы продолжаются там.",
    },
    "matrix.upgraded.not_joined": {
        "en": "This room was upgraded, but I could not join the new room: invite me there. Games here go on here.",
        "ca": "Aquesta sala s'ha actualitzat, però no m'he pogut unir a la sala nova: convideu-me. Les partides d'aquí continuen aquí.",
        "es": "Esta sala se ha actualizado, pero no he podido unirme a la sala nueva: invitadme allí. Las partidas de aquí siguen aquí.",
        "pt": "Esta sala foi atualizada, mas não consegui entrar na sala nova: convidem-me lá. Os jogos daqui continuam aqui.",
        "ru": "Эта комната обновлена, но я не смог войти в новую комнату: пригласите меня туда. Партии здесь продолжаются здесь.",
    },
}
