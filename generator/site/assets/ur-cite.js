// Citations name the site's address. When the site was built without one (SITE_URL unset),
// a citation carries the path from the site's root (data-cite-url="/r/<id>/"); this script
// replaces that path, in every form of the citation, by the address the page is served from.
// Without scripts the path stays: still a correct address relative to the site.
(function () {
  "use strict";

  function siteRoot() {
    var meta = document.querySelector('meta[name="ur-site-root"]');
    return new URL(meta ? meta.getAttribute("content") : "/", window.location.href);
  }

  function fillAddresses() {
    var root;
    try {
      root = siteRoot();
    } catch (error) {
      return; // no usable root: the citations keep their site paths
    }
    document.querySelectorAll("[data-cite-url]").forEach(function (block) {
      var path = block.getAttribute("data-cite-url");
      var address = new URL(path.replace(/^\//, ""), root).href;
      // The path as a whole token only (after a space, brace or quote), never inside a date.
      var token = new RegExp('(^|[\\s{"])' + path.replace(/[.*+?^${}()|[\]\\\/]/g, "\\$&") + '(?=[\\s}",.]|$)', "g");
      block.querySelectorAll("pre code").forEach(function (code) {
        code.textContent = code.textContent.replace(token, function (match, before) {
          return before + address;
        });
      });
      block.removeAttribute("data-cite-url");
    });
  }

  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(fillAddresses); // Material's instant navigation
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", fillAddresses);
  } else {
    fillAddresses();
  }
})();
