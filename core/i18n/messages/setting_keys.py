"""What each chat setting means, as ``/settings`` lists it (``settings.key.NAME``): one text per
key of ``core.admin.keys.Effective``, in every language (the commands' words and refusals are
in ``admin``).
"""

# Cyrillic letters are the point of a translation, not look-alikes; a catalogue reads best with
# one translation per line.
# ruff: noqa: E501, RUF001

from __future__ import annotations

from collections.abc import Mapping

MESSAGES: dict[str, Mapping[str, str]] = {
    "settings.key.games": {
        "en": "the games that can be started (tres, quatre, ratlla; none)",
        "ca": "els jocs que es poden començar (tres, quatre, ratlla; none)",
        "es": "los juegos que se pueden empezar (tres, quatre, ratlla; none)",
        "pt": "os jogos que se podem começar (tres, quatre, ratlla; none)",
        "ru": "игры, которые можно начать (tres, quatre, ratlla; none)",
    },
    "settings.key.max_board": {
        "en": "the largest board, ROWSxCOLS",
        "ca": "el tauler més gran, FILESxCOLUMNES",
        "es": "el tablero más grande, FILASxCOLUMNAS",
        "pt": "o maior tabuleiro, LINHASxCOLUNAS",
        "ru": "самая большая доска, СТРОКИxСТОЛБЦЫ",
    },
    "settings.key.pvp": {
        "en": "whether players can challenge each other (on/off)",
        "ca": "si els jugadors es poden desafiar entre ells (on/off)",
        "es": "si los jugadores pueden desafiarse entre ellos (on/off)",
        "pt": "se os jogadores podem desafiar-se entre si (on/off)",
        "ru": "можно ли вызывать друг друга на игру (on/off)",
    },
    "settings.key.public_ladder": {
        "en": "whether this server's (or room's) ladder has a web page of its own and its games in progress are listed on the home page (on/off; the global ladder always has one)",
        "ca": "si la classificació d'aquest servidor (o sala) té una pàgina web pròpia i les seves partides en curs surten a la pàgina d'inici (on/off; la global sempre en té)",
        "es": "si la clasificación de este servidor (o sala) tiene una página web propia y sus partidas en curso aparecen en la página de inicio (on/off; la global siempre la tiene)",
        "pt": "se a classificação deste servidor (ou sala) tem uma página web própria e as suas partidas em curso aparecem na página inicial (on/off; a global tem sempre)",
        "ru": "есть ли у рейтинга этого сервера (или комнаты) своя веб-страница и видны ли его текущие партии на главной странице (on/off; у общего она есть всегда)",
    },
    "settings.key.puzzles": {
        "en": "whether players can ask for rated puzzles here with /puzzle next (on/off)",
        "ca": "si els jugadors poden demanar problemes puntuats aquí amb /puzzle next (on/off)",
        "es": "si los jugadores pueden pedir problemas puntuados aquí con /puzzle next (on/off)",
        "pt": "se os jogadores podem pedir problemas pontuados aqui com /puzzle next (on/off)",
        "ru": "можно ли здесь получать рейтинговые задачи командой /puzzle next (on/off)",
    },
    "settings.key.daily_puzzle": {
        "en": "the hour of the day (0 to 23, in the timezone setting's zone) when the daily puzzle is posted, and on a server the channel it goes to (by default the one it is set from), or none",
        "ca": "l'hora del dia (de 0 a 23, a la zona del paràmetre timezone) en què es publica el problema del dia i, en un servidor, el canal on va (per defecte, aquell des d'on es configura), o none",
        "es": "la hora del día (de 0 a 23, en la zona del ajuste timezone) en que se publica el problema del día y, en un servidor, el canal al que va (por defecto, aquel desde el que se configura), o none",
        "pt": "a hora do dia (de 0 a 23, no fuso da configuração timezone) em que o problema do dia é publicado e, num servidor, o canal para onde vai (por omissão, aquele onde é configurado), ou none",
        "ru": "час (от 0 до 23, в поясе настройки timezone), когда публикуется задача дня, а на сервере — канал для неё (по умолчанию тот, где это задано), или none",
    },
    "settings.key.web_links": {
        "en": "whether boards, /review, /stats and /top here link to the web pages (on/off; only where the bot has them)",
        "ca": "si els taulers, /review, /stats i /top d'aquí enllacen a les pàgines web (on/off; només si el bot en té)",
        "es": "si los tableros, /review, /stats y /top de aquí enlazan a las páginas web (on/off; solo si el bot las tiene)",
        "pt": "se os tabuleiros, /review, /stats e /top daqui ligam às páginas web (on/off; só se o bot as tiver)",
        "ru": "давать ли под досками, /review, /stats и /top ссылки на веб-страницы (on/off; если они у бота есть)",
    },
    "settings.key.open_play": {
        "en": "whether players here can /seek opponents from other chats (on/off; on in DMs)",
        "ca": "si els jugadors d'aquí poden fer /seek de rivals d'altres xats (on/off; on en privat)",
        "es": "si los jugadores de aquí pueden hacer /seek de rivales de otros chats (on/off; on en privado)",
        "pt": "se os jogadores daqui podem fazer /seek de rivais de outros chats (on/off; on em privado)",
        "ru": "можно ли искать соперников из других чатов через /seek (on/off; в личке on)",
    },
    "settings.key.bot_vs_bot": {
        "en": "whether two bots can play each other for people to watch (on/off)",
        "ca": "si dos bots poden jugar entre ells perquè la gent els miri (on/off)",
        "es": "si dos bots pueden jugar entre ellos para que la gente mire (on/off)",
        "pt": "se dois bots podem jogar entre si para as pessoas assistirem (on/off)",
        "ru": "могут ли два бота играть друг с другом для зрителей (on/off)",
    },
    "settings.key.rated": {
        "en": "whether games between people here change their ratings (on/off; casual games never do)",
        "ca": "si les partides entre persones d'aquí canvien les seves puntuacions (on/off; les casual mai)",
        "es": "si las partidas entre personas de aquí cambian sus puntuaciones (on/off; las casual nunca)",
        "pt": "se os jogos entre pessoas aqui mudam as suas pontuações (on/off; os casual nunca)",
        "ru": "меняют ли партии между людьми здесь их рейтинг (on/off; партии casual никогда)",
    },
    "settings.key.level": {
        "en": "the bot's level when a game names none (easy, medium, hard)",
        "ca": "el nivell del bot quan una partida no n'indica cap (easy, medium, hard)",
        "es": "el nivel del bot cuando una partida no indica ninguno (easy, medium, hard)",
        "pt": "o nível do bot quando um jogo não indica nenhum (easy, medium, hard)",
        "ru": "уровень бота, если в команде он не указан (easy, medium, hard)",
    },
    "settings.key.language": {
        "en": "the language of the bot's messages in this chat, over each player's own (en, ca, es, pt, ru)",
        "ca": "la llengua dels missatges del bot en aquest xat, per sobre de la de cada jugador (en, ca, es, pt, ru)",
        "es": "el idioma de los mensajes del bot en este chat, por encima del de cada jugador (en, ca, es, pt, ru)",
        "pt": "o idioma das mensagens do bot neste chat, acima do de cada jogador (en, ca, es, pt, ru)",
        "ru": "язык сообщений бота в этом чате, важнее языка каждого игрока (en, ca, es, pt, ru)",
    },
    "settings.key.theme": {
        "en": "how board pictures look: auto (each game its own), classic, discs or contrast",
        "ca": "l'aspecte de les imatges del tauler: auto (cada joc el seu), classic, discs o contrast",
        "es": "el aspecto de las imágenes del tablero: auto (cada juego el suyo), classic, discs o contrast",
        "pt": "a aparência das imagens do tabuleiro: auto (cada jogo a sua), classic, discs ou contrast",
        "ru": "вид картинок поля: auto (у каждой игры свой), classic, discs или contrast",
    },
    "settings.key.board_style": {
        "en": "how boards are sent on Matrix: text (edited in place) or picture (an image)",
        "ca": "com s'envien els taulers a Matrix: text (editat al lloc) o picture (una imatge)",
        "es": "cómo se envían los tableros en Matrix: text (editado en su sitio) o picture (una imagen)",
        "pt": "como os tabuleiros são enviados no Matrix: text (editado no lugar) ou picture (uma imagem)",
        "ru": "как поле отправляется в Matrix: text (правится на месте) или picture (картинка)",
    },
    "settings.key.game_ttl": {
        "en": "seconds a game lives after its last move",
        "ca": "segons que dura una partida després de l'última jugada",
        "es": "segundos que dura una partida tras la última jugada",
        "pt": "segundos que um jogo dura depois do último lance",
        "ru": "сколько секунд партия живёт после последнего хода",
    },
    "settings.key.challenge_ttl": {
        "en": "seconds a challenge waits for an answer",
        "ca": "segons que un desafiament espera resposta",
        "es": "segundos que un desafío espera respuesta",
        "pt": "segundos que um desafio espera resposta",
        "ru": "сколько секунд вызов ждёт ответа",
    },
    "settings.key.cooldown": {
        "en": "seconds a player waits between two new games (0: none)",
        "ca": "segons que un jugador espera entre dues partides noves (0: gens)",
        "es": "segundos que un jugador espera entre dos partidas nuevas (0: nada)",
        "pt": "segundos que um jogador espera entre dois jogos novos (0: nada)",
        "ru": "сколько секунд игрок ждёт между двумя новыми партиями (0: не ждёт)",
    },
    "settings.key.clock": {
        "en": "time for each move in games between people: auto (5m, 15m on free boards), off, or 10s to 7d",
        "ca": "temps per jugada en partides entre persones: auto (5m, 15m en taulers lliures), off, o de 10s a 7d",
        "es": "tiempo por jugada en partidas entre personas: auto (5m, 15m en tableros libres), off, o de 10s a 7d",
        "pt": "tempo por lance em jogos entre pessoas: auto (5m, 15m em tabuleiros livres), off, ou de 10s a 7d",
        "ru": "время на ход в партиях между людьми: auto (5m, 15m на свободных полях), off или от 10s до 7d",
    },
    "settings.key.max_clock": {
        "en": "the longest clock a game may be started with here (10s to 7d)",
        "ca": "el rellotge més llarg amb què es pot començar una partida aquí (de 10s a 7d)",
        "es": "el reloj más largo con el que se puede empezar una partida aquí (de 10s a 7d)",
        "pt": "o relógio mais longo com que um jogo pode começar aqui (de 10s a 7d)",
        "ru": "самые долгие часы, с которыми здесь можно начать партию (от 10s до 7d)",
    },
    "settings.key.max_games_per_user": {
        "en": "the most live games one player may have on the platform (none: no limit)",
        "ca": "el màxim de partides en curs d'un jugador a la plataforma (none: sense límit)",
        "es": "el máximo de partidas en curso de un jugador en la plataforma (none: sin límite)",
        "pt": "o máximo de jogos em curso de um jogador na plataforma (none: sem limite)",
        "ru": "сколько партий одновременно может быть у игрока на платформе (none: без ограничения)",
    },
    "settings.key.max_games_per_chat": {
        "en": "the most live games in one channel or room (none: no limit)",
        "ca": "el màxim de partides en curs en un canal o sala (none: sense límit)",
        "es": "el máximo de partidas en curso en un canal o sala (none: sin límite)",
        "pt": "o máximo de jogos em curso num canal ou sala (none: sem limite)",
        "ru": "сколько партий одновременно может идти в канале или комнате (none: без ограничения)",
    },
    "settings.key.allowed_chats": {
        "en": "the channels or rooms where games may start (here, ids; none: everywhere)",
        "ca": "els canals o sales on es poden començar partides (here, ids; none: a tot arreu)",
        "es": "los canales o salas donde se pueden empezar partidas (here, ids; none: en todas partes)",
        "pt": "os canais ou salas onde se podem começar jogos (here, ids; none: em todo lado)",
        "ru": "каналы или комнаты, где можно начинать игры (here, id; none: везде)",
    },
    "settings.key.rate_burst": {
        "en": "commands and clicks a player may send at once before being slowed down",
        "ca": "ordres i clics que un jugador pot enviar de cop abans que se'l freni",
        "es": "órdenes y clics que un jugador puede enviar de golpe antes de ser frenado",
        "pt": "comandos e cliques que um jogador pode enviar de uma vez antes de ser travado",
        "ru": "сколько команд и нажатий игрок может отправить подряд, пока его не притормозят",
    },
    "settings.key.rate_per_minute": {
        "en": "commands and clicks a player regains per minute",
        "ca": "ordres i clics que un jugador recupera per minut",
        "es": "órdenes y clics que un jugador recupera por minuto",
        "pt": "comandos e cliques que um jogador recupera por minuto",
        "ru": "сколько команд и нажатий игрок восстанавливает в минуту",
    },
    "settings.key.boards_per_minute": {
        "en": "the most new boards posted in one channel or room per minute",
        "ca": "el màxim de taulers nous publicats en un canal o sala per minut",
        "es": "el máximo de tableros nuevos publicados en un canal o sala por minuto",
        "pt": "o máximo de tabuleiros novos publicados num canal ou sala por minuto",
        "ru": "сколько новых досок в минуту можно выложить в канале или комнате",
    },
    "settings.key.timezone": {
        "en": "the time zone a tournament's start HH:MM and the daily puzzle's hour are read and shown in: an IANA name such as Europe/Madrid, or UTC",
        "ca": "la zona horària en què es llegeixen i es mostren l'inici HH:MM d'un torneig i l'hora del problema del dia: un nom IANA com Europe/Madrid, o UTC",
        "es": "la zona horaria en que se leen y se muestran el inicio HH:MM de un torneo y la hora del problema del día: un nombre IANA como Europe/Madrid, o UTC",
        "pt": "o fuso horário em que se leem e se mostram o início HH:MM de um torneio e a hora do problema do dia: um nome IANA como Europe/Lisbon, ou UTC",
        "ru": "часовой пояс, в котором читаются и показываются начало турнира ЧЧ:ММ и час задачи дня: имя IANA, например Europe/Moscow, или UTC",
    },
}
