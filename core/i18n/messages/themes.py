"""Texts of ``/theme``: a player's own board theme (the names Discord shows for its choices too).

Theme names (``classic``, ``discs``, ``contrast``, ``auto``) are shown as players type them, never
translated, so that what the bot shows can be typed back.
"""

# Cyrillic letters are the point of a translation, not look-alikes; a catalogue reads best with
# one translation per line.
# ruff: noqa: E501, RUF001

from __future__ import annotations

from collections.abc import Mapping

MESSAGES: dict[str, Mapping[str, str]] = {
    # --- the command and its option (Discord limits these to 100 characters) ----------------
    "help.theme": {
        "en": "Your own board theme (classic, discs, contrast) in the games you start.",
        "ca": "El teu tema de tauler (classic, discs, contrast) a les partides que comences.",
        "es": "Tu tema de tablero (classic, discs, contrast) en las partidas que empiezas.",
        "pt": "O teu tema de tabuleiro (classic, discs, contrast) nas partidas que começas.",
        "ru": "Ваша тема поля (classic, discs, contrast) в играх, которые начинаете вы.",
    },
    "help.option.theme": {
        "en": "The theme to use (none: show yours); reset follows the chat's again",
        "ca": "El tema que vols (cap: mostra el teu); reset torna al del xat",
        "es": "El tema que quieres (ninguno: muestra el tuyo); reset vuelve al del chat",
        "pt": "O tema que queres (nenhum: mostra o teu); reset volta ao do chat",
        "ru": "Какую тему выбрать (не указано: показать вашу); reset вернёт тему чата",
    },
    "discord.choice.theme.classic": {
        "en": "Classic: crosses and rings",
        "ca": "Clàssic: creus i anells",
        "es": "Clásico: cruces y anillos",
        "pt": "Clássico: cruzes e anéis",
        "ru": "Классика: крестики и кольца",
    },
    "discord.choice.theme.discs": {
        "en": "Discs: red and yellow",
        "ca": "Discos: vermell i groc",
        "es": "Discos: rojo y amarillo",
        "pt": "Discos: vermelho e amarelo",
        "ru": "Фишки: красные и жёлтые",
    },
    "discord.choice.theme.contrast": {
        "en": "High contrast",
        "ca": "Alt contrast",
        "es": "Alto contraste",
        "pt": "Alto contraste",
        "ru": "Высокий контраст",
    },
    "discord.choice.theme.auto": {
        "en": "Each game its own",
        "ca": "Cada joc el seu",
        "es": "Cada juego el suyo",
        "pt": "Cada jogo o seu",
        "ru": "У каждой игры свой",
    },
    "discord.choice.theme.reset": {
        "en": "Forget mine: follow the chat's",
        "ca": "Oblida el meu: segueix el del xat",
        "es": "Olvida el mío: sigue el del chat",
        "pt": "Esquece o meu: segue o do chat",
        "ru": "Забыть мою: как в чате",
    },
    # --- answers (private to the player) -----------------------------------------------------
    "parse.bad_theme": {
        "en": "There is no theme {theme!r}. Choose one of: {choices}. Nothing was changed.",
        "ca": "No hi ha cap tema {theme!r}. Tria'n un: {choices}. No s'ha canviat res.",
        "es": "No existe el tema {theme!r}. Elige uno: {choices}. No se ha cambiado nada.",
        "pt": "Não existe o tema {theme!r}. Escolhe um: {choices}. Nada foi alterado.",
        "ru": "Темы {theme!r} нет. Выберите одну из: {choices}. Ничего не изменено.",
    },
    "theme.set": {
        "en": "Your theme is now {theme}: the games you start are drawn in it. {prefix}theme reset follows the chat's ({chat}) again.",
        "ca": "El teu tema ara és {theme}: les partides que comences es dibuixen amb ell. {prefix}theme reset torna al del xat ({chat}).",
        "es": "Tu tema ahora es {theme}: las partidas que empiezas se dibujan con él. {prefix}theme reset vuelve al del chat ({chat}).",
        "pt": "O teu tema agora é {theme}: as partidas que começas são desenhadas com ele. {prefix}theme reset volta ao do chat ({chat}).",
        "ru": "Ваша тема теперь {theme}: так рисуются игры, которые начинаете вы. {prefix}theme reset вернёт тему чата ({chat}).",
    },
    "theme.reset": {
        "en": "Your own theme is forgotten: the games you start follow the chat's ({chat}).",
        "ca": "S'ha oblidat el teu tema: les partides que comences segueixen el del xat ({chat}).",
        "es": "Se ha olvidado tu tema: las partidas que empiezas siguen el del chat ({chat}).",
        "pt": "O teu tema foi esquecido: as partidas que começas seguem o do chat ({chat}).",
        "ru": "Ваша тема забыта: игры, которые начинаете вы, рисуются как в чате ({chat}).",
    },
    "theme.shown": {
        "en": "Your theme: {theme} (it wins in the games you start). This chat's: {chat}. Themes: {choices}.",
        "ca": "El teu tema: {theme} (mana en les partides que comences). El d'aquest xat: {chat}. Temes: {choices}.",
        "es": "Tu tema: {theme} (manda en las partidas que empiezas). El de este chat: {chat}. Temas: {choices}.",
        "pt": "O teu tema: {theme} (vale nas partidas que começas). O deste chat: {chat}. Temas: {choices}.",
        "ru": "Ваша тема: {theme} (действует в играх, которые начинаете вы). Тема чата: {chat}. Темы: {choices}.",
    },
    "theme.shown_none": {
        "en": "You have no theme of your own: the games you start follow this chat's ({chat}). Choose one with {prefix}theme NAME: {choices}.",
        "ca": "No tens cap tema propi: les partides que comences segueixen el d'aquest xat ({chat}). Tria'n un amb {prefix}theme NOM: {choices}.",
        "es": "No tienes tema propio: las partidas que empiezas siguen el de este chat ({chat}). Elige uno con {prefix}theme NOMBRE: {choices}.",
        "pt": "Não tens tema próprio: as partidas que começas seguem o deste chat ({chat}). Escolhe um com {prefix}theme NOME: {choices}.",
        "ru": "Своей темы у вас нет: игры, которые начинаете вы, рисуются как в чате ({chat}). Выберите тему: {prefix}theme ИМЯ: {choices}.",
    },
    "settings.source.player": {
        "en": "set by the player",
        "ca": "triat pel jugador",
        "es": "elegido por el jugador",
        "pt": "escolhido pelo jogador",
        "ru": "выбрано игроком",
    },
}
