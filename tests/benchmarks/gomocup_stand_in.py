"""A stand-in for a Gomocup (piskvork) engine such as Rapfi, for the protocol client's tests.

``python gomocup_stand_in.py LOG [error]``: speaks the protocol on stdin/stdout and appends every
command line it reads to LOG. It plays the first empty cell in reading order (weak on purpose),
says a MESSAGE before each move (Rapfi's form, its "evaluation" the number of stones on the
board), and, like Rapfi, drops the first command that reaches it after a move (Rapfi is still
marking itself idle then). Like Rapfi it empties its memory on YXHASHCLEAR (it has none: it
says so); with ``plain`` it knows no such command and answers UNKNOWN, as a plain Gomocup engine
does. With ``error`` it answers BOARD with ERROR.
"""

from __future__ import annotations

import sys


def main() -> None:
    log = open(sys.argv[1], "a", encoding="utf-8")  # noqa: SIM115 - open for the whole run
    error = "error" in sys.argv[2:]
    plain = "plain" in sys.argv[2:]
    size = 0
    taken: set[tuple[int, int]] = set()
    busy = False

    def say(text: str) -> None:
        print(text, flush=True)

    def move() -> None:
        nonlocal busy
        x, y = next((x, y) for y in range(size) for x in range(size) if (x, y) not in taken)
        # Rapfi's form; the "evaluation" is the count of stones before the move.
        say(f"MESSAGE Speed 1K | Depth 1-1 | Eval {len(taken)} | Node 1 | Time 0ms")
        taken.add((x, y))
        say(f"{x},{y}")
        busy = True

    lines = iter(sys.stdin)
    for raw in lines:
        line = raw.strip()
        log.write(line + "\n")
        log.flush()
        if busy:
            busy = False
            log.write("(dropped)\n")
            continue
        word, _, rest = line.partition(" ")
        word = word.upper()
        if word == "START":
            size = int(rest)
            taken.clear()
            say("OK")
        elif word == "INFO":
            pass
        elif word == "ABOUT":
            say('name="stand-in", version="1"')
        elif word == "BOARD":
            for stone in lines:
                log.write(stone.strip() + "\n")
                if stone.strip().upper() == "DONE":
                    break
                x, y, _ = (int(v) for v in stone.strip().split(","))
                taken.add((x, y))
            if error:
                say("ERROR board refused")
            else:
                move()
        elif word == "TURN":
            x, y = (int(v) for v in rest.split(","))
            taken.add((x, y))
            move()
        elif word == "YXHASHCLEAR" and not plain:
            say("MESSAGE Transposition table cleared.")
        elif word == "END":
            return
        else:
            say(f"UNKNOWN {line}")


if __name__ == "__main__":
    main()
