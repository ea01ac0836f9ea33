// Herald's only script: live updates and copy buttons. The pages work without it.
(function () {
  "use strict";
  var main = document.getElementById("main");

  // Copy buttons: shown only when this script runs.
  document.querySelectorAll("button.copy").forEach(function (button) {
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
  document.querySelectorAll("select[data-depends]").forEach(function (select) {
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

  // Live updates from the lobby's event stream. Someone joining or submitting refreshes the
  // marked regions in place (a half-filled form is kept); anything else reloads the page.
  if (!main || !main.dataset.lobby || !window.EventSource) return;
  var after = parseInt(main.dataset.after || "0", 10);
  var note = document.getElementById("live-note");
  var source = new EventSource("/api/v1/lobbies/" + main.dataset.lobby + "/events");
  var pending = null, reload = false;
  var refresh = function () {
    pending = null;
    if (reload) { window.location.reload(); return; }
    fetch(window.location.href, { credentials: "same-origin" }).then(function (r) { return r.text(); }).then(function (html) {
      var fresh = new DOMParser().parseFromString(html, "text/html");
      document.querySelectorAll("[data-live-region]").forEach(function (region) {
        var next = fresh.querySelector('[data-live-region="' + region.dataset.liveRegion + '"]');
        if (next) region.innerHTML = next.innerHTML;
      });
    });
  };
  var onEvent = function (event) {
    var seq = parseInt(event.lastEventId || "0", 10);
    if (seq && seq <= after) return;
    if (seq) after = seq;
    if (event.type !== "submitted" && event.type !== "player-joined") reload = true;
    if (!pending) pending = setTimeout(refresh, 250);
  };
  ["player-joined", "signups-closed", "started", "submitted", "step-resolved", "round-resolved", "finished"].forEach(function (kind) {
    source.addEventListener(kind, onEvent);
  });
  source.onopen = function () { if (note) note.classList.add("connected"); };
  window.addEventListener("pagehide", function () { source.close(); });
})();
