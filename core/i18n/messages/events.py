"""Texts of tournaments: ``/tournament``, its answers and mistakes, and what an event says in
its chats (the reminder, the start, a new game, a cancellation, the final standings).

``{event}`` is an event's line (``event.format.*``: its name, game, length, clock and mode),
``{tournament}`` its name (its id, which ``/tournament join`` takes), ``{join}`` the command that
joins it, ``{lines}`` a table's lines (``event.line``).
"""

# Cyrillic letters are the point of a translation, not look-alikes; a catalogue reads best with
# one translation per line.
# ruff: noqa: E501, RUF001

from __future__ import annotations

from collections.abc import Mapping

MESSAGES: Mapping[str, Mapping[str, str]] = {
    "help.tournament": {
        "en": "Tournaments: arena, Swiss, round robin; join, leave, berserk, standings.",
        "ca": "Tornejos: arena, suís, lliga; apuntar-s'hi, deixar-los, berserk, classificació.",
        "es": "Torneos: arena, suizo, liga; apuntarse, dejarlos, berserk, clasificación.",
        "pt": "Torneios: arena, suíço, todos contra todos; entrar, sair, berserk, classificação.",
        "ru": "Турниры: арена, швейцарка, круговой; вступить, выйти, берсерк, таблица.",
    },
    "help.option.tournament_action": {
        "en": "Make an event (admins), join or leave one, or go berserk in its game",
        "ca": "Crea un torneig (administradors), apunta-t'hi, deixa'l o fes berserk a la partida",
        "es": "Crea un torneo (administradores), apúntate, déjalo o haz berserk en la partida",
        "pt": "Crie um torneio (administradores), entre, saia ou faça berserk no jogo",
        "ru": "Создать турнир (админы), вступить, выйти или пойти в берсерк",
    },
    "help.option.tournament_event": {
        "en": "The event's id (another chat's open event)",
        "ca": "L'identificador del torneig (un torneig obert d'un altre xat)",
        "es": "El identificador del torneo (un torneo abierto de otro chat)",
        "pt": "O identificador do torneio (um torneio aberto de outro chat)",
        "ru": "Номер турнира (открытый турнир другого чата)",
    },
    "help.option.tournament_length": {
        "en": "Rounds (Swiss) or duration (arena: 10m to 1d)",
        "ca": "Rondes (suís) o durada (arena: de 10m a 1d)",
        "es": "Rondas (suizo) o duración (arena: de 10m a 1d)",
        "pt": "Rodadas (suíço) ou duração (arena: de 10m a 1d)",
        "ru": "Туры (швейцарка) или длительность (арена: от 10m до 1d)",
    },
    "help.option.tournament_start": {
        "en": "Start: HH:MM (UTC) or +WAIT such as +30m",
        "ca": "Inici: HH:MM (UTC) o +ESPERA com +30m",
        "es": "Inicio: HH:MM (UTC) o +ESPERA como +30m",
        "pt": "Início: HH:MM (UTC) ou +ESPERA como +30m",
        "ru": "Начало: ЧЧ:ММ (UTC) или +ОЖИДАНИЕ, например +30m",
    },
    "help.option.tournament_name": {
        "en": "Its name (a new event)",
        "ca": "El seu nom (un torneig nou)",
        "es": "Su nombre (un torneo nuevo)",
        "pt": "O seu nome (um torneio novo)",
        "ru": "Его название (новый турнир)",
    },
    "discord.choice.action.arena": {
        "en": "arena",
        "ca": "arena",
        "es": "arena",
        "pt": "arena",
        "ru": "арена",
    },
    "discord.choice.action.swiss": {
        "en": "Swiss",
        "ca": "suís",
        "es": "suizo",
        "pt": "suíço",
        "ru": "швейцарка",
    },
    "discord.choice.action.roundrobin": {
        "en": "round robin",
        "ca": "lliga",
        "es": "liga",
        "pt": "todos contra todos",
        "ru": "круговой",
    },
    "discord.choice.action.join": {
        "en": "join",
        "ca": "apuntar-s'hi",
        "es": "apuntarse",
        "pt": "entrar",
        "ru": "вступить",
    },
    "discord.choice.action.leave": {
        "en": "leave",
        "ca": "deixar-lo",
        "es": "dejarlo",
        "pt": "sair",
        "ru": "выйти",
    },
    "discord.choice.action.berserk": {
        "en": "berserk",
        "ca": "berserk",
        "es": "berserk",
        "pt": "berserk",
        "ru": "берсерк",
    },
    "parse.event_rounds": {
        "en": "A Swiss event of '{rounds}' rounds is out of range: from {min} to {max} rounds.",
        "ca": "Un suís de '{rounds}' rondes està fora de límits: de {min} a {max} rondes.",
        "es": "Un suizo de '{rounds}' rondas está fuera de rango: de {min} a {max} rondas.",
        "pt": "Um suíço de '{rounds}' rodadas está fora dos limites: de {min} a {max} rodadas.",
        "ru": "Швейцарка на '{rounds}' туров вне пределов: от {min} до {max} туров.",
    },
    "parse.event_duration": {
        "en": "An arena of '{duration}' is out of range: it lasts from {min} to {max}.",
        "ca": "Una arena de '{duration}' està fora de límits: dura de {min} a {max}.",
        "es": "Una arena de '{duration}' está fuera de rango: dura de {min} a {max}.",
        "pt": "Uma arena de '{duration}' está fora dos limites: dura de {min} a {max}.",
        "ru": "Арена на '{duration}' вне пределов: она длится от {min} до {max}.",
    },
    "parse.event_start": {
        "en": "'{start}' is not a start: write HH:MM (UTC) or a wait such as +30m, at most +{max}.",
        "ca": "'{start}' no és un inici: escriu HH:MM (UTC) o una espera com +30m, com a molt +{max}.",
        "es": "'{start}' no es un inicio: escribe HH:MM (UTC) o una espera como +30m, como mucho +{max}.",
        "pt": "'{start}' não é um início: escreva HH:MM (UTC) ou uma espera como +30m, no máximo +{max}.",
        "ru": "'{start}' — не время начала: напишите ЧЧ:ММ (UTC) или ожидание вроде +30m, не больше +{max}.",
    },
    "event.format.arena": {
        "en": "Tournament {tournament}: arena, {game}, {span}, {clock} a move, {mode}",
        "ca": "Torneig {tournament}: arena, {game}, {span}, {clock} per jugada, {mode}",
        "es": "Torneo {tournament}: arena, {game}, {span}, {clock} por jugada, {mode}",
        "pt": "Torneio {tournament}: arena, {game}, {span}, {clock} por lance, {mode}",
        "ru": "Турнир {tournament}: арена, {game}, {span}, {clock} на ход, {mode}",
    },
    "event.format.swiss": {
        "en": "Tournament {tournament}: Swiss, {game}, {span}, {clock} a move, {mode}",
        "ca": "Torneig {tournament}: suís, {game}, {span}, {clock} per jugada, {mode}",
        "es": "Torneo {tournament}: suizo, {game}, {span}, {clock} por jugada, {mode}",
        "pt": "Torneio {tournament}: suíço, {game}, {span}, {clock} por lance, {mode}",
        "ru": "Турнир {tournament}: швейцарка, {game}, {span}, {clock} на ход, {mode}",
    },
    "event.format.roundrobin": {
        "en": "Tournament {tournament}: round robin, {game}, {clock} a move, {mode}",
        "ca": "Torneig {tournament}: lliga, {game}, {clock} per jugada, {mode}",
        "es": "Torneo {tournament}: liga, {game}, {clock} por jugada, {mode}",
        "pt": "Torneio {tournament}: todos contra todos, {game}, {clock} por lance, {mode}",
        "ru": "Турнир {tournament}: круговой, {game}, {clock} на ход, {mode}",
    },
    "event.rounds": {lang: "{n:event.count.rounds}" for lang in ("en", "ca", "es", "pt", "ru")},
    "event.line": {
        "en": "{rank}. {player}: {points} ({tiebreak}){berserk}{left}",
        "ca": "{rank}. {player}: {points} ({tiebreak}){berserk}{left}",
        "es": "{rank}. {player}: {points} ({tiebreak}){berserk}{left}",
        "pt": "{rank}. {player}: {points} ({tiebreak}){berserk}{left}",
        "ru": "{rank}. {player}: {points} ({tiebreak}){berserk}{left}",
    },
    "event.withdrawn": {
        "en": ", left",
        "ca": ", se n'ha anat",
        "es": ", se fue",
        "pt": ", saiu",
        "ru": ", вышел",
    },
    "event.created": {
        "en": "{event}. Starts in {minutes:game.count.minutes}. Join: {join}",
        "ca": "{event}. Comença d'aquí a {minutes:game.count.minutes}. Apunta-t'hi: {join}",
        "es": "{event}. Empieza en {minutes:game.count.minutes}. Apúntate: {join}",
        "pt": "{event}. Começa em {minutes:game.count.minutes}. Entre: {join}",
        "ru": "{event}. Начало через {minutes:game.count.minutes}. Вступить: {join}",
    },
    "event.created_at": {
        "en": "{event}. Starts at {time} UTC, in {minutes:game.count.minutes}. Join: {join}",
        "ca": "{event}. Comença a les {time} UTC, d'aquí a {minutes:game.count.minutes}."
        " Apunta-t'hi: {join}",
        "es": "{event}. Empieza a las {time} UTC, dentro de {minutes:game.count.minutes}."
        " Apúntate: {join}",
        "pt": "{event}. Começa às {time} UTC, daqui a {minutes:game.count.minutes}. Entre: {join}",
        "ru": "{event}. Начало в {time} UTC, через {minutes:game.count.minutes}. Вступить: {join}",
    },
    "event.reminder": {
        "en": "{event}: starts in {minutes:game.count.minutes}. Join: {join}",
        "ca": "{event}: comença d'aquí a {minutes:game.count.minutes}. Apunta-t'hi: {join}",
        "es": "{event}: empieza en {minutes:game.count.minutes}. Apúntate: {join}",
        "pt": "{event}: começa em {minutes:game.count.minutes}. Entre: {join}",
        "ru": "{event}: начало через {minutes:game.count.minutes}. Вступить: {join}",
    },
    "event.started": {
        "en": "{event}: it has started. You may still join: {join}",
        "ca": "{event}: ha començat. Encara t'hi pots apuntar: {join}",
        "es": "{event}: ha empezado. Aún puedes apuntarte: {join}",
        "pt": "{event}: começou. Ainda dá para entrar: {join}",
        "ru": "{event}: начался. Ещё можно вступить: {join}",
    },
    "event.cancelled": {
        "en": "Tournament {tournament} is cancelled: fewer than 2 players joined.",
        "ca": "El torneig {tournament} s'anul·la: s'hi han apuntat menys de 2 jugadors.",
        "es": "El torneo {tournament} se cancela: se apuntaron menos de 2 jugadores.",
        "pt": "O torneio {tournament} foi cancelado: entraram menos de 2 jogadores.",
        "ru": "Турнир {tournament} отменён: вступило меньше 2 игроков.",
    },
    "event.final": {
        "en": "Tournament {tournament} is over. Final standings:\n{lines}",
        "ca": "El torneig {tournament} s'ha acabat. Classificació final:\n{lines}",
        "es": "El torneo {tournament} ha terminado. Clasificación final:\n{lines}",
        "pt": "O torneio {tournament} terminou. Classificação final:\n{lines}",
        "ru": "Турнир {tournament} окончен. Итоговая таблица:\n{lines}",
    },
    "event.game": {
        "en": "Tournament {tournament}, round {round}: {x} against {o}, {clock} a move.",
        "ca": "Torneig {tournament}, ronda {round}: {x} contra {o}, {clock} per jugada.",
        "es": "Torneo {tournament}, ronda {round}: {x} contra {o}, {clock} por jugada.",
        "pt": "Torneio {tournament}, rodada {round}: {x} contra {o}, {clock} por lance.",
        "ru": "Турнир {tournament}, тур {round}: {x} — {o}, {clock} на ход.",
    },
    "event.gave_way": {
        "en": "{player}: your other game here is over (resigned, or a challenge withdrawn):"
        " a tournament game comes first, and yours in {tournament} has started.",
        "ca": "{player}: la teva altra partida aquí s'ha acabat (abandonada, o un repte"
        " retirat): una partida de torneig va primer, i la teva del torneig {tournament} ha"
        " començat.",
        "es": "{player}: tu otra partida aquí ha terminado (abandonada, o un reto retirado):"
        " una partida de torneo va primero, y la tuya del torneo {tournament} ha empezado.",
        "pt": "{player}: a sua outra partida aqui terminou (abandonada, ou um desafio retirado):"
        " uma partida de torneio vem primeiro, e a sua do torneio {tournament} começou.",
        "ru": "{player}: ваша другая партия здесь окончена (сдана или вызов отозван):"
        " турнирная партия важнее, и ваша партия в турнире {tournament} началась.",
    },
    "event.joined": {
        "en": "{player} joined tournament {tournament} ({count:event.count.players}).",
        "ca": "{player} s'ha apuntat al torneig {tournament} ({count:event.count.players}).",
        "es": "{player} se apuntó al torneo {tournament} ({count:event.count.players}).",
        "pt": "{player} entrou no torneio {tournament} ({count:event.count.players}).",
        "ru": "{player} вступает в турнир {tournament} ({count:event.count.players}).",
    },
    "event.back": {
        "en": "{player} is back in tournament {tournament}.",
        "ca": "{player} torna al torneig {tournament}.",
        "es": "{player} vuelve al torneo {tournament}.",
        "pt": "{player} voltou ao torneio {tournament}.",
        "ru": "{player} возвращается в турнир {tournament}.",
    },
    "event.left": {
        "en": "{player} left tournament {tournament}.",
        "ca": "{player} ha deixat el torneig {tournament}.",
        "es": "{player} dejó el torneo {tournament}.",
        "pt": "{player} saiu do torneio {tournament}.",
        "ru": "{player} выходит из турнира {tournament}.",
    },
    "event.table": {
        "en": "{event}\n{status}\n{lines}",
        "ca": "{event}\n{status}\n{lines}",
        "es": "{event}\n{status}\n{lines}",
        "pt": "{event}\n{status}\n{lines}",
        "ru": "{event}\n{status}\n{lines}",
    },
    "event.status.scheduled": {
        "en": "Starts in {minutes:game.count.minutes}; {count:event.count.players} so far. Join: {join}",
        "ca": "Comença d'aquí a {minutes:game.count.minutes}; de moment {count:event.count.players}. Apunta-t'hi: {join}",
        "es": "Empieza en {minutes:game.count.minutes}; por ahora {count:event.count.players}. Apúntate: {join}",
        "pt": "Começa em {minutes:game.count.minutes}; por enquanto {count:event.count.players}. Entre: {join}",
        "ru": "Начало через {minutes:game.count.minutes}; пока {count:event.count.players}. Вступить: {join}",
    },
    "event.status.arena": {
        "en": "Running: {minutes:game.count.minutes} left.",
        "ca": "En joc: en queden {minutes:game.count.minutes}.",
        "es": "En juego: quedan {minutes:game.count.minutes}.",
        "pt": "Em andamento: faltam {minutes:game.count.minutes}.",
        "ru": "Идёт: осталось {minutes:game.count.minutes}.",
    },
    "event.status.round": {
        "en": "Round {round} is being played.",
        "ca": "Es juga la ronda {round}.",
        "es": "Se juega la ronda {round}.",
        "pt": "A rodada {round} está em jogo.",
        "ru": "Идёт тур {round}.",
    },
    "event.status.finished": {
        "en": "Over. Final standings:",
        "ca": "Acabat. Classificació final:",
        "es": "Terminado. Clasificación final:",
        "pt": "Terminado. Classificação final:",
        "ru": "Окончен. Итоговая таблица:",
    },
    "event.status.cancelled": {
        "en": "Cancelled: fewer than 2 players joined.",
        "ca": "Anul·lat: s'hi han apuntat menys de 2 jugadors.",
        "es": "Cancelado: se apuntaron menos de 2 jugadores.",
        "pt": "Cancelado: entraram menos de 2 jogadores.",
        "ru": "Отменён: вступило меньше 2 игроков.",
    },
    "event.admins_only": {
        "en": "Only the admins of this chat can make a tournament here.",
        "ca": "Només els administradors d'aquest xat hi poden crear un torneig.",
        "es": "Solo los administradores de este chat pueden crear un torneo aquí.",
        "pt": "Só os administradores deste chat podem criar um torneio aqui.",
        "ru": "Создать турнир здесь могут только админы этого чата.",
    },
    "event.one_here": {
        "en": "Tournament {tournament} is already on in this chat: {show} shows it.",
        "ca": "El torneig {tournament} ja és en marxa en aquest xat: {show} el mostra.",
        "es": "El torneo {tournament} ya está en marcha en este chat: {show} lo muestra.",
        "pt": "O torneio {tournament} já está em andamento neste chat: {show} o mostra.",
        "ru": "В этом чате уже идёт турнир {tournament}: {show} покажет его.",
    },
    "event.unknown": {
        "en": "There is no tournament '{id}'.",
        "ca": "No hi ha cap torneig '{id}'.",
        "es": "No hay ningún torneo '{id}'.",
        "pt": "Não há nenhum torneio '{id}'.",
        "ru": "Турнира '{id}' нет.",
    },
    "event.none": {
        "en": "No tournament here. An admin can make one: {usage}",
        "ca": "Aquí no hi ha cap torneig. Un administrador en pot crear un: {usage}",
        "es": "Aquí no hay ningún torneo. Un administrador puede crear uno: {usage}",
        "pt": "Não há torneio aqui. Um administrador pode criar um: {usage}",
        "ru": "Здесь нет турнира. Админ может создать его: {usage}",
    },
    "event.closed_elsewhere": {
        "en": "Tournament {tournament} is joined from its own chat only.",
        "ca": "Al torneig {tournament} només s'hi apunta des del seu propi xat.",
        "es": "Al torneo {tournament} solo se apunta uno desde su propio chat.",
        "pt": "No torneio {tournament} só se entra pelo chat dele.",
        "ru": "В турнир {tournament} вступают только из его собственного чата.",
    },
    "event.twice": {
        "en": "You are in tournament {tournament} already.",
        "ca": "Ja ets al torneig {tournament}.",
        "es": "Ya estás en el torneo {tournament}.",
        "pt": "Você já está no torneio {tournament}.",
        "ru": "Вы уже в турнире {tournament}.",
    },
    "event.no_late_join": {
        "en": "Tournament {tournament} has started: a Swiss or round-robin event takes no late joins.",
        "ca": "El torneig {tournament} ja ha començat: un suís o una lliga no admet jugadors nous.",
        "es": "El torneo {tournament} ya empezó: un suizo o una liga no admite jugadores nuevos.",
        "pt": "O torneio {tournament} já começou: um suíço ou todos contra todos não aceita novos jogadores.",
        "ru": "Турнир {tournament} уже начался: в швейцарку и круговой турнир нельзя вступить позже.",
    },
    "event.over": {
        "en": "Tournament {tournament} is over.",
        "ca": "El torneig {tournament} s'ha acabat.",
        "es": "El torneo {tournament} ha terminado.",
        "pt": "O torneio {tournament} terminou.",
        "ru": "Турнир {tournament} окончен.",
    },
    "event.not_in": {
        "en": "You are not in tournament {tournament}.",
        "ca": "No ets al torneig {tournament}.",
        "es": "No estás en el torneo {tournament}.",
        "pt": "Você não está no torneio {tournament}.",
        "ru": "Вы не участвуете в турнире {tournament}.",
    },
    "event.no_post": {
        "en": "The bot cannot post in this chat (it came through your own install): a tournament needs it here to show your games. Join from a chat where the bot is a member.",
        "ca": "El bot no pot publicar en aquest xat (hi ha arribat per la teva pròpia instal·lació): un torneig l'hi necessita per mostrar-te les partides. Apunta-t'hi des d'un xat on el bot sigui membre.",
        "es": "El bot no puede publicar en este chat (llegó por tu propia instalación): un torneo lo necesita aquí para mostrar tus partidas. Apúntate desde un chat donde el bot sea miembro.",
        "pt": "O bot não pode publicar neste chat (chegou pela sua própria instalação): um torneio precisa dele aqui para mostrar seus jogos. Entre por um chat onde o bot seja membro.",
        "ru": "Бот не может писать в этот чат (он здесь через вашу личную установку): турниру нужно показывать здесь ваши партии. Вступайте из чата, где бот — участник.",
    },
    # Berserk (an arena's option): half the clock for a player's moves, +1 for his win.
    "event.mode_berserk": {
        "en": "{mode}, berserk allowed",
        "ca": "{mode}, amb berserk",
        "es": "{mode}, con berserk",
        "pt": "{mode}, com berserk",
        "ru": "{mode}, берсерк разрешён",
    },
    "event.berserk": {
        "en": "{player} goes berserk: {clock} a move, and a win scores 1 more.",
        "ca": "{player} es torna berserk: {clock} per jugada, i una victòria suma 1 punt més.",
        "es": "{player} se vuelve berserk: {clock} por jugada, y una victoria suma 1 punto más.",
        "pt": "{player} fica berserk: {clock} por lance, e uma vitória vale 1 ponto a mais.",
        "ru": "{player} идёт в берсерк: {clock} на ход, а победа даст на 1 очко больше.",
    },
    "event.berserk_no_game": {
        "en": "You have no tournament game going in this chat: berserk is for your own game, before your first move.",
        "ca": "No tens cap partida de torneig en joc en aquest xat: el berserk és per a la teva partida, abans de la primera jugada.",
        "es": "No tienes ninguna partida de torneo en juego en este chat: el berserk es para tu propia partida, antes de tu primera jugada.",
        "pt": "Você não tem jogo de torneio em andamento neste chat: o berserk é para o seu próprio jogo, antes do seu primeiro lance.",
        "ru": "У вас нет турнирной партии в этом чате: берсерк — для вашей партии, до вашего первого хода.",
    },
    "event.berserk_off": {
        "en": "Tournament {tournament} does not allow berserk.",
        "ca": "El torneig {tournament} no permet el berserk.",
        "es": "El torneo {tournament} no permite el berserk.",
        "pt": "O torneio {tournament} não permite berserk.",
        "ru": "В турнире {tournament} берсерк не разрешён.",
    },
    "event.berserk_late": {
        "en": "Too late to go berserk: you have made your first move.",
        "ca": "Massa tard per al berserk: ja has fet la primera jugada.",
        "es": "Demasiado tarde para el berserk: ya hiciste tu primera jugada.",
        "pt": "Tarde demais para o berserk: você já fez seu primeiro lance.",
        "ru": "Поздно для берсерка: вы уже сделали первый ход.",
    },
    "event.berserk_raced": {
        "en": "A move came first: ask again if it was not yours.",
        "ca": "Una jugada ha arribat abans: torna-ho a demanar si no era teva.",
        "es": "Una jugada llegó antes: vuelve a pedirlo si no era tuya.",
        "pt": "Um lance chegou antes: peça de novo se não foi seu.",
        "ru": "Ход пришёл раньше: повторите, если это был не ваш ход.",
    },
    "event.berserk_twice": {
        "en": "You are berserk already in this game.",
        "ca": "Ja ets berserk en aquesta partida.",
        "es": "Ya eres berserk en esta partida.",
        "pt": "Você já está berserk neste jogo.",
        "ru": "Вы уже в берсерке в этой партии.",
    },
}

