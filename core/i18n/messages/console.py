"""Texts of the console adapter (``adapters/console``): the welcome and the local-player commands.

Command words (``/tres``, ``/as``, ``/exit``) are what people type, so they stay as they are in
every language.
"""

# Cyrillic letters are the point of a translation, not look-alikes; a catalogue reads best with
# one translation per line.
# ruff: noqa: E501, RUF001

from __future__ import annotations

from collections.abc import Mapping

MESSAGES: Mapping[str, Mapping[str, str]] = {
    "console.welcome": {
        "en": (
            "Tic-tac-toe, Connect Four and k in a row, in your terminal.\n"
            "  /tres easy       tic-tac-toe against the bot (easy, medium or hard)\n"
            "  /quatre          Connect Four; type a column number to drop a stone\n"
            "  /ratlla 9x9 5    five in a row on a 9x9 board\n"
            "  /tres bot        watch the bot play itself\n"
            "  /help            the commands by topic; /help TOPIC shows one ({topics})\n"
            "Moves: a cell number (1-9 on tic-tac-toe) or a coordinate such as b2.\n"
            'Two players at one keyboard: "/tres @bob" challenges bob, who answers with "bob: /accept".\n'
            "Start a line with NAME: to speak as NAME, or type /as NAME to switch (/as alone switches back).\n"
            "/picture [classic|discs|contrast] [FILE] writes the board as a PNG picture (board.png).\n"
            "/exit or Ctrl-D leaves; games are kept for next time."
        ),
        "ca": (
            "Tres en ratlla, quatre en ratlla i k en ratlla, al teu terminal.\n"
            "  /tres easy       tres en ratlla contra el bot (easy, medium o hard)\n"
            "  /quatre          quatre en ratlla; escriu un número de columna per deixar-hi caure una fitxa\n"
            "  /ratlla 9x9 5    cinc en ratlla en un tauler de 9x9\n"
            "  /tres bot        mira com el bot juga contra si mateix\n"
            "  /help            les ordres per temes; /help TEMA en mostra un ({topics})\n"
            "Jugades: un número de casella (1-9 al tres en ratlla) o una coordenada com b2.\n"
            'Dues persones en un teclat: "/tres @bob" repta en bob, que respon amb "bob: /accept".\n'
            "Comença una línia amb NOM: per parlar com a NOM, o escriu /as NOM per canviar (/as sol hi torna).\n"
            "/picture [classic|discs|contrast] [FITXER] desa el tauler com a imatge PNG (board.png).\n"
            "/exit o Ctrl-D per sortir; les partides es guarden per a la propera vegada."
        ),
        "es": (
            "Tres en raya, cuatro en raya y k en raya, en tu terminal.\n"
            "  /tres easy       tres en raya contra el bot (easy, medium o hard)\n"
            "  /quatre          cuatro en raya; escribe un número de columna para soltar una ficha\n"
            "  /ratlla 9x9 5    cinco en raya en un tablero de 9x9\n"
            "  /tres bot        mira al bot jugar contra sí mismo\n"
            "  /help            los comandos por temas; /help TEMA muestra uno ({topics})\n"
            "Jugadas: un número de casilla (1-9 en el tres en raya) o una coordenada como b2.\n"
            'Dos personas en un teclado: "/tres @bob" reta a bob, que responde con "bob: /accept".\n'
            "Empieza una línea con NOMBRE: para hablar como NOMBRE, o escribe /as NOMBRE para cambiar (/as solo vuelve).\n"
            "/picture [classic|discs|contrast] [FICHERO] guarda el tablero como imagen PNG (board.png).\n"
            "/exit o Ctrl-D para salir; las partidas se guardan para la próxima vez."
        ),
        "pt": (
            "Jogo da velha, Lig 4 e k em linha, no seu terminal.\n"
            "  /tres easy       jogo da velha contra o bot (easy, medium ou hard)\n"
            "  /quatre          Lig 4; digite o número de uma coluna para soltar uma peça\n"
            "  /ratlla 9x9 5    cinco em linha num tabuleiro 9x9\n"
            "  /tres bot        veja o bot jogar contra si mesmo\n"
            "  /help            os comandos por tópicos; /help TÓPICO mostra um ({topics})\n"
            "Jogadas: o número de uma casa (1-9 no jogo da velha) ou uma coordenada como b2.\n"
            'Duas pessoas num teclado: "/tres @bob" desafia bob, que responde com "bob: /accept".\n'
            "Comece uma linha com NOME: para falar como NOME, ou digite /as NOME para trocar (/as sozinho volta).\n"
            "/picture [classic|discs|contrast] [ARQUIVO] salva o tabuleiro como imagem PNG (board.png).\n"
            "/exit ou Ctrl-D para sair; os jogos ficam guardados para a próxima vez."
        ),
        "ru": (
            "Крестики-нолики, «четыре в ряд» и k в ряд — в вашем терминале.\n"
            "  /tres easy       крестики-нолики против бота (easy, medium или hard)\n"
            "  /quatre          «четыре в ряд»; введите номер столбца, чтобы бросить фишку\n"
            "  /ratlla 9x9 5    пять в ряд на поле 9x9\n"
            "  /tres bot        посмотреть, как бот играет сам с собой\n"
            "  /help            команды по темам; /help ТЕМА — одна тема ({topics})\n"
            "Ходы: номер клетки (1-9 в крестиках-ноликах) или координата, например b2.\n"
            'Двое за одной клавиатурой: "/tres @bob" вызывает bob, он отвечает "bob: /accept".\n'
            "Начните строку с ИМЯ:, чтобы говорить от имени ИМЯ, или введите /as ИМЯ (просто /as — назад).\n"
            "/picture [classic|discs|contrast] [ФАЙЛ] сохраняет поле как картинку PNG (board.png).\n"
            "/exit или Ctrl-D — выход; партии сохраняются до следующего раза."
        ),
    },
    "console.speaking_as": {
        "en": "Now speaking as {name}.",
        "ca": "Ara parles com a {name}.",
        "es": "Ahora hablas como {name}.",
        "pt": "Agora você fala como {name}.",
        "ru": "Теперь говорит {name}.",
    },
    "console.bad_name": {
        "en": "/as: '{name}' is not a name (letters, digits, _ . -; up to 32).",
        "ca": "/as: '{name}' no és un nom (lletres, xifres, _ . -; fins a 32).",
        "es": "/as: '{name}' no es un nombre (letras, cifras, _ . -; hasta 32).",
        "pt": "/as: '{name}' não é um nome (letras, dígitos, _ . -; até 32).",
        "ru": "/as: '{name}' — не имя (буквы, цифры, _ . -; до 32 символов).",
    },
    "console.picture.saved": {
        "en": "The board's picture is in {path}.",
        "ca": "La imatge del tauler és a {path}.",
        "es": "La imagen del tablero está en {path}.",
        "pt": "A imagem do tabuleiro está em {path}.",
        "ru": "Картинка поля сохранена в {path}.",
    },
    "console.picture.no_board": {
        "en": "/picture: no board has been shown yet; start a game or play a move first.",
        "ca": "/picture: encara no s'ha mostrat cap tauler; comença una partida o fes una jugada abans.",
        "es": "/picture: aún no se ha mostrado ningún tablero; empieza una partida o haz una jugada antes.",
        "pt": "/picture: nenhum tabuleiro foi mostrado ainda; comece um jogo ou faça uma jogada antes.",
        "ru": "/picture: поле ещё не показывалось; сначала начните партию или сделайте ход.",
    },
    "console.picture.failed": {
        "en": "/picture: could not write {path}: {reason}. Name another file: /picture FILE",
        "ca": "/picture: no s'ha pogut escriure {path}: {reason}. Indica un altre fitxer: /picture FITXER",
        "es": "/picture: no se pudo escribir {path}: {reason}. Indica otro fichero: /picture FICHERO",
        "pt": "/picture: não foi possível gravar {path}: {reason}. Indique outro arquivo: /picture ARQUIVO",
        "ru": "/picture: не удалось записать {path}: {reason}. Укажите другой файл: /picture ФАЙЛ",
    },
}
