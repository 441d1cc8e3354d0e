"""Texts of the game service (``core.sessions``): game events, player mistakes, statistics.

Keys: ``game.*`` (what happens), ``error.*`` (a mistake or a temporary failure, shown privately
where the platform can), ``stats.*``. ``{prefix}`` is the command prefix of the platform (``/`` or
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
            "{challenger} вызывает {challenged} на игру {game}. {challenged}: ответьте"
            " {accept} или {decline}; на ответ — {minutes:game.count.minutes}."
        ),
    },
    "game.challenge_status": {
        "en": "Waiting for an answer: {player_x} (X) against {player_o} (O).",
        "ca": "Esperant resposta: {player_x} (X) contra {player_o} (O).",
        "es": "Esperando respuesta: {player_x} (X) contra {player_o} (O).",
        "pt": "Aguardando resposta: {player_x} (X) contra {player_o} (O).",
        "ru": "Ждём ответа: {player_x} (X) против {player_o} (O).",
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
    "game.turn": {
        "en": "{player} ({mark}) to move.",
        "ca": "Torn de {player} ({mark}).",
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
    # --- mistakes and temporary failures ---------------------------------------------------
    "error.busy": {
        "en": "The game store is busy right now. Nothing was lost: please try again in a moment.",
        "ca": (
            "El magatzem de partides està ocupat ara mateix. No s'ha perdut res: torna-ho a"
            " provar d'aquí a un moment."
        ),
        "es": (
            "El almacén de partidas está ocupado ahora mismo. No se ha perdido nada: vuelve a"
            " intentarlo en un momento."
        ),
        "pt": (
            "O armazenamento de jogos está ocupado agora. Nada foi perdido: tente de novo"
            " daqui a pouco."
        ),
        "ru": (
            "Хранилище игр сейчас занято. Ничего не потеряно: попробуйте ещё раз через мгновение."
        ),
    },
    "error.internal": {
        "en": "Sorry, something went wrong on our side. Please try again.",
        "ca": "Ho sentim, alguna cosa ha fallat per la nostra banda. Torna-ho a provar.",
        "es": "Lo sentimos, algo ha fallado por nuestra parte. Vuelve a intentarlo.",
        "pt": "Desculpe, algo deu errado do nosso lado. Tente de novo.",
        "ru": "Извините, у нас что-то пошло не так. Попробуйте ещё раз.",
    },
    "error.store_unavailable": {
        "en": "I can't save anything right now, so nothing changed. Please try again in a moment.",
        "ca": (
            "Ara mateix no puc desar res, així que no ha canviat res. Torna-ho a provar d'aquí a"
            " un moment."
        ),
        "es": (
            "Ahora mismo no puedo guardar nada, así que no ha cambiado nada. Vuelve a intentarlo"
            " en un momento."
        ),
        "pt": "Não consigo salvar nada agora, então nada mudou. Tente de novo daqui a pouco.",
        "ru": (
            "Сейчас я не могу ничего сохранить, поэтому ничего не изменилось. Попробуйте ещё раз"
            " чуть позже."
        ),
    },
    "error.ai_busy": {
        "en": (
            "The bot is very busy right now. Try level medium ({prefix}tres medium), or try"
            " again in a minute."
        ),
        "ca": (
            "El bot està molt ocupat ara mateix. Prova el nivell medium ({prefix}tres medium) o"
            " torna-ho a provar d'aquí a un minut."
        ),
        "es": (
            "El bot está muy ocupado ahora mismo. Prueba el nivel medium ({prefix}tres medium) o"
            " vuelve a intentarlo dentro de un minuto."
        ),
        "pt": (
            "O bot está muito ocupado agora. Experimente o nível medium ({prefix}tres medium) ou"
            " tente de novo daqui a um minuto."
        ),
        "ru": (
            "Бот сейчас очень занят. Выберите уровень medium ({prefix}tres medium) или"
            " попробуйте ещё раз через минуту."
        ),
    },
    "error.rate_limited": {
        "en": "Slow down: try again in {seconds:error.count.seconds}.",
        "ca": "Més a poc a poc: torna-ho a provar d'aquí a {seconds:error.count.seconds}.",
        "es": "Más despacio: vuelve a intentarlo dentro de {seconds:error.count.seconds}.",
        "pt": "Mais devagar: tente de novo daqui a {seconds:error.count.seconds}.",
        "ru": "Не так быстро: попробуйте снова через {seconds:error.count.seconds}.",
    },
    "error.shutting_down": {
        "en": "The bot is restarting. Please try again in a few seconds.",
        "ca": "El bot s'està reiniciant. Torna-ho a provar d'aquí a uns segons.",
        "es": "El bot se está reiniciando. Vuelve a intentarlo en unos segundos.",
        "pt": "O bot está reiniciando. Tente de novo em alguns segundos.",
        "ru": "Бот перезапускается. Попробуйте через несколько секунд.",
    },
    "error.expired": {
        "en": "This game has expired.",
        "ca": "Aquesta partida ha caducat.",
        "es": "Esta partida ha caducado.",
        "pt": "Este jogo expirou.",
        "ru": "Время этой игры истекло.",
    },
    "error.challenge_expired": {
        "en": "This challenge has expired.",
        "ca": "Aquest repte ha caducat.",
        "es": "Este reto ha caducado.",
        "pt": "Este desafio expirou.",
        "ru": "Время этого вызова истекло.",
    },
    "error.no_such_game": {
        "en": "This game is over or no longer exists.",
        "ca": "Aquesta partida s'ha acabat o ja no existeix.",
        "es": "Esta partida ha terminado o ya no existe.",
        "pt": "Este jogo terminou ou não existe mais.",
        "ru": "Эта игра окончена или больше не существует.",
    },
    "error.no_challenge": {
        "en": "Nobody has challenged you here.",
        "ca": "Ningú no t'ha reptat aquí.",
        "es": "Nadie te ha retado aquí.",
        "pt": "Ninguém desafiou você aqui.",
        "ru": "Здесь вас никто не вызывал.",
    },
    "error.already_playing": {
        "en": (
            "You already have a game here ({game} against {opponent}). Finish it, or end it"
            " with {prefix}final."
        ),
        "ca": (
            "Ja tens una partida aquí ({game} contra {opponent}). Acaba-la o tanca-la amb"
            " {prefix}final."
        ),
        "es": (
            "Ya tienes una partida aquí ({game} contra {opponent}). Termínala o ciérrala con"
            " {prefix}final."
        ),
        "pt": (
            "Você já tem um jogo aqui ({game} contra {opponent}). Termine-o ou encerre-o com"
            " {prefix}final."
        ),
        "ru": (
            "У вас уже есть игра здесь ({game} против {opponent}). Доиграйте её или завершите"
            " командой {prefix}final."
        ),
    },
    "error.watch_limit": {
        "en": "You are already watching a bots' game here; end it with {prefix}final first.",
        "ca": "Ja estàs mirant una partida de bots aquí; acaba-la primer amb {prefix}final.",
        "es": "Ya estás viendo una partida de bots aquí; termínala primero con {prefix}final.",
        "pt": "Você já está assistindo a um jogo de bots aqui; encerre-o primeiro com {prefix}final.",
        "ru": "Вы уже смотрите здесь игру ботов; сначала завершите её командой {prefix}final.",
    },
    "error.self_challenge": {
        "en": "You cannot challenge yourself. Play the bot instead, or challenge someone else.",
        "ca": "No et pots reptar a tu mateix. Juga contra el bot o repta algú altre.",
        "es": "No puedes retarte a ti mismo. Juega contra el bot o reta a otra persona.",
        "pt": "Você não pode desafiar a si mesmo. Jogue contra o bot ou desafie outra pessoa.",
        "ru": "Нельзя вызвать самого себя. Сыграйте с ботом или вызовите кого-то другого.",
    },
    "error.no_game": {
        "en": "You have no game here. Start one with {prefix}tres (see {prefix}help).",
        "ca": "No tens cap partida aquí. Comença'n una amb {prefix}tres (mira {prefix}help).",
        "es": "No tienes ninguna partida aquí. Empieza una con {prefix}tres (mira {prefix}help).",
        "pt": "Você não tem jogo aqui. Comece um com {prefix}tres (veja {prefix}help).",
        "ru": "У вас нет игры здесь. Начните её командой {prefix}tres (см. {prefix}help).",
    },
    "error.nothing_to_end": {
        "en": "You have no game here to end. Start one with {prefix}tres.",
        "ca": "No tens cap partida per acabar aquí. Comença'n una amb {prefix}tres.",
        "es": "No tienes ninguna partida que terminar aquí. Empieza una con {prefix}tres.",
        "pt": "Você não tem jogo para encerrar aqui. Comece um com {prefix}tres.",
        "ru": "Здесь нечего завершать: у вас нет игры. Начните её командой {prefix}tres.",
    },
    "error.challenge_pending": {
        "en": "The challenge has not been accepted yet.",
        "ca": "El repte encara no s'ha acceptat.",
        "es": "El reto todavía no se ha aceptado.",
        "pt": "O desafio ainda não foi aceito.",
        "ru": "Вызов ещё не принят.",
    },
    "error.not_your_game": {
        "en": "This is not your game.",
        "ca": "Aquesta partida no és teva.",
        "es": "Esta partida no es tuya.",
        "pt": "Este jogo não é seu.",
        "ru": "Это не ваша игра.",
    },
    "error.game_over": {
        "en": "This game is over. Start a new one, or ask for a rematch with {prefix}rematch.",
        "ca": "Aquesta partida s'ha acabat. Comença'n una de nova o demana la revenja amb {prefix}rematch.",
        "es": "Esta partida ha terminado. Empieza otra o pide la revancha con {prefix}rematch.",
        "pt": "Este jogo terminou. Comece outro ou peça a revanche com {prefix}rematch.",
        "ru": "Эта игра окончена. Начните новую или попросите реванш: {prefix}rematch.",
    },
    "error.not_your_turn": {
        "en": "Not your turn: {player} is to move.",
        "ca": "No és el teu torn: li toca a {player}.",
        "es": "No es tu turno: le toca a {player}.",
        "pt": "Não é a sua vez: é a vez de {player}.",
        "ru": "Сейчас не ваш ход: ходит {player}.",
    },
    "error.bot_thinking": {
        "en": "Wait a moment: the bot is thinking.",
        "ca": "Espera un moment: el bot està pensant.",
        "es": "Espera un momento: el bot está pensando.",
        "pt": "Espere um momento: o bot está pensando.",
        "ru": "Подождите: бот думает.",
    },
    "error.board_changed": {
        "en": "The board changed in the meantime. Here it is as it stands now.",
        "ca": "El tauler ha canviat mentrestant. Aquí el tens tal com està ara.",
        "es": "El tablero ha cambiado mientras tanto. Aquí lo tienes tal como está ahora.",
        "pt": "O tabuleiro mudou nesse meio-tempo. Aqui está ele como está agora.",
        "ru": "Доска за это время изменилась. Вот как она выглядит сейчас.",
    },
    "error.column_full": {
        "en": "Column {column} is full. Choose another one.",
        "ca": "La columna {column} és plena. Tria'n una altra.",
        "es": "La columna {column} está llena. Elige otra.",
        "pt": "A coluna {column} está cheia. Escolha outra.",
        "ru": "Столбец {column} заполнен. Выберите другой.",
    },
    "error.off_board_column": {
        "en": "There is no column {column}: columns go from 1 to {max}.",
        "ca": "No hi ha columna {column}: les columnes van de l'1 al {max}.",
        "es": "No hay columna {column}: las columnas van del 1 al {max}.",
        "pt": "Não existe coluna {column}: as colunas vão de 1 a {max}.",
        "ru": "Столбца {column} нет: столбцы от 1 до {max}.",
    },
    "error.occupied": {
        "en": "Cell {cell} is already taken. Choose an empty one.",
        "ca": "La casella {cell} ja està ocupada. Tria'n una de buida.",
        "es": "La casilla {cell} ya está ocupada. Elige una vacía.",
        "pt": "A casa {cell} já está ocupada. Escolha uma vazia.",
        "ru": "Клетка {cell} уже занята. Выберите пустую.",
    },
    "error.off_board_cell": {
        "en": "There is no cell {cell}: cells go from 1 to {max}.",
        "ca": "No hi ha casella {cell}: les caselles van de l'1 al {max}.",
        "es": "No hay casilla {cell}: las casillas van del 1 al {max}.",
        "pt": "Não existe casa {cell}: as casas vão de 1 a {max}.",
        "ru": "Клетки {cell} нет: клетки от 1 до {max}.",
    },
    "error.not_a_challenge": {
        "en": "This challenge has already been answered.",
        "ca": "Aquest repte ja s'ha respost.",
        "es": "Este reto ya se ha respondido.",
        "pt": "Este desafio já foi respondido.",
        "ru": "На этот вызов уже ответили.",
    },
    "error.not_challenged": {
        "en": "This challenge is for {player}; only they can answer it.",
        "ca": "Aquest repte és per a {player}; només hi pot respondre aquesta persona.",
        "es": "Este reto es para {player}; solo esa persona puede responderlo.",
        "pt": "Este desafio é para {player}; só essa pessoa pode respondê-lo.",
        "ru": "Этот вызов адресован {player}; ответить может только этот игрок.",
    },
    "error.no_rematch": {
        "en": "You have no finished game here to replay. Start one with {prefix}tres.",
        "ca": "No tens cap partida acabada aquí per repetir. Comença'n una amb {prefix}tres.",
        "es": "No tienes ninguna partida terminada aquí para repetir. Empieza una con {prefix}tres.",
        "pt": "Você não tem jogo terminado aqui para repetir. Comece um com {prefix}tres.",
        "ru": "Здесь нет вашей законченной игры для реванша. Начните новую: {prefix}tres.",
    },
    "error.not_finished": {
        "en": "This game is not over yet: a rematch comes after the result.",
        "ca": "Aquesta partida encara no s'ha acabat: la revenja ve després del resultat.",
        "es": "Esta partida todavía no ha terminado: la revancha viene después del resultado.",
        "pt": "Este jogo ainda não terminou: a revanche vem depois do resultado.",
        "ru": "Эта игра ещё не окончена: реванш — после результата.",
    },
    # --- statistics ------------------------------------------------------------------------
    "stats.none": {
        "en": "{player} has no finished games yet.",
        "ca": "{player} encara no té cap partida acabada.",
        "es": "{player} todavía no tiene ninguna partida terminada.",
        "pt": "{player} ainda não tem jogos terminados.",
        "ru": "У {player} пока нет законченных игр.",
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
    "error.count.seconds": {
        # After "in": accusative in Russian ("через 1 секунду", "через 5 секунд").
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
            "one": "{count} секунду",
            "few": "{count} секунды",
            "many": "{count} секунд",
            "other": "{count} секунды",
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
