// The perfect-play hint of a play page whose game is solved and shipped (the page's data has
// `hint`, written by generator/site/play_pages.py): off until the reader presses its button;
// then, before a throw, both players' chances from the position with perfect play on both
// sides, and after a throw the perfect move (marked on the board and said in words, equal
// moves said as such) with the chances it keeps.
//
// The values are the exact solver's (generator/measure/play_hints.py): the chance that the
// side to move wins, in the solver's state order, and the tables of its perfect index. A
// position is ranked here exactly as generator/solver/solution.py Solution.index and
// generator/solver/solve_index.py StateIndex.state_id rank it. They are fetched only when the
// hint is first turned on.

const OTHER = { L: "D", D: "L" };
const TIE = 1e-12;
// Chances closer than this are equal moves: the solver stops when no value moves by more than
// its tolerance (1e-13), so nearer values cannot be told apart.

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
}

// A chance as the site prints a share (generator/site/statistics_page.py percent): one
// decimal, a space before the sign.
export function percent(chance) {
  return `${(100 * chance).toFixed(1)} %`;
}

function choose(n, k) {
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return Math.round(result);
}

function readPosition(text) {
  const [pieces, side] = text.trim().split(/\s+/);
  const [L, D] = pieces.split("/").map((part) => part.split(",").map(Number));
  return { L, D, side };
}

// One side's configuration id (generator/solver/solve_space.py configuration_id): each entry
// group's pieces sorted and ranked in the combinatorial number system, mixed by the strides.
function configuration(index, pieces) {
  let code = 0;
  index.groups.forEach((group, g) => {
    const part = group.map((piece) => pieces[piece]).sort((a, b) => a - b);
    code += part.reduce((rank, v, i) => rank + choose(v + i, i + 1), 0) * index.strides[g];
  });
  return code < index.codeToConfig.length ? index.codeToConfig[code] : -1;
}

// The solver's state id of an unfinished position, -1 when it has none.
export function stateId(index, position) {
  const p = readPosition(position);
  const mover = configuration(index, p[p.side]);
  const opponent = configuration(index, p[OTHER[p.side]]);
  if (mover < 0 || opponent < 0) return -1;
  const view = index.perspectives === 2 && p.side === "D" ? 1 : 0;
  if (!index.valid[view][mover] || !index.valid[1 - view][opponent]) return -1;
  const [, borneCount, masks, slots] = index.prefixShape;
  const borne = index.borne[opponent];
  const at = ((view * borneCount + borne) * masks + index.maskId[view][mover]) * slots + index.maskId[1 - view][opponent];
  // prefix grows from the opponent's mask to the next exactly when the two masks fit.
  if (index.prefix[at + 1] === index.prefix[at]) return -1;
  const configs = index.borne.length;
  const layer = index.borne[mover] + borne;
  return index.start[(view * configs + mover) * index.layers + layer] + index.prefix[at] + index.rank[1 - view][opponent];
}

// The solved game: the chance that light wins from a position with perfect play on both sides.
export async function solvedGame(hint, game) {
  const [index, text] = await Promise.all([
    fetch(hint.index).then((r) => (r.ok ? r.json() : Promise.reject(new Error(hint.index)))),
    fetch(hint.values).then((r) => (r.ok ? r.text() : Promise.reject(new Error(hint.values)))),
  ]);
  const binary = atob(text.trim());
  if (binary.length !== 8 * index.states) throw new Error(`${hint.values}: not ${index.states} values`);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  const values = new DataView(bytes.buffer);
  return {
    lightChance(position) {
      const winner = game.winner(position);
      if (winner) return winner === "L" ? 1 : 0;
      const id = stateId(index, position);
      if (id < 0) return null;
      const mover = values.getFloat64(8 * id, true);
      return readPosition(position).side === "L" ? mover : 1 - mover;
    },
  };
}

// The moves among `options` (each with .after, the position it leads to) that give `side` its
// best chance, and that chance for light.
export function bestMoves(solved, side, options) {
  const scored = options.map((option) => {
    const light = solved.lightChance(option.after);
    return { option, light, own: side === "L" ? light : 1 - light };
  });
  const top = Math.max(...scored.map((s) => s.own));
  const best = scored.filter((s) => s.own >= top - TIE);
  return { best: best.map((s) => s.option), light: best[0].light };
}

export class Hint {
  constructor(root, hint, game, board) {
    this.root = root;
    this.hint = hint;
    this.words = hint.words;
    this.game = game;
    this.board = board;
    this.on = false;
    this.solved = null;
    this.button = root.querySelector('[data-play="hint"]');
    this.text = root.querySelector('[data-play="hint-text"]');
    this.button.addEventListener("click", () => this.toggle());
  }

  async toggle() {
    this.on = !this.on;
    this.button.setAttribute("aria-pressed", String(this.on));
    this.text.hidden = !this.on;
    if (this.on && !this.solved) {
      this.text.textContent = this.words.loading;
      try {
        this.solved = await solvedGame(this.hint, this.game);
      } catch {
        this.text.textContent = this.words.failed;
        return;
      }
    }
    this.update();
  }

  // Called after every drawing of the board.
  update() {
    for (const node of this.root.querySelectorAll(".play-best")) node.classList.remove("play-best");
    const board = this.board;
    // The solved game is this rulebook's: while a reader's own rules are played it knows
    // nothing of them, so the hint and its words step aside until the rulebook's rules return.
    const own = !board.changed;
    this.button.hidden = !own;
    this.text.hidden = !own || !this.on;
    if (!own || !this.on || !this.solved) return;
    const side = readPosition(board.position).side;
    const moves = board.lot && !this.game.winner(board.position) ? board.options : [];
    let light = this.solved.lightChance(board.position);
    let said = "";
    if (moves.length > 0) {
      const found = bestMoves(this.solved, side, moves);
      light = found.light;
      const named = found.best.map((o) => (o.pass ? this.words.pass : fill(this.words.move, { from: board.place(o.from), to: board.place(o.to) })));
      said = fill(this.words[named.length > 1 ? "tie" : "best"], { moves: named.join(this.words.or) }) + " ";
      for (const option of found.best) {
        const node = [...this.root.querySelectorAll("[data-option]")].find((n) => n.dataset.after === option.after);
        if (node) node.classList.add("play-best");
      }
    }
    if (light === null) {
      this.text.textContent = this.words.unknown;
      return;
    }
    const names = board.words.sides;
    const shares = { light: names.L, dark: names.D.toLowerCase(), lightShare: percent(light), darkShare: percent(1 - light) };
    this.text.textContent = said + fill(this.words.chances, shares);
  }
}
