// A live game's page kept up to date: the server sends the changing part of the page at each
// move (server-sent events), drawn on the server like the page itself; the clock counts down.
// Without this script the page is whole, with a link to reload it.
"use strict";
(function () {
  const live = document.getElementById("live");
  if (!live || !window.EventSource) {
    return;
  }
  const reload = document.getElementById("reload");
  const announce = document.getElementById("announce");
  if (reload) {
    reload.hidden = true;
  }

  function countDown() {
    for (const time of live.querySelectorAll("time[data-deadline]")) {
      const left = Math.max(0, Math.round((Number(time.dataset.deadline) - Date.now()) / 1000));
      const minutes = Math.floor(left / 60);
      const seconds = String(left % 60).padStart(2, "0");
      time.textContent = (time.dataset.left || "{left}").replace("{left}", minutes + ":" + seconds);
    }
  }

  function show(event) {
    live.innerHTML = event.data;
    const status = live.querySelector(".status strong");
    if (announce && status) {
      announce.textContent = status.textContent;
    }
    countDown();
  }

  const source = new EventSource(live.dataset.events);
  source.addEventListener("game", show);
  source.addEventListener("gone", function (event) {
    show(event);
    source.close();
  });
  source.addEventListener("end", function () {
    source.close();
  });
  countDown();
  setInterval(countDown, 1000);
})();
