"""Texts of puzzles (``/puzzle``, its answers, ``/puzzle stats`` and ``/puzzle top``, the daily
post) and of their command-table row.

``{mark}`` is X or O; ``{move}``, ``{reply}`` and ``{solution}`` are moves as players type
them (a column number, or a coordinate such as ``h8``); ``{rating}`` is a rating as players read
it ("1623 ±120", or "1500?" while provisional), ``{delta}`` its change ("+16"); ``{date}`` a UTC
date, ``2026-11-28``.
"""

# Cyrillic letters are the point of a translation, not look-alikes; a catalogue reads best with
# one translation per line.
# ruff: noqa: E501, RUF001

from __future__ import annotations

from collections.abc import Mapping

MESSAGES: Mapping[str, Mapping[str, str]] = {
    # --- the command table ----------------------------------------------------------------------
    "help.puzzle": {
        "en": "Today's puzzle (the same for everyone); next: a rated one at your level; stats; top.",
        "ca": "El problema d'avui (el mateix per a tothom); next: un de puntuat al teu nivell; stats; top.",
        "es": "El problema de hoy (el mismo para todos); next: uno puntuado a tu nivel; stats; top.",
        "pt": "O problema de hoje (o mesmo para todos); next: um pontuado ao seu nível; stats; top.",
        "ru": "Задача дня (одна для всех); next: рейтинговая задача вашего уровня; stats; top.",
    },
    "help.option.ask": {
        "en": "next, stats or top (nothing: today's puzzle).",
        "ca": "next, stats o top (res: el problema d'avui).",
        "es": "next, stats o top (nada: el problema de hoy).",
        "pt": "next, stats ou top (nada: o problema de hoje).",
        "ru": "next, stats или top (без него: задача дня).",
    },
    "help.topic.puzzles": {
        "en": "Puzzles proven by the solver: the daily puzzle, rated puzzles, streaks.",
        "ca": "Problemes demostrats pel solucionador: el del dia, els puntuats, les ratxes.",
        "es": "Problemas demostrados por el solucionador: el del día, los puntuados, las rachas.",
        "pt": "Problemas provados pelo solucionador: o do dia, os pontuados, as sequências.",
        "ru": "Задачи, доказанные решателем: задача дня, рейтинговые задачи, серии.",
    },
    # Discord's names of the slash command's choices.
    "discord.choice.topic.puzzles": {
        "en": "puzzles",
        "ca": "problemes",
        "es": "problemas",
        "pt": "problemas",
        "ru": "задачи",
    },
    "discord.choice.ask.next": {
        "en": "next: a rated puzzle",
        "ca": "next: un problema puntuat",
        "es": "next: un problema puntuado",
        "pt": "next: um problema pontuado",
        "ru": "next: рейтинговая задача",
    },
    "discord.choice.ask.stats": {
        "en": "stats: your rating and streak",
        "ca": "stats: la teva puntuació i ratxa",
        "es": "stats: tu puntuación y racha",
        "pt": "stats: a sua pontuação e sequência",
        "ru": "stats: ваш рейтинг и серия",
    },
    "discord.choice.ask.top": {
        "en": "top: the best solvers",
        "ca": "top: els millors",
        "es": "top: los mejores",
        "pt": "top: os melhores",
        "ru": "top: лучшие решатели",
    },
    # --- the board's line ----------------------------------------------------------------------
    "puzzle.status.win": {
        "en": "Puzzle {id}: {mark} to play and win in {moves:review.count.plies}.",
        "ca": "Problema {id}: juguen les {mark} i guanyen en {moves:review.count.plies}.",
        "es": "Problema {id}: juegan las {mark} y ganan en {moves:review.count.plies}.",
        "pt": "Problema {id}: jogam as {mark} e ganham em {moves:review.count.plies}.",
        "ru": "Задача {id}: ход {mark}, выигрыш за {moves:review.count.plies}.",
    },
    "puzzle.status.hold": {
        "en": "Puzzle {id}: {mark} to play; find the only move that does not lose.",
        "ca": "Problema {id}: juguen les {mark}; troba l'única jugada que no perd.",
        "es": "Problema {id}: juegan las {mark}; encuentra la única jugada que no pierde.",
        "pt": "Problema {id}: jogam as {mark}; encontre o único lance que não perde.",
        "ru": "Задача {id}: ход {mark}; найдите единственный ход, который не проигрывает.",
    },
    "puzzle.status.vcf": {
        "en": "Puzzle {id}: {mark} to play and win by fours in {moves:review.count.plies}.",
        "ca": "Problema {id}: juguen les {mark} i guanyen amb quatres en {moves:review.count.plies}.",
        "es": "Problema {id}: juegan las {mark} y ganan con cuatros en {moves:review.count.plies}.",
        "pt": "Problema {id}: jogam as {mark} e ganham com quatros em {moves:review.count.plies}.",
        "ru": "Задача {id}: ход {mark}, выигрыш четвёрками за {moves:review.count.plies}.",
    },
    "puzzle.going": {
        "en": "Right! The solver defends with {reply}. {task}",
        "ca": "Correcte! El solucionador es defensa amb {reply}. {task}",
        "es": "¡Correcto! El solucionador se defiende con {reply}. {task}",
        "pt": "Certo! O solucionador defende com {reply}. {task}",
        "ru": "Верно! Решатель защищается ходом {reply}. {task}",
    },
    "puzzle.solved": {
        "en": "Solved! Puzzle rating {rating} ({delta}) · streak: {streak:game.count.days}",
        "ca": "Resolt! Puntuació de problemes {rating} ({delta}) · ratxa: {streak:game.count.days}",
        "es": "¡Resuelto! Puntuación de problemas {rating} ({delta}) · racha: {streak:game.count.days}",
        "pt": "Resolvido! Pontuação de problemas {rating} ({delta}) · sequência: {streak:game.count.days}",
        "ru": "Решено! Рейтинг задач {rating} ({delta}) · серия: {streak:game.count.days}",
    },
    "puzzle.failed.win": {
        "en": "Failed: {move} does not win in time.{refutation} The solution was {solution}. Puzzle rating {rating} ({delta})",
        "ca": "Fallat: {move} no guanya a temps.{refutation} La solució era {solution}. Puntuació de problemes {rating} ({delta})",
        "es": "Fallado: {move} no gana a tiempo.{refutation} La solución era {solution}. Puntuación de problemas {rating} ({delta})",
        "pt": "Falhou: {move} não ganha a tempo.{refutation} A solução era {solution}. Pontuação de problemas {rating} ({delta})",
        "ru": "Неудача: {move} не выигрывает вовремя.{refutation} Решение: {solution}. Рейтинг задач {rating} ({delta})",
    },
    "puzzle.failed.hold": {
        "en": "Failed: {move} loses.{refutation} The only move was {solution}. Puzzle rating {rating} ({delta})",
        "ca": "Fallat: {move} perd.{refutation} L'única jugada era {solution}. Puntuació de problemes {rating} ({delta})",
        "es": "Fallado: {move} pierde.{refutation} La única jugada era {solution}. Puntuación de problemas {rating} ({delta})",
        "pt": "Falhou: {move} perde.{refutation} O único lance era {solution}. Pontuação de problemas {rating} ({delta})",
        "ru": "Неудача: {move} проигрывает.{refutation} Единственный ход: {solution}. Рейтинг задач {rating} ({delta})",
    },
    "puzzle.refutation": {
        "en": " The solver answers {reply}.",
        "ca": " El solucionador respon {reply}.",
        "es": " El solucionador responde {reply}.",
        "pt": " O solucionador responde {reply}.",
        "ru": " Решатель отвечает {reply}.",
    },
    # --- what /puzzle says ------------------------------------------------------------------
    "puzzle.daily": {
        "en": "The puzzle of the day, {date} (UTC; the next at midnight UTC): answer with the board or by typing a move.",
        "ca": "El problema del dia, {date} (UTC; el següent a mitjanit UTC): respon amb el tauler o escrivint una jugada.",
        "es": "El problema del día, {date} (UTC; el siguiente a medianoche UTC): responde con el tablero o escribiendo una jugada.",
        "pt": "O problema do dia, {date} (UTC; o próximo à meia-noite UTC): responda pelo tabuleiro ou escrevendo um lance.",
        "ru": "Задача дня, {date} (UTC; следующая в полночь UTC): отвечайте на доске или напишите ход.",
    },
    "puzzle.next": {
        "en": "A rated puzzle for {name} (puzzle rating {rating}).",
        "ca": "Un problema puntuat per a {name} (puntuació de problemes {rating}).",
        "es": "Un problema puntuado para {name} (puntuación de problemas {rating}).",
        "pt": "Um problema pontuado para {name} (pontuação de problemas {rating}).",
        "ru": "{name}, вот рейтинговая задача (рейтинг задач {rating}).",
    },
    "puzzle.stats": {
        "en": "{name}: puzzle rating {rating} · solved {solved} of {tried} · streak: {streak:game.count.days} (best: {best:game.count.days})",
        "ca": "{name}: puntuació de problemes {rating} · resolts {solved} de {tried} · ratxa: {streak:game.count.days} (millor: {best:game.count.days})",
        "es": "{name}: puntuación de problemas {rating} · resueltos {solved} de {tried} · racha: {streak:game.count.days} (mejor: {best:game.count.days})",
        "pt": "{name}: pontuação de problemas {rating} · resolvidos {solved} de {tried} · sequência: {streak:game.count.days} (melhor: {best:game.count.days})",
        "ru": "{name}: рейтинг задач {rating} · решено {solved} из {tried} · серия: {streak:game.count.days} (лучшая: {best:game.count.days})",
    },
    "puzzle.stats_none": {
        "en": "{name} has not finished a puzzle yet: try {prefix}puzzle.",
        "ca": "{name} encara no ha acabat cap problema: prova {prefix}puzzle.",
        "es": "{name} aún no ha terminado ningún problema: prueba {prefix}puzzle.",
        "pt": "{name} ainda não terminou nenhum problema: experimente {prefix}puzzle.",
        "ru": "{name} ещё не решал задач: попробуйте {prefix}puzzle.",
    },
    "puzzle.top": {
        "en": "The best puzzle solvers:\n{lines}",
        "ca": "Els millors resolent problemes:\n{lines}",
        "es": "Los mejores resolviendo problemas:\n{lines}",
        "pt": "Os melhores a resolver problemas:\n{lines}",
        "ru": "Лучшие решатели задач:\n{lines}",
    },
    "puzzle.top_line": {
        "en": "{rank}. {name} ({platform}) {rating} · solved {solved}",
        "ca": "{rank}. {name} ({platform}) {rating} · resolts {solved}",
        "es": "{rank}. {name} ({platform}) {rating} · resueltos {solved}",
        "pt": "{rank}. {name} ({platform}) {rating} · resolvidos {solved}",
        "ru": "{rank}. {name} ({platform}) {rating} · решено {solved}",
    },
    "puzzle.top_empty": {
        "en": "Nobody is listed yet: a solver is listed after finishing {count:puzzle.count.puzzles}.",
        "ca": "Encara no hi ha ningú a la llista: s'hi entra després d'acabar {count:puzzle.count.puzzles}.",
        "es": "Aún no hay nadie en la lista: se entra tras terminar {count:puzzle.count.puzzles}.",
        "pt": "Ainda não há ninguém na lista: entra-se depois de terminar {count:puzzle.count.puzzles}.",
        "ru": "В списке пока никого: в него попадают, решив {count:puzzle.count.puzzles}.",
    },
    # --- answers that are refused ---------------------------------------------------------------
    "puzzle.over.solved": {
        "en": "You have solved this puzzle already. {prefix}puzzle next gives you another.",
        "ca": "Ja has resolt aquest problema. {prefix}puzzle next te'n dona un altre.",
        "es": "Ya has resuelto este problema. {prefix}puzzle next te da otro.",
        "pt": "Já resolveu este problema. {prefix}puzzle next dá-lhe outro.",
        "ru": "Вы уже решили эту задачу. {prefix}puzzle next даст другую.",
    },
    "puzzle.over.failed": {
        "en": "This puzzle is over: you answered it already. {prefix}puzzle next gives you another.",
        "ca": "Aquest problema s'ha acabat: ja l'has respost. {prefix}puzzle next te'n dona un altre.",
        "es": "Este problema ha terminado: ya lo respondiste. {prefix}puzzle next te da otro.",
        "pt": "Este problema terminou: já o respondeu. {prefix}puzzle next dá-lhe outro.",
        "ru": "Эта задача закончена: вы уже ответили. {prefix}puzzle next даст другую.",
    },
    "puzzle.not_yours": {
        "en": "This board is another player's puzzle. Yours: {prefix}puzzle (today's) or {prefix}puzzle next.",
        "ca": "Aquest tauler és el problema d'una altra persona. El teu: {prefix}puzzle (el d'avui) o {prefix}puzzle next.",
        "es": "Este tablero es el problema de otra persona. El tuyo: {prefix}puzzle (el de hoy) o {prefix}puzzle next.",
        "pt": "Este tabuleiro é o problema de outra pessoa. O seu: {prefix}puzzle (o de hoje) ou {prefix}puzzle next.",
        "ru": "Это задача другого игрока. Ваши: {prefix}puzzle (задача дня) или {prefix}puzzle next.",
    },
    "puzzle.old_daily": {
        "en": "That was the puzzle of {date}. Today's puzzle: {prefix}puzzle.",
        "ca": "Aquest era el problema del {date}. El d'avui: {prefix}puzzle.",
        "es": "Ese era el problema del {date}. El de hoy: {prefix}puzzle.",
        "pt": "Esse era o problema de {date}. O de hoje: {prefix}puzzle.",
        "ru": "Это была задача {date}. Сегодняшняя: {prefix}puzzle.",
    },
    "puzzle.stale": {
        "en": "This board is behind your puzzle: answer on the latest one.",
        "ca": "Aquest tauler va per darrere del teu problema: respon al més recent.",
        "es": "Este tablero va por detrás de tu problema: responde en el más reciente.",
        "pt": "Este tabuleiro está atrás do seu problema: responda no mais recente.",
        "ru": "Эта доска отстаёт от вашей задачи: отвечайте на последней.",
    },
    "puzzle.off": {
        "en": "Rated puzzles are turned off in this chat (the puzzles setting); {prefix}puzzle still shows today's.",
        "ca": "Els problemes puntuats estan desactivats en aquest xat (opció puzzles); {prefix}puzzle encara mostra el d'avui.",
        "es": "Los problemas puntuados están desactivados en este chat (ajuste puzzles); {prefix}puzzle aún muestra el de hoy.",
        "pt": "Os problemas pontuados estão desativados neste chat (definição puzzles); {prefix}puzzle ainda mostra o de hoje.",
        "ru": "Рейтинговые задачи в этом чате выключены (настройка puzzles); {prefix}puzzle по-прежнему показывает задачу дня.",
    },
    "puzzle.all_tried": {
        "en": "You have tried every puzzle there is. Tomorrow brings a new one: {prefix}puzzle.",
        "ca": "Has provat tots els problemes que hi ha. Demà n'hi haurà un de nou: {prefix}puzzle.",
        "es": "Has probado todos los problemas que hay. Mañana habrá uno nuevo: {prefix}puzzle.",
        "pt": "Já experimentou todos os problemas que há. Amanhã há um novo: {prefix}puzzle.",
        "ru": "Вы попробовали все задачи. Завтра будет новая: {prefix}puzzle.",
    },
}

PLURALS: Mapping[str, Mapping[str, Mapping[str, str]]] = {
    "puzzle.count.puzzles": {
        "en": {"one": "{count} puzzle", "other": "{count} puzzles"},
        "ca": {
            "one": "{count} problema",
            "many": "{count} de problemes",
            "other": "{count} problemes",
        },
        "es": {
            "one": "{count} problema",
            "many": "{count} de problemas",
            "other": "{count} problemas",
        },
        "pt": {
            "one": "{count} problema",
            "many": "{count} de problemas",
            "other": "{count} problemas",
        },
        "ru": {
            "one": "{count} задачу",
            "few": "{count} задачи",
            "many": "{count} задач",
            "other": "{count} задачи",
        },
    },
}
