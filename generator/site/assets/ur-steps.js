// A worked example's boards (before the move, after it) are a plain sequence of figures that
// reads without scripts. With this script they become positions a reader steps through: one
// board at a time, Previous and Next buttons, the left and right arrow keys while the example
// has focus, and the step said aloud ("Step 2 of 2") for screen readers.
(function () {
  "use strict";

  function stepper(boards) {
    var figures = Array.prototype.slice.call(boards.querySelectorAll(":scope > figure"));
    if (figures.length < 2 || boards.dataset.steps) return;
    boards.dataset.steps = "on";
    var at = 0;
    var nav = document.createElement("div");
    nav.className = "example-steps";
    var previous = button("Previous", function () { show(at - 1); });
    var status = document.createElement("span");
    status.className = "example-step";
    status.setAttribute("aria-live", "polite");
    var next = button("Next", function () { show(at + 1); });
    nav.append(previous, status, next);
    boards.after(nav);
    nav.addEventListener("keydown", function (event) {
      if (event.key === "ArrowLeft") show(at - 1);
      else if (event.key === "ArrowRight") show(at + 1);
      else return;
      event.preventDefault();
    });

    function show(index) {
      at = Math.max(0, Math.min(figures.length - 1, index));
      figures.forEach(function (figure, i) { figure.hidden = i !== at; });
      // aria-disabled, not disabled: a button that keeps focus keeps the arrow keys working.
      previous.setAttribute("aria-disabled", String(at === 0));
      next.setAttribute("aria-disabled", String(at === figures.length - 1));
      status.textContent = "Step " + (at + 1) + " of " + figures.length;
    }
    show(0);
  }

  function button(label, action) {
    var made = document.createElement("button");
    made.type = "button";
    made.className = "md-button";
    made.textContent = label;
    made.addEventListener("click", action);
    return made;
  }

  function setUp() {
    document.querySelectorAll(".example-fold .example-boards").forEach(stepper);
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(setUp);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
