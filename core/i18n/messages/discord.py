"""Texts of the Discord adapter: buttons, slash-command choices, and answers only Discord needs.

Command and option descriptions come from the command table (``help.*`` keys); these are the
rest. Discord limits names and descriptions to 100 characters and button labels to 80.
"""

# Cyrillic letters are the point of a translation, not look-alikes; a catalogue reads best with
# one translation per line.
# ruff: noqa: E501, RUF001

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # Buttons under a board or a challenge.
    "discord.button.accept": {
        "en": "Accept",
        "ca": "Accepta",
        "es": "Aceptar",
        "pt": "Aceitar",
        "ru": "Принять",
    },
    "discord.button.decline": {
        "en": "Decline",
        "ca": "Rebutja",
        "es": "Rechazar",
        "pt": "Recusar",
        "ru": "Отклонить",
    },
    "discord.button.rematch": {
        "en": "Rematch",
        "ca": "Revenja",
        "es": "Revancha",
        "pt": "Revanche",
        "ru": "Реванш",
    },
    "discord.button.review": {
        "en": "Review",
        "ca": "Revisió",
        "es": "Revisión",
        "pt": "Análise",
        "ru": "Разбор",
    },
    # Choice names of the slash-command options (the values stay English and stable).
    "discord.choice.topic.play": {
        "en": "play",
        "ca": "jugar",
        "es": "jugar",
        "pt": "jogar",
        "ru": "игра",
    },
    "discord.choice.topic.game": {
        "en": "game",
        "ca": "partida",
        "es": "partida",
        "pt": "partida",
        "ru": "партия",
    },
    "discord.choice.topic.seek": {
        "en": "open play",
        "ca": "joc obert",
        "es": "juego abierto",
        "pt": "jogo aberto",
        "ru": "открытая игра",
    },
    "discord.choice.topic.ratings": {
        "en": "ratings",
        "ca": "puntuació",
        "es": "puntuación",
        "pt": "pontuação",
        "ru": "рейтинг",
    },
    "discord.choice.topic.settings": {
        "en": "settings",
        "ca": "configuració",
        "es": "configuración",
        "pt": "configurações",
        "ru": "настройки",
    },
    "discord.choice.level.easy": {
        "en": "easy",
        "ca": "fàcil",
        "es": "fácil",
        "pt": "fácil",
        "ru": "легко",
    },
    "discord.choice.level.medium": {
        "en": "medium",
        "ca": "mitjà",
        "es": "medio",
        "pt": "médio",
        "ru": "средне",
    },
    "discord.choice.level.hard": {
        "en": "hard",
        "ca": "difícil",
        "es": "difícil",
        "pt": "difícil",
        "ru": "сложно",
    },
    "discord.choice.first.me": {
        "en": "me",
        "ca": "jo",
        "es": "yo",
        "pt": "eu",
        "ru": "я",
    },
    "discord.choice.first.opponent": {
        "en": "my opponent",
        "ca": "el rival",
        "es": "el rival",
        "pt": "o adversário",
        "ru": "соперник",
    },
    "discord.choice.first.random": {
        "en": "random",
        "ca": "a l'atzar",
        "es": "al azar",
        "pt": "aleatório",
        "ru": "случайно",
    },
    # The /move command, for boards too big for buttons.
    "discord.command.move": {
        "en": "Play a move on a big board: a cell like b2, or a column number",
        "ca": "Juga en un tauler gran: una casella com b2, o un número de columna",
        "es": "Juega en un tablero grande: una casilla como b2, o un número de columna",
        "pt": "Jogue num tabuleiro grande: uma casa como b2, ou o número de uma coluna",
        "ru": "Ход на большой доске: клетка вроде b2 или номер столбца",
    },
    "discord.option.cell": {
        "en": "The cell (b2: column letter, row number) or the column number",
        "ca": "La casella (b2: lletra de columna, número de fila) o el número de columna",
        "es": "La casilla (b2: letra de columna, número de fila) o el número de columna",
        "pt": "A casa (b2: letra da coluna, número da linha) ou o número da coluna",
        "ru": "Клетка (b2: буква столбца, номер строки) или номер столбца",
    },
    "discord.option.watch": {
        "en": "Two bots play each other while you watch (level: theirs)",
        "ca": "Dos bots juguen l'un contra l'altre mentre mires (nivell: el seu)",
        "es": "Dos bots juegan entre ellos mientras miras (nivel: el suyo)",
        "pt": "Dois bots jogam um contra o outro enquanto você assiste (nível: o deles)",
        "ru": "Два бота играют друг с другом, а вы смотрите (уровень: их)",
    },
    # Hints added to a board message.
    "discord.hint.move": {
        "en": "Play with {command}, for example {example}.",
        "ca": "Juga amb {command}, per exemple {example}.",
        "es": "Juega con {command}, por ejemplo {example}.",
        "pt": "Jogue com {command}, por exemplo {example}.",
        "ru": "Ходите командой {command}, например {example}.",
    },
    "discord.hint.pick": {
        "en": "Pick a column, then a cell in it, under the picture; or type {example}.",
        "ca": "Tria una columna i després una casella, sota la imatge; o escriu {example}.",
        "es": "Elige una columna y luego una casilla, bajo la imagen; o escribe {example}.",
        "pt": "Escolha uma coluna e depois uma casa, sob a imagem; ou digite {example}.",
        "ru": "Выберите столбец, затем клетку под картинкой или введите {example}.",
    },
    "discord.pick.column": {
        "en": "1. Column",
        "ca": "1. Columna",
        "es": "1. Columna",
        "pt": "1. Coluna",
        "ru": "1. Столбец",
    },
    "discord.pick.cell": {
        "en": "2. Cell (pick a column first)",
        "ca": "2. Casella (tria abans una columna)",
        "es": "2. Casilla (elige antes una columna)",
        "pt": "2. Casa (escolha antes uma coluna)",
        "ru": "2. Клетка (сначала выберите столбец)",
    },
    "discord.pick.cell_in": {
        "en": "2. Cell in column {column}",
        "ca": "2. Casella de la columna {column}",
        "es": "2. Casilla de la columna {column}",
        "pt": "2. Casa da coluna {column}",
        "ru": "2. Клетка в столбце {column}",
    },
    "discord.hint.rematch": {
        "en": "Another game? Type {command}.",
        "ca": "Una altra partida? Escriu {command}.",
        "es": "¿Otra partida? Escribe {command}.",
        "pt": "Outra partida? Escreva {command}.",
        "ru": "Ещё партию? Введите {command}.",
    },
    "discord.hint.answer": {
        "en": "Answer with {accept} or {decline}.",
        "ca": "Respon amb {accept} o {decline}.",
        "es": "Responde con {accept} o {decline}.",
        "pt": "Responda com {accept} ou {decline}.",
        "ru": "Ответьте командой {accept} или {decline}.",
    },
    # Answers to clicks and commands the service never sees.
    "discord.unknown_button": {
        "en": "This button does not belong to any game I know. Start a new one with /help.",
        "ca": "Aquest botó no és de cap partida que conegui. Comença'n una de nova amb /help.",
        "es": "Este botón no es de ninguna partida que conozca. Empieza una nueva con /help.",
        "pt": "Este botão não é de nenhuma partida que eu conheça. Comece outra com /help.",
        "ru": "Эта кнопка не относится ни к одной известной мне игре. Начните новую: /help.",
    },
    "discord.unknown_command": {
        "en": "I do not know this command any more. Type /help to see what I can do.",
        "ca": "Ja no conec aquesta ordre. Escriu /help per veure què sé fer.",
        "es": "Ya no conozco este comando. Escribe /help para ver lo que sé hacer.",
        "pt": "Já não conheço este comando. Escreva /help para ver o que sei fazer.",
        "ru": "Я больше не знаю эту команду. Введите /help, чтобы узнать, что я умею.",
    },
    "discord.bad_option": {
        "en": "I could not read the option {option}.",
        "ca": "No he pogut llegir l'opció {option}.",
        "es": "No he podido leer la opción {option}.",
        "pt": "Não consegui ler a opção {option}.",
        "ru": "Не удалось прочитать параметр {option}.",
    },
    "discord.not_a_move": {
        "en": "{text} is not a move: give a cell like b2 or a column number.",
        "ca": "{text} no és una jugada: indica una casella com b2 o un número de columna.",
        "es": "{text} no es una jugada: indica una casilla como b2 o un número de columna.",
        "pt": "{text} não é uma jogada: indique uma casa como b2 ou o número de uma coluna.",
        "ru": "{text} — не ход: укажите клетку вроде b2 или номер столбца.",
    },
    "discord.challenge_in_dm": {
        "en": "Challenges need a chat both players can see (a server or a group DM); here you can play against me.",
        "ca": "Els reptes necessiten un canal on tots dos jugadors hi vegin; aquí pots jugar contra mi.",
        "es": "Los retos necesitan un canal que vean los dos jugadores; aquí puedes jugar contra mí.",
        "pt": "Desafios precisam de um canal que os dois jogadores vejam; aqui pode jogar contra mim.",
        "ru": "Вызов возможен только в канале сервера, видном обоим; здесь можно играть со мной.",
    },
    "discord.external_apps_off": {
        "en": "This server shows apps it did not add to you alone, so nobody else would see this game. Ask an admin to add me, or play in a DM.",
        "ca": "Aquest servidor només et mostra a tu les aplicacions que no ha afegit, i ningú més veuria la partida. Demana a un administrador que m'afegeixi, o juga en un missatge directe.",
        "es": "Este servidor solo te muestra a ti las aplicaciones que no ha añadido, así que nadie más vería la partida. Pide a un administrador que me añada, o juega en un mensaje directo.",
        "pt": "Este servidor mostra só a você os apps que não adicionou, então ninguém mais veria a partida. Peça a um administrador que me adicione, ou jogue numa mensagem direta.",
        "ru": "Этот сервер показывает чужие приложения только вам, и никто больше не увидит игру. Попросите администратора добавить меня или играйте в личных сообщениях.",
    },
    "discord.help_user_install": {
        # /help where the bot is not a member of the chat (a user's own install).
        "en": "Here I am not in this chat: you brought me along through your own install. So the board lives in the answer to a command or a click, and nothing arrives later on its own: a game that ran out of time, or that ended because someone left, shows its end at the next click on its board. /move and /final answer with a new board. Bots' games and reminders to move need me in the chat, and this chat keeps the default settings.",
        "ca": "Aquí no soc dins del xat: m'hi has portat amb la teva pròpia instal·lació. Per això el tauler viu en la resposta a una ordre o a un clic, i res no arriba després pel seu compte: una partida que s'ha quedat sense temps, o que ha acabat perquè algú ha marxat, mostra el final al clic següent en el seu tauler. /move i /final responen amb un tauler nou. Les partides entre bots i els recordatoris per jugar necessiten que jo sigui al xat, i aquest xat té la configuració per defecte.",
        "es": "Aquí no estoy en este chat: me has traído con tu propia instalación. Por eso el tablero vive en la respuesta a un comando o a un clic, y nada llega después por su cuenta: una partida que se quedó sin tiempo, o que terminó porque alguien se fue, muestra su final con el siguiente clic en su tablero. /move y /final responden con un tablero nuevo. Las partidas entre bots y los recordatorios para jugar me necesitan en el chat, y este chat tiene la configuración por defecto.",
        "pt": "Aqui não estou neste chat: você me trouxe pela sua própria instalação. Por isso o tabuleiro vive na resposta a um comando ou a um clique, e nada chega depois por conta própria: uma partida cujo tempo acabou, ou que terminou porque alguém saiu, mostra o final no próximo clique no seu tabuleiro. /move e /final respondem com um tabuleiro novo. Partidas entre bots e lembretes para jogar precisam de mim no chat, e este chat usa as configurações padrão.",
        "ru": "Меня нет в этом чате: вы привели меня через свою установку. Поэтому доска живёт в ответе на команду или нажатие, и ничего не приходит само позже: партия, у которой вышло время или которая закончилась из-за ушедшего игрока, покажет итог при следующем нажатии на её доску. /move и /final отвечают новой доской. Для игр ботов и напоминаний о ходе я должен быть в чате, а этот чат использует настройки по умолчанию.",
    },
    "discord.bots_need_the_bot": {
        "en": "Bots' games need me in this chat: add me to the server, or watch one in a DM with me.",
        "ca": "Les partides entre bots em necessiten en aquest xat: afegeix-me al servidor, o mira'n una en un missatge directe amb mi.",
        "es": "Las partidas entre bots me necesitan en este chat: añádeme al servidor, o mira una en un mensaje directo conmigo.",
        "pt": "Partidas entre bots precisam de mim neste chat: adicione-me ao servidor, ou assista a uma numa mensagem direta comigo.",
        "ru": "Для игр ботов я должен быть в этом чате: добавьте меня на сервер или смотрите игру в личных сообщениях со мной.",
    },
    "discord.opponent_is_bot": {
        "en": "{name} is a bot and cannot answer a challenge. Play against me with the level option.",
        "ca": "{name} és un bot i no pot respondre un repte. Juga contra mi amb l'opció level.",
        "es": "{name} es un bot y no puede responder a un reto. Juega contra mí con la opción level.",
        "pt": "{name} é um bot e não pode responder a um desafio. Jogue contra mim com a opção level.",
        "ru": "{name} — бот и не может принять вызов. Сыграйте со мной, выбрав параметр level.",
    },
    "discord.done": {
        "en": "Done.",
        "ca": "Fet.",
        "es": "Hecho.",
        "pt": "Feito.",
        "ru": "Готово.",
    },
    "discord.players": {
        "en": "{x} against {o}",
        "ca": "{x} contra {o}",
        "es": "{x} contra {o}",
        "pt": "{x} contra {o}",
        "ru": "{x} — {o}",
    },
}
