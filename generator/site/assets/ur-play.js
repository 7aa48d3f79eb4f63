// A play page (/play/<rulebook-id>/): the rulebook's board, played by the browser engine
// (ur-engine.js) against the computer or between two people on one device. Nothing here names
// a rulebook: the moves are the engine's, read from the rules file; the page's data
// (#play-data, written by generator/site/play_pages.py) gives each side's route as cells, the
// throws as the rulebook's own lots fall, and for each event its words and the rulebook's
// ruling that decides it. The position on screen is kept in the address (?p=<position>, the
// notation `ur-variants moves` prints), so a reader can share it; an address this rulebook
// cannot read says so on the page and the game starts from the beginning.
//
// Material's instant navigation swaps pages without loading this module again, so each page
// it shows is set up from document$ (as ur-compare.js does), once per board.

import { UrEngine } from "./ur-engine.js";
import { Hint } from "./ur-hint.js";
import { ownRules } from "./ur-own-rules.js";

const SVG = "http://www.w3.org/2000/svg";
const OTHER = { L: "D", D: "L" };
const PIECE_RADIUS = 17;
const STACK_BADGE = 17; // the badge's centre, right of and above the piece's
const STACK_BADGE_RADIUS = 10;
const PLAYERS = ["person", "computer"];
const PLAYER_KEYS = { L: "light", D: "dark" }; // who plays each side, in the address
const THINK_MS = 450; // the computer's pause before each throw and move, so a reader can follow

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
}

function upperFirst(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// A position the engine accepted, as each side's progress list and the side to move.
function readPosition(text) {
  const [pieces, side] = text.trim().split(/\s+/);
  const [light, dark] = pieces.split("/").map((part) => part.split(",").map(Number));
  return { L: light, D: dark, side };
}

function writePosition(p) {
  return `${p.L.join(",")}/${p.D.join(",")} ${p.side}`;
}

// What is in `a` and not in `b`, counting repeats (pieces of a side are interchangeable).
function without(a, b) {
  const rest = b.slice();
  return a.filter((x) => {
    const i = rest.indexOf(x);
    if (i < 0) return true;
    rest.splice(i, 1);
    return false;
  });
}

// One legal move with the throw: where the piece was and lands, how many it captured.
function describeMove(before, afterText) {
  const after = readPosition(afterText);
  const s = before.side;
  const left = without(before[s], after[s]);
  const arrived = without(after[s], before[s]);
  const captured = without(before[OTHER[s]], after[OTHER[s]]).length;
  const pass = left.length === 0;
  return { after: afterText, position: after, pass, from: pass ? null : left[0], to: pass ? null : arrived[0], captured };
}

function pickLot(lots) {
  let r = Math.random() * lots.reduce((sum, lot) => sum + lot.chance, 0);
  for (const lot of lots) {
    r -= lot.chance;
    if (r < 0) return lot;
  }
  return lots[lots.length - 1];
}

function element(tag, attributes = {}, text = null, namespace = null) {
  const node = namespace ? document.createElementNS(namespace, tag) : document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text !== null) node.textContent = text;
  return node;
}

class Board {
  constructor(root, data, game) {
    this.root = root;
    this.data = data;
    this.g = game;
    this.words = data.words;
    this.L = data.routes.L.length;
    this.off = this.L + 1;
    this.useBoard(root.querySelector("svg.ur-board"));
    this.button = (name) => root.querySelector(`[data-play="${name}"]`);
    this.status = this.button("status");
    this.lotsShown = this.button("lots");
    this.log = this.button("log");
    this.error = root.querySelector(".play-error");
    this.players = { L: "person", D: "computer" };
    this.changed = false; // a reader's own rules are played (ur-own-rules.js), not the rulebook's
    this.round = 0; // bumped by a new game or an undo: the computer's pending steps are dropped
    this.interacted = false;
    this.bind();
  }

  bind() {
    const given = new URLSearchParams(window.location.search);
    for (const select of this.root.querySelectorAll("select[data-play-player]")) {
      const side = select.dataset.playPlayer;
      // Who plays each side travels with the shared position (light=, dark=); any other
      // value is ignored and the page's own choice stands.
      const chosen = given.get(PLAYER_KEYS[side]);
      if (PLAYERS.includes(chosen)) select.value = chosen;
      this.players[side] = select.value;
      select.addEventListener("change", () => {
        this.players[side] = select.value;
        this.remember();
        this.proceed();
      });
    }
    this.button("throw").addEventListener("click", () => this.act(() => this.throwDice()));
    this.button("pass").addEventListener("click", () => this.act(() => this.playPass()));
    this.button("undo").addEventListener("click", () => this.act(() => this.undo()));
    this.button("new").addEventListener("click", () => this.act(() => this.newGame()));
    this.root.addEventListener("keydown", (event) => this.key(event));
  }

