/* Sortable comparison tables and the "only the rows that differ" switch.
   Our own few lines (no external library, no network). Re-initialised on every page
   Material shows, including instant navigation, through document$. */
(function () {
  "use strict";

  function cellKey(row, index) {
    var cell = row.children[index];
    if (!cell) { return ""; }
    return (cell.getAttribute("data-sort") || cell.textContent || "").trim();
  }

  function compare(a, b) {
    var x = parseFloat(a), y = parseFloat(b);
    if (!isNaN(x) && !isNaN(y) && String(x) === a.replace(/\s.*$/, "") && String(y) === b.replace(/\s.*$/, "")) {
      return x - y;
    }
    return a.localeCompare(b, "en", { numeric: true, sensitivity: "base" });
  }

  function sortBy(table, header, index) {
    var body = table.tBodies[0];
    var descending = header.getAttribute("aria-sort") === "ascending";
    var rows = Array.prototype.slice.call(body.rows);
    rows.forEach(function (row, position) { row.setAttribute("data-order", row.getAttribute("data-order") || String(position)); });
    rows.sort(function (r1, r2) {
      var order = compare(cellKey(r1, index), cellKey(r2, index));
      if (order === 0) { order = Number(r1.getAttribute("data-order")) - Number(r2.getAttribute("data-order")); }
      return descending ? -order : order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
    Array.prototype.forEach.call(header.parentNode.cells, function (th) {
      if (th.hasAttribute("data-sortable")) { th.setAttribute("aria-sort", "none"); }
    });
    header.setAttribute("aria-sort", descending ? "descending" : "ascending");
  }

  function initTable(table) {
    if (table.getAttribute("data-sort-ready") === "true" || !table.tHead) { return; }
    table.setAttribute("data-sort-ready", "true");
    var headers = table.tHead.rows[table.tHead.rows.length - 1].cells;
    Array.prototype.forEach.call(headers, function (th, index) {
      if (!th.hasAttribute("data-sortable")) { return; }
      th.title = "Sort by this column";
      if (!th.hasAttribute("aria-sort")) { th.setAttribute("aria-sort", "none"); }
      // The sort control a keyboard reaches: the generated <button>, or the header itself
      // in tables written without one. A click anywhere in the header sorts, except on a
      // link in it (the comparison's small link to each rulebook).
      if (!th.querySelector("button")) {
        th.setAttribute("tabindex", "0");
        th.addEventListener("keydown", function (event) {
          if (event.key === "Enter" || event.key === " ") { event.preventDefault(); sortBy(table, th, index); }
        });
      }
      th.addEventListener("click", function (event) {
        if (event.target.closest && event.target.closest("a")) { return; }
        sortBy(table, th, index);
      });
    });
  }

  function initToggle() {
    var box = document.getElementById("only-differences");
    var table = document.getElementById("comparison");
    if (!box || !table) { return; }
    // An attribute, not a class: the theme styles only tables without a class attribute.
    var apply = function () { table.setAttribute("data-only-differences", box.checked ? "true" : "false"); };
    box.addEventListener("change", apply);
    apply();
  }

  function init() {
    Array.prototype.forEach.call(document.querySelectorAll("table.sortable, table#comparison"), initTable);
    initToggle();
  }

  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(init);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
