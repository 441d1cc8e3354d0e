"""Texts of ``/settings`` and of the limits admins set: the command, its answers, the refusals of
new games that the settings cause, and the names Discord shows for the command's choices (what
each setting means is in ``setting_keys``).

Values are shown as admins type them (``on``, ``600``, ``tres``), never translated, so that what
the bot shows can be typed back. ``{expected}`` is one of the ``settings.expected.*`` texts.
"""

# Cyrillic letters are the point of a translation, not look-alikes; a catalogue reads best with
# one translation per line.
# ruff: noqa: E501, RUF001

from __future__ import annotations

from collections.abc import Mapping

from core.admin.keys import SETTING_NAMES

MESSAGES: dict[str, Mapping[str, str]] = {
    # --- the command and its options (Discord limits these to 100 characters) --------------
    "help.settings": {
        "en": "Admins: show or change the bot's settings for this server, channel or room.",
        "ca": "Administradors: la configuració del bot aquí (servidor, canal o sala).",
        "es": "Administradores: la configuración del bot aquí (servidor, canal o sala).",
        "pt": "Administradores: as configurações do bot aqui (servidor, canal ou sala).",
        "ru": "Для админов: показать или изменить настройки бота для сервера, канала или комнаты.",
    },
    "help.option.key": {
        "en": "The setting to show or change (none: show them all)",
        "ca": "La configuració que cal mostrar o canviar (cap: mostra-les totes)",
        "es": "El ajuste que mostrar o cambiar (ninguno: mostrarlos todos)",
        "pt": "A configuração a mostrar ou mudar (nenhuma: mostra todas)",
        "ru": "Какую настройку показать или изменить (не указано: все)",
    },
    "help.option.value": {
        "en": "The new value; reset goes back to the value from above",
        "ca": "El valor nou; reset torna al valor de més amunt",
        "es": "El valor nuevo; reset vuelve al valor de arriba",
        "pt": "O novo valor; reset volta ao valor de cima",
        "ru": "Новое значение; reset возвращает значение уровнем выше",
    },
    "help.option.scope": {
        "en": "The whole server (default) or this channel only",
        "ca": "Tot el servidor (per defecte) o només aquest canal",
        "es": "Todo el servidor (por defecto) o solo este canal",
        "pt": "O servidor inteiro (padrão) ou só este canal",
        "ru": "Весь сервер (по умолчанию) или только этот канал",
    },
    "discord.choice.scope.server": {
        "en": "Whole server",
        "ca": "Tot el servidor",
        "es": "Todo el servidor",
        "pt": "Servidor inteiro",
        "ru": "Весь сервер",
    },
    "discord.choice.scope.channel": {
        "en": "This channel only",
        "ca": "Només aquest canal",
        "es": "Solo este canal",
        "pt": "Só este canal",
        "ru": "Только этот канал",
    },
    # The key names are what admins type: every language shows them as they are.
    **{
        f"discord.choice.key.{name}": dict.fromkeys(("en", "ca", "es", "pt", "ru"), name)
        for name in SETTING_NAMES
    },
    # --- parsing -----------------------------------------------------------------------------
    "parse.bad_setting": {
        "en": "There is no setting {setting!r}. Settings: {keys}. Usage: /settings {usage}",
        "ca": "No hi ha cap configuració {setting!r}. Configuracions: {keys}. Ús: /settings {usage}",
        "es": "No existe el ajuste {setting!r}. Ajustes: {keys}. Uso: /settings {usage}",
        "pt": "Não existe a configuração {setting!r}. Configurações: {keys}. Uso: /settings {usage}",
        "ru": "Настройки {setting!r} нет. Настройки: {keys}. Использование: /settings {usage}",
    },
    "parse.settings_value_without_key": {
        "en": "A value needs the setting it is for. Usage: /settings {usage}",
        "ca": "Un valor necessita la configuració a què correspon. Ús: /settings {usage}",
        "es": "Un valor necesita el ajuste al que corresponde. Uso: /settings {usage}",
        "pt": "Um valor precisa da configuração a que se refere. Uso: /settings {usage}",
        "ru": "Значению нужна настройка, к которой оно относится. Использование: /settings {usage}",
    },
    # --- who may ------------------------------------------------------------------------------
    "settings.not_admin": {
        "en": "Only the admins of this server or room can see or change the bot's settings. Nothing was changed.",
        "ca": "Només els administradors d'aquest servidor o sala poden veure o canviar la configuració del bot. No s'ha canviat res.",
        "es": "Solo los administradores de este servidor o sala pueden ver o cambiar la configuración del bot. No se ha cambiado nada.",
        "pt": "Só os administradores deste servidor ou sala podem ver ou mudar as configurações do bot. Nada foi alterado.",
        "ru": "Видеть и менять настройки бота могут только админы этого сервера или комнаты. Ничего не изменено.",
    },
    # --- answers ------------------------------------------------------------------------------
    "settings.list": {
        "en": "Settings for {scope}:\n{lines}\nChange one with {prefix}settings KEY VALUE, or {prefix}settings KEY reset.",
        "ca": "Configuració de {scope}:\n{lines}\nCanvia'n una amb {prefix}settings CLAU VALOR, o {prefix}settings CLAU reset.",
        "es": "Ajustes de {scope}:\n{lines}\nCambia uno con {prefix}settings CLAVE VALOR, o {prefix}settings CLAVE reset.",
        "pt": "Configurações de {scope}:\n{lines}\nMude uma com {prefix}settings CHAVE VALOR, ou {prefix}settings CHAVE reset.",
        "ru": "Настройки для {scope}:\n{lines}\nИзменить: {prefix}settings КЛЮЧ ЗНАЧЕНИЕ, сбросить: {prefix}settings КЛЮЧ reset.",
    },
    "settings.line": {
        "en": "{setting} = {value} ({source}): {description}",
        "ca": "{setting} = {value} ({source}): {description}",
        "es": "{setting} = {value} ({source}): {description}",
        "pt": "{setting} = {value} ({source}): {description}",
        "ru": "{setting} = {value} ({source}): {description}",
    },
    "settings.set": {
        "en": "{setting} is now {value} for {scope}.",
        "ca": "{setting} ara és {value} per a {scope}.",
        "es": "{setting} ahora es {value} en {scope}.",
        "pt": "{setting} agora é {value} em {scope}.",
        "ru": "{setting} теперь {value} для {scope}.",
    },
    "settings.reset": {
        "en": "{setting} is no longer set for {scope}: it is {value} ({source}).",
        "ca": "{setting} ja no està configurat per a {scope}: és {value} ({source}).",
        "es": "{setting} ya no está ajustado en {scope}: es {value} ({source}).",
        "pt": "{setting} já não está configurado em {scope}: é {value} ({source}).",
        "ru": "{setting} больше не задан для {scope}: сейчас {value} ({source}).",
    },
    "settings.bad_value": {
        "en": "{setting}: {value!r} is not {expected}. Nothing was changed.",
        "ca": "{setting}: {value!r} no és {expected}. No s'ha canviat res.",
        "es": "{setting}: {value!r} no es {expected}. No se ha cambiado nada.",
        "pt": "{setting}: {value!r} não é {expected}. Nada foi alterado.",
        "ru": "{setting}: {value!r} — это не {expected}. Ничего не изменено.",
    },
    "settings.scope.server": {
        "en": "this server",
        "ca": "aquest servidor",
        "es": "este servidor",
        "pt": "este servidor",
        "ru": "этого сервера",
    },
    "settings.scope.channel": {
        "en": "this channel",
        "ca": "aquest canal",
        "es": "este canal",
        "pt": "este canal",
        "ru": "этого канала",
    },
    "settings.scope.chat": {
        "en": "this room",
        "ca": "aquesta sala",
        "es": "esta sala",
        "pt": "esta sala",
        "ru": "этой комнаты",
    },
    "settings.source.channel": {
        "en": "set for this channel",
        "ca": "configurat per a aquest canal",
        "es": "ajustado en este canal",
        "pt": "configurado neste canal",
        "ru": "задано для канала",
    },
    "settings.source.server": {
        "en": "set for the server",
        "ca": "configurat per al servidor",
        "es": "ajustado en el servidor",
        "pt": "configurado no servidor",
        "ru": "задано для сервера",
    },
    "settings.source.chat": {
        "en": "set for this room",
        "ca": "configurat per a aquesta sala",
        "es": "ajustado en esta sala",
        "pt": "configurado nesta sala",
        "ru": "задано для комнаты",
    },
    "settings.source.default": {
        "en": "default",
        "ca": "per defecte",
        "es": "por defecto",
        "pt": "padrão",
        "ru": "по умолчанию",
    },
    # --- what a value must be -------------------------------------------------------------------
    "settings.expected.seconds": {
        "en": "a number of seconds from {low} to {high}",
        "ca": "un nombre de segons de {low} a {high}",
        "es": "un número de segundos de {low} a {high}",
        "pt": "um número de segundos de {low} a {high}",
        "ru": "число секунд от {low} до {high}",
    },
    "settings.expected.duration": {
        "en": "a duration from {low} to {high} (such as 90s, 5m, 2h, 1d)",
        "ca": "una durada de {low} a {high} (com ara 90s, 5m, 2h, 1d)",
        "es": "una duración de {low} a {high} (como 90s, 5m, 2h, 1d)",
        "pt": "uma duração de {low} a {high} (como 90s, 5m, 2h, 1d)",
        "ru": "длительность от {low} до {high} (например, 90s, 5m, 2h, 1d)",
    },
    "settings.expected.clock": {
        "en": "auto, off, or a duration from {low} to {high} (such as 90s, 5m, 2h, 1d)",
        "ca": "auto, off, o una durada de {low} a {high} (com ara 90s, 5m, 2h, 1d)",
        "es": "auto, off, o una duración de {low} a {high} (como 90s, 5m, 2h, 1d)",
        "pt": "auto, off, ou uma duração de {low} a {high} (como 90s, 5m, 2h, 1d)",
        "ru": "auto, off или длительность от {low} до {high} (например, 90s, 5m, 2h, 1d)",
    },
    "settings.expected.whole": {
        "en": "a whole number from {low} to {high}",
        "ca": "un nombre enter de {low} a {high}",
        "es": "un número entero de {low} a {high}",
        "pt": "um número inteiro de {low} a {high}",
        "ru": "целое число от {low} до {high}",
    },
    "settings.expected.whole_or_none": {
        "en": "a whole number from {low} to {high}, or none",
        "ca": "un nombre enter de {low} a {high}, o none",
        "es": "un número entero de {low} a {high}, o none",
        "pt": "um número inteiro de {low} a {high}, ou none",
        "ru": "целое число от {low} до {high} или none",
    },
    "settings.expected.switch": {
        "en": "on or off",
        "ca": "on o off",
        "es": "on u off",
        "pt": "on ou off",
        "ru": "on или off",
    },
    "settings.expected.one_of": {
        "en": "one of {choices}",
        "ca": "un de {choices}",
        "es": "uno de {choices}",
        "pt": "um de {choices}",
        "ru": "одно из: {choices}",
    },
    "settings.expected.games": {
        "en": "a list of games from {games} (or none)",
        "ca": "una llista de jocs d'entre {games} (o none)",
        "es": "una lista de juegos entre {games} (o none)",
        "pt": "uma lista de jogos entre {games} (ou none)",
        "ru": "список игр из {games} (или none)",
    },
    "settings.expected.size": {
        "en": "a board size ROWSxCOLS from {low}x{low} to {high}x{high}",
        "ca": "una mida de tauler FILESxCOLUMNES de {low}x{low} a {high}x{high}",
        "es": "un tamaño de tablero FILASxCOLUMNAS de {low}x{low} a {high}x{high}",
        "pt": "um tamanho de tabuleiro LINHASxCOLUNAS de {low}x{low} a {high}x{high}",
        "ru": "размер доски СТРОКИxСТОЛБЦЫ от {low}x{low} до {high}x{high}",
    },
    "settings.expected.chats": {
        "en": "a list of channels or rooms (here, ids), or none for everywhere",
        "ca": "una llista de canals o sales (here, ids), o none per a tot arreu",
        "es": "una lista de canales o salas (here, ids), o none para todas partes",
        "pt": "uma lista de canais ou salas (here, ids), ou none para todo lado",
        "ru": "список каналов или комнат (here, id) или none — везде",
    },
    "settings.expected.zone": {
        "en": "a time zone by its IANA name, such as Europe/Madrid, America/New_York or UTC",
        "ca": "una zona horària pel seu nom IANA, com ara Europe/Madrid, America/New_York o UTC",
        "es": "una zona horaria por su nombre IANA, como Europe/Madrid, America/New_York o UTC",
        "pt": "um fuso horário pelo seu nome IANA, como Europe/Lisbon, America/Sao_Paulo ou UTC",
        "ru": "часовой пояс по имени IANA, например Europe/Moscow, America/New_York или UTC",
    },
    # --- new games refused by the settings ------------------------------------------------------
    "limits.game_disabled": {
        "en": "{game} is turned off here by the admins.",
        "ca": "Els administradors han desactivat {game} aquí.",
        "es": "Los administradores han desactivado {game} aquí.",
        "pt": "Os administradores desativaram {game} aqui.",
        "ru": "Админы отключили здесь игру «{game}».",
    },
    "limits.board_too_big": {
        "en": "Boards here are at most {max}; {size} is too big.",
        "ca": "Aquí els taulers són com a molt de {max}; {size} és massa gran.",
        "es": "Aquí los tableros son como mucho de {max}; {size} es demasiado grande.",
        "pt": "Aqui os tabuleiros são no máximo {max}; {size} é grande demais.",
        "ru": "Здесь доска не больше {max}; {size} — слишком большая.",
    },
    "limits.clock_range": {
        "en": "A clock of {clock} is not allowed here: the time per move goes from {low} to {high} in this chat.",
        "ca": "Aquí no es permet un rellotge de {clock}: en aquest xat el temps per jugada va de {low} a {high}.",
        "es": "Aquí no se permite un reloj de {clock}: en este chat el tiempo por jugada va de {low} a {high}.",
        "pt": "Aqui não é permitido um relógio de {clock}: neste chat o tempo por lance vai de {low} a {high}.",
        "ru": "Время на ход {clock} здесь не разрешено: в этом чате — от {low} до {high}.",
    },
    "limits.clock_people_only": {
        "en": "A clock is for games between players; the bot never keeps you waiting.",
        "ca": "El rellotge és per a partides entre jugadors; el bot no et fa esperar mai.",
        "es": "El reloj es para partidas entre jugadores; el bot nunca te hace esperar.",
        "pt": "O relógio é para jogos entre jogadores; o bot nunca o faz esperar.",
        "ru": "Время на ход — для игр между игроками; бот никогда не заставляет ждать.",
    },
    "limits.pvp_off": {
        "en": "Games between players are turned off here by the admins; you can play the bot.",
        "ca": "Els administradors han desactivat aquí les partides entre jugadors; pots jugar contra el bot.",
        "es": "Los administradores han desactivado aquí las partidas entre jugadores; puedes jugar contra el bot.",
        "pt": "Os administradores desativaram aqui os jogos entre jogadores; pode jogar contra o bot.",
        "ru": "Админы отключили здесь игры между игроками; можно сыграть с ботом.",
    },
    "limits.bot_vs_bot_off": {
        "en": "Games between two bots are turned off here by the admins.",
        "ca": "Els administradors han desactivat aquí les partides entre dos bots.",
        "es": "Los administradores han desactivado aquí las partidas entre dos bots.",
        "pt": "Os administradores desativaram aqui os jogos entre dois bots.",
        "ru": "Админы отключили здесь игры между двумя ботами.",
    },
    "limits.chat_not_allowed": {
        "en": "Games cannot be started here: the admins allow them in other channels or rooms only.",
        "ca": "Aquí no es poden començar partides: els administradors només les permeten en altres canals o sales.",
        "es": "Aquí no se pueden empezar partidas: los administradores solo las permiten en otros canales o salas.",
        "pt": "Aqui não se podem começar jogos: os administradores só os permitem noutros canais ou salas.",
        "ru": "Здесь нельзя начинать игры: админы разрешили их только в других каналах или комнатах.",
    },
    "limits.cooldown": {
        "en": "You can start a new game in {seconds:error.count.seconds}.",
        "ca": "Podràs començar una partida nova d'aquí a {seconds:error.count.seconds}.",
        "es": "Podrás empezar una partida nueva dentro de {seconds:error.count.seconds}.",
        "pt": "Poderá começar um jogo novo daqui a {seconds:error.count.seconds}.",
        "ru": "Новую партию можно будет начать через {seconds:error.count.seconds}.",
    },
    "limits.user_games": {
        "en": "You already have the most live games allowed ({max}): finish one first.",
        "ca": "Ja tens el màxim de partides en curs permès ({max}): acaba'n una primer.",
        "es": "Ya tienes el máximo de partidas en curso permitido ({max}): termina una primero.",
        "pt": "Já tem o máximo de jogos em curso permitido ({max}): termine um primeiro.",
        "ru": "У вас уже максимум партий одновременно ({max}): сначала доиграйте одну.",
    },
    "limits.chat_games": {
        "en": "This channel or room already has the most live games allowed ({max}): wait for one to end.",
        "ca": "Aquest canal o sala ja té el màxim de partides en curs permès ({max}): espera que n'acabi una.",
        "es": "Este canal o sala ya tiene el máximo de partidas en curso permitido ({max}): espera a que termine una.",
        "pt": "Este canal ou sala já tem o máximo de jogos em curso permitido ({max}): espere que um termine.",
        "ru": "В этом канале или комнате уже максимум партий ({max}): дождитесь окончания одной.",
    },
    "limits.boards": {
        "en": "Too many new boards here this minute: try again in {seconds:error.count.seconds}.",
        "ca": "Massa taulers nous aquí aquest minut: torna-ho a provar d'aquí a {seconds:error.count.seconds}.",
        "es": "Demasiados tableros nuevos aquí este minuto: vuelve a intentarlo dentro de {seconds:error.count.seconds}.",
        "pt": "Demasiados tabuleiros novos aqui neste minuto: tente de novo daqui a {seconds:error.count.seconds}.",
        "ru": "Слишком много новых досок за эту минуту: попробуйте снова через {seconds:error.count.seconds}.",
    },
}
