// Two things a citation can only learn in the reader's browser, filled in here (no network):
//
// - The access date, where a style prints one (Harvard: "(Accessed: 5 December 2026)"). The
//   page shows each style's citation without it; a style that wants one carries its text with
//   a place for the date (data-accessed, "{accessed}"), how it writes a date
//   (data-date-form, "{d} {M} {Y}") and its month names (data-months), all from the CSL style
//   at build time. Today's date goes in.
// - The site's address. When the site was built without one (SITE_URL unset), a citation
//   carries paths from the site's root (data-cite-url="/editions/10/#<id> /editions/10/");
//   each path, in every form of the citation, becomes the address the page is served from.
//
// Without scripts, the citations keep no access date and their site paths: still correct.
(function () {
  "use strict";

  function siteRoot() {
    var meta = document.querySelector('meta[name="ur-site-root"]');
    return new URL(meta ? meta.getAttribute("content") : "/", window.location.href);
  }

  function today(form, months) {
    var now = new Date();
    return form
      .replace("{d}", String(now.getDate()))
      .replace("{M}", months[now.getMonth()])
      .replace("{Y}", String(now.getFullYear()));
  }

  function fillAccessDates() {
    document.querySelectorAll("pre[data-accessed]").forEach(function (pre) {
      var months = pre.getAttribute("data-months").split(",");
      var code = pre.querySelector("code");
      if (months.length === 12 && code) {
        var date = today(pre.getAttribute("data-date-form"), months);
        code.textContent = pre.getAttribute("data-accessed").replace("{accessed}", date);
      }
      pre.removeAttribute("data-accessed");
    });
  }

  function fillAddresses() {
    var root;
    try {
      root = siteRoot();
    } catch (error) {
      return; // no usable root: the citations keep their site paths
    }
    document.querySelectorAll("[data-cite-url]").forEach(function (block) {
      block.getAttribute("data-cite-url").split(" ").forEach(function (path) {
        var address = new URL(path.replace(/^\//, ""), root).href;
        // The path as a whole token only (after a space, brace or quote), never inside a date.
        var token = new RegExp('(^|[\\s{"])' + path.replace(/[.*+?^${}()|[\]\\\/]/g, "\\$&") + '(?=[\\s}",.]|$)', "g");
        block.querySelectorAll("pre code").forEach(function (code) {
          code.textContent = code.textContent.replace(token, function (match, before) {
            return before + address;
          });
        });
      });
      block.removeAttribute("data-cite-url");
    });
  }

  function fill() {
    fillAccessDates(); // first: its text carries the site paths too
    fillAddresses();
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(fill); // Material's instant navigation
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", fill);
  } else {
    fill();
  }
})();