  // The drawing played on: its squares take clicks, and pieces are drawn in a layer over it.
  useBoard(svg) {
    this.svg = svg;
    // Pieces on the board are controls: the drawing becomes a group of them, still labelled.
    this.svg.setAttribute("role", "group");
    this.cells = new Map();
    for (const rect of this.svg.querySelectorAll("rect[data-cell]")) {
      this.cells.set(rect.dataset.cell, rect);
      rect.addEventListener("click", () => this.act(() => this.playTo(rect.dataset.cell)));
    }
    this.layer = element("g", { class: "play-layer" }, null, SVG);
    // Pieces go under the squares' step numbers, which stay readable on them (their halo).
    this.svg.insertBefore(this.layer, this.svg.querySelector("text.step"));
  }

  // Other rules (a reader's own, ur-own-rules.js): a new game under them, on `svg` when their
  // route is drawn on another board. The notice, if any, is said where a bad address is.
  useRules(game, data, svg, notice) {
    this.swapBoard(svg);
    this.g = game;
    this.data = data;
    this.L = data.routes.L.length;
    this.off = this.L + 1;
    this.round += 1;
    this.begin(game.start(), notice);
  }

  swapBoard(svg) {
    if (!svg || svg === this.svg) return;
    this.svg.replaceWith(svg);
    this.useBoard(svg);
  }

  act(step) {
    this.interacted = true;
    step();
  }

  // --- the game ------------------------------------------------------------------------------

  begin(position, notice) {
    this.position = position;
    this.shown = null;
    this.history = [];
    this.log.replaceChildren();
    this.error.hidden = !notice;
    this.error.textContent = notice || "";
    this.startTurn();
  }

  newGame() {
    this.round += 1;
    this.begin(this.g.start(), null);
  }

  sideName(side) {
    return this.words.sides[side];
  }

  place(progress) {
    if (progress === 0) return this.words["from-hand"];
    if (progress === this.off) return this.words["off-board"];
    return fill(this.words.step, { step: progress });
  }

  cellOf(side, progress) {
    return progress >= 1 && progress <= this.L ? this.data.routes[side][progress - 1] : null;
  }

  startTurn() {
    this.lot = null;
    this.options = [];
    this.turnLogged = this.logged; // an undo takes the log back to here
    this.remember();
    const winner = this.g.winner(this.position);
    if (winner) {
      this.say(fill(this.words.over, { side: this.sideName(winner) }));
      this.draw();
      return;
    }
    const side = readPosition(this.position).side;
    const computer = this.players[side] === "computer";
    this.say(fill(this.words[computer ? "computer-throw" : "your-throw"], { side: this.sideName(side) }));
    this.draw();
    if (computer) this.later(() => this.throwDice());
    else if (this.interacted) this.focus(this.button("throw"));
  }

  // A throw: the rulebook's lots fall, and the legal moves are found; a throw with no move
  // passes (or throws again) as the rules say.
  throwDice() {
    if (this.lot || this.g.winner(this.position)) return;
    const before = readPosition(this.position);
    const side = before.side;
    this.lot = pickLot(this.data.lots);
    this.shown = { lot: this.lot, side };
    const lots = this.lot.marked === null ? this.lot.words : fill(this.words["lots-marked"], this.lot);
    this.event("threw", { side: this.sideName(side), throw: this.lot.throw, lots });
    const moves = this.g.moves(this.position, this.lot.throw);
    const options = moves.map((after) => describeMove(before, after));
    if (options.length === 1 && options[0].pass) {
      const again = options[0].position.side === side;
      this.event(again ? "no-move-again" : "no-move", {
        side: this.sideName(side),
        other: this.sideName(OTHER[side]),
        throw: this.lot.throw,
      });
      this.commit(options[0], side, this.players[side] === "person");
      return;
    }
    this.options = options;
    if (this.players[side] === "computer") {
      this.draw();
      this.later(() => {
        const chosen = this.g.choose(this.position, this.lot.throw);
        this.play(this.options.find((o) => o.after === chosen));
      });
      return;
    }
    this.say(fill(this.words.choose, { side: this.sideName(side), throw: this.lot.throw }));
    this.draw();
    if (this.interacted) this.focus(this.root.querySelector("[data-option]"));
  }

