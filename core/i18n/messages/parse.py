"""Messages of the command parser (``parse.*``) and of ``/help`` (``help.*``).

Parse errors name the input in quotes and say what was expected. ``help.<command>`` and
``help.option.<name>`` double as Discord slash-command descriptions: at most 100 characters.
Command names, option words (easy, first, bot...) and ROWSxCOLS/K stay untranslated: they are
what the player types. Bounds such as ``{max}`` in "from 1 to {max}" are numbers, not counts of
things; the one count, a message's length, is worded by ``PLURALS``.
"""

# One line per translation: a catalogue reads best unwrapped, so long lines are fine here;
# Cyrillic letters and typographic dashes are the point of a translation, not look-alikes.
# ruff: noqa: E501, RUF001

from __future__ import annotations

from collections.abc import Mapping

MESSAGES: dict[str, dict[str, str]] = {
    # --- parse errors ---
    "parse.too_long": {
        "en": "That message is too long ({length:parse.count.characters}): commands are at most {limit}.",
        "ca": "Aquest missatge és massa llarg ({length:parse.count.characters}): les ordres en tenen {limit} com a màxim.",
        "es": "Ese mensaje es demasiado largo ({length:parse.count.characters}): los comandos tienen {limit} como máximo.",
        "pt": "Essa mensagem é longa demais ({length:parse.count.characters}): os comandos têm no máximo {limit}.",
        "ru": "Сообщение слишком длинное ({length:parse.count.characters}): команда может быть не длиннее {limit}.",
    },
    "parse.empty": {
        "en": "The message is empty: type a command such as /help, or a move such as 5.",
        "ca": "El missatge és buit: escriu una ordre com /help o una jugada com 5.",
        "es": "El mensaje está vacío: escribe un comando como /help o una jugada como 5.",
        "pt": "A mensagem está vazia: escreva um comando como /help ou uma jogada como 5.",
        "ru": "Пустое сообщение: введите команду, например /help, или ход, например 5.",
    },
    "parse.missing_command": {
        "en": "'{text}' has no command name: type {help} to see the commands.",
        "ca": "A '{text}' hi falta el nom de l'ordre: escriu {help} per veure les ordres.",
        "es": "A '{text}' le falta el nombre del comando: escribe {help} para ver los comandos.",
        "pt": "Falta o nome do comando em '{text}': escreva {help} para ver os comandos.",
        "ru": "В '{text}' нет названия команды: введите {help}, чтобы увидеть список команд.",
    },
    "parse.unknown_command": {
        "en": "Unknown command '{command}': type {help} to see the commands.",
        "ca": "Ordre desconeguda '{command}': escriu {help} per veure les ordres.",
        "es": "Comando desconocido '{command}': escribe {help} para ver los comandos.",
        "pt": "Comando desconhecido '{command}': escreva {help} para ver os comandos.",
        "ru": "Неизвестная команда '{command}': введите {help}, чтобы увидеть список команд.",
    },
    "parse.unknown_command_suggest": {
        "en": "Unknown command '{command}': did you mean {suggestion}?",
        "ca": "Ordre desconeguda '{command}': volies dir {suggestion}?",
        "es": "Comando desconocido '{command}': ¿querías decir {suggestion}?",
        "pt": "Comando desconhecido '{command}': você quis dizer {suggestion}?",
        "ru": "Неизвестная команда '{command}': может быть, {suggestion}?",
    },
    "parse.not_command": {
        "en": "'{text}' is neither a command nor a move: type {help} to see the commands.",
        "ca": "'{text}' no és cap ordre ni cap jugada: escriu {help} per veure les ordres.",
        "es": "'{text}' no es un comando ni una jugada: escribe {help} para ver los comandos.",
        "pt": "'{text}' não é um comando nem uma jogada: escreva {help} para ver os comandos.",
        "ru": "'{text}' — это не команда и не ход: введите {help}, чтобы увидеть список команд.",
    },
    "parse.bad_move": {
        "en": "'{text}' is not a move: type a cell or column number such as 5, or a coordinate such as b2 (column letter, row number).",
        "ca": "'{text}' no és una jugada: escriu un número de casella o de columna com 5, o una coordenada com b2 (lletra de columna, número de fila).",
        "es": "'{text}' no es una jugada: escribe un número de casilla o de columna como 5, o una coordenada como b2 (letra de columna, número de fila).",
        "pt": "'{text}' não é uma jogada: escreva um número de casa ou de coluna como 5, ou uma coordenada como b2 (letra da coluna, número da linha).",
        "ru": "'{text}' — это не ход: введите номер клетки или столбца, например 5, или координату, например b2 (буква столбца, номер строки).",
    },
    "parse.unknown_topic": {
        "en": "There is no help topic '{topic}'. Topics: {keys} (such as {help} play).",
        "ca": "No hi ha cap tema d'ajuda '{topic}'. Temes: {keys} (per exemple {help} play).",
        "es": "No hay ningún tema de ayuda '{topic}'. Temas: {keys} (por ejemplo {help} play).",
        "pt": "Não há tópico de ajuda '{topic}'. Tópicos: {keys} (por exemplo {help} play).",
        "ru": "Нет темы справки '{topic}'. Темы: {keys} (например, {help} play).",
    },
    "parse.no_args": {
        "en": "'{command}' takes no options: remove '{option}'.",
        "ca": "'{command}' no admet opcions: treu '{option}'.",
        "es": "'{command}' no admite opciones: quita '{option}'.",
        "pt": "'{command}' não aceita opções: remova '{option}'.",
        "ru": "У '{command}' нет параметров: уберите '{option}'.",
    },
    "parse.bad_option": {
        "en": "'{command}' does not understand '{option}': expected {usage}.",
        "ca": "'{command}' no entén '{option}': s'esperava {usage}.",
        "es": "'{command}' no entiende '{option}': se esperaba {usage}.",
        "pt": "'{command}' não entende '{option}': esperava-se {usage}.",
        "ru": "'{command}' не понимает '{option}': ожидается {usage}.",
    },
    "parse.bad_size": {
        "en": "'{size}' is not a board size: write ROWSxCOLS, such as 6x7.",
        "ca": "'{size}' no és una mida de tauler: escriu FILESxCOLUMNES, com 6x7.",
        "es": "'{size}' no es un tamaño de tablero: escribe FILASxCOLUMNAS, como 6x7.",
        "pt": "'{size}' não é um tamanho de tabuleiro: escreva LINHASxCOLUNAS, como 6x7.",
        "ru": "'{size}' — это не размер доски: пишите СТРОКИxСТОЛБЦЫ, например 6x7.",
    },
    "parse.size_range": {
        "en": "Board size '{size}' is out of range: rows and columns go from {min} to {max}.",
        "ca": "La mida de tauler '{size}' està fora de límits: files i columnes van de {min} a {max}.",
        "es": "El tamaño de tablero '{size}' está fuera de rango: filas y columnas van de {min} a {max}.",
        "pt": "O tamanho de tabuleiro '{size}' está fora do intervalo: linhas e colunas vão de {min} a {max}.",
        "ru": "Размер доски '{size}' вне допустимых пределов: строк и столбцов может быть от {min} до {max}.",
    },
    "parse.size_too_small": {
        "en": "A '{size}' board is too small for {k} in a row: make one side at least {k}.",
        "ca": "Un tauler '{size}' és massa petit per a {k} en ratlla: fes que un costat sigui com a mínim {k}.",
        "es": "Un tablero '{size}' es demasiado pequeño para {k} en raya: haz que un lado sea al menos {k}.",
        "pt": "Um tabuleiro '{size}' é pequeno demais para {k} em linha: faça um lado ter pelo menos {k}.",
        "ru": "Доска '{size}' слишком мала для {k} в ряд: сделайте одну из сторон не меньше {k}.",
    },
    "parse.k_range": {
        "en": "K '{k}' does not fit a {size} board: choose K from {min} to {max}.",
        "ca": "K '{k}' no és possible en un tauler {size}: tria una K de {min} a {max}.",
        "es": "K '{k}' no es posible en un tablero {size}: elige una K de {min} a {max}.",
        "pt": "K '{k}' não cabe num tabuleiro {size}: escolha K de {min} a {max}.",
        "ru": "K '{k}' не подходит для доски {size}: выберите K от {min} до {max}.",
    },
    "parse.needs_size_and_k": {
        "en": "'{command}' needs a board size and a line length K: {usage}",
        "ca": "'{command}' necessita una mida de tauler i una llargada de ratlla K: {usage}",
        "es": "'{command}' necesita un tamaño de tablero y una longitud de raya K: {usage}",
        "pt": "'{command}' precisa de um tamanho de tabuleiro e de um comprimento de linha K: {usage}",
        "ru": "Для '{command}' нужны размер доски и длина линии K: {usage}",
    },
    "parse.bad_rules": {
        "en": "These rules are not possible: {reason}.",
        "ca": "Aquestes regles no són possibles: {reason}.",
        "es": "Estas reglas no son posibles: {reason}.",
        "pt": "Estas regras não são possíveis: {reason}.",
        "ru": "Такие правила невозможны: {reason}.",
    },
    "parse.twice.opponent": {
        "en": "'{first}' and '{second}' both choose the opponent: give only one.",
        "ca": "'{first}' i '{second}' trien tots dos el rival: indica'n només un.",
        "es": "'{first}' y '{second}' eligen los dos el rival: indica solo uno.",
        "pt": "'{first}' e '{second}' escolhem ambos o adversário: indique só um.",
        "ru": "И '{first}', и '{second}' задают соперника: укажите что-то одно.",
    },
    "parse.twice.first": {
        "en": "'{first}' and '{second}' both say who starts: give only one of first, second or random.",
        "ca": "'{first}' i '{second}' diuen tots dos qui comença: indica només un de first, second o random.",
        "es": "'{first}' y '{second}' dicen los dos quién empieza: indica solo uno de first, second o random.",
        "pt": "'{first}' e '{second}' dizem ambos quem começa: indique só um de first, second ou random.",
        "ru": "И '{first}', и '{second}' задают, кто ходит первым: укажите только одно из first, second или random.",
    },
    "parse.twice.clock": {
        "en": "'{first}' and '{second}' are both clocks: give only one.",
        "ca": "'{first}' i '{second}' són tots dos rellotges: indica'n només un.",
        "es": "'{first}' y '{second}' son los dos relojes: indica solo uno.",
        "pt": "'{first}' e '{second}' são ambos relógios: indique só um.",
        "ru": "'{first}' и '{second}' — оба времени на ход: укажите только одно.",
    },
    "parse.bad_clock": {
        "en": "'{clock}' is not a clock: write the time per move as a number and a unit (s, m, h, d) from {min} to {max}, such as 60s, 2m or 1d.",
        "ca": "'{clock}' no és un rellotge: escriu el temps per jugada com un nombre i una unitat (s, m, h, d) de {min} a {max}, com ara 60s, 2m o 1d.",
        "es": "'{clock}' no es un reloj: escribe el tiempo por jugada como un número y una unidad (s, m, h, d) de {min} a {max}, como 60s, 2m o 1d.",
        "pt": "'{clock}' não é um relógio: escreva o tempo por lance como um número e uma unidade (s, m, h, d) de {min} a {max}, como 60s, 2m ou 1d.",
        "ru": "'{clock}' — это не время на ход: напишите число и единицу (s, m, h, d) от {min} до {max}, например 60s, 2m или 1d.",
    },
    "parse.clock_range": {
        "en": "A clock of '{clock}' is out of range: the time per move goes from {min} to {max}.",
        "ca": "Un rellotge de '{clock}' està fora de límits: el temps per jugada va de {min} a {max}.",
        "es": "Un reloj de '{clock}' está fuera de rango: el tiempo por jugada va de {min} a {max}.",
        "pt": "Um relógio de '{clock}' está fora do intervalo: o tempo por lance vai de {min} a {max}.",
        "ru": "Время на ход '{clock}' вне допустимых пределов: от {min} до {max}.",
    },
    "parse.twice.size": {
        "en": "'{first}' and '{second}' are both board sizes: give only one.",
        "ca": "'{first}' i '{second}' són totes dues mides de tauler: indica'n només una.",
        "es": "'{first}' y '{second}' son los dos tamaños de tablero: indica solo uno.",
        "pt": "'{first}' e '{second}' são ambos tamanhos de tabuleiro: indique só um.",
        "ru": "'{first}' и '{second}' — оба размеры доски: укажите только один.",
    },
    "parse.twice.k": {
        "en": "'{first}' and '{second}' are both line lengths K: give only one.",
        "ca": "'{first}' i '{second}' són totes dues llargades de ratlla K: indica'n només una.",
        "es": "'{first}' y '{second}' son las dos longitudes de raya K: indica solo una.",
        "pt": "'{first}' e '{second}' são ambos comprimentos de linha K: indique só um.",
        "ru": "'{first}' и '{second}' — обе длины линии K: укажите только одну.",
    },
    "parse.bot_levels": {
        "en": "Bot against bot takes at most two levels: '{option}' is one too many.",
        "ca": "Bot contra bot admet com a màxim dos nivells: '{option}' és un de més.",
        "es": "Bot contra bot admite como máximo dos niveles: '{option}' sobra.",
        "pt": "Bot contra bot aceita no máximo dois níveis: '{option}' é um a mais.",
        "ru": "Для игры бота с ботом можно указать не больше двух уровней: '{option}' — лишний.",
    },
    "parse.cell_range": {
        "en": "Cell '{move}' is off the board: choose 1–{max}.",
        "ca": "La casella '{move}' és fora del tauler: tria de l'1 al {max}.",
        "es": "La casilla '{move}' está fuera del tablero: elige del 1 al {max}.",
        "pt": "A casa '{move}' está fora do tabuleiro: escolha de 1 a {max}.",
        "ru": "Клетки '{move}' нет на доске: выберите от 1 до {max}.",
    },
    "parse.column_range": {
        "en": "Column '{move}' is off the board: choose 1–{max}.",
        "ca": "La columna '{move}' és fora del tauler: tria de l'1 al {max}.",
        "es": "La columna '{move}' está fuera del tablero: elige del 1 al {max}.",
        "pt": "A coluna '{move}' está fora do tabuleiro: escolha de 1 a {max}.",
        "ru": "Столбца '{move}' нет на доске: выберите от 1 до {max}.",
    },
    "parse.coord_range": {
        "en": "'{move}' is off the board: columns a–{last_col}, rows 1–{rows}.",
        "ca": "'{move}' és fora del tauler: columnes a–{last_col}, files 1–{rows}.",
        "es": "'{move}' está fuera del tablero: columnas a–{last_col}, filas 1–{rows}.",
        "pt": "'{move}' está fora do tabuleiro: colunas a–{last_col}, linhas 1–{rows}.",
        "ru": "'{move}' вне доски: столбцы a–{last_col}, строки 1–{rows}.",
    },
    # --- /help ---
    "help.title": {
        "en": "Commands:",
        "ca": "Ordres:",
        "es": "Comandos:",
        "pt": "Comandos:",
        "ru": "Команды:",
    },
    "help.help": {
        "en": "What I can do.",
        "ca": "Què puc fer.",
        "es": "Qué puedo hacer.",
        "pt": "O que eu sei fazer.",
        "ru": "Что я умею.",
    },
    "help.tres": {
        "en": "Tic-tac-toe against the bot, a player, or two bots to watch.",
        "ca": "Tres en ratlla contra el bot, contra algú o dos bots per mirar.",
        "es": "Tres en raya contra el bot, contra alguien o dos bots para mirar.",
        "pt": "Jogo da velha contra o bot, contra alguém ou dois bots para assistir.",
        "ru": "Крестики-нолики против бота, игрока или два бота — посмотреть.",
    },
    "help.quatre": {
        "en": "Connect Four (6x7 unless you give a size): stones fall to the bottom.",
        "ca": "Quatre en ratlla (6x7 si no dius la mida).",
        "es": "Cuatro en raya (6x7 si no indicas el tamaño).",
        "pt": "Lig 4 (6x7 se não indicar o tamanho).",
        "ru": "Четыре в ряд (6x7, если не указан размер): фишки падают вниз.",
    },
    "help.ratlla": {
        "en": "K in a row on a free board of any size.",
        "ca": "K en ratlla en un tauler lliure de qualsevol mida.",
        "es": "K en raya en un tablero libre de cualquier tamaño.",
        "pt": "K em linha num tabuleiro livre de qualquer tamanho.",
        "ru": "K в ряд на свободной доске любого размера.",
    },
    "help.accept": {
        "en": "Accept the challenge you received.",
        "ca": "Accepta un repte.",
        "es": "Acepta un reto.",
        "pt": "Aceite um desafio.",
        "ru": "Принять полученный вызов.",
    },
    "help.decline": {
        "en": "Decline the challenge you received.",
        "ca": "Rebutja un repte.",
        "es": "Rechaza un reto.",
        "pt": "Recuse um desafio.",
        "ru": "Отклонить полученный вызов.",
    },
    "help.rematch": {
        "en": "Play the last finished game again, sides swapped.",
        "ca": "L'última partida un altre cop, amb els torns canviats.",
        "es": "La última partida otra vez, con los turnos cambiados.",
        "pt": "Jogue de novo a última partida terminada, com os lados trocados.",
        "ru": "Сыграть последнюю партию ещё раз, поменявшись сторонами.",
    },
    "help.final": {
        "en": "End your game here. After a move it's a resignation (a loss); an unanswered challenge just ends.",
        "ca": "Acaba la teva partida aquí. Després d'una jugada et rendeixes (derrota); un repte pendent s'anul·la.",
        "es": "Termina tu partida aquí. Tras una jugada, te rindes (derrota); un reto sin respuesta solo se anula.",
        "pt": "Encerre sua partida aqui. Após um lance, você desiste (derrota); um desafio sem resposta só termina.",
        "ru": "Завершить партию здесь. После хода это сдача (поражение); вызов без ответа просто отменяется.",
    },
    "help.stats": {
        "en": "Results of a player (you, unless you name one).",
        "ca": "Resultats d'un jugador (tu, si no n'indiques cap).",
        "es": "Resultados de un jugador (tú por defecto).",
        "pt": "Resultados de um jogador (você, se não indicar nenhum).",
        "ru": "Результаты игрока (ваши, если никого не указать).",
    },
    "help.top": {
        "en": "The ladder by rating: this chat, this server or everyone.",
        "ca": "La classificació per puntuació: aquest xat, aquest servidor o tothom.",
        "es": "La clasificación por puntuación: este chat, este servidor o todos.",
        "pt": "A classificação por pontuação: este chat, este servidor ou todos.",
        "ru": "Рейтинг игроков: этого чата, этого сервера или всех.",
    },
    "help.overview": {
        "en": "Type {prefix}help TOPIC (such as {prefix}help play) for a topic's commands, options and notes.",
        "ca": "Escriu {prefix}help TEMA (per exemple {prefix}help play) per veure les ordres, opcions i notes d'un tema.",
        "es": "Escribe {prefix}help TEMA (por ejemplo {prefix}help play) para ver los comandos, opciones y notas de un tema.",
        "pt": "Escreva {prefix}help TÓPICO (por exemplo {prefix}help play) para ver os comandos, opções e notas de um tópico.",
        "ru": "Введите {prefix}help ТЕМА (например, {prefix}help play), чтобы увидеть команды, параметры и пояснения темы.",
    },
    "help.topic.play": {
        "en": "Start a game against the bot or a player, or watch two bots.",
        "ca": "Comença una partida contra el bot o contra algú, o mira dos bots.",
        "es": "Empieza una partida contra el bot o contra alguien, o mira dos bots.",
        "pt": "Comece uma partida contra o bot ou contra alguém, ou assista a dois bots.",
        "ru": "Начать партию против бота или игрока или смотреть игру двух ботов.",
    },
    "help.topic.game": {
        "en": "Answer a challenge, end a game, play it again, review it; how moves are written.",
        "ca": "Respon un repte, acaba, torna a jugar o revisa una partida; com s'escriuen les jugades.",
        "es": "Responde un reto, termina, repite o revisa una partida; cómo se escriben las jugadas.",
        "pt": "Responda a um desafio, encerre, repita ou reveja uma partida; como se escrevem os lances.",
        "ru": "Ответить на вызов, завершить, повторить или разобрать партию; как записываются ходы.",
    },
    "help.topic.seek": {
        "en": "Open play: wait for anyone to take your game; block a player.",
        "ca": "Joc obert: espera que algú agafi la teva partida; bloqueja un jugador.",
        "es": "Juego abierto: espera a que alguien tome tu partida; bloquea a un jugador.",
        "pt": "Jogo aberto: espere alguém aceitar sua partida; bloqueie um jogador.",
        "ru": "Открытая игра: ждать любого соперника; заблокировать игрока.",
    },
    "help.topic.ratings": {
        "en": "Results, the rating ladders and linking your accounts.",
        "ca": "Resultats, les classificacions i la vinculació dels teus comptes.",
        "es": "Resultados, las clasificaciones y la vinculación de tus cuentas.",
        "pt": "Resultados, as classificações e a vinculação das suas contas.",
        "ru": "Результаты, рейтинги и привязка ваших аккаунтов.",
    },
    "help.topic.settings": {
        "en": "The chat's settings (clock, language, ratings...), your board theme, this help.",
        "ca": "La configuració del xat (rellotge, idioma, puntuació...), el tema del tauler, aquesta ajuda.",
        "es": "La configuración del chat (reloj, idioma, puntuación...), el tema del tablero, esta ayuda.",
        "pt": "As configurações do chat (relógio, idioma, pontuação...), o tema do tabuleiro, esta ajuda.",
        "ru": "Настройки чата (часы, язык, рейтинг...), тема доски, эта справка.",
    },
    "help.option.topic": {
        "en": "A group of commands to explain in detail.",
        "ca": "Un grup d'ordres per explicar en detall.",
        "es": "Un grupo de comandos para explicar en detalle.",
        "pt": "Um grupo de comandos para explicar em detalhe.",
        "ru": "Группа команд, которую объяснить подробно.",
    },
    "help.options": {
        "en": "Options go in any order: easy, medium or hard (default medium); @player to challenge someone; bot [LEVEL [LEVEL]] to watch two bots; first, second or random (default: you start); against a player, CLOCK is the time per move, such as 60s, 2m or 1d (default: the chat's).",
        "ca": "Les opcions van en qualsevol ordre: easy, medium o hard (per defecte medium); @jugador per reptar algú; bot [NIVELL [NIVELL]] per mirar dos bots; first, second o random (per defecte comences tu); contra un jugador, CLOCK és el temps per jugada, com ara 60s, 2m o 1d (per defecte, el del xat).",
        "es": "Las opciones van en cualquier orden: easy, medium o hard (por defecto medium); @jugador para retar a alguien; bot [NIVEL [NIVEL]] para mirar dos bots; first, second o random (por defecto empiezas tú); contra un jugador, CLOCK es el tiempo por jugada, como 60s, 2m o 1d (por defecto, el del chat).",
        "pt": "As opções vão em qualquer ordem: easy, medium ou hard (padrão medium); @jogador para desafiar alguém; bot [NÍVEL [NÍVEL]] para assistir a dois bots; first, second ou random (padrão: você começa); contra um jogador, CLOCK é o tempo por lance, como 60s, 2m ou 1d (padrão: o do chat).",
        "ru": "Параметры пишутся в любом порядке: easy, medium или hard (по умолчанию medium); @игрок — бросить вызов; bot [УРОВЕНЬ [УРОВЕНЬ]] — смотреть игру двух ботов; first, second или random (по умолчанию начинаете вы); против игрока CLOCK — время на ход, например 60s, 2m или 1d (по умолчанию — как в чате).",
    },
    "help.levels": {
        "en": "Levels: easy plays at random, medium like a careful person, hard as well as it can, which is perfect play in tic-tac-toe and in standard Connect Four (6x7).",
        "ca": "Nivells: easy juga a l'atzar, medium com una persona atenta, hard tan bé com pot, que és el joc perfecte al tres en ratlla i al quatre en ratlla estàndard (6x7).",
        "es": "Niveles: easy juega al azar, medium como una persona atenta, hard lo mejor que puede, que es el juego perfecto en el tres en raya y en el cuatro en raya estándar (6x7).",
        "pt": "Níveis: easy joga ao acaso, medium como uma pessoa atenta, hard o melhor que pode, o que é o jogo perfeito no jogo da velha e no Lig 4 padrão (6x7).",
        "ru": "Уровни: easy играет наугад, medium — как внимательный человек, hard — как можно лучше, то есть безошибочно в крестики-нолики и в стандартную «Четыре в ряд» (6x7).",
    },
    "help.moves": {
        "en": "Moves: type a cell number (5), a coordinate (b2: column letter, row number from the top) or, in Connect Four, a column number; {prefix}5 works too.",
        "ca": "Jugades: escriu un número de casella (5), una coordenada (b2: lletra de columna, número de fila des de dalt) o, al quatre en ratlla, un número de columna; {prefix}5 també funciona.",
        "es": "Jugadas: escribe un número de casilla (5), una coordenada (b2: letra de columna, número de fila desde arriba) o, en el cuatro en raya, un número de columna; {prefix}5 también funciona.",
        "pt": "Jogadas: escreva um número de casa (5), uma coordenada (b2: letra da coluna, número da linha a partir de cima) ou, no Lig 4, um número de coluna; {prefix}5 também funciona.",
        "ru": "Ходы: введите номер клетки (5), координату (b2: буква столбца, номер строки сверху) или, в «Четыре в ряд», номер столбца; {prefix}5 тоже подойдёт.",
    },
    # --- slash-command option descriptions ---
    "help.option.level": {
        "en": "How well the bot plays.",
        "ca": "Com de bé juga el bot.",
        "es": "Qué tan bien juega el bot.",
        "pt": "Quão bem o bot joga.",
        "ru": "Насколько хорошо играет бот.",
    },
    "help.option.opponent": {
        "en": "A player to challenge instead of the bot.",
        "ca": "Un jugador a qui reptar en lloc del bot.",
        "es": "Un jugador al que retar en lugar del bot.",
        "pt": "Um jogador para desafiar em vez do bot.",
        "ru": "Игрок, которому бросить вызов вместо бота.",
    },
    "help.option.size": {
        "en": "Board size as ROWSxCOLS, such as 6x7.",
        "ca": "Mida del tauler com a FILESxCOLUMNES, per exemple 6x7.",
        "es": "Tamaño del tablero como FILASxCOLUMNAS, por ejemplo 6x7.",
        "pt": "Tamanho do tabuleiro como LINHASxCOLUNAS, por exemplo 6x7.",
        "ru": "Размер доски в виде СТРОКИxСТОЛБЦЫ, например 6x7.",
    },
    "help.option.k": {
        "en": "How many stones in a row win.",
        "ca": "Quantes fitxes en ratlla guanyen.",
        "es": "Cuántas fichas en raya ganan.",
        "pt": "Quantas peças em linha vencem.",
        "ru": "Сколько фишек в ряд нужно для победы.",
    },
    "help.option.first": {
        "en": "Who plays first.",
        "ca": "Qui juga primer.",
        "es": "Quién juega primero.",
        "pt": "Quem joga primeiro.",
        "ru": "Кто ходит первым.",
    },
    "help.option.clock": {
        "en": "Time per move against a player, such as 60s, 2m or 1d.",
        "ca": "Temps per jugada contra un jugador, com ara 60s, 2m o 1d.",
        "es": "Tiempo por jugada contra un jugador, como 60s, 2m o 1d.",
        "pt": "Tempo por lance contra um jogador, como 60s, 2m ou 1d.",
        "ru": "Время на ход против игрока, например 60s, 2m или 1d.",
    },
    "help.option.player": {
        "en": "The player whose results to show (you by default).",
        "ca": "El jugador de qui mostrar els resultats (tu per defecte).",
        "es": "El jugador cuyos resultados mostrar (tú por defecto).",
        "pt": "O jogador cujos resultados mostrar (você por padrão).",
        "ru": "Игрок, чьи результаты показать (по умолчанию вы).",
    },
}


# The words for counts, one form per CLDR plural category of each language (see game.py).
PLURALS: Mapping[str, Mapping[str, Mapping[str, str]]] = {
    "parse.count.characters": {
        # In parentheses: nominative in Russian ("(25 символов)").
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
            "one": "{count} caractere",
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
}
