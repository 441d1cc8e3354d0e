"""Texts of the game service (``core.sessions``): game events and statistics.

Keys: ``game.*`` (what happens) and ``stats.*``; a mistake or a temporary failure (``error.*``)
is in :mod:`core.i18n.messages.errors`. ``{prefix}`` is the command prefix of the platform (``/`` or
``!``); ``{mark}`` is ``X`` or ``O``; ``{game}`` is one of the ``game.name.*`` texts. Counts are
plain integers, worded by the ``PLURALS`` below (``{wins:stats.count.wins}``).
"""

# Cyrillic letters are the point of a translation, not look-alikes; a catalogue reads best with
# one translation per line.
# ruff: noqa: E501, RUF001

from __future__ import annotations

from collections.abc import Mapping

MESSAGES: Mapping[str, Mapping[str, str]] = {
    # --- names of the games ------------------------------------------------------------------
    "game.name.tictactoe": {
        "en": "tic-tac-toe",
        "ca": "tres en ratlla",
        "es": "tres en raya",
        "pt": "jogo da velha",
        "ru": "крестики-нолики",
    },
    "game.name.connect_four": {
        "en": "Connect Four {size}",
        "ca": "quatre en ratlla {size}",
        "es": "cuatro en raya {size}",
        "pt": "Lig 4 {size}",
        "ru": "«четыре в ряд» {size}",
    },
    "game.name.k_in_a_row": {
        "en": "{k} in a row on {size}",
        "ca": "{k} en ratlla en {size}",
        "es": "{k} en raya en {size}",
        "pt": "{k} em linha em {size}",
        "ru": "{k} в ряд на поле {size}",
    },
    "game.name.gravity": {
        "en": "Connect Four, other sizes",
        "ca": "quatre en ratlla, altres mides",
        "es": "cuatro en raya, otros tamaños",
        "pt": "Lig 4, outros tamanhos",
        "ru": "«четыре в ряд», другие размеры",
    },
    "game.name.k_in_a_row_big": {
        "en": "{k} in a row on big boards",
        "ca": "{k} en ratlla en taulers grans",
        "es": "{k} en raya en tableros grandes",
        "pt": "{k} em linha em tabuleiros grandes",
        "ru": "{k} в ряд на больших полях",
    },
    "game.name.pool": {
        "en": "{pool}",
        "ca": "{pool}",
        "es": "{pool}",
        "pt": "{pool}",
        "ru": "{pool}",
    },
    # --- game events ---------------------------------------------------------------------
    "game.started": {
        "en": "New game! Good luck.",
        "ca": "Partida nova! Bona sort.",
        "es": "¡Partida nueva! Buena suerte.",
        "pt": "Novo jogo! Boa sorte.",
        "ru": "Новая игра! Удачи.",
    },
    "game.rematch": {
        "en": "Rematch! Sides are swapped.",
        "ca": "Revenja! Es canvien els costats.",
        "es": "¡Revancha! Se cambian los lados.",
        "pt": "Revanche! Os lados foram trocados.",
        "ru": "Реванш! Стороны поменялись.",
    },
    "game.move_saved": {
        "en": "Your move is saved; my answer will come when the database is back.",
        "ca": "La teva jugada està desada; la meva resposta arribarà quan la base de dades torni.",
        "es": "Tu jugada está guardada; mi respuesta llegará cuando vuelva la base de datos.",
        "pt": "Sua jogada está salva; minha resposta virá quando o banco de dados voltar.",
        "ru": "Ваш ход сохранён; мой ответ придёт, когда база данных снова заработает.",
    },
    "game.move_unknown": {
        "en": (
            "The database stopped while your move was being saved, so I can't tell yet whether"
            " it was. The board will show it when the database is back."
        ),
        "ca": (
            "La base de dades s'ha aturat mentre desava la teva jugada, així que encara no sé si"
            " s'ha desat. El tauler ho mostrarà quan la base de dades torni."
        ),
        "es": (
            "La base de datos se detuvo mientras guardaba tu jugada, así que aún no sé si se"
            " guardó. El tablero lo mostrará cuando vuelva la base de datos."
        ),
        "pt": (
            "O banco de dados parou enquanto eu salvava sua jogada, então ainda não sei se ela"
            " foi salva. O tabuleiro vai mostrar quando o banco de dados voltar."
        ),
        "ru": (
            "База данных остановилась, пока я сохранял ваш ход, поэтому я ещё не знаю, сохранён"
            " ли он. Доска покажет это, когда база данных снова заработает."
        ),
    },
    "game.move_not_saved": {
        "en": "Your move was not saved: the database stopped. Please play it again.",
        "ca": "La teva jugada no s'ha desat: la base de dades s'ha aturat. Torna-la a jugar.",
        "es": "Tu jugada no se guardó: la base de datos se detuvo. Vuelve a jugarla.",
        "pt": "Sua jogada não foi salva: o banco de dados parou. Jogue-a de novo.",
        "ru": "Ваш ход не сохранён: база данных остановилась. Сделайте его ещё раз.",
    },
    "game.watch": {
        "en": "Bot against bot: sit back and watch.",
        "ca": "Bot contra bot: seieu i mireu.",
        "es": "Bot contra bot: siéntate y mira.",
        "pt": "Bot contra bot: sente-se e assista.",
        "ru": "Бот против бота: устраивайтесь поудобнее и смотрите.",
    },
    "game.challenge": {
        "en": (
            "{challenger} challenges {challenged} to {game}. {challenged}: answer with"
            " {accept} or {decline} within {minutes:game.count.minutes}."
        ),
        "ca": (
            "{challenger} repta {challenged} a {game}. {challenged}: respon amb {accept} o"
            " {decline} en {minutes:game.count.minutes}."
        ),
        "es": (
            "{challenger} reta a {challenged} a {game}. {challenged}: responde con {accept} o"
            " {decline} en {minutes:game.count.minutes}."
        ),
        "pt": (
            "{challenger} desafia {challenged} para {game}. {challenged}: responda com {accept}"
            " ou {decline} em {minutes:game.count.minutes}."
        ),
        "ru": (
            "{challenger} вызывает на игру {game}: {challenged}, ответьте {accept} или"
            " {decline}; на ответ — {minutes:game.count.minutes}."
        ),
    },
    "game.challenge_status": {
        "en": "Waiting for an answer: {player_x} (X) against {player_o} (O).",
        "ca": "Esperant resposta: {player_x} (X) contra {player_o} (O).",
        "es": "Esperando respuesta: {player_x} (X) contra {player_o} (O).",
        "pt": "Aguardando resposta: {player_x} (X) contra {player_o} (O).",
        "ru": "Ждём ответа: {player_x} (X) — {player_o} (O).",
    },
    "game.accepted": {
        "en": "{player} accepted the challenge. Let's play!",
        "ca": "{player} ha acceptat el repte. Som-hi!",
        "es": "{player} ha aceptado el reto. ¡A jugar!",
        "pt": "{player} aceitou o desafio. Vamos jogar!",
        "ru": "{player} принимает вызов. Играем!",
    },
    "game.declined": {
        "en": "{player} declined the challenge.",
        "ca": "{player} ha rebutjat el repte.",
        "es": "{player} ha rechazado el reto.",
        "pt": "{player} recusou o desafio.",
        "ru": "{player} отклоняет вызов.",
    },
    "game.withdrawn": {
        "en": "{player} withdrew the challenge.",
        "ca": "{player} ha retirat el repte.",
        "es": "{player} ha retirado el reto.",
        "pt": "{player} retirou o desafio.",
        "ru": "{player} отзывает вызов.",
    },
    "game.carried_over": {
        "en": "This game came over from the room before the upgrade. Play on here.",
        "ca": "Aquesta partida ve de la sala d'abans de l'actualització. Continueu aquí.",
        "es": "Esta partida viene de la sala de antes de la actualización. Seguid aquí.",
        "pt": "Este jogo veio da sala de antes da atualização. Continuem aqui.",
        "ru": "Эта партия перенесена из комнаты до обновления. Продолжайте здесь.",
    },
    "game.ended": {
        "en": "{player} ended the game ({game}).",
        "ca": "{player} ha acabat la partida ({game}).",
        "es": "{player} ha terminado la partida ({game}).",
        "pt": "{player} encerrou o jogo ({game}).",
        "ru": "{player} завершает игру ({game}).",
    },
    "game.resigned": {
        # /final after a move was played: it counts as a loss.
        "en": "{player} resigned. {winner} wins.",
        "ca": "{player} s'ha rendit. Guanya {winner}.",
        "es": "{player} se ha rendido. Gana {winner}.",
        "pt": "{player} desistiu. {winner} vence.",
        "ru": "{player} сдаётся. Побеждает {winner}.",
    },
    "game.watch_stopped": {
        "en": "{player} stopped the bots' game.",
        "ca": "{player} ha aturat la partida dels bots.",
        "es": "{player} ha detenido la partida de los bots.",
        "pt": "{player} parou o jogo dos bots.",
        "ru": "{player} останавливает игру ботов.",
    },
    "game.stopped": {
        # A bots' game stopped before its end (by its watcher, or at its time limit).
        "en": "The game was stopped before its end.",
        "ca": "La partida s'ha aturat abans d'acabar.",
        "es": "La partida se detuvo antes de terminar.",
        "pt": "O jogo foi parado antes do fim.",
        "ru": "Игра остановлена до конца.",
    },
    "game.abandoned": {
        # A player left the chat (or the server) during the game: the one who stayed wins.
        "en": "{player} left, so the game is abandoned. {winner} wins.",
        "ca": "{player} ha marxat i la partida queda abandonada. Guanya {winner}.",
        "es": "{player} se ha ido y la partida queda abandonada. Gana {winner}.",
        "pt": "{player} saiu e o jogo foi abandonado. {winner} vence.",
        "ru": "{player} уходит, партия брошена. Побеждает {winner}.",
    },
    "game.abandoned_nobody": {
        # Abandoned with nobody to claim it (the bot left, or nobody had moved yet).
        "en": "The game was abandoned; it counts for nobody.",
        "ca": "La partida s'ha abandonat; no compta per a ningú.",
        "es": "La partida se ha abandonado; no cuenta para nadie.",
        "pt": "O jogo foi abandonado; não conta para ninguém.",
        "ru": "Партия брошена и ни для кого не засчитывается.",
    },
    "game.challenge_left": {
        "en": "{player} left: the challenge is off.",
        "ca": "{player} ha marxat: el repte queda anul·lat.",
        "es": "{player} se ha ido: el reto queda anulado.",
        "pt": "{player} saiu: o desafio foi cancelado.",
        "ru": "{player} уходит: вызов отменён.",
    },
    "game.timeout": {
        # A player's move clock ran out: it counts as a loss.
        "en": "{player} ran out of time. {winner} wins.",
        "ca": "A {player} se li ha acabat el temps. Guanya {winner}.",
        "es": "A {player} se le acabó el tiempo. Gana {winner}.",
        "pt": "O tempo de {player} acabou. {winner} vence.",
        "ru": "{player}: время вышло. Побеждает {winner}.",
    },
    "game.timed": {
        # A game between people on a clock, as a challenge names it: "tic-tac-toe (5 minutes a move)".
        "en": "{game} ({clock} a move)",
        "ca": "{game} ({clock} per jugada)",
        "es": "{game} ({clock} por jugada)",
        "pt": "{game} ({clock} por lance)",
        "ru": "{game} ({clock} на ход)",
    },
    "game.clock_left": {
        # After the turn line of Matrix and the console: what is left of the mover's clock.
        "en": "Time left: {left}.",
        "ca": "Temps restant: {left}.",
        "es": "Tiempo restante: {left}.",
        "pt": "Tempo restante: {left}.",
        "ru": "Осталось: {left}.",
    },
    "game.clock_until": {
        # After the turn line on Discord: {when} is a timestamp Discord shows as "in 4 minutes".
        "en": "Time runs out {when}.",
        "ca": "El temps s'acaba {when}.",
        "es": "El tiempo se acaba {when}.",
        "pt": "O tempo acaba {when}.",
        "ru": "Время истекает {when}.",
    },
    "game.clock_reminder": {
        "en": "{player}, it is your move. Time left: {left}.",
        "ca": "{player}, et toca jugar. Temps restant: {left}.",
        "es": "{player}, te toca jugar. Tiempo restante: {left}.",
        "pt": "{player}, é a sua vez. Tempo restante: {left}.",
        "ru": "{player}, ваш ход. Осталось: {left}.",
    },
    # Spans of time, each a plural below, as one parameter of the texts above.
    "game.span.seconds": {
        lang: "{n:game.count.seconds}" for lang in ("en", "ca", "es", "pt", "ru")
    },
    "game.span.minutes": {
        lang: "{n:game.count.minutes}" for lang in ("en", "ca", "es", "pt", "ru")
    },
    "game.span.hours": {lang: "{n:game.count.hours}" for lang in ("en", "ca", "es", "pt", "ru")},
    "game.span.days": {lang: "{n:game.count.days}" for lang in ("en", "ca", "es", "pt", "ru")},
    "game.turn": {
        "en": "{player} ({mark}) to move.",
        "ca": "Juga {player} ({mark}).",
        "es": "Turno de {player} ({mark}).",
        "pt": "Vez de {player} ({mark}).",
        "ru": "Ходит {player} ({mark}).",
    },
    "game.won": {
        "en": "{player} ({mark}) wins!",
        "ca": "{player} ({mark}) guanya!",
        "es": "¡{player} ({mark}) gana!",
        "pt": "{player} ({mark}) vence!",
        "ru": "{player} ({mark}) побеждает!",
    },
    "game.draw": {
        "en": "It's a draw.",
        "ca": "Empat.",
        "es": "Empate.",
        "pt": "Empate.",
        "ru": "Ничья.",
    },
    "game.help": {
        # The help text comes already rendered in the player's language (core.commands).
        "en": "{text}",
        "ca": "{text}",
        "es": "{text}",
        "pt": "{text}",
        "ru": "{text}",
    },
    # --- statistics ------------------------------------------------------------------------
    "stats.none": {
        "en": "{player} has no finished games yet.",
        "ca": "{player} encara no té cap partida acabada.",
        "es": "{player} todavía no tiene ninguna partida terminada.",
        "pt": "{player} ainda não tem jogos terminados.",
        "ru": "{player}: законченных игр пока нет.",
    },
    "stats.player": {
        "en": (
            "{player}: {wins:stats.count.wins}, {losses:stats.count.losses}, {draws:stats.count.draws}"
            " (in this chat: {chat_wins:stats.count.wins}, {chat_losses:stats.count.losses}, {chat_draws:stats.count.draws})."
        ),
        "ca": (
            "{player}: {wins:stats.count.wins}, {losses:stats.count.losses}, {draws:stats.count.draws}"
            " (en aquest xat: {chat_wins:stats.count.wins}, {chat_losses:stats.count.losses}, {chat_draws:stats.count.draws})."
        ),
        "es": (
            "{player}: {wins:stats.count.wins}, {losses:stats.count.losses}, {draws:stats.count.draws}"
            " (en este chat: {chat_wins:stats.count.wins}, {chat_losses:stats.count.losses}, {chat_draws:stats.count.draws})."
        ),
        "pt": (
            "{player}: {wins:stats.count.wins}, {losses:stats.count.losses}, {draws:stats.count.draws}"
            " (neste chat: {chat_wins:stats.count.wins}, {chat_losses:stats.count.losses}, {chat_draws:stats.count.draws})."
        ),
        "ru": (
            "{player}: {wins:stats.count.wins}, {losses:stats.count.losses}, {draws:stats.count.draws}"
            " (в этом чате: {chat_wins:stats.count.wins}, {chat_losses:stats.count.losses}, {chat_draws:stats.count.draws})."
        ),
    },
    "stats.top": {
        "en": "Leaderboard of this chat:\n{lines}",
        "ca": "Classificació d'aquest xat:\n{lines}",
        "es": "Clasificación de este chat:\n{lines}",
        "pt": "Classificação deste chat:\n{lines}",
        "ru": "Таблица лидеров этого чата:\n{lines}",
    },
    "stats.top_line": {
        # One line of stats.top's {lines}; rank starts at 1.
        "en": "{rank}. {name} — {wins:stats.count.wins} · {losses:stats.count.losses} · {draws:stats.count.draws}",
        "ca": "{rank}. {name} — {wins:stats.count.wins} · {losses:stats.count.losses} · {draws:stats.count.draws}",
        "es": "{rank}. {name} — {wins:stats.count.wins} · {losses:stats.count.losses} · {draws:stats.count.draws}",
        "pt": "{rank}. {name} — {wins:stats.count.wins} · {losses:stats.count.losses} · {draws:stats.count.draws}",
        "ru": "{rank}. {name} — {wins:stats.count.wins} · {losses:stats.count.losses} · {draws:stats.count.draws}",
    },
    "stats.top_empty": {
        "en": "No finished games in this chat yet.",
        "ca": "Encara no hi ha cap partida acabada en aquest xat.",
        "es": "Todavía no hay ninguna partida terminada en este chat.",
        "pt": "Ainda não há jogos terminados neste chat.",
        "ru": "В этом чате пока нет законченных игр.",
    },
}