PLURALS: Mapping[str, Mapping[str, Mapping[str, str]]] = {
    "event.count.rounds": {
        "en": {"one": "{count} round", "other": "{count} rounds"},
        "ca": {"one": "{count} ronda", "many": "{count} de rondes", "other": "{count} rondes"},
        "es": {"one": "{count} ronda", "many": "{count} de rondas", "other": "{count} rondas"},
        "pt": {"one": "{count} rodada", "many": "{count} de rodadas", "other": "{count} rodadas"},
        "ru": {
            "one": "{count} тур",
            "few": "{count} тура",
            "many": "{count} туров",
            "other": "{count} тура",
        },
    },
    "event.count.players": {
        "en": {"one": "{count} player", "other": "{count} players"},
        "ca": {
            "one": "{count} jugador",
            "many": "{count} de jugadors",
            "other": "{count} jugadors",
        },
        "es": {
            "one": "{count} jugador",
            "many": "{count} de jugadores",
            "other": "{count} jugadores",
        },
        "pt": {
            "one": "{count} jogador",
            "many": "{count} de jogadores",
            "other": "{count} jogadores",
        },
        "ru": {
            "one": "{count} игрок",
            "few": "{count} игрока",
            "many": "{count} игроков",
            "other": "{count} игрока",
        },
    },
}