  play(option) {
    const side = readPosition(this.position).side;
    const values = {
      side: this.sideName(side),
      other: this.sideName(OTHER[side]).toLowerCase(),
      from: this.place(option.from),
      to: this.place(option.to),
    };
    if (option.pass) this.event("passed", { ...values, other: this.sideName(OTHER[side]) });
    else if (option.from === 0 && option.to > 0) this.event("enter", values);
    else if (option.to === this.off) this.event("bear-off", values);
    else this.event("move", values);
    if (!option.pass) {
      if (option.to === 0 && option.from > 0) this.event("repelled", values);
      if (option.captured > 0) this.event("capture", values);
      const cell = this.cellOf(side, option.to);
      if (cell && this.data.safe.includes(cell) && this.data.routes[OTHER[side]].includes(cell)) {
        this.event("safe", values);
      }
      if (cell && option.position[side].filter((p) => p === option.to).length > 1) this.event("stack", values);
    }
    const winner = this.g.winner(option.after);
    if (winner) this.event("win", values);
    else if (option.position.side === side && !option.pass) {
      const cell = this.cellOf(side, option.to);
      if (cell && this.data.rosettes.includes(cell)) this.event("rosette", values);
      else if (this.data.extraThrows.includes(this.lot.throw)) this.event("throw-again", values);
      else this.event("capture-again", values);
    }
    this.commit(option, side, this.players[side] === "person");
  }

  commit(option, side, byPerson) {
    this.history.push({ position: this.position, logged: this.turnLogged, byPerson });
    this.position = option.after;
    this.startTurn();
  }

  playPass() {
    const pass = this.options.find((o) => o.pass);
    if (pass && this.personToMove()) this.play(pass);
  }

  playTo(cell) {
    if (!this.personToMove()) return;
    const side = readPosition(this.position).side;
    const found = this.options.filter((o) => !o.pass && (this.cellOf(side, o.to) === cell || this.cellOf(side, o.from) === cell));
    if (found.length === 1) this.play(found[0]);
  }

  personToMove() {
    return this.lot !== null && this.options.length > 0 && this.players[readPosition(this.position).side] === "person";
  }

  // Back to before the last move a person made (the computer's replies undone with it).
  undo() {
    let entry;
    do entry = this.history.pop();
    while (entry && !entry.byPerson);
    if (!entry) return;
    this.round += 1;
    while (this.log.children.length > entry.logged) this.log.lastElementChild.remove();
    this.position = entry.position;
    this.shown = null;
    this.startTurn();
  }

  proceed() {
    const side = readPosition(this.position).side;
    this.round += 1;
    if (this.g.winner(this.position) || this.players[side] !== "computer") {
      this.draw();
      return;
    }
    if (this.lot === null) this.later(() => this.throwDice());
    else {
      const chosen = this.g.choose(this.position, this.lot.throw);
      this.later(() => this.play(this.options.find((o) => o.after === chosen)));
    }
  }

  later(step) {
    const round = this.round;
    const pause = window.matchMedia("(prefers-reduced-motion: reduce)").matches ? 0 : THINK_MS;
    window.setTimeout(() => {
      if (round === this.round && this.root.isConnected) step();
    }, pause);
  }

  // The position in the address, to share; the history entry is replaced, not added.
  remember() {
    const address = new URL(window.location.href);
    address.searchParams.set("p", this.position);
    for (const [side, key] of Object.entries(PLAYER_KEYS)) address.searchParams.set(key, this.players[side]);
    window.history.replaceState(window.history.state, "", address);
  }

  // --- words ---------------------------------------------------------------------------------

  say(text) {
    this.status.textContent = text;
  }

  get logged() {
    return this.log.children.length;
  }

  event(key, values) {
    const event = this.data.events[key];
    const item = element("li", {}, upperFirst(fill(event.words, values)));
    if (event.href) {
      item.append(" ");
      const link = element("a", { href: event.href, class: "play-ruling" }, event.title);
      item.append(link);
    }
    this.log.append(item);
    this.log.parentElement.scrollTop = this.log.parentElement.scrollHeight;
  }

