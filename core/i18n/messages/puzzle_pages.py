"""Texts of the puzzle pages (``/puzzle/<id>``, ``/puzzle/today``, :mod:`core.pages.puzzle`):
the title, the theme, the task, the facts, and the solution with its proven line. Marks (X, O)
and moves (``4``, ``h8``) are parameters, never translated; a count of moves is worded by
``review.count.plies``."""

# Cyrillic letters are the point of a translation, not look-alikes; a catalogue reads best with
# one translation per line.
# ruff: noqa: E501

from __future__ import annotations

from collections.abc import Mapping

MESSAGES: Mapping[str, Mapping[str, str]] = {
    "page.puzzle.title": {
        "en": "{game} puzzle",
        "ca": "Problema de {game}",
        "es": "Problema de {game}",
        "pt": "Problema de {game}",
        "ru": "Задача: {game}",
    },
    "page.puzzle.title_today": {
        "en": "{game} puzzle of the day",
        "ca": "Problema del dia de {game}",
        "es": "Problema del día de {game}",
        "pt": "Problema do dia de {game}",
        "ru": "Задача дня: {game}",
    },
    "page.puzzle.theme.win": {
        "en": "Win in N",
        "ca": "Guanya en N",
        "es": "Gana en N",
        "pt": "Ganhe em N",
        "ru": "Выигрыш за N ходов",
    },
    "page.puzzle.theme.hold": {
        "en": "Hold",
        "ca": "Aguanta",
        "es": "Aguanta",
        "pt": "Aguente",
        "ru": "Удержание",
    },
    "page.puzzle.theme.vcf": {
        "en": "Win by fours (VCF)",
        "ca": "Guanya amb quatres (VCF)",
        "es": "Gana con cuatros (VCF)",
        "pt": "Ganhe com quatros (VCF)",
        "ru": "Выигрыш четвёрками (VCF)",
    },
    "page.puzzle.task.win": {
        "en": "{mark} to move: win in {moves:review.count.plies}",
        "ca": "Juguen les {mark}: guanya en {moves:review.count.plies}",
        "es": "Juegan las {mark}: gana en {moves:review.count.plies}",
        "pt": "Jogam as {mark}: ganhe em {moves:review.count.plies}",
        "ru": "Ход {mark}: выигрыш за {moves:review.count.plies}",
    },
    "page.puzzle.task.hold": {
        "en": "{mark} to move: find the only move that does not lose",
        "ca": "Juguen les {mark}: troba l'única jugada que no perd",
        "es": "Juegan las {mark}: encuentra la única jugada que no pierde",
        "pt": "Jogam as {mark}: encontre o único lance que não perde",
        "ru": "Ход {mark}: найдите единственный ход, который не проигрывает",
    },
    "page.puzzle.task.vcf": {
        "en": "{mark} to move: win by continuous fours in {moves:review.count.plies}",
        "ca": "Juguen les {mark}: guanya amb quatres seguits en {moves:review.count.plies}",
        "es": "Juegan las {mark}: gana con cuatros seguidos en {moves:review.count.plies}",
        "pt": "Jogam as {mark}: ganhe com quatros seguidos em {moves:review.count.plies}",
        "ru": "Ход {mark}: выигрыш непрерывными четвёрками за {moves:review.count.plies}",
    },
    "page.puzzle.description": {
        "en": "{task}. {theme}, rated {rating}.",
        "ca": "{task}. {theme}, puntuació {rating}.",
        "es": "{task}. {theme}, puntuación {rating}.",
        "pt": "{task}. {theme}, pontuação {rating}.",
        "ru": "{task}. {theme}, рейтинг {rating}.",
    },
    "page.puzzle.summary": {
        "en": "{theme}. Rated {rating}; solved by {solved} of {attempts}.",
        "ca": "{theme}. Puntuació {rating}; resolt per {solved} de {attempts}.",
        "es": "{theme}. Puntuación {rating}; resuelto por {solved} de {attempts}.",
        "pt": "{theme}. Pontuação {rating}; resolvido por {solved} de {attempts}.",
        "ru": "{theme}. Рейтинг {rating}; решили {solved} из {attempts}.",
    },
    "page.puzzle.image_alt": {
        "en": "The puzzle's position. {description}",
        "ca": "La posició del problema. {description}",
        "es": "La posición del problema. {description}",
        "pt": "A posição do problema. {description}",
        "ru": "Позиция задачи. {description}",
    },
    "page.puzzle.theme_line": {
        "en": "Theme: {theme}",
        "ca": "Tema: {theme}",
        "es": "Tema: {theme}",
        "pt": "Tema: {theme}",
        "ru": "Тема: {theme}",
    },
    "page.puzzle.rating_line": {
        "en": "Rating: {rating}; solved by {solved} of {attempts}",
        "ca": "Puntuació: {rating}; resolt per {solved} de {attempts}",
        "es": "Puntuación: {rating}; resuelto por {solved} de {attempts}",
        "pt": "Pontuação: {rating}; resolvido por {solved} de {attempts}",
        "ru": "Рейтинг: {rating}; решили {solved} из {attempts}",
    },
    "page.puzzle.answer_line": {
        "en": "Answer it in a chat: {command}",
        "ca": "Respon-lo en un xat: {command}",
        "es": "Respóndelo en un chat: {command}",
        "pt": "Responda-o num chat: {command}",
        "ru": "Ответьте в чате: {command}",
    },
    "page.puzzle.solution": {
        "en": "Solution",
        "ca": "Solució",
        "es": "Solución",
        "pt": "Solução",
        "ru": "Решение",
    },
    "page.puzzle.show_solution": {
        "en": "Show the solution",
        "ca": "Mostra la solució",
        "es": "Muestra la solución",
        "pt": "Mostrar a solução",
        "ru": "Показать решение",
    },
    "page.puzzle.others_win": {
        "en": "Any other move that still wins within the moves left is accepted too.",
        "ca": "També s'accepta qualsevol altra jugada que encara guanyi dins les jugades que queden.",
        "es": "También se acepta cualquier otra jugada que todavía gane dentro de las jugadas que quedan.",
        "pt": "Também é aceite qualquer outro lance que ainda ganhe dentro dos lances que restam.",
        "ru": "Засчитывается и любой другой ход, который всё ещё выигрывает за оставшиеся ходы.",
    },
    # --- the solution: "X plays column 4: the only win." -----------------------------------------
    "page.puzzle.column": {
        "en": "column {move}",
        "ca": "a la columna {move}",
        "es": "en la columna {move}",
        "pt": "na coluna {move}",
        "ru": "в столбец {move}",
    },
    "page.puzzle.cell": {
        "en": "cell {move}",
        "ca": "a la casella {move}",
        "es": "en la casilla {move}",
        "pt": "na casa {move}",
        "ru": "в клетку {move}",
    },
    "page.puzzle.plays": {
        "en": "{mark} plays {where}: {why}.",
        "ca": "Les {mark} juguen {where}: {why}.",
        "es": "Las {mark} juegan {where}: {why}.",
        "pt": "As {mark} jogam {where}: {why}.",
        "ru": "{mark} играют {where}: {why}.",
    },
    "page.puzzle.why.win": {
        "en": "the only win",
        "ca": "l'única que guanya",
        "es": "la única que gana",
        "pt": "o único que ganha",
        "ru": "единственный выигрывающий ход",
    },
    "page.puzzle.why.hold": {
        "en": "the only move that does not lose",
        "ca": "l'única jugada que no perd",
        "es": "la única jugada que no pierde",
        "pt": "o único lance que não perde",
        "ru": "единственный ход, который не проигрывает",
    },
    # --- the proven line, a step per move of the solver's side -------------------------------
    "page.puzzle.step": {
        "en": "{mark} plays {where}",
        "ca": "Les {mark} juguen {where}",
        "es": "Las {mark} juegan {where}",
        "pt": "As {mark} jogam {where}",
        "ru": "{mark} играют {where}",
    },
    "page.puzzle.step_reply": {
        "en": "{mark} plays {where}, {other} answers {reply} ({why})",
        "ca": "Les {mark} juguen {where}, les {other} responen {reply} ({why})",
        "es": "Las {mark} juegan {where}, las {other} responden {reply} ({why})",
        "pt": "As {mark} jogam {where}, as {other} respondem {reply} ({why})",
        "ru": "{mark} играют {where}, {other} отвечают {reply} ({why})",
    },
    "page.puzzle.step_wins": {
        "en": "{mark} plays {where}: {k} in a row, {mark} wins",
        "ca": "Les {mark} juguen {where}: {k} en ratlla, guanyen les {mark}",
        "es": "Las {mark} juegan {where}: {k} en raya, ganan las {mark}",
        "pt": "As {mark} jogam {where}: {k} em linha, ganham as {mark}",
        "ru": "{mark} играют {where}: {k} в ряд, {mark} выигрывают",
    },
    "page.puzzle.defence.win": {
        "en": "the longest defence",
        "ca": "la defensa més llarga",
        "es": "la defensa más larga",
        "pt": "a defesa mais longa",
        "ru": "самая долгая защита",
    },
    "page.puzzle.defence.vcf": {
        "en": "the forced block",
        "ca": "el bloqueig forçat",
        "es": "el bloqueo forzado",
        "pt": "o bloqueio forçado",
        "ru": "вынужденная защита",
    },
    "page.puzzle.defence.hold": {
        "en": "the best reply",
        "ca": "la millor resposta",
        "es": "la mejor respuesta",
        "pt": "a melhor resposta",
        "ru": "лучший ответ",
    },
}
