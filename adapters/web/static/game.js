// A game page's replay without reloading: the buttons, the keys (left and right arrows,
// Home, End) and the move list show the board at any move. The page works without this
// script: every button and move is a link to ?ply=N, drawn on the server.
"use strict";
(function () {
  const replay = document.getElementById("replay");
  const board = document.getElementById("board");
  const list = document.getElementById("moves");
  if (!replay || !board || !list) return;
  const total = Number(replay.dataset.plies);
  // links[n] shows the board after n moves (links[0], hidden, the empty board).
  const links = Array.from(list.querySelectorAll("li > a"));
  const cells = Array.from(board.querySelectorAll("td[data-i]"));
  const byIndex = new Map(cells.map((td) => [Number(td.dataset.i), td]));
  // The winning line as the server drew it at the end: shown again at the last move.
  const winning = cells.filter((td) => td.classList.contains("win")).map((td) => Number(td.dataset.i));
  const rows = Number(board.dataset.rows);
  const cols = Number(board.dataset.cols);
  const gravity = board.dataset.gravity === "1";
  const letters = "abcdefghijklmnopqrstuvwxy";
  const status = document.getElementById("status");
  const text = document.getElementById("board-text");
  let ply = Number(new URLSearchParams(window.location.search).get("ply") ?? total);
  if (!Number.isInteger(ply) || ply < 0 || ply > total) ply = total;

  // The page's texts in its language, with {name} where a value goes (data- attributes).
  const said = replay.dataset;
  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? values[name] : whole));
  }

  // The board in words, as the server writes it (core/pages/game.py, board_text).
  function describe(marks) {
    if (marks.size === 0) return said.empty;
    const parts = [];
    if (gravity) {
      for (let c = 0; c < cols; c++) {
        const stack = [];
        for (let r = rows - 1; r >= 0; r--) if (marks.has(r * cols + c)) stack.push(marks.get(r * cols + c));
        if (stack.length) parts.push(fill(said.column, { column: c + 1, marks: stack.join(", ") }));
      }
      return fill(said.gravityWords, { columns: parts.join("; ") });
    }
    const sorted = Array.from(marks.keys()).sort((a, b) => a - b);
    for (const mark of ["X", "O"]) {
      const named = sorted.filter((i) => marks.get(i) === mark).map((i) => letters[i % cols] + (Math.floor(i / cols) + 1));
      if (named.length) parts.push(fill(said.marks, { mark: mark, cells: named.join(", ") }));
    }
    return fill(said.free, { marks: parts.join("; ") });
  }

  // The status line, as the server writes it: the move, and its verdict where one is known.
  function words(n) {
    if (n === 0) return links[0].dataset.words;
    const verdict = links[n].parentElement.querySelector(".verdict");
    const move = fill(said.move, { number: n, move: links[n].textContent });
    return move + (verdict ? ": " + verdict.textContent : "");
  }

  // The address of the board after n moves: this one's, with its other parameters (the
  // language a reader chose) kept.
  function at(n) {
    const query = new URLSearchParams(window.location.search);
    query.set("ply", String(n));
    return "?" + query.toString();
  }

  function show(next) {
    ply = Math.max(0, Math.min(total, next));
    for (const td of cells) {
      td.textContent = "";
      td.className = "";
    }
    const marks = new Map();
    for (let n = 1; n <= ply; n++) {
      const cell = Number(links[n].dataset.cell);
      const mark = n % 2 === 1 ? "X" : "O";
      const td = byIndex.get(cell);
      td.textContent = mark;
      td.classList.add("m" + mark);
      marks.set(cell, mark);
    }
    if (ply > 0) byIndex.get(Number(links[ply].dataset.cell)).classList.add("last");
    if (ply === total) for (const i of winning) byIndex.get(i).classList.add("win");
    links.forEach((link, n) => {
      link.parentElement.classList.toggle("current", n === ply);
      if (n === ply) link.setAttribute("aria-current", "step");
      else link.removeAttribute("aria-current");
    });
    status.textContent = words(ply);
    text.textContent = describe(marks);
    const steps = { first: 0, back: Math.max(0, ply - 1), forward: Math.min(total, ply + 1), end: total };
    for (const a of replay.querySelectorAll("a[data-step]")) a.href = at(steps[a.dataset.step]);
    window.history.replaceState(null, "", at(ply));
  }

  replay.addEventListener("click", (event) => {
    const link = event.target.closest("a");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const steps = { first: 0, back: ply - 1, forward: ply + 1, end: total };
    if (link.dataset.step !== undefined) show(steps[link.dataset.step]);
    else if (links.includes(link)) show(links.indexOf(link));
    else return;
    event.preventDefault();
  });
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const keys = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: total };
    if (!(event.key in keys)) return;
    show(keys[event.key]);
    event.preventDefault();
  });
})();