# The words for counts, one form per CLDR plural category of each language (Babel's rules; a test
# checks the categories). ``many`` in ca/es/pt is for round millions ("1000000 de victòries").
# Russian ``other`` is for fractions (genitive singular: "1,5 победы"); ``one`` covers 21, 31...
PLURALS: Mapping[str, Mapping[str, Mapping[str, str]]] = {
    "game.count.minutes": {
        # Nominative in Russian ("на ответ — 5 минут").
        "en": {"one": "{count} minute", "other": "{count} minutes"},
        "ca": {"one": "{count} minut", "many": "{count} de minuts", "other": "{count} minuts"},
        "es": {"one": "{count} minuto", "many": "{count} de minutos", "other": "{count} minutos"},
        "pt": {"one": "{count} minuto", "many": "{count} de minutos", "other": "{count} minutos"},
        "ru": {
            "one": "{count} минута",
            "few": "{count} минуты",
            "many": "{count} минут",
            "other": "{count} минуты",
        },
    },
    "game.count.seconds": {
        # Nominative in Russian ("осталось: 5 секунд").
        "en": {"one": "{count} second", "other": "{count} seconds"},
        "ca": {"one": "{count} segon", "many": "{count} de segons", "other": "{count} segons"},
        "es": {
            "one": "{count} segundo",
            "many": "{count} de segundos",
            "other": "{count} segundos",
        },
        "pt": {
            "one": "{count} segundo",
            "many": "{count} de segundos",
            "other": "{count} segundos",
        },
        "ru": {
            "one": "{count} секунда",
            "few": "{count} секунды",
            "many": "{count} секунд",
            "other": "{count} секунды",
        },
    },
    "game.count.hours": {
        "en": {"one": "{count} hour", "other": "{count} hours"},
        "ca": {"one": "{count} hora", "many": "{count} d'hores", "other": "{count} hores"},
        "es": {"one": "{count} hora", "many": "{count} de horas", "other": "{count} horas"},
        "pt": {"one": "{count} hora", "many": "{count} de horas", "other": "{count} horas"},
        "ru": {
            "one": "{count} час",
            "few": "{count} часа",
            "many": "{count} часов",
            "other": "{count} часа",
        },
    },
    "game.count.days": {
        "en": {"one": "{count} day", "other": "{count} days"},
        "ca": {"one": "{count} dia", "many": "{count} de dies", "other": "{count} dies"},
        "es": {"one": "{count} día", "many": "{count} de días", "other": "{count} días"},
        "pt": {"one": "{count} dia", "many": "{count} de dias", "other": "{count} dias"},
        "ru": {
            "one": "{count} день",
            "few": "{count} дня",
            "many": "{count} дней",
            "other": "{count} дня",
        },
    },
    "stats.count.wins": {
        "en": {"one": "{count} win", "other": "{count} wins"},
        "ca": {
            "one": "{count} victòria",
            "many": "{count} de victòries",
            "other": "{count} victòries",
        },
        "es": {
            "one": "{count} victoria",
            "many": "{count} de victorias",
            "other": "{count} victorias",
        },
        "pt": {
            "one": "{count} vitória",
            "many": "{count} de vitórias",
            "other": "{count} vitórias",
        },
        "ru": {
            "one": "{count} победа",
            "few": "{count} победы",
            "many": "{count} побед",
            "other": "{count} победы",
        },
    },
    "stats.count.losses": {
        "en": {"one": "{count} loss", "other": "{count} losses"},
        "ca": {
            "one": "{count} derrota",
            "many": "{count} de derrotes",
            "other": "{count} derrotes",
        },
        "es": {
            "one": "{count} derrota",
            "many": "{count} de derrotas",
            "other": "{count} derrotas",
        },
        "pt": {
            "one": "{count} derrota",
            "many": "{count} de derrotas",
            "other": "{count} derrotas",
        },
        "ru": {
            "one": "{count} поражение",
            "few": "{count} поражения",
            "many": "{count} поражений",
            "other": "{count} поражения",
        },
    },
    "stats.count.draws": {
        "en": {"one": "{count} draw", "other": "{count} draws"},
        # Catalan elides "de" before a vowel.
        "ca": {"one": "{count} empat", "many": "{count} d'empats", "other": "{count} empats"},
        "es": {"one": "{count} empate", "many": "{count} de empates", "other": "{count} empates"},
        "pt": {"one": "{count} empate", "many": "{count} de empates", "other": "{count} empates"},
        "ru": {
            "one": "{count} ничья",
            "few": "{count} ничьи",
            "many": "{count} ничьих",
            "other": "{count} ничьей",
        },
    },
}
