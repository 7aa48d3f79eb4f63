/* The theme's search worker, with one fix: its query parser (lunr's QueryLexer) splits a typed
   query at the separator lunr had when it loaded (spaces and hyphens), not at the one this site
   configures (mkdocs.yml, plugins: search: separator), so a hyphenated word such as a ruling id
   (gb-no-legal-move) was looked up as four words and never found whole. Here the parser reads
   the configured separator. The theme's worker is named by the page that starts this one
   (assets/ur-search.js). */
importScripts(decodeURIComponent(self.location.hash.slice(1)));
Object.defineProperty(self.lunr.QueryLexer, "termSeparator", {
  configurable: true,
  get: function () { return self.lunr.tokenizer.separator; }
});