  // --- drawing -------------------------------------------------------------------------------

  centre(cell) {
    const rect = this.cells.get(cell);
    const x = Number(rect.getAttribute("x")) + Number(rect.getAttribute("width")) / 2;
    const y = Number(rect.getAttribute("y")) + Number(rect.getAttribute("height")) / 2;
    return [x, y];
  }

  draw() {
    const p = readPosition(this.position);
    const choosing = this.personToMove();
    const options = choosing ? this.options.filter((o) => !o.pass) : [];
    this.layer.replaceChildren();
    // A removed piece fires no blur: every mark of the last drawing goes with it.
    for (const rect of this.cells.values()) rect.classList.remove("play-target", "play-chosen");
    const targets = new Set(options.map((o) => this.cellOf(p.side, o.to)).filter(Boolean));
    for (const cell of targets) this.cells.get(cell).classList.add("play-target");
    for (const side of ["L", "D"]) {
      const counts = new Map();
      for (const progress of p[side]) {
        const cell = this.cellOf(side, progress);
        if (cell) counts.set(cell, (counts.get(cell) || 0) + 1);
      }
      for (const [cell, count] of counts) {
        const progress = this.data.routes[side].indexOf(cell) + 1;
        const option = side === p.side ? options.find((o) => o.from === progress && o.from !== 0) : null;
        this.layer.append(this.piece(side, cell, count, option));
      }
      this.drawTrays(side, p, side === p.side ? options : []);
    }
    this.drawLots();
    this.button("throw").disabled = !(this.lot === null && !this.g.winner(this.position) && this.players[p.side] === "person");
    this.button("pass").hidden = !(choosing && this.options.some((o) => o.pass));
    this.button("undo").disabled = !this.history.some((h) => h.byPerson);
    if (this.hint) this.hint.update();
  }

  piece(side, cell, count, option) {
    const [x, y] = this.centre(cell);
    const group = element("g", { class: `play-piece play-piece-${side}` }, null, SVG);
    group.append(element("circle", { cx: x, cy: y, r: PIECE_RADIUS }, null, SVG));
    // A stack's count in a badge at the piece's corner, clear of the step numbers.
    if (count > 1) {
      const [bx, by] = [x + STACK_BADGE, y - STACK_BADGE];
      group.append(element("circle", { cx: bx, cy: by, r: STACK_BADGE_RADIUS, class: "play-stack" }, null, SVG));
      group.append(element("text", { x: bx, y: by + 5, "text-anchor": "middle" }, String(count), SVG));
    }
    if (option) this.makeOption(group, option, fill(this.words.piece, {
      side: this.sideName(side),
      from: this.place(option.from),
      to: this.place(option.to),
    }));
    else group.setAttribute("aria-hidden", "true");
    return group;
  }

  makeOption(node, option, label) {
    node.classList.add("play-movable");
    node.dataset.option = "";
    node.dataset.after = option.after; // the hint marks the perfect move by where it leads
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", label);
    const side = readPosition(this.position).side;
    const target = option.to === this.off ? this.root.querySelector(`[data-side="${side}"] [data-tray="off"]`) : this.cells.get(this.cellOf(side, option.to));
    const mark = (on) => target && target.classList.toggle("play-chosen", on);
    for (const [name, on] of [["mouseenter", true], ["mouseleave", false], ["focus", true], ["blur", false]]) {
      node.addEventListener(name, () => mark(on));
    }
    node.addEventListener("click", () => this.act(() => this.play(option)));
  }

  drawTrays(side, p, options) {
    const tray = this.root.querySelector(`[data-side="${side}"]`);
    const hand = tray.querySelector('[data-tray="hand"]');
    const off = tray.querySelector('[data-tray="off"]');
    const inHand = p[side].filter((x) => x === 0).length;
    const borne = p[side].filter((x) => x === this.off).length;
    hand.replaceChildren(`${this.words["in-hand"]}: ${inHand}`);
    off.replaceChildren(`${this.words["borne-off"]}: ${borne}`);
    off.classList.toggle("play-target", options.some((o) => o.to === this.off));
    off.classList.remove("play-chosen");
    const entering = options.find((o) => o.from === 0);
    if (entering) {
      const button = element("button", { type: "button", class: "md-button play-enter" });
      button.textContent = fill(this.words["hand-piece"], { side: this.sideName(side).toLowerCase(), to: this.place(entering.to) });
      this.makeOption(button, entering, button.textContent);
      button.removeAttribute("role");
      hand.append(" ", button);
    }
    const offOption = options.find((o) => o.to === this.off && o.from !== 0);
    if (offOption) off.classList.add("play-target");
  }

