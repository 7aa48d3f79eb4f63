// A ruling's evidence (quotations, note, citation) is folded under its words in a <details>
// that works without scripts. Opening a page at a ruling's address (#<ruling-id>, the heading
// just above its evidence) or following a link to it on the page also unfolds that evidence,
// and a target inside a folded block unfolds the blocks around it.
(function () {
  "use strict";

  function unfold() {
    var id = decodeURIComponent(window.location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (!target) return;
    for (var node = target.parentElement; node; node = node.parentElement) {
      if (node.tagName === "DETAILS") node.open = true;
    }
    var next = target.nextElementSibling;
    while (next && !/^H[1-6]$/.test(next.tagName)) {
      if (next.matches("details.ruling-evidence")) {
        next.open = true;
        break;
      }
      next = next.nextElementSibling;
    }
  }

  window.addEventListener("hashchange", unfold);
  // Material's instant navigation moves between pages and anchors without a page load.
  if (window.location$ && typeof window.location$.subscribe === "function") {
    window.location$.subscribe(function () { window.setTimeout(unfold, 0); });
  }
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(unfold);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", unfold);
  } else {
    unfold();
  }
})();
