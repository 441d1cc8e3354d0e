"""Texts of ratings, ladders and linked accounts (``/top``, the rating lines of ``/stats``,
``/link``, ``/unlink``) and of their command-table rows.

``{rating}`` is a rating as players read it ("1623 ±120", or "1500?" while provisional);
``{pool}`` names a rating pool in words (``core.games.kinds.pool_title``: "Connect Four 6x7",
"5 in a row on big boards"); ``{platform}`` is
``discord``, ``matrix`` or ``console``.
"""

# Cyrillic letters are the point of a translation, not look-alikes; a catalogue reads best with
# one translation per line.
# ruff: noqa: E501, RUF001

from __future__ import annotations

from collections.abc import Mapping

MESSAGES: Mapping[str, Mapping[str, str]] = {
    # --- the command table ----------------------------------------------------------------------
    "help.link": {
        "en": "Join this account with yours on another platform: one player, one rating.",
        "ca": "Uneix aquest compte amb el teu d'una altra plataforma: un jugador, una puntuació.",
        "es": "Une esta cuenta con la tuya de otra plataforma: un jugador, una puntuación.",
        "pt": "Junta esta conta com a tua noutra plataforma: um jogador, uma pontuação.",
        "ru": "Связать этот аккаунт с вашим на другой платформе: один игрок, один рейтинг.",
    },
    "help.unlink": {
        "en": "Separate this account from the accounts it is linked with.",
        "ca": "Separa aquest compte dels comptes amb què està unit.",
        "es": "Separa esta cuenta de las cuentas con las que está unida.",
        "pt": "Separa esta conta das contas a que está ligada.",
        "ru": "Отвязать этот аккаунт от связанных с ним аккаунтов.",
    },
    "help.hide": {
        "en": "Leave the web pages (you show as anonymous), or come back with off.",
        "ca": "Surt de les pàgines web (hi apareixes com a anònim), o torna-hi amb off.",
        "es": "Sal de las páginas web (apareces como anónimo), o vuelve con off.",
        "pt": "Sai das páginas web (apareces como anónimo), ou volta com off.",
        "ru": "Скрыться с веб-страниц (вы будете «аноним») или вернуться: off.",
    },
    "help.option.state": {
        "en": "on: hidden from the web pages; off: shown again.",
        "ca": "on: amagat de les pàgines web; off: visible de nou.",
        "es": "on: oculto en las páginas web; off: visible de nuevo.",
        "pt": "on: escondido das páginas web; off: visível de novo.",
        "ru": "on: скрыт с веб-страниц; off: снова виден.",
    },
    "discord.choice.state.on": {
        "en": "hide me",
        "ca": "amaga'm",
        "es": "ocúltame",
        "pt": "esconde-me",
        "ru": "скрыть меня",
    },
    "discord.choice.state.off": {
        "en": "show me again",
        "ca": "torna'm a mostrar",
        "es": "vuelve a mostrarme",
        "pt": "mostra-me de novo",
        "ru": "снова показать",
    },
    "help.option.casual": {
        "en": "An unrated game: ratings stay as they are.",
        "ca": "Una partida sense puntuació: les puntuacions no canvien.",
        "es": "Una partida sin puntuación: las puntuaciones no cambian.",
        "pt": "Um jogo sem pontuação: as pontuações não mudam.",
        "ru": "Партия без рейтинга: рейтинги не меняются.",
    },
    "help.option.ladder": {
        "en": "Whose ladder: this chat, this server or everyone.",
        "ca": "Quina classificació: aquest xat, aquest servidor o tothom.",
        "es": "Qué clasificación: este chat, este servidor o todos.",
        "pt": "Que classificação: este chat, este servidor ou todos.",
        "ru": "Чей рейтинг: этого чата, этого сервера или всех.",
    },
    "help.option.game": {
        "en": "The game (Connect Four by default).",
        "ca": "El joc (quatre en ratlla si no en dius cap).",
        "es": "El juego (cuatro en raya si no dices ninguno).",
        "pt": "O jogo (Lig 4 por omissão).",
        "ru": "Игра (по умолчанию «четыре в ряд»).",
    },
    "help.option.code": {
        "en": "The code /link gave you on your other platform.",
        "ca": "El codi que /link t'ha donat a l'altra plataforma.",
        "es": "El código que /link te dio en tu otra plataforma.",
        "pt": "O código que o /link te deu na outra plataforma.",
        "ru": "Код, который /link выдал на другой платформе.",
    },
    "discord.choice.ladder.chat": {
        "en": "this channel",
        "ca": "aquest canal",
        "es": "este canal",
        "pt": "este canal",
        "ru": "этот канал",
    },
    "discord.choice.ladder.server": {
        "en": "this server",
        "ca": "aquest servidor",
        "es": "este servidor",
        "pt": "este servidor",
        "ru": "этот сервер",
    },
    "discord.choice.ladder.all": {
        "en": "everyone",
        "ca": "tothom",
        "es": "todos",
        "pt": "todos",
        "ru": "все",
    },
    "discord.choice.game.tres": {
        "en": "tic-tac-toe",
        "ca": "tres en ratlla",
        "es": "tres en raya",
        "pt": "jogo da velha",
        "ru": "крестики-нолики",
    },
    "discord.choice.game.quatre": {
        "en": "Connect Four",
        "ca": "quatre en ratlla",
        "es": "cuatro en raya",
        "pt": "Lig 4",
        "ru": "четыре в ряд",
    },
    "parse.bad_link_code": {
        "en": "'{code}' is not a link code: a code is {length:ratings.count.characters}, letters and digits.",
        "ca": "'{code}' no és un codi d'unió: un codi té {length:ratings.count.characters}, lletres i xifres.",
        "es": "'{code}' no es un código de unión: un código tiene {length:ratings.count.characters}, letras y cifras.",
        "pt": "'{code}' não é um código de ligação: um código tem {length:ratings.count.characters}, letras e algarismos.",
        "ru": "'{code}' — не код связи: в коде {length:ratings.count.characters}, буквы и цифры.",
    },
    # --- ladders ---------------------------------------------------------------------------------
    "ratings.top.chat": {
        "en": "Ladder of this chat, {game}:\n{lines}",
        "ca": "Classificació d'aquest xat, {game}:\n{lines}",
        "es": "Clasificación de este chat, {game}:\n{lines}",
        "pt": "Classificação deste chat, {game}:\n{lines}",
        "ru": "Рейтинг этого чата, {game}:\n{lines}",
    },
    "ratings.top.server": {
        "en": "Ladder of this server, {game}:\n{lines}",
        "ca": "Classificació d'aquest servidor, {game}:\n{lines}",
        "es": "Clasificación de este servidor, {game}:\n{lines}",
        "pt": "Classificação deste servidor, {game}:\n{lines}",
        "ru": "Рейтинг этого сервера, {game}:\n{lines}",
    },
    "ratings.top.all": {
        "en": "Ladder of every chat and platform, {game}:\n{lines}",
        "ca": "Classificació de tots els xats i plataformes, {game}:\n{lines}",
        "es": "Clasificación de todos los chats y plataformas, {game}:\n{lines}",
        "pt": "Classificação de todos os chats e plataformas, {game}:\n{lines}",
        "ru": "Рейтинг всех чатов и платформ, {game}:\n{lines}",
    },
    "ratings.top_line": {
        # One line of ratings.top.*'s {lines}; rank starts at 1.
        "en": "{rank}. {name} — {rating}",
        "ca": "{rank}. {name} — {rating}",
        "es": "{rank}. {name} — {rating}",
        "pt": "{rank}. {name} — {rating}",
        "ru": "{rank}. {name} — {rating}",
    },
    "ratings.top_line_all": {
        # The global ladder names each player's platform, never a chat.
        "en": "{rank}. {name} ({platform}) — {rating}",
        "ca": "{rank}. {name} ({platform}) — {rating}",
        "es": "{rank}. {name} ({platform}) — {rating}",
        "pt": "{rank}. {name} ({platform}) — {rating}",
        "ru": "{rank}. {name} ({platform}) — {rating}",
    },
    "ratings.game_result": {
        # The result of a rated game, then each player's new rating and its change.
        "en": "{result}\nRatings: {change}",
        "ca": "{result}\nPuntuacions: {change}",
        "es": "{result}\nPuntuaciones: {change}",
        "pt": "{result}\nPontuações: {change}",
        "ru": "{result}\nРейтинги: {change}",
    },
    "ratings.top_empty": {
        "en": "Nobody is on this ladder ({game}) yet: a player appears after {games:ratings.count.rated_games}, for 30 days after their last one.",
        "ca": "Encara no hi ha ningú en aquesta classificació ({game}): un jugador hi surt després de {games:ratings.count.rated_games}, durant 30 dies després de l'última.",
        "es": "Aún no hay nadie en esta clasificación ({game}): un jugador aparece tras {games:ratings.count.rated_games}, durante 30 días después de la última.",
        "pt": "Ainda não há ninguém nesta classificação ({game}): um jogador aparece depois de {games:ratings.count.rated_games}, durante 30 dias após o último.",
        "ru": "В этом рейтинге ({game}) пока никого: игрок появляется после {games:ratings.count.rated_games} и остаётся 30 дней после последней.",
    },
    "ratings.top_no_server": {
        # /top server in a chat that belongs to no server (a Matrix room, a DM, the console).
        "en": "There is no server here, so this is the ladder of this chat; {top} all shows everyone's.",
        "ca": "Aquí no hi ha cap servidor, així que aquesta és la classificació d'aquest xat; {top} all mostra la de tothom.",
        "es": "Aquí no hay ningún servidor, así que esta es la clasificación de este chat; {top} all muestra la de todos.",
        "pt": "Aqui não há servidor, então esta é a classificação deste chat; {top} all mostra a de todos.",
        "ru": "Здесь нет сервера, поэтому показан рейтинг этого чата; {top} all — рейтинг всех.",
    },
    # --- /stats -----------------------------------------------------------------------------------
    "ratings.stats_line": {
        "en": "{pool}: {rating}, {games:ratings.count.rated_games}, rank {rank}",
        "ca": "{pool}: {rating}, {games:ratings.count.rated_games}, posició {rank}",
        "es": "{pool}: {rating}, {games:ratings.count.rated_games}, puesto {rank}",
        "pt": "{pool}: {rating}, {games:ratings.count.rated_games}, posição {rank}",
        "ru": "{pool}: {rating}, {games:ratings.count.rated_games}, место {rank}",
    },
    "ratings.stats_line_unranked": {
        # Provisional, or no rated game in the last 30 days: not on the ladders.
        "en": "{pool}: {rating}, {games:ratings.count.rated_games}, not on the ladder",
        "ca": "{pool}: {rating}, {games:ratings.count.rated_games}, fora de la classificació",
        "es": "{pool}: {rating}, {games:ratings.count.rated_games}, fuera de la clasificación",
        "pt": "{pool}: {rating}, {games:ratings.count.rated_games}, fora da classificação",
        "ru": "{pool}: {rating}, {games:ratings.count.rated_games}, вне рейтинга",
    },
    "ratings.recent_change": {
        "en": "{change} ({game})",
        "ca": "{change} ({game})",
        "es": "{change} ({game})",
        "pt": "{change} ({game})",
        "ru": "{change} ({game})",
    },
    "ratings.stats": {
        "en": "{results}\nRatings (± is the uncertainty; ? until 10 rated games):\n{lines}\nLast rated games: {changes}",
        "ca": "{results}\nPuntuacions (± és la incertesa; ? fins a 10 partides puntuades):\n{lines}\nÚltimes partides puntuades: {changes}",
        "es": "{results}\nPuntuaciones (± es la incertidumbre; ? hasta 10 partidas puntuadas):\n{lines}\nÚltimas partidas puntuadas: {changes}",
        "pt": "{results}\nPontuações (± é a incerteza; ? até 10 jogos pontuados):\n{lines}\nÚltimos jogos pontuados: {changes}",
        "ru": "{results}\nРейтинги (± — неопределённость; ? до 10 рейтинговых партий):\n{lines}\nПоследние рейтинговые партии: {changes}",
    },
    # --- /link and /unlink ----------------------------------------------------------------------
    "ratings.link_code": {
        "en": "Your link code: {code}. On your other platform, type {prefix}link {code} within {minutes:game.count.minutes}. Keep it to yourself: whoever types it joins your rating.",
        "ca": "El teu codi d'unió: {code}. A l'altra plataforma, escriu {prefix}link {code} en {minutes:game.count.minutes}. No el donis a ningú: qui l'escrigui s'uneix a la teva puntuació.",
        "es": "Tu código de unión: {code}. En tu otra plataforma, escribe {prefix}link {code} en {minutes:game.count.minutes}. No se lo des a nadie: quien lo escriba se une a tu puntuación.",
        "pt": "O teu código de ligação: {code}. Na outra plataforma, escreve {prefix}link {code} em {minutes:game.count.minutes}. Não o dês a ninguém: quem o escrever junta-se à tua pontuação.",
        "ru": "Ваш код связи: {code}. На другой платформе напишите {prefix}link {code}; код действует {minutes:game.count.minutes}. Никому его не давайте: кто его введёт, получит ваш рейтинг.",
    },
    "ratings.link_not_private": {
        "en": "A link code is never shown in a room others can read: type {prefix}link in a direct chat with just you and me, or /link on Discord, where only you see the answer. The answer says how to use the code.",
        "ca": "Un codi d'unió no es mostra mai en una sala que altres poden llegir: escriu {prefix}link en un xat directe només entre tu i jo, o /link a Discord, on només tu veus la resposta. La resposta diu com fer servir el codi.",
        "es": "Un código de unión nunca se muestra en una sala que otros pueden leer: escribe {prefix}link en un chat directo solo entre tú y yo, o /link en Discord, donde solo tú ves la respuesta. La respuesta dice cómo usar el código.",
        "pt": "Um código de ligação nunca se mostra numa sala que outros podem ler: escreve {prefix}link numa conversa direta só entre ti e mim, ou /link no Discord, onde só tu vês a resposta. A resposta diz como usar o código.",
        "ru": "Код связи не показывается там, где его прочитают другие: напишите {prefix}link в личном чате только со мной или /link в Discord, где ответ видите только вы. В ответе сказано, как использовать код.",
    },
    "ratings.linked": {
        "en": "Linked: this account and your {platform} account are one player now, with one rating.",
        "ca": "Units: aquest compte i el teu compte de {platform} ara són un sol jugador, amb una puntuació.",
        "es": "Unidas: esta cuenta y tu cuenta de {platform} son ahora un solo jugador, con una puntuación.",
        "pt": "Ligadas: esta conta e a tua conta de {platform} são agora um só jogador, com uma pontuação.",
        "ru": "Связано: этот аккаунт и ваш аккаунт {platform} теперь один игрок с одним рейтингом.",
    },
    "ratings.link.wrong": {
        "en": "No link code {code}: check it, or ask for a new one with {prefix}link on your other platform.",
        "ca": "No hi ha cap codi d'unió {code}: revisa'l, o demana'n un de nou amb {prefix}link a l'altra plataforma.",
        "es": "No hay ningún código de unión {code}: revísalo, o pide uno nuevo con {prefix}link en tu otra plataforma.",
        "pt": "Não há nenhum código de ligação {code}: verifica-o, ou pede um novo com {prefix}link na outra plataforma.",
        "ru": "Кода связи {code} нет: проверьте его или получите новый командой {prefix}link на другой платформе.",
    },
    "ratings.link.expired": {
        "en": "The link code {code} has expired: ask for a new one with {prefix}link on your other platform.",
        "ca": "El codi d'unió {code} ha caducat: demana'n un de nou amb {prefix}link a l'altra plataforma.",
        "es": "El código de unión {code} ha caducado: pide uno nuevo con {prefix}link en tu otra plataforma.",
        "pt": "O código de ligação {code} expirou: pede um novo com {prefix}link na outra plataforma.",
        "ru": "Срок кода связи {code} истёк: получите новый командой {prefix}link на другой платформе.",
    },
    "ratings.link.used": {
        "en": "The link code {code} was used already: a code works once. Ask for a new one with {prefix}link on your other platform.",
        "ca": "El codi d'unió {code} ja s'ha fet servir: un codi només val una vegada. Demana'n un de nou amb {prefix}link a l'altra plataforma.",
        "es": "El código de unión {code} ya se usó: un código vale una sola vez. Pide uno nuevo con {prefix}link en tu otra plataforma.",
        "pt": "O código de ligação {code} já foi usado: um código só vale uma vez. Pede um novo com {prefix}link na outra plataforma.",
        "ru": "Код связи {code} уже использован: код действует один раз. Получите новый командой {prefix}link на другой платформе.",
    },
    "ratings.link.same_platform": {
        "en": "The link code {code} was made on this platform: type it on your other platform.",
        "ca": "El codi d'unió {code} s'ha fet en aquesta plataforma: escriu-lo a l'altra plataforma.",
        "es": "El código de unión {code} se hizo en esta plataforma: escríbelo en tu otra plataforma.",
        "pt": "O código de ligação {code} foi feito nesta plataforma: escreve-o na outra plataforma.",
        "ru": "Код связи {code} получен на этой платформе: введите его на другой платформе.",
    },
    "ratings.link.already": {
        "en": "These accounts are linked already.",
        "ca": "Aquests comptes ja estan units.",
        "es": "Estas cuentas ya están unidas.",
        "pt": "Estas contas já estão ligadas.",
        "ru": "Эти аккаунты уже связаны.",
    },
    "ratings.link.linked_elsewhere": {
        "en": "This account is linked with other accounts: {prefix}unlink first.",
        "ca": "Aquest compte està unit amb altres comptes: primer {prefix}unlink.",
        "es": "Esta cuenta está unida con otras cuentas: primero {prefix}unlink.",
        "pt": "Esta conta está ligada a outras contas: primeiro {prefix}unlink.",
        "ru": "Этот аккаунт связан с другими: сначала {prefix}unlink.",
    },
    "ratings.hidden": {
        "en": "You are hidden from the web pages: ladders show you as anonymous and your player page is gone. {prefix}hide off shows you again.",
        "ca": "Estàs amagat de les pàgines web: les classificacions et mostren com a anònim i la teva pàgina de jugador ja no hi és. {prefix}hide off et torna a mostrar.",
        "es": "Estás oculto en las páginas web: las clasificaciones te muestran como anónimo y tu página de jugador ya no está. {prefix}hide off te vuelve a mostrar.",
        "pt": "Estás escondido das páginas web: as classificações mostram-te como anónimo e a tua página de jogador desapareceu. {prefix}hide off volta a mostrar-te.",
        "ru": "Вы скрыты с веб-страниц: в рейтингах вы «аноним», вашей страницы игрока больше нет. {prefix}hide off снова покажет вас.",
    },
    "ratings.unhidden": {
        "en": "You are shown on the web pages again, under your name.",
        "ca": "Tornes a aparèixer a les pàgines web, amb el teu nom.",
        "es": "Vuelves a aparecer en las páginas web, con tu nombre.",
        "pt": "Voltas a aparecer nas páginas web, com o teu nome.",
        "ru": "Вы снова видны на веб-страницах под своим именем.",
    },
    "ratings.unlinked": {
        "en": "Unlinked: {count:ratings.count.accounts} left this player. An account that left starts again as a new player.",
        "ca": "Separats: {count:ratings.count.accounts} han deixat aquest jugador. Un compte que marxa torna a començar com a jugador nou.",
        "es": "Separadas: {count:ratings.count.accounts} dejaron este jugador. Una cuenta que se va empieza de nuevo como jugador nuevo.",
        "pt": "Separadas: {count:ratings.count.accounts} deixaram este jogador. Uma conta que sai recomeça como jogador novo.",
        "ru": "Отвязано аккаунтов: {count:ratings.count.accounts}. Отвязанный аккаунт начинает заново как новый игрок.",
    },
    "ratings.not_linked": {
        "en": "This account is not linked with any other.",
        "ca": "Aquest compte no està unit amb cap altre.",
        "es": "Esta cuenta no está unida con ninguna otra.",
        "pt": "Esta conta não está ligada a nenhuma outra.",
        "ru": "Этот аккаунт ни с чем не связан.",
    },
}

