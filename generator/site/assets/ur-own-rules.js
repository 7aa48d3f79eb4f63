// A play page's "Change the rules" panel (issue 42, item 5): a reader answers any question the
// engine plays differently, choosing among the answers the catalogue knows, then plays the
// result on the board or lets two random players play it many times.
//
// The words (each question, each answer, the rulebooks that answer so) are the page's data
// (#play-data "own", written by generator/site/own_rules_panel.py); the answers as values and
// the equipment they name are play/answers.json (UrEngine.answers()), compiled into rules by
// UrEngine.compile and checked by UrEngine.problems, as the Python build compiles and checks a
// rulebook. The changes in play travel in the address: ?rules=<question>.<answer>_... (the
// answer's key from the page data; a comma also separates). An address the page cannot read,
// or a set of answers that cannot be played, is said in words and the rulebook's own rules
// are played.

import { UrEngine } from "./ur-engine.js";

const RULES_KEY = "rules";
const SEPARATOR = "_"; // between changes in the address: URL-safe, unlike a comma
const CHUNKS = 10; // the simulation runs in this many slices, the page answering between them

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
}

function element(tag, attributes = {}, text = null) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== null) node.textContent = text;
  return node;
}

// A number as the site prints it (generator/site/render.py figure): a thousands separator and
// `digits` decimals.
function figure(value, digits) {
  return value.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

// Decimals for a range whose ends would print alike otherwise (render.py range_form).
function rangeDigits(low, high, digits) {
  for (let more = digits; more < digits + 4; more++) {
    if (figure(low, more) !== figure(high, more)) return more;
  }
  return digits;
}

// The Wilson score interval of a proportion, as generator/sim/stats.py wilson gives it.
function wilson(successes, trials, z) {
  const p = successes / trials;
  const denominator = 1 + (z * z) / trials;
  const centre = (p + (z * z) / (2 * trials)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / trials + (z * z) / (4 * trials * trials))) / denominator;
  return { estimate: p, low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

const pause = () => new Promise((resolve) => window.setTimeout(resolve, 0));

class Panel {
  constructor(root, details, data, file) {
    this.root = root;
    this.details = details;
    this.data = data;
    this.own = data.own;
    this.words = data.own.words;
    this.file = file;
    this.values = file.rulebooks[data.rulebook];
    this.fileAnswers = new Map(file.questions.map((q) => [q.id, q.answers]));
    this.ownIndex = new Map(this.own.questions.map((q) => [q.id, q.answers.findIndex((a) => a.own)]));
    // The drawing of this rulebook's own route, kept to come back to.
    this.ownSvg = root.querySelector("svg.ur-board").cloneNode(true);
    this.board = null;
  }

  // The page's words and the answers file describe the same questions and answers.
  agrees() {
    if (!this.values) return false;
    return this.own.questions.every((q) => this.fileAnswers.get(q.id)?.length === q.answers.length && this.ownIndex.get(q.id) >= 0);
  }

  // --- changes: a Map of question -> answer index, only those differing from the rulebook's --

  fromAddress() {
    const given = new URLSearchParams(window.location.search).get(RULES_KEY);
    const changes = new Map();
    if (given === null || given === "") return { changes, bad: false };
    for (const item of given.split(/[,_]/)) {
      const dot = item.indexOf(".");
      const question = this.own.questions.find((q) => q.id === item.slice(0, dot));
      const answer = question ? question.answers.findIndex((a) => a.key === item.slice(dot + 1)) : -1;
      if (dot < 0 || answer < 0 || changes.has(question.id)) return { changes: new Map(), bad: true };
      if (answer !== this.ownIndex.get(question.id)) changes.set(question.id, answer);
    }
    return { changes, bad: false };
  }

  writeAddress(changes) {
    const address = new URL(window.location.href);
    const items = this.own.questions.filter((q) => changes.has(q.id)).map((q) => `${q.id}.${q.answers[changes.get(q.id)].key}`);
    if (items.length) address.searchParams.set(RULES_KEY, items.join(SEPARATOR));
    else address.searchParams.delete(RULES_KEY);
    window.history.replaceState(window.history.state, "", address);
  }

  // The rules `changes` make: their answers, why they cannot be played, or their game, the
  // page data play reads for them and the drawing of their route.
  rules(changes) {
    const values = { ...this.values };
    for (const [question, answer] of changes) values[question] = this.fileAnswers.get(question)[answer].value;
    const problems = UrEngine.problems(values, this.file.equipment);
    if (problems.length) return { problems };
    const compiled = UrEngine.compile(values, this.file.equipment, this.data.rulebook);
    const rules = compiled.rules;
    const events = {};
    for (const [key, event] of Object.entries(this.data.events)) {
      // A changed answer is the reader's, not the rulebook's ruling: the event links to none.
      events[key] = changes.has(event.question) ? { ...event, href: null, title: null } : event;
    }
    const data = {
      ...this.data,
      routes: rules.routes,
      safe: rules.safe_cells,
      rosettes: rules.extra_throw_cells,
      extraThrows: rules.extra_throw_throws,
      lots: this.data.diceLots[values.dice],
      events,
    };
    return { problems, game: UrEngine.fromRules(compiled), data, svg: this.drawing(values.route) };
  }

  drawing(route) {
    const template = this.root.querySelector(`template[data-route="${CSS.escape(route)}"]`);
    const svg = template ? template.content.querySelector("svg") : this.ownSvg;
    return svg.cloneNode(true);
  }

  problemWords(problems) {
    const list = element("ul");
    const said = new Set();
    for (const [question, kind] of problems) {
      const text = `${this.own.titles[question] ?? question}: ${this.words.problems[kind] ?? kind}.`;
      if (said.has(text)) continue;
      said.add(text);
      list.append(element("li", {}, text));
    }
    return list;
  }

  // --- the panel -----------------------------------------------------------------------------

  build() {
    const body = this.details.querySelector("[data-own-rules-body]");
    body.replaceChildren(element("p", {}, fill(this.words.intro, { games: figure(this.own.games, 0) })));
    const rows = element("div", { class: "own-rules-rows" });
    this.selects = new Map();
    this.notes = new Map();
    for (const question of this.own.questions) {
      const id = `own-rules-${question.id}`;
      const row = element("div", { class: "own-rules-row" });
      const select = element("select", { id, "data-question": question.id });
      question.answers.forEach((answer, i) => {
        const words = answer.own ? fill(this.words["own-answer"], { answer: answer.words }) : answer.words;
        select.append(element("option", { value: String(i) }, words));
      });
      select.value = String(this.ownIndex.get(question.id));
      select.addEventListener("change", () => this.chosenChanged());
      const note = element("p", { class: "own-rules-note" });
      row.append(element("label", { for: id }, question.title), select, note);
      rows.append(row);
      this.selects.set(question.id, select);
      this.notes.set(question.id, note);
    }
    this.state = element("p", { class: "own-rules-state", role: "status" });
    this.problemsShown = element("div", { class: "own-rules-problems", role: "alert", hidden: "" });
    const buttons = element("div", { class: "own-rules-buttons" });
    this.playButton = element("button", { type: "button", class: "md-button md-button--primary", "data-own-rules": "play" }, this.words["play-button"]);
    this.resetButton = element("button", { type: "button", class: "md-button", "data-own-rules": "reset" }, this.words["reset-button"]);
    this.simulateButton = element("button", { type: "button", class: "md-button", "data-own-rules": "simulate" }, fill(this.words["simulate-button"], { games: figure(this.own.games, 0) }));
    buttons.append(this.playButton, " ", this.resetButton, " ", this.simulateButton);
    this.result = element("p", { class: "own-rules-result", "aria-live": "polite", "data-own-rules": "result" });
    body.append(rows, this.state, this.problemsShown, buttons, this.result);
    this.playButton.addEventListener("click", () => this.playChosen());
    this.resetButton.addEventListener("click", () => {
      this.choose(new Map());
      this.playChosen();
    });
    this.simulateButton.addEventListener("click", () => this.simulate());
    this.details.hidden = false;
  }

  chosen() {
    const changes = new Map();
    for (const [question, select] of this.selects) {
      const answer = Number(select.value);
      if (answer !== this.ownIndex.get(question)) changes.set(question, answer);
    }
    return changes;
  }

  choose(changes) {
    for (const [question, select] of this.selects) {
      select.value = String(changes.has(question) ? changes.get(question) : this.ownIndex.get(question));
    }
    this.chosenChanged();
  }

  // Beside each changed answer, its full reading and the rulebooks that rule that way.
  chosenChanged() {
    const changes = this.chosen();
    for (const question of this.own.questions) {
      const note = this.notes.get(question.id);
      note.replaceChildren();
      if (!changes.has(question.id)) continue;
      const answer = question.answers[changes.get(question.id)];
      note.append(`${answer.phrase}. `);
      if (answer.rulebooks.length === 0) note.append(this.words["ruled-by-none"]);
      else {
        note.append(`${this.words["ruled-by"]} `);
        answer.rulebooks.forEach((rulebook, i) => {
          if (i > 0) note.append(i === answer.rulebooks.length - 1 ? this.words["last-of-list"] : ", ");
          note.append(element("a", { href: rulebook.href }, rulebook.short));
        });
        note.append(".");
      }
    }
    this.sayState(changes);
  }

  sayState(changes) {
    const same = changes.size === this.playing.size && [...changes].every(([q, a]) => this.playing.get(q) === a);
    if (!same) this.state.textContent = this.words["changes-waiting"];
    else if (this.playing.size === 0) this.state.textContent = this.words["playing-own"];
    else this.state.textContent = fill(this.words["playing-changed"], { count: this.playing.size });
  }

  showProblems(problems) {
    this.problemsShown.replaceChildren();
    this.problemsShown.hidden = problems.length === 0;
    if (problems.length) this.problemsShown.append(element("p", {}, this.words["cannot-play"]), this.problemWords(problems));
  }

  playChosen() {
    const changes = this.chosen();
    const made = this.rules(changes);
    this.showProblems(made.problems);
    if (made.problems.length) return;
    this.playing = changes;
    this.writeAddress(changes);
    this.board.changed = changes.size > 0; // the rulebook's own rules or a reader's
    this.board.useRules(made.game, made.data, made.svg, null);
    this.sayState(changes);
  }

  // Random against random on the answers chosen, in slices so the page stays answerable:
  // slice k plays games 0.. of seed (seed x CHUNKS + k), so a seed's games are its own.
  async simulate() {
    const changes = this.chosen();
    const made = this.rules(changes);
    this.showProblems(made.problems);
    if (made.problems.length) return;
    const { games, seed, z } = this.own;
    this.simulateButton.disabled = true;
    let played = 0;
    let firstWins = 0;
    let throws = 0;
    let seconds = 0;
    try {
      for (let k = 0; k < CHUNKS; k++) {
        const size = Math.floor(games / CHUNKS) + (k < games % CHUNKS ? 1 : 0);
        const slice = made.game.simulate(size, seed * CHUNKS + k, "random", "random");
        played += slice.games;
        firstWins += slice.firstWins;
        throws += slice.meanThrows * slice.games;
        seconds += slice.seconds;
        this.result.textContent = fill(this.words.simulating, { done: figure(played, 0), games: figure(games, 0) });
        await pause();
      }
    } finally {
      this.simulateButton.disabled = false;
    }
    const share = wilson(firstWins, played, z);
    const digits = rangeDigits(100 * share.low, 100 * share.high, 1);
    const which = changes.size ? fill(this.words["result-rules-changed"], { count: changes.size }) : this.words["result-rules-own"];
    this.result.textContent = `${fill(this.words.result, {
      games: figure(played, 0),
      seed,
      share: figure(100 * share.estimate, digits),
      low: figure(100 * share.low, digits),
      high: figure(100 * share.high, digits),
      throws: figure(throws / played, 0),
      seconds: figure(seconds, 1),
    })} ${which}`;
    this.result.dataset.firstWins = String(firstWins);
    this.result.dataset.games = String(played);
    this.result.dataset.meanThrows = String(throws / played);
  }
}

// The rules play starts with: the rulebook's own, or those the address changes them to. The
// panel is built when the answers file agrees with the page; `connect` gives it the board.
export async function ownRules(root, data, game) {
  const own = { data, game, svg: null, notice: null, connect: () => {} };
  const details = root.querySelector("details[data-own-rules]");
  if (!details || !data.own) return own;
  const asked = new URLSearchParams(window.location.search).has(RULES_KEY);
  let panel;
  try {
    panel = new Panel(root, details, data, await UrEngine.answers());
    if (!panel.agrees()) throw new Error("the answers file does not match the page");
  } catch {
    if (asked) own.notice = data.own.words["no-answers"];
    return own;
  }
  panel.build();
  const { changes, bad } = panel.fromAddress();
  panel.playing = new Map();
  const start = changes.size ? panel.rules(changes) : null;
  if (bad || start?.problems.length) {
    // The address is put right, so that what a reader shares next plays.
    own.notice = data.own.words[bad ? "bad-address" : "unplayable-address"];
    panel.writeAddress(new Map());
    details.open = true;
    panel.choose(changes);
    if (start) panel.showProblems(start.problems);
  } else {
    if (start) {
      panel.playing = changes;
      Object.assign(own, { game: start.game, data: start.data, svg: start.svg });
    }
    panel.choose(changes);
  }
  own.connect = (board) => (panel.board = board);
  return own;
}
