"""Texts of the daily post's setting (``daily_puzzle``, :mod:`core.admin.daily`): what its value
must be, when and where the post comes once it is set, and why it cannot come there."""

# Cyrillic letters are the point of a translation, not look-alikes; a catalogue reads best with
# one translation per line.
# ruff: noqa: E501, RUF001

from __future__ import annotations

from collections.abc import Mapping

MESSAGES: Mapping[str, Mapping[str, str]] = {
    "puzzle.daily_expected": {
        "en": "an hour from 0 to 23 (in the timezone setting's zone), on a server followed by the channel to post in (the channel it is typed in when none is named), or none",
        "ca": "una hora de 0 a 23 (a la zona del paràmetre timezone), en un servidor seguida del canal on publicar (el canal on s'escriu si no se'n nomena cap), o none",
        "es": "una hora de 0 a 23 (en la zona del ajuste timezone), en un servidor seguida del canal donde publicar (el canal donde se escribe si no se nombra ninguno), o none",
        "pt": "uma hora de 0 a 23 (no fuso da configuração timezone), num servidor seguida do canal onde publicar (o canal onde é escrita se nenhum for indicado), ou none",
        "ru": "час от 0 до 23 (в поясе настройки timezone), на сервере — и канал для публикации (если канал не указан — тот, где это написано), или none",
    },
    "puzzle.daily_expected_here": {
        "en": "an hour from 0 to 23 (in the timezone setting's zone), or none: the puzzle is posted in this chat, which names no other",
        "ca": "una hora de 0 a 23 (a la zona del paràmetre timezone), o none: el problema es publica en aquest xat, que no en pot nomenar cap altre",
        "es": "una hora de 0 a 23 (en la zona del ajuste timezone), o none: el problema se publica en este chat, que no puede nombrar otro",
        "pt": "uma hora de 0 a 23 (no fuso da configuração timezone), ou none: o problema é publicado neste chat, que não pode indicar outro",
        "ru": "час от 0 до 23 (в поясе настройки timezone) или none: задача публикуется в этом чате, другой указать нельзя",
    },
    "puzzle.daily_when": {
        "en": "The daily puzzle will be posted in {channel} every day at {hour}:00 {zone} (the timezone setting). The puzzle changes at midnight UTC: the same for everyone that day.",
        "ca": "El problema del dia es publicarà a {channel} cada dia a les {hour}:00 {zone} (el paràmetre timezone). El problema canvia a mitjanit UTC: el mateix per a tothom aquell dia.",
        "es": "El problema del día se publicará en {channel} cada día a las {hour}:00 {zone} (el ajuste timezone). El problema cambia a medianoche UTC: el mismo para todos ese día.",
        "pt": "O problema do dia será publicado em {channel} todos os dias às {hour}:00 {zone} (a configuração timezone). O problema muda à meia-noite UTC: o mesmo para todos nesse dia.",
        "ru": "Задача дня будет публиковаться в {channel} каждый день в {hour}:00 {zone} (настройка timezone). Задача меняется в полночь UTC: в этот день она одна для всех.",
    },
    "puzzle.daily_nowhere": {
        "en": "This value names no channel, so the daily puzzle is posted nowhere: set it from the channel that should get it, or name one (daily_puzzle 9 #channel).",
        "ca": "Aquest valor no nomena cap canal, així que el problema del dia no es publica enlloc: configura'l des del canal que l'ha de rebre, o nomena'n un (daily_puzzle 9 #canal).",
        "es": "Este valor no nombra ningún canal, así que el problema del día no se publica en ninguna parte: configúralo desde el canal que debe recibirlo, o nombra uno (daily_puzzle 9 #canal).",
        "pt": "Este valor não indica nenhum canal, por isso o problema do dia não é publicado em lado nenhum: configure-o a partir do canal que o deve receber, ou indique um (daily_puzzle 9 #canal).",
        "ru": "В этом значении нет канала, поэтому задача дня нигде не публикуется: задайте его из канала, который должен её получать, или укажите канал (daily_puzzle 9 #канал).",
    },
    "puzzle.daily_no_post": {
        "en": "I cannot post in {channel}: the daily puzzle needs me to see the channel, send messages and attach files there. Nothing was changed.",
        "ca": "No puc publicar a {channel}: el problema del dia necessita que hi pugui veure el canal, enviar missatges i adjuntar fitxers. No s'ha canviat res.",
        "es": "No puedo publicar en {channel}: el problema del día necesita que pueda ver el canal, enviar mensajes y adjuntar archivos allí. No se ha cambiado nada.",
        "pt": "Não consigo publicar em {channel}: o problema do dia precisa que eu possa ver o canal, enviar mensagens e anexar ficheiros lá. Nada foi alterado.",
        "ru": "Я не могу публиковать в {channel}: для задачи дня мне нужно видеть канал, отправлять сообщения и прикреплять файлы. Ничего не изменено.",
    },
    "puzzle.daily_not_here": {
        "en": "{channel} is not a channel of this server: the daily puzzle is posted in one of its own channels. Nothing was changed.",
        "ca": "{channel} no és un canal d'aquest servidor: el problema del dia es publica en un dels seus canals. No s'ha canviat res.",
        "es": "{channel} no es un canal de este servidor: el problema del día se publica en uno de sus canales. No se ha cambiado nada.",
        "pt": "{channel} não é um canal deste servidor: o problema do dia é publicado num dos seus canais. Nada foi alterado.",
        "ru": "{channel} — не канал этого сервера: задача дня публикуется в одном из его каналов. Ничего не изменено.",
    },
}