PLURALS: Mapping[str, Mapping[str, Mapping[str, str]]] = {
    "ratings.count.rated_games": {
        "en": {"one": "{count} rated game", "other": "{count} rated games"},
        "ca": {
            "one": "{count} partida puntuada",
            "many": "{count} de partides puntuades",
            "other": "{count} partides puntuades",
        },
        "es": {
            "one": "{count} partida puntuada",
            "many": "{count} de partidas puntuadas",
            "other": "{count} partidas puntuadas",
        },
        "pt": {
            "one": "{count} jogo pontuado",
            "many": "{count} de jogos pontuados",
            "other": "{count} jogos pontuados",
        },
        "ru": {
            "one": "{count} рейтинговая партия",
            "few": "{count} рейтинговые партии",
            "many": "{count} рейтинговых партий",
            "other": "{count} рейтинговой партии",
        },
    },
    "ratings.count.characters": {
        "en": {"one": "{count} character", "other": "{count} characters"},
        "ca": {
            "one": "{count} caràcter",
            "many": "{count} de caràcters",
            "other": "{count} caràcters",
        },
        "es": {
            "one": "{count} carácter",
            "many": "{count} de caracteres",
            "other": "{count} caracteres",
        },
        "pt": {
            "one": "{count} carácter",
            "many": "{count} de caracteres",
            "other": "{count} caracteres",
        },
        "ru": {
            "one": "{count} символ",
            "few": "{count} символа",
            "many": "{count} символов",
            "other": "{count} символа",
        },
    },
    "ratings.count.accounts": {
        "en": {"one": "{count} account", "other": "{count} accounts"},
        "ca": {"one": "{count} compte", "many": "{count} de comptes", "other": "{count} comptes"},
        "es": {"one": "{count} cuenta", "many": "{count} de cuentas", "other": "{count} cuentas"},
        "pt": {"one": "{count} conta", "many": "{count} de contas", "other": "{count} contas"},
        "ru": {
            "one": "{count} аккаунт",
            "few": "{count} аккаунта",
            "many": "{count} аккаунтов",
            "other": "{count} аккаунта",
        },
    },
}