  drawLots() {
    this.lotsShown.replaceChildren();
    if (!this.shown) return;
    const { lot, side } = this.shown;
    if (lot.marked !== null) {
      const picture = element("svg", { class: "play-dice", viewBox: `0 0 ${lot.lots * 30} 28`, width: lot.lots * 30, height: 28, "aria-hidden": "true" }, null, SVG);
      for (let i = 0; i < lot.lots; i++) {
        const x = 4 + i * 30;
        const marked = i < lot.marked;
        picture.append(element("path", { d: `M${x},26 L${x + 11},3 L${x + 22},26 z`, class: marked ? "lot-marked" : "lot-blank" }, null, SVG));
        if (marked) picture.append(element("circle", { cx: x + 11, cy: 8, r: 3.4, class: "lot-mark" }, null, SVG));
      }
      this.lotsShown.append(picture, " ");
    }
    const words = lot.marked === null ? lot.words : fill(this.words["lots-marked"], lot);
    this.lotsShown.append(element("strong", {}, String(lot.throw)), ` (${this.sideName(side)}: ${words})`);
  }

  // --- keys ----------------------------------------------------------------------------------

  // Arrow keys step through the pieces that can move; Enter or Space moves the one chosen.
  key(event) {
    const target = event.target;
    if (!(target instanceof Element) || !target.hasAttribute("data-option")) return;
    const all = [...this.root.querySelectorAll("[data-option]")];
    const at = all.indexOf(target);
    if (event.key === "ArrowRight" || event.key === "ArrowDown") {
      this.focus(all[(at + 1) % all.length]);
    } else if (event.key === "ArrowLeft" || event.key === "ArrowUp") {
      this.focus(all[(at - 1 + all.length) % all.length]);
    } else if ((event.key === "Enter" || event.key === " ") && target.tagName !== "BUTTON") {
      target.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    } else return;
    event.preventDefault();
  }

  focus(node) {
    if (node && !node.disabled) node.focus();
  }
}

// The position the address gives, if these rules can have it; null with no position given.
function addressPosition(game) {
  const given = new URLSearchParams(window.location.search).get("p");
  if (given === null) return { position: null, bad: false };
  try {
    game.winner(given);
    return { position: writePosition(readPosition(given)), bad: false };
  } catch {
    return { position: null, bad: true };
  }
}

async function setUp(root) {
  const data = JSON.parse(root.querySelector("#play-data").textContent);
  const error = root.querySelector(".play-error");
  let game;
  try {
    game = await UrEngine.load(data.rulebook);
  } catch {
    error.textContent = data.words["no-rules"];
    error.hidden = false;
    return;
  }
  // The rules the address changes, if any (their game, data and board), and the panel.
  const own = await ownRules(root, data, game);
  const board = new Board(root, own.data, own.game);
  board.swapBoard(own.svg);
  board.changed = own.game !== game; // the address changed the rules
  // The hint knows the rulebook's own game alone: it stands aside while other rules are played.
  if (data.hint) board.hint = new Hint(root, data.hint, game, board);
  const { position, bad } = addressPosition(own.game);
  const notices = [own.notice, bad ? data.words["bad-address"] : null].filter(Boolean);
  board.begin(position || own.game.start(), notices.join(" ") || null);
  own.connect(board);
}

function boot() {
  const root = document.getElementById("ur-play");
  if (!root || root.dataset.ready) return;
  // "loading" until the board has begun (or said why it cannot): assistive technology waits,
  // and so can anything that drives the page.
  root.dataset.ready = "loading";
  root.setAttribute("aria-busy", "true");
  setUp(root)
    .catch(() => {
      const error = root.querySelector(".play-error");
      error.textContent = JSON.parse(root.querySelector("#play-data").textContent).words["no-rules"];
      error.hidden = false;
    })
    .finally(() => {
      root.removeAttribute("aria-busy");
      root.dataset.ready = "yes";
    });
}

if (window.document$ && typeof window.document$.subscribe === "function") window.document$.subscribe(boot);
else boot();
