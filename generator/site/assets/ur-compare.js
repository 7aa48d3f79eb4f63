/* The comparison at /compare/: choose rulebooks, a baseline and a filter; the choice lives in
   the address (?with=a,b&base=a&show=play) so it can be shared. Reads the data embedded in
   the page (#comparison-data: value classes and the verdicts), so it works from a
   file with no network. Without scripts the page shows the full table against its default
   baseline. Our own few lines; re-initialised on every page Material shows (document$). */
(function () {
  "use strict";

  var SHOW = ["all", "rulings", "play"];

  function parseState(data, search) {
    var ids = data.variants.map(function (v) { return v.id; });
    var params = new URLSearchParams(search);
    var picked = (params.get("with") || "").split(",").filter(function (id) { return ids.indexOf(id) >= 0; });
    var base = params.get("base");
    if (ids.indexOf(base) < 0) { base = picked.indexOf(data.baseline) >= 0 || !picked.length ? data.baseline : picked[0]; }
    var chosen = picked.length ? picked : ids.slice();
    if (chosen.indexOf(base) < 0) { chosen.push(base); }
    var show = params.get("show");
    return { chosen: ids.filter(function (id) { return chosen.indexOf(id) >= 0; }), base: base, show: SHOW.indexOf(show) >= 0 ? show : "all" };
  }

  function stateSearch(data, state) {
    var params = new URLSearchParams();
    if (state.chosen.length !== data.variants.length) { params.set("with", state.chosen.join(",")); }
    params.set("base", state.base);
    if (state.show !== "all") { params.set("show", state.show); }
    return "?" + params.toString().replace(/%2C/g, ",");
  }

  /* The row's status in words: mirrors Row.status in generator/site/compare_pages.py. */
  function rowStatus(question, base, chosen) {
    var differing = chosen.filter(function (i) { return question.values[i] !== question.values[base]; });
    var playing = differing.filter(function (i) { return question.plays[base].charAt(i) === "1"; });
    if (!differing.length) { return { text: "the same in every rulebook shown", differs: false, plays: false }; }
    if (!question.engine) { return { text: "differs; not simulated here", differs: true, plays: false }; }
    if (!playing.length) { return { text: "worded differently; the same game", differs: true, plays: false }; }
    var n = playing.length;
    return { text: "a different game in " + n + " rulebook" + (n !== 1 ? "s" : ""), differs: true, plays: true };
  }

  function orderCells(row, ids, base) {
    var cells = {};
    Array.prototype.forEach.call(row.querySelectorAll("[data-variant]"), function (cell) { cells[cell.getAttribute("data-variant")] = cell; });
    [base].concat(ids.filter(function (id) { return id !== base; })).forEach(function (id) {
      if (cells[id]) { row.appendChild(cells[id]); }
    });
    return cells;
  }

  function apply(form, table, data, state) {
    var ids = data.variants.map(function (v) { return v.id; });
    var base = ids.indexOf(state.base);
    var chosen = state.chosen.map(function (id) { return ids.indexOf(id); });
    var names = {};
    data.variants.forEach(function (v) { names[v.id] = v.short; });
    table.setAttribute("data-baseline", state.base);

    var head = orderCells(table.tHead.rows[0], ids, state.base);
    ids.forEach(function (id) {
      head[id].hidden = state.chosen.indexOf(id) < 0;
      head[id].toggleAttribute("data-baseline", id === state.base);
      head[id].querySelector(".baseline-mark").textContent = id === state.base ? "baseline" : "";
    });

    var byId = {};
    data.questions.forEach(function (q) { byId[q.id] = q; });
    var shown = 0;
    Array.prototype.forEach.call(table.tBodies[0].rows, function (row) {
      var question = byId[row.getAttribute("data-question")];
      var cells = orderCells(row, ids, state.base);
      var status = rowStatus(question, base, chosen);
      row.querySelector("td.status").textContent = status.text;
      ids.forEach(function (id, i) {
        var cell = cells[id];
        var differs = i !== base && question.values[i] !== question.values[base];
        var plays = differs && question.plays[base].charAt(i) === "1";
        cell.hidden = state.chosen.indexOf(id) < 0;
        cell.classList.toggle("differs", differs);
        cell.classList.toggle("plays-differently", plays);
        cell.querySelector(".play-mark").textContent = plays ? "different game" : "";
      });
      var visible = state.show === "all" || (state.show === "rulings" ? status.differs : status.plays);
      row.hidden = !visible;
      if (visible) { shown += 1; }
    });

    Array.prototype.forEach.call(form.querySelectorAll("input[name=with]"), function (box) {
      box.checked = state.chosen.indexOf(box.value) >= 0;
    });
    form.querySelector("select[name=base]").value = state.base;
    form.querySelector("select[name=show]").value = state.show;
    form.querySelector("#compare-chosen").textContent = state.chosen.length === ids.length
      ? "all " + ids.length : state.chosen.length ? state.chosen.map(function (id) { return names[id]; }).join(", ") : "none";

    var summary = form.querySelector("#compare-summary");
    if (!state.chosen.length) {
      summary.textContent = "No rulebook ticked: tick the rulebooks to compare; the first one ticked is the baseline.";
      return;
    }
    summary.textContent = "Comparing " + state.chosen.length + " rulebook" + (state.chosen.length !== 1 ? "s" : "") +
      " against " + names[state.base] + ": " + shown + " of " + data.questions.length + " questions shown. ";
    if (state.chosen.length === 2) {
      var pair = state.chosen.slice().sort();
      var other = state.chosen[0] === state.base ? state.chosen[1] : state.chosen[0];
      var link = document.createElement("a");
      link.href = pair[0] + "--" + pair[1] + "/";
      link.className = "pair-link";
      link.textContent = "What differs between " + names[state.base] + " and " + names[other] + ", in words";
      summary.appendChild(link);
    }
  }

  /* The choice the form shows. The baseline is always among the chosen: picking a baseline
     adds it; unticking the baseline hands that role to the first rulebook still ticked. */
  function readForm(form, state, changed) {
    var boxes = Array.prototype.slice.call(form.querySelectorAll("input[name=with]"));
    var chosen = boxes.filter(function (box) { return box.checked; }).map(function (box) { return box.value; });
    var base = form.querySelector("select[name=base]").value;
    if (chosen.indexOf(base) < 0) {
      if (changed && changed.name === "base") { chosen.push(base); } else if (chosen.length) { base = chosen[0]; }
    }
    var show = form.querySelector("select[name=show]").value;
    var ids = boxes.map(function (box) { return box.value; });
    return { chosen: ids.filter(function (id) { return chosen.indexOf(id) >= 0; }), base: base, show: SHOW.indexOf(show) >= 0 ? show : state.show };
  }

  function init() {
    var form = document.getElementById("compare-picker");
    var table = document.getElementById("comparison");
    var source = document.getElementById("comparison-data");
    if (!form || !table || !source || form.getAttribute("data-ready") === "true") { return; }
    form.setAttribute("data-ready", "true");
    var data = JSON.parse(source.textContent);
    var state = parseState(data, window.location.search);
    var update = function (next) {
      state = next;
      apply(form, table, data, state);
      var search = stateSearch(data, state);
      if (search !== window.location.search) {
        window.history.replaceState(window.history.state, "", window.location.pathname + search + window.location.hash);
      }
    };
    form.addEventListener("change", function (event) { update(readForm(form, state, event.target)); });
    form.addEventListener("submit", function (event) { event.preventDefault(); });
    Array.prototype.forEach.call(form.querySelectorAll("button[data-pick]"), function (button) {
      button.addEventListener("click", function () {
        var all = button.getAttribute("data-pick") === "all";
        Array.prototype.forEach.call(form.querySelectorAll("input[name=with]"), function (box) { box.checked = all; });
        update(readForm(form, state, button));
      });
    });
    form.hidden = false;
    apply(form, table, data, state);
    keepQuestionWidth(table);
  }

  /* The baseline's column sticks beside the question's (ur.css): it needs that column's
     width, which the chosen rulebooks and the screen decide. */
  function keepQuestionWidth(table) {
    var question = table.querySelector("thead th.question");
    if (!question) { return; }
    var measure = function () {
      table.style.setProperty("--question-width", question.getBoundingClientRect().width + "px");
    };
    measure();
    if (typeof ResizeObserver !== "undefined") { new ResizeObserver(measure).observe(question); }
  }

  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(init);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
