"""Texts of matchmaking: ``/seek``, the queue, open games between two chats, ``/block`` and
``/unblock``.

``{game}`` is a game's name (``game.name.*``), ``{mode}`` is ``seek.rated`` or ``seek.casual``,
``{clock}`` a time per move as people read it (``2 min``), ``{x}`` and ``{o}`` a player as the
other chat may see them: display name, platform and rating, nothing else.
"""

# Cyrillic letters are the point of a translation, not look-alikes; a catalogue reads best with
# one translation per line.
# ruff: noqa: E501, RUF001

from __future__ import annotations

from collections.abc import Mapping

MESSAGES: Mapping[str, Mapping[str, str]] = {
    "help.seek": {
        "en": "Play someone from any chat.",
        "ca": "Juga amb algú d'un altre xat.",
        "es": "Un rival de otro chat.",
        "pt": "Jogue com alguém de outro chat.",
        "ru": "Игра с кем-то из другого чата.",
    },
    "help.block": {
        "en": "Never meet a player again.",
        "ca": "Evita un jugador.",
        "es": "Evita a un jugador.",
        "pt": "Evite um jogador.",
        "ru": "Избегать игрока.",
    },
    "help.unblock": {
        "en": "Meet a blocked player again.",
        "ca": "Torna a trobar un jugador blocat.",
        "es": "Vuelve a encontrar a un jugador bloqueado.",
        "pt": "Volte a encontrar um jogador bloqueado.",
        "ru": "Снова встречать заблокированного игрока.",
    },
    "help.option.mode": {
        "en": "Rated (paired by rating) or casual",
        "ca": "Puntuada (per rànquing) o amistosa",
        "es": "Puntuada (por rating) o amistosa",
        "pt": "Valendo rating ou amistosa",
        "ru": "На рейтинг (подбор по рейтингу) или товарищеская",
    },
    # The slash command's choices (adapters/discord): what a player picks in /seek (the games'
    # names are /top's, in ratings.py).
    "discord.choice.game.cancel": {
        "en": "leave the queue",
        "ca": "sortir de la cua",
        "es": "salir de la cola",
        "pt": "sair da fila",
        "ru": "выйти из очереди",
    },
    "discord.choice.mode.rated": {
        "en": "rated",
        "ca": "puntuada",
        "es": "puntuada",
        "pt": "valendo rating",
        "ru": "на рейтинг",
    },
    "discord.choice.mode.casual": {
        "en": "casual",
        "ca": "amistosa",
        "es": "amistosa",
        "pt": "amistosa",
        "ru": "товарищеская",
    },
    "discord.button.block": {
        "en": "Block",
        "ca": "Bloca",
        "es": "Bloquear",
        "pt": "Bloquear",
        "ru": "Заблокировать",
    },
    "discord.hint.block": {
        "en": "Never meet this player again? Type {command} here.",
        "ca": "No vols tornar a trobar aquest jugador? Escriu {command} aquí.",
        "es": "¿No quieres volver a encontrar a este jugador? Escribe {command} aquí.",
        "pt": "Não quer voltar a encontrar este jogador? Escreva {command} aqui.",
        "ru": "Не хотите больше встречать этого игрока? Введите {command} здесь.",
    },
    "matrix.actions.block": {
        "en": "Never meet this opponent again? Type {block} here.",
        "ca": "No vols tornar a trobar aquest rival? Escriu {block} aquí.",
        "es": "¿No quieres volver a encontrar a este rival? Escribe {block} aquí.",
        "pt": "Não quer voltar a encontrar este rival? Escreva {block} aqui.",
        "ru": "Не хотите больше встречать этого соперника? Введите {block} здесь.",
    },
    "help.option.block_player": {
        "en": "A player of this server to block.",
        "ca": "Un jugador d'aquest servidor a blocar.",
        "es": "Un jugador de este servidor a bloquear.",
        "pt": "Um jogador deste servidor a bloquear.",
        "ru": "Игрок этого сервера, которого заблокировать.",
    },
    "help.option.unblock_player": {
        "en": "A player of this server to unblock.",
        "ca": "Un jugador d'aquest servidor a desblocar.",
        "es": "Un jugador de este servidor a desbloquear.",
        "pt": "Um jogador deste servidor a desbloquear.",
        "ru": "Игрок этого сервера, которого разблокировать.",
    },
    "help.option.block_name": {
        "en": "Or a recent opponent's name as their board showed it (neither: your latest).",
        "ca": "O el nom d'un rival recent tal com el mostrava el tauler (cap: l'últim).",
        "es": "O el nombre de un rival reciente tal como lo mostraba el tablero (nada: el último).",
        "pt": "Ou o nome de um rival recente como o tabuleiro o mostrava (nada: o último).",
        "ru": "Или имя недавнего соперника, как на доске (ничего: последний соперник).",
    },
    "discord.open_play_needs_the_bot": {
        "en": "Open play needs me in this chat, to show your opponent's moves: add me to the server, or /seek in a DM with me.",
        "ca": "El joc obert em necessita en aquest xat, per mostrar les jugades del rival: afegeix-me al servidor, o fes /seek en un missatge directe amb mi.",
        "es": "El juego abierto me necesita en este chat, para mostrar las jugadas del rival: añádeme al servidor, o haz /seek en un mensaje directo conmigo.",
        "pt": "O jogo aberto precisa de mim neste chat, para mostrar as jogadas do rival: adicione-me ao servidor, ou faça /seek numa mensagem direta comigo.",
        "ru": "Для открытой игры я должен быть в этом чате, чтобы показывать ходы соперника: добавьте меня на сервер или сделайте /seek в личных сообщениях со мной.",
    },
    "seek.rated": {
        "en": "rated",
        "ca": "puntuada",
        "es": "puntuada",
        "pt": "valendo rating",
        "ru": "на рейтинг",
    },
    "seek.casual": {
        "en": "casual",
        "ca": "amistosa",
        "es": "amistosa",
        "pt": "amistosa",
        "ru": "товарищеская",
    },
    "seek.queued": {
        "en": "Looking for an opponent: {game}, {mode}, {clock} a move. You wait up to {minutes:game.count.minutes}; {cancel} leaves the queue.",
        "ca": "Buscant rival: {game}, {mode}, {clock} per jugada. Esperes fins a {minutes:game.count.minutes}; {cancel} surt de la cua.",
        "es": "Buscando rival: {game}, {mode}, {clock} por jugada. Esperas hasta {minutes:game.count.minutes}; {cancel} sale de la cola.",
        "pt": "Procurando rival: {game}, {mode}, {clock} por jogada. Espera até {minutes:game.count.minutes}; {cancel} sai da fila.",
        "ru": "Ищем соперника: {game}, {mode}, {clock} на ход. Время поиска — {minutes:game.count.minutes}; {cancel} — выйти из очереди.",
    },
    "seek.paired": {
        "en": "Open game, {mode}: {x} against {o}. Each plays in their own chat; {clock} a move.",
        "ca": "Partida oberta, {mode}: {x} contra {o}. Cadascú juga al seu xat; {clock} per jugada.",
        "es": "Partida abierta, {mode}: {x} contra {o}. Cada uno juega en su chat; {clock} por jugada.",
        "pt": "Jogo aberto, {mode}: {x} contra {o}. Cada um joga no seu chat; {clock} por jogada.",
        "ru": "Открытая партия, {mode}: {x} — {o}. Каждый играет в своём чате; {clock} на ход.",
    },
    "seek.player": {
        "en": "{name} ({platform}, {rating})",
        "ca": "{name} ({platform}, {rating})",
        "es": "{name} ({platform}, {rating})",
        "pt": "{name} ({platform}, {rating})",
        "ru": "{name} ({platform}, {rating})",
    },
    "seek.list": {
        "en": "Waiting for an opponent:\n{lines}",
        "ca": "Esperant rival:\n{lines}",
        "es": "Esperando rival:\n{lines}",
        "pt": "Esperando rival:\n{lines}",
        "ru": "Ждут соперника:\n{lines}",
    },
    "seek.list_line": {
        "en": "{game}, {mode}: {count:seek.count.waiting}",
        "ca": "{game}, {mode}: {count:seek.count.waiting}",
        "es": "{game}, {mode}: {count:seek.count.waiting}",
        "pt": "{game}, {mode}: {count:seek.count.waiting}",
        "ru": "{game}, {mode}: {count:seek.count.waiting}",
    },
    "seek.list_empty": {
        "en": "Nobody is waiting for an opponent. {seek} puts you first in the queue.",
        "ca": "Ningú espera rival. {seek} et posa el primer a la cua.",
        "es": "Nadie espera rival. {seek} te pone el primero en la cola.",
        "pt": "Ninguém espera rival. {seek} coloca você primeiro na fila.",
        "ru": "Никто не ждёт соперника. {seek} поставит вас первым в очередь.",
    },
    "seek.yours": {
        "en": "You are waiting: {game}, {mode}; {cancel} leaves the queue.",
        "ca": "Estàs esperant: {game}, {mode}; {cancel} surt de la cua.",
        "es": "Estás esperando: {game}, {mode}; {cancel} sale de la cola.",
        "pt": "Você está esperando: {game}, {mode}; {cancel} sai da fila.",
        "ru": "Вы в очереди: {game}, {mode}; {cancel} — выйти.",
    },
    "seek.cancelled": {
        "en": "You left the queue for {game}.",
        "ca": "Has sortit de la cua de {game}.",
        "es": "Has salido de la cola de {game}.",
        "pt": "Você saiu da fila de {game}.",
        "ru": "Вы вышли из очереди на {game}.",
    },
    "seek.expired": {
        "en": "{player}, nobody was found for {game} in {minutes:game.count.minutes}: your seek expired. {seek} tries again.",
        "ca": "{player}, no s'ha trobat ningú per a {game} en {minutes:game.count.minutes}: la teva cerca ha caducat. {seek} ho torna a provar.",
        "es": "{player}, no se encontró a nadie para {game} en {minutes:game.count.minutes}: tu búsqueda caducó. {seek} lo intenta de nuevo.",
        "pt": "{player}, ninguém foi encontrado para {game} em {minutes:game.count.minutes}: a sua busca expirou. {seek} tenta de novo.",
        "ru": "{player}, соперник для игры {game} не нашёлся, время поиска ({minutes:game.count.minutes}) истекло. {seek} — попробовать снова.",
    },
    "seek.withdrawn": {
        "en": "{player}, open play was turned off here: your seek for {game} was withdrawn.",
        "ca": "{player}, el joc obert s'ha desactivat aquí: s'ha retirat la teva cerca de {game}.",
        "es": "{player}, el juego abierto se desactivó aquí: se retiró tu búsqueda de {game}.",
        "pt": "{player}, o jogo aberto foi desativado aqui: a sua busca de {game} foi retirada.",
        "ru": "{player}, открытая игра здесь выключена: ваш поиск игры {game} отменён.",
    },
    "error.seek_none": {
        "en": "You are not in the queue. {seek} looks for an opponent.",
        "ca": "No ets a la cua. {seek} busca un rival.",
        "es": "No estás en la cola. {seek} busca un rival.",
        "pt": "Você não está na fila. {seek} procura um rival.",
        "ru": "Вас нет в очереди. {seek} — найти соперника.",
    },
    "error.seek_twice": {
        "en": "You are already waiting for an opponent ({game}, {mode}). {cancel} leaves the queue first.",
        "ca": "Ja esperes un rival ({game}, {mode}). Primer surt de la cua amb {cancel}.",
        "es": "Ya esperas un rival ({game}, {mode}). Primero sal de la cola con {cancel}.",
        "pt": "Você já espera um rival ({game}, {mode}). Saia primeiro da fila com {cancel}.",
        "ru": "Вы уже ждёте соперника ({game}, {mode}). Сначала выйдите из очереди: {cancel}.",
    },
    "limits.open_play_off": {
        "en": "Open play (games with other chats) is off here. An admin can turn it on: {prefix}settings open_play on.",
        "ca": "El joc obert (partides amb altres xats) està desactivat aquí. Un administrador el pot activar: {prefix}settings open_play on.",
        "es": "El juego abierto (partidas con otros chats) está desactivado aquí. Un administrador puede activarlo: {prefix}settings open_play on.",
        "pt": "O jogo aberto (jogos com outros chats) está desativado aqui. Um administrador pode ativá-lo: {prefix}settings open_play on.",
        "ru": "Открытая игра (партии с другими чатами) здесь выключена. Админ может включить: {prefix}settings open_play on.",
    },
    "block.done": {
        "en": "You will not be paired with {player} again.",
        "ca": "No et tornarem a emparellar amb {player}.",
        "es": "No te volveremos a emparejar con {player}.",
        "pt": "Não vamos mais emparelhar você com {player}.",
        "ru": "{player} больше не попадёт с вами в пару.",
    },
    "block.already": {
        "en": "You had blocked {player} already.",
        "ca": "Ja havies blocat {player}.",
        "es": "Ya habías bloqueado a {player}.",
        "pt": "Você já tinha bloqueado {player}.",
        "ru": "Этот игрок уже заблокирован: {player}.",
    },
    "block.opponent": {
        "en": "{name} ({platform})",
        "ca": "{name} ({platform})",
        "es": "{name} ({platform})",
        "pt": "{name} ({platform})",
        "ru": "{name} ({platform})",
    },
    "error.block_no_opponent": {
        "en": "You have played no open game from this chat lately. To block a player of this chat, name them: {block} @player.",
        "ca": "No has jugat cap partida oberta des d'aquest xat últimament. Per blocar un jugador d'aquest xat, anomena'l: {block} @jugador.",
        "es": "No has jugado ninguna partida abierta desde este chat últimamente. Para bloquear a un jugador de este chat, nómbralo: {block} @jugador.",
        "pt": "Você não jogou nenhuma partida aberta deste chat ultimamente. Para bloquear um jogador deste chat, nomeie-o: {block} @jogador.",
        "ru": "В последнее время вы не играли открытых партий из этого чата. Чтобы заблокировать игрока этого чата, укажите его: {block} @игрок.",
    },
    "error.block_unknown": {
        "en": "None of your recent opponents in open games from this chat is called {player}. Type {block} alone to block your latest opponent, or {block} @player for a player of this chat.",
        "ca": "Cap dels teus rivals recents en partides obertes des d'aquest xat no es diu {player}. Escriu només {block} per blocar el teu últim rival, o {block} @jugador per a un jugador d'aquest xat.",
        "es": "Ninguno de tus rivales recientes en partidas abiertas desde este chat se llama {player}. Escribe solo {block} para bloquear a tu último rival, o {block} @jugador para un jugador de este chat.",
        "pt": "Nenhum dos seus rivais recentes em partidas abertas deste chat se chama {player}. Escreva só {block} para bloquear o seu último rival, ou {block} @jogador para um jogador deste chat.",
        "ru": "Ни одного из ваших недавних соперников в открытых партиях из этого чата не зовут {player}. Введите просто {block}, чтобы заблокировать последнего соперника, или {block} @игрок для игрока этого чата.",
    },
    "error.block_ambiguous": {
        "en": "More than one of your recent opponents is called {player}. Type {block} alone right after the game to block that game's opponent.",
        "ca": "Més d'un dels teus rivals recents es diu {player}. Escriu només {block} just després de la partida per blocar el rival d'aquella partida.",
        "es": "Más de uno de tus rivales recientes se llama {player}. Escribe solo {block} justo después de la partida para bloquear al rival de esa partida.",
        "pt": "Mais de um dos seus rivais recentes se chama {player}. Escreva só {block} logo após a partida para bloquear o rival dessa partida.",
        "ru": "Так зовут нескольких ваших недавних соперников: {player}. Введите просто {block} сразу после партии, чтобы заблокировать соперника этой партии.",
    },
    "error.block_self": {
        "en": "You cannot block yourself.",
        "ca": "No et pots blocar a tu mateix.",
        "es": "No puedes bloquearte a ti mismo.",
        "pt": "Você não pode bloquear a si mesmo.",
        "ru": "Нельзя заблокировать самого себя.",
    },
    "unblock.done": {
        "en": "You may be paired with {player} again.",
        "ca": "Et podem tornar a emparellar amb {player}.",
        "es": "Te podemos volver a emparejar con {player}.",
        "pt": "Podemos voltar a emparelhar você com {player}.",
        "ru": "{player} снова может попасть с вами в пару.",
    },
    "unblock.not_blocked": {
        "en": "You had not blocked {player}: nothing to undo.",
        "ca": "No havies blocat {player}: no hi ha res a desfer.",
        "es": "No habías bloqueado a {player}: no hay nada que deshacer.",
        "pt": "Você não tinha bloqueado {player}: não há nada a desfazer.",
        "ru": "Этот игрок не был заблокирован: {player}. Отменять нечего.",
    },
    "error.unblock_no_opponent": {
        "en": "You have played no open game from this chat lately. To unblock a player of this chat, name them: {block} @player.",
        "ca": "No has jugat cap partida oberta des d'aquest xat últimament. Per desblocar un jugador d'aquest xat, anomena'l: {block} @jugador.",
        "es": "No has jugado ninguna partida abierta desde este chat últimamente. Para desbloquear a un jugador de este chat, nómbralo: {block} @jugador.",
        "pt": "Você não jogou nenhuma partida aberta deste chat ultimamente. Para desbloquear um jogador deste chat, nomeie-o: {block} @jogador.",
        "ru": "В последнее время вы не играли открытых партий из этого чата. Чтобы разблокировать игрока этого чата, укажите его: {block} @игрок.",
    },
    "error.unblock_unknown": {
        "en": "None of your recent opponents in open games from this chat is called {player}. Type {block} alone to unblock your latest opponent, or {block} @player for a player of this chat.",
        "ca": "Cap dels teus rivals recents en partides obertes des d'aquest xat no es diu {player}. Escriu només {block} per desblocar el teu últim rival, o {block} @jugador per a un jugador d'aquest xat.",
        "es": "Ninguno de tus rivales recientes en partidas abiertas desde este chat se llama {player}. Escribe solo {block} para desbloquear a tu último rival, o {block} @jugador para un jugador de este chat.",
        "pt": "Nenhum dos seus rivais recentes em partidas abertas deste chat se chama {player}. Escreva só {block} para desbloquear o seu último rival, ou {block} @jogador para um jogador deste chat.",
        "ru": "Ни одного из ваших недавних соперников в открытых партиях из этого чата не зовут {player}. Введите просто {block}, чтобы разблокировать последнего соперника, или {block} @игрок для игрока этого чата.",
    },
    "error.unblock_ambiguous": {
        "en": "More than one of your recent opponents is called {player}. Type {block} alone right after a game with them to unblock that game's opponent.",
        "ca": "Més d'un dels teus rivals recents es diu {player}. Escriu només {block} just després d'una partida amb ell per desblocar el rival d'aquella partida.",
        "es": "Más de uno de tus rivales recientes se llama {player}. Escribe solo {block} justo después de una partida con él para desbloquear al rival de esa partida.",
        "pt": "Mais de um dos seus rivais recentes se chama {player}. Escreva só {block} logo após uma partida com ele para desbloquear o rival dessa partida.",
        "ru": "Так зовут нескольких ваших недавних соперников: {player}. Введите просто {block} сразу после партии с ним, чтобы разблокировать соперника этой партии.",
    },
    "error.unblock_self": {
        "en": "You cannot block yourself, so there is nothing to unblock.",
        "ca": "No et pots blocar a tu mateix, així que no hi ha res a desblocar.",
        "es": "No puedes bloquearte a ti mismo, así que no hay nada que desbloquear.",
        "pt": "Você não pode bloquear a si mesmo, então não há nada a desbloquear.",
        "ru": "Нельзя заблокировать самого себя, так что и разблокировать нечего.",
    },
}

PLURALS: Mapping[str, Mapping[str, Mapping[str, str]]] = {
    "seek.count.waiting": {
        "en": {"one": "{count} waiting", "other": "{count} waiting"},
        "ca": {"one": "{count} esperant", "many": "{count} esperant", "other": "{count} esperant"},
        "es": {
            "one": "{count} esperando",
            "many": "{count} esperando",
            "other": "{count} esperando",
        },
        "pt": {
            "one": "{count} esperando",
            "many": "{count} esperando",
            "other": "{count} esperando",
        },
        "ru": {
            "one": "{count} ждёт",
            "few": "{count} ждут",
            "many": "{count} ждут",
            "other": "{count} ждут",
        },
    },
}
