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
/* A second fix: typed words keep the punctuation around them ("Finkel (Spanish page)" was
   looked up as "finkel", "(spanish" and "page)", and found only Finkel), while the indexed
   words lost theirs to lunr's trimmer. Here each typed word is trimmed by that same trimmer,
   keeping the wildcards the theme adds; a word that was only punctuation is dropped. */
const addClause = self.lunr.Query.prototype.clause;
self.lunr.Query.prototype.clause = function (clause) {
  if (typeof clause.term === "string") {
    const [, lead, core, trail] = /^(\**)([\s\S]*?)(\**)$/.exec(clause.term);
    const word = self.lunr.trimmer(new self.lunr.Token(core, {})).toString();
    if (!word) return this;
    clause.term = lead + word + trail;
  }
  return addClause.call(this, clause);
};
