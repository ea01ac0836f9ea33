// Herald's only script: live updates and copy buttons. The pages work without it.
(function () {
  "use strict";
  var main = document.getElementById("main");

  // The behaviours of a stretch of page: bound on load, and again on content swapped in.
  var bind = function (root) {
    // Copy buttons: shown only when this script runs.
    root.querySelectorAll("button.copy").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        var field = document.getElementById(button.dataset.copy);
        if (!field) return;
        field.select();
        var done = function () { button.textContent = "Copied"; };
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(field.value).then(done, function () { document.execCommand("copy"); done(); });
        } else { document.execCommand("copy"); done(); }
      });
    });

    // A target list that depends on the chosen move: offer only the legal pairs.
    root.querySelectorAll("select[data-depends]").forEach(function (select) {
      var master = document.getElementById(select.dataset.depends);
      if (!master) return;
      var filter = function () {
        var chosen = master.value;
        Array.prototype.forEach.call(select.options, function (option) {
          if (!option.dataset.with) return;
          var ok = !chosen || option.dataset.with.split(" ").indexOf(chosen) >= 0;
          option.disabled = !ok;
          option.hidden = !ok;
          if (!ok && option.selected) select.value = "";
        });
      };
      master.addEventListener("change", filter);
      filter();
    });

    // Answers in an order (a battle plan): the list's buttons change it in place. Without the
    // script each one posts the form and the page comes back with the list changed.
    root.querySelectorAll("fieldset[data-ordered]").forEach(function (set) {
      var name = set.dataset.ordered, list = set.querySelector("ol.ordered-list"),
          count = set.querySelector(".ordered-count");
      if (!list) return;
      var button = function (text, op, label) {
        var b = document.createElement("button");
        b.type = "button"; b.className = "secondary"; b.textContent = text;
        b.dataset.op = op; b.setAttribute("aria-label", label);
        return b;
      };
      var item = function (value, label) {
        var li = document.createElement("li"), input = document.createElement("input"),
            text = document.createElement("span"), moves = document.createElement("span");
        input.type = "hidden"; input.name = name; input.value = value;
        text.className = "ordered-label"; text.textContent = label;
        moves.className = "ordered-moves";
        moves.append(button("\u2191", "up", "Move " + value + " up"),
          button("\u2193", "down", "Move " + value + " down"), button("\u2715", "remove", "Remove " + value));
        li.append(input, text, moves);
        return li;
      };
      var picker = function (value) {
        var found = null;
        set.querySelectorAll("button.pick").forEach(function (b) { if (b.value === "add:" + value) found = b; });
        return found;
      };
      var renumber = function () {
        var items = list.children;
        Array.prototype.forEach.call(items, function (li, i) {
          li.querySelector('[data-op="up"]').disabled = i === 0;
          li.querySelector('[data-op="down"]').disabled = i === items.length - 1;
        });
        if (count) count.textContent = items.length;
      };
      // The server's rows become the script's: the same look, and they post nothing.
      Array.prototype.slice.call(list.children).forEach(function (li) {
        li.replaceWith(item(li.querySelector("input").value, li.querySelector(".ordered-label").textContent));
      });
      set.addEventListener("click", function (event) {
        var b = event.target.closest("button");
        if (!b || !set.contains(b)) return;
        if (b.classList.contains("pick")) {
          event.preventDefault();
          list.append(item(b.value.slice(4), b.dataset.label));
          b.disabled = true;
          renumber();
          return;
        }
        var li = b.closest("li");
        if (!li || !b.dataset.op) return;
        event.preventDefault();
        if (b.dataset.op === "up" && li.previousElementSibling) list.insertBefore(li, li.previousElementSibling);
        if (b.dataset.op === "down" && li.nextElementSibling) list.insertBefore(li.nextElementSibling, li);
        if (b.dataset.op === "remove") {
          var back = picker(li.querySelector("input").value);
          if (back) back.disabled = false;
          li.remove();
        }
        renumber();
        if (li.isConnected && !b.disabled) b.focus();
      });
      renumber();
    });
  };
  bind(document);

  // The create form: show only the chosen game's settings (without the script, all show,
  // each fieldset saying which game it is for; the server reads only the chosen game's).
  var game = document.getElementById("game");
  if (game) {
    var pick = function () {
      document.querySelectorAll("fieldset[data-game]").forEach(function (set) {
        set.hidden = set.dataset.game !== game.value;
      });
    };
    game.addEventListener("change", pick);
    pick();
  }

  // Deadlines: the page says the instant in UTC; the script adds it in the viewer's own time
  // zone and counts down to it, once a second, on whatever content is on the page now.
  var left = function (ms) {
    if (ms <= 0) return "the deadline has passed";
    var s = Math.floor(ms / 1000), d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600),
        m = Math.floor(s % 3600 / 60), parts = [];
    if (d) parts.push(d + " d");
    if (d || h) parts.push(h + " h");
    if (!d) parts.push(m + " min");
    if (!d && !h) parts.push(s % 60 + " s");
    return "in " + parts.join(" ");
  };
  var tick = function () {
    document.querySelectorAll("time[data-countdown]").forEach(function (time) {
      var at = new Date(time.getAttribute("datetime"));
      var out = time.nextElementSibling;
      if (isNaN(at.getTime()) || !out || !out.classList.contains("countdown")) return;
      out.textContent = "(" + at.toLocaleString([], { dateStyle: "medium", timeStyle: "short" }) +
        " your time, " + left(at.getTime() - Date.now()) + ")";
    });
  };
  tick();
  setInterval(tick, 1000);

  // A tournament's pages poll its stamp (docs/tournaments.md, "The pages"): a tournament has
  // no event stream of its own, and following each game's would take a connection per game.
  // When the stamp moves (a game finished, a round started, someone entered), the page fetches
  // itself and swaps its main content in; a finished tournament's page carries no stamp, and
  // the polling stops there. As below, the page never navigates by itself.
  var followTournament = function () {
    var stopped = false;
    var poll = function () {
      var mark = document.querySelector("#tournament-live[data-tournament]");
      if (stopped || !mark) return;
      var path = window.location.pathname;
      fetch("/tournaments/" + mark.dataset.tournament + "/stamp", { credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.text() : null; })
        .then(function (stamp) {
          if (stopped || stamp === null || stamp === mark.dataset.stamp) return null;
          return fetch(path, { credentials: "same-origin", headers: { "Accept": "text/html" } })
            .then(function (r) { return r.ok ? r.text() : null; })
            .then(function (html) {
              if (html === null || stopped) return;
              var fresh = new DOMParser().parseFromString(html, "text/html");
              var next = fresh.getElementById("main");
              if (!next) return;
              main.innerHTML = next.innerHTML;
              document.title = fresh.title;
              bind(main);
            });
        })
        .catch(function () {})
        .then(function () { if (!stopped) setTimeout(poll, 5000); });
    };
    var stop = function () { stopped = true; };
    window.addEventListener("beforeunload", stop);
    window.addEventListener("pagehide", stop);
    setTimeout(poll, 5000);
  };
  if (main && document.querySelector("#tournament-live[data-tournament]")) followTournament();

  // Live updates from the lobby's event stream. Someone joining or submitting refreshes the
  // marked regions in place (a half-filled form is kept); anything else replaces the whole of
  // the page's main content. Either way the page fetches itself and swaps content in: it never
  // navigates, so it can never cancel or override a navigation the person has started (a
  // reload fired by a timer would replace the page they asked for with this one).
  if (!main || !main.dataset.lobby || !window.EventSource) return;
  var after = parseInt(main.dataset.after || "0", 10);
  var note = document.getElementById("live-note");
  // The stream starts after the event this page was rendered at: no history is replayed.
  var source = new EventSource("/api/v1/lobbies/" + main.dataset.lobby + "/events?after=" + after);
  var timer = null, inflight = false, again = false, whole = false, leaving = false;

  var swap = function (html, all) {
    var fresh = new DOMParser().parseFromString(html, "text/html");
    var next = fresh.getElementById("main");
    if (!next) return;
    if (all) {
      main.innerHTML = next.innerHTML;
      document.title = fresh.title;
      bind(main);
      return;
    }
    document.querySelectorAll("[data-live-region]").forEach(function (region) {
      var part = next.querySelector('[data-live-region="' + region.dataset.liveRegion + '"]');
      if (part) {
        region.innerHTML = part.innerHTML;
        bind(region);
      }
    });
  };

  // One fetch at a time, so that an older answer never overwrites a newer one.
  var refresh = function () {
    timer = null;
    if (leaving) return;
    if (inflight) { again = true; return; }
    inflight = true;
    var all = whole;
    whole = false;
    fetch(window.location.href, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) { if (html !== null && !leaving) swap(html, all); })
      .catch(function () {})
      .then(function () {
        inflight = false;
        if (again) { again = false; schedule(); }
      });
  };
  var schedule = function () { if (!timer) timer = setTimeout(refresh, 250); };

  var onEvent = function (event) {
    var seq = parseInt(event.lastEventId || "0", 10);
    if (seq && seq <= after) return;
    if (seq) after = seq;
    if (event.type !== "submitted" && event.type !== "player-joined") whole = true;
    schedule();
  };
  ["player-joined", "signups-closed", "started", "submitted", "step-resolved", "round-resolved", "finished",
   "player-replaced", "player-kicked", "player-left", "signups-reopened", "ended-by-host",
   "deadline-set", "deadline-approaching", "paused", "resumed", "message"].forEach(function (kind) {
    source.addEventListener(kind, onEvent);
  });
  source.onopen = function () { if (note) note.classList.add("connected"); };
  // Once the person leaves (a link, a form, the address bar), nothing more is swapped in.
  var leave = function () { leaving = true; source.close(); if (timer) clearTimeout(timer); };
  window.addEventListener("beforeunload", leave);
  window.addEventListener("pagehide", leave);
})();
