"""Texts of a player's mistakes and of temporary failures (``error.*``), answered by the game
service (``core.sessions``) and shown privately where the platform can. ``{prefix}`` is the
command prefix of the platform (``/`` or ``!``); ``{game}`` is one of the ``game.name.*`` texts.
"""

# Cyrillic letters are the point of a translation, not look-alikes; a catalogue reads best with
# one translation per line.
# ruff: noqa: E501, RUF001

from __future__ import annotations

from collections.abc import Mapping

MESSAGES: Mapping[str, Mapping[str, str]] = {
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
    "error.change_unknown": {
        "en": (
            "The database stopped while this was being saved, so I can't tell yet whether it"
            " was. Look at the game again once the database is back."
        ),
        "ca": (
            "La base de dades s'ha aturat mentre es desava, així que encara no sé si s'ha desat."
            " Torna a mirar la partida quan la base de dades torni."
        ),
        "es": (
            "La base de datos se detuvo mientras se guardaba, así que aún no sé si se guardó."
            " Vuelve a mirar la partida cuando vuelva la base de datos."
        ),
        "pt": (
            "O banco de dados parou enquanto isto era salvo, então ainda não sei se foi salvo."
            " Olhe o jogo de novo quando o banco de dados voltar."
        ),
        "ru": (
            "База данных остановилась во время сохранения, поэтому я пока не знаю, сохранилось"
            " ли это. Посмотрите на игру снова, когда база данных заработает."
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
            "У вас уже есть игра здесь ({game}, соперник: {opponent}). Доиграйте её или завершите"
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
        "ru": "Этот вызов не вам: ответить на него может только {player}.",
    },
    "error.no_rematch": {
        "en": "You have no finished game here to replay. Start one with {prefix}tres.",
        "ca": "No tens cap partida acabada aquí per repetir. Comença'n una amb {prefix}tres.",
        "es": "No tienes ninguna partida terminada aquí para repetir. Empieza una con {prefix}tres.",
        "pt": "Você não tem jogo terminado aqui para repetir. Comece um com {prefix}tres.",
        "ru": "Здесь нет вашей законченной игры для реванша. Начните новую: {prefix}tres.",
    },
    "error.not_your_rematch": {
        "en": (
            "Only whoever started this bots' game can ask for its rematch. Start one of your own"
            " with {prefix}tres bot."
        ),
        "ca": (
            "Només qui ha començat aquesta partida de bots pot demanar-ne la revenja. Comença'n"
            " una de teva amb {prefix}tres bot."
        ),
        "es": (
            "Solo quien empezó esta partida de bots puede pedir su revancha. Empieza una tuya"
            " con {prefix}tres bot."
        ),
        "pt": (
            "Só quem começou este jogo de bots pode pedir a revanche. Comece um seu com"
            " {prefix}tres bot."
        ),
        "ru": (
            "Реванш в этой игре ботов может попросить только тот, кто её начал. Начните свою:"
            " {prefix}tres bot."
        ),
    },
    "error.not_finished": {
        "en": "This game is not over yet: a rematch comes after the result.",
        "ca": "Aquesta partida encara no s'ha acabat: la revenja ve després del resultat.",
        "es": "Esta partida todavía no ha terminado: la revancha viene después del resultado.",
        "pt": "Este jogo ainda não terminou: a revanche vem depois do resultado.",
        "ru": "Эта игра ещё не окончена: реванш — после результата.",
    },
}


# The words for counts, as in :mod:`core.i18n.messages.game`'s ``PLURALS``.
PLURALS: Mapping[str, Mapping[str, Mapping[str, str]]] = {
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
}
