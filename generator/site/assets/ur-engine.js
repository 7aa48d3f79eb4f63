// The Royal Game of Ur in the browser: one engine for every rulebook, driven only by the
// rulebook's compiled rules (play/rules/<rulebook-id>.json, written by the site build from
// generator/engine/export.py). Nothing here names a rulebook: a rulebook added as data is
// played with no change to this file.
//
// Rules are those of the Python engine (generator/engine/moves.py), step by step and in the
// same move order; positions are written in its notation (generator/engine/position.py):
// "<light>/<dark> <side>", each side's pieces by progress along its own route (0 in hand,
// 1..L on the route, L+1 borne off), interchangeable pieces in ascending order, and L or D to
// move. The computer is the fitted agent of the native kernel (generator/sim/fast.py,
// generator/sim/kernel_evaluation.py), with the rulebook's committed weights, or the greedy
// agent where the rulebook has none. tests/browser/test_engine_js.py checks all of it against
// the Python engine and kernel in Chromium, for every rulebook the site plays.
//
//   const g = await UrEngine.load("finkel-english");
//   g.throws;                     // [[throw, probability], ...]
//   g.moves(g.start(), 2);        // positions after each legal move
//   g.simulate(1000, 7, "computer", "random");  // {games, firstWins, meanThrows, seconds}

const FORMAT = 1;
const RULES_FOLDER = new URL("../play/rules/", import.meta.url);
const RULEBOOK_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const LIGHT = 0;
const DARK = 1;
const LETTERS = "LD";

// A move is six numbers in a move buffer, as in the kernel (generator/sim/kernel_moves.py).
const M_PIECE = 0; // the piece's index, -1 for a voluntary pass
const M_START = 1;
const M_END = 2; // 0 when a defending stack repelled the piece
const M_CAPTURED = 3;
const M_EXTRA = 4; // 1: the move earns another throw
const MOVE_WIDTH = 6;

const THREAT_WEIGHT = 0.5; // generator/sim/kernel_evaluation.py THREAT_WEIGHT
const WIN_SCORE = 1.0e9; // generator/sim/kernel_evaluation.py WIN_SCORE
const UNIT_STEPS = 2 ** 53; // generator/sim/encode.py UNIT_STEPS
const MAX_THROWS = 100000; // generator/sim/fast.py DEFAULT_MAX_THROWS
const PLAYERS = ["random", "computer"];

// Python's whitespace (str.split and str.strip), so that a position reads the same here.
const SPACES = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;
const EDGE_SPACES = new RegExp(`^${SPACES.source}|${SPACES.source}$`, "g");
const WHOLE = /^-?[0-9]{1,6}$/;

function fail(message) {
  throw new Error(message);
}

function shown(text) {
  // What Python's repr shows of the first 60 characters, near enough for a message.
  return `'${String(text).slice(0, 60)}'`;
}

// Numpy's rint: to the nearest whole number, halves to even (Math.round takes halves up).
function rint(value) {
  const down = Math.floor(value);
  const rest = value - down;
  if (rest > 0.5) return down + 1;
  if (rest < 0.5) return down;
  return down % 2 === 0 ? down : down + 1;
}

// --- random numbers: sfc32, each game seeded from (seed, game) alone -------------------------
// The state lives in a Uint32Array: in closure variables, values above 2**30 are boxed as heap
// numbers at every step, which made random games markedly slower.

function mix32(x) {
  x = Math.imul(x ^ (x >>> 16), 0x21f0aaad);
  x = Math.imul(x ^ (x >>> 15), 0x735a2d97);
  return (x ^ (x >>> 15)) >>> 0;
}

// 32 random bits, as a number from 0 to 2**32 - 1.
function nextBits(rng) {
  const a = rng[0];
  const b = rng[1];
  const c = rng[2];
  const d = rng[3];
  const t = (a + b + d) >>> 0;
  rng[3] = d + 1;
  rng[0] = b ^ (b >>> 9);
  rng[1] = c + (c << 3);
  rng[2] = ((c << 21) | (c >>> 11)) + t;
  return t;
}

function seedGame(rng, seed, game) {
  const low = seed >>> 0;
  const high = Math.floor(seed / 4294967296) >>> 0;
  rng[0] = mix32(low ^ 0x9e3779b9);
  rng[1] = mix32(high ^ mix32(game ^ 0x85ebca6b));
  rng[2] = mix32(rng[0] ^ rng[1] ^ 0xc2b2ae35);
  rng[3] = 1;
  for (let i = 0; i < 12; i++) nextBits(rng);
}

// A uniform whole number from 0 to n - 1.
function below(rng, n) {
  return Math.floor((nextBits(rng) * n) / 4294967296);
}

// --- compiled rules ---------------------------------------------------------------------------

function entryKey(entry) {
  const throws = entry.throws === null ? null : [...entry.throws].sort((x, y) => x - y);
  return JSON.stringify([throws, entry.square, entry.name]);
}

function checkData(data) {
  if (data === null || typeof data !== "object") fail("rules must be an object");
  if (data.format !== FORMAT) {
    fail(`these rules are of format ${data.format}; this engine reads format ${FORMAT}`);
  }
  const r = data.rules;
  if (r === null || typeof r !== "object") fail("the rules' 'rules' are missing");
  for (const key of ["pieces", "route_length", "stack_limit"]) {
    if (!Number.isInteger(r[key]) || r[key] < 1) fail(`'${key}' must be a whole number above 0`);
  }
  for (const side of LETTERS) {
    if (!Array.isArray(r.routes?.[side]) || r.routes[side].length !== r.route_length) {
      fail(`the ${side} route must list ${r.route_length} cells`);
    }
  }
  if (!Array.isArray(r.entry) || r.entry.length !== r.pieces) {
    fail(`'entry' must give one entry rule for each of the ${r.pieces} pieces`);
  }
  if (!Array.isArray(r.throws) || r.throws.length === 0) fail("'throws' must list the throws");
}

// The rules as flat numbers and typed arrays, the shape the kernel plays from
// (generator/sim/encode.py): cells the routes use are numbered light's first in route order,
// route[side * (L + 2) + progress] is a cell number (-1 in hand and borne off), a throw's
// flags are indexed by its value below `width`.
function compile(data) {
  checkData(data);
  const r = data.rules;
  const P = r.pieces;
  const L = r.route_length;
  const ids = new Map();
  for (const side of LETTERS) for (const cell of r.routes[side]) if (!ids.has(cell)) ids.set(cell, ids.size);
  const names = [...ids.keys()];
  const route = new Int32Array(2 * (L + 2)).fill(-1);
  for (const side of [LIGHT, DARK]) {
    r.routes[LETTERS[side]].forEach((cell, i) => (route[side * (L + 2) + i + 1] = ids.get(cell)));
  }
  const flags = (list) => {
    const set = new Set(list);
    return Uint8Array.from(names, (cell) => (set.has(cell) ? 1 : 0));
  };
  const capture = flags(r.capture_cells);
  const safe = flags(r.safe_cells);
  // Enemies meet only on cells both routes pass through (the kernel's "attackable" cells).
  const dark = new Set(r.routes.D);
  const attack = Uint8Array.from(names, (cell, id) =>
    r.routes.L.includes(cell) && dark.has(cell) && capture[id] && !safe[id] ? 1 : 0,
  );
  const values = r.throws.map(([t]) => t);
  const listed = r.entry.flatMap((e) => e.throws ?? []);
  const width = Math.max(...values, ...r.extra_throw_throws, ...listed) + 1;
  const throwExtra = new Uint8Array(width);
  for (const t of r.extra_throw_throws) throwExtra[t] = 1;
  const entryAllowed = new Uint8Array(P * width);
  r.entry.forEach((e, piece) => {
    for (let t = 1; t < width; t++) entryAllowed[piece * width + t] = e.throws === null || e.throws.includes(t) ? 1 : 0;
  });
  return {
    rulebook: data.rulebook,
    P,
    L,
    C: names.length,
    off: L + 1,
    names,
    route,
    capture,
    safe,
    attack,
    extraCell: flags(r.extra_throw_cells),
    stackLimit: r.stack_limit,
    defence: r.stack_defence === null ? -1 : r.stack_defence,
    exact: Boolean(r.exact_bear_off),
    mustMove: Boolean(r.must_move),
    captureExtra: Boolean(r.extra_throw_on_capture),
    extraWithoutMove: Boolean(r.extra_throw_without_move),
    distinct: new Set(r.entry.map(entryKey)).size > 1,
    width,
    throwExtra,
    entryAllowed,
    entryAny: Uint8Array.from(r.entry, (e) => (e.throws === null ? 1 : 0)),
    entrySquare: Int32Array.from(r.entry, (e) => (e.square === null ? -1 : e.square)),
    ...throwTables(r.throws),
  };
}

// The throws with their exact odds; the kernel's integer thresholds out of 2**53 (the
// evaluations weigh each throw by these, exactly as the kernel does) and out of 2**32 (for
// drawing a throw from 32 random bits); the mean throw as the kernel computes it.
function throwTables(throws) {
  let cumulative = 0;
  const sums = throws.map(([, n, d]) => (cumulative += n / d));
  sums[sums.length - 1] = 1;
  const thresholds = Float64Array.from(sums, (c) => rint(c * UNIT_STEPS));
  let total = 0;
  let previous = 0;
  throws.forEach(([t], k) => {
    total += t * (thresholds[k] - previous);
    previous = thresholds[k];
  });
  const chance = Float64Array.from(thresholds, (c, k) => (c - (k === 0 ? 0 : thresholds[k - 1])) / previous);
  return {
    odds: throws.map(([t, n, d]) => [t, n / d]),
    throwValues: Int32Array.from(throws, ([t]) => t),
    throwChance: chance,
    draws: Float64Array.from(sums, (c) => Math.round(c * 4294967296)),
    meanThrow: total / previous,
  };
}

// Whether `piece` enters with throw t, and on which route step.
function entryTarget(K, piece, t) {
  const allowed = t < K.width ? K.entryAllowed[piece * K.width + t] !== 0 : K.entryAny[piece] !== 0;
  if (!allowed || t <= 0) return -1;
  const square = K.entrySquare[piece];
  return square < 0 ? t : square;
}

// --- the game state: pieces by progress, pieces per cell, scratch flags (as the kernel's) -----

function newState(K) {
  return new Int32Array(2 * K.P + 3 * K.C);
}

function occupy(K, S) {
  const { P, C, L, route } = K;
  S.fill(0, 2 * P);
  for (let side = 0; side < 2; side++) {
    for (let i = 0; i < P; i++) {
      const cell = route[side * (L + 2) + S[side * P + i]];
      if (cell >= 0) S[2 * P + side * C + cell] += 1;
    }
  }
}

function allOff(K, S, side) {
  const { P, off } = K;
  for (let i = 0; i < P; i++) if (S[side * P + i] !== off) return false;
  return true;
}

function winnerOf(K, S) {
  if (allOff(K, S, LIGHT)) return LIGHT;
  if (allOff(K, S, DARK)) return DARK;
  return -1;
}

function sortRange(S, first, count) {
  for (let i = first + 1; i < first + count; i++) {
    const value = S[i];
    let j = i - 1;
    while (j >= first && S[j] > value) {
      S[j + 1] = S[j];
      j--;
    }
    S[j + 1] = value;
  }
}

// Restore the ascending order of S[first..last] after S[i] alone changed (the kernel's settle).
function settle(S, first, i, last) {
  const value = S[i];
  while (i < last && S[i + 1] < value) {
    S[i] = S[i + 1];
    i++;
  }
  while (i > first && S[i - 1] > value) {
    S[i] = S[i - 1];
    i--;
  }
  S[i] = value;
}

function writeMove(mv, n, piece, start, end, captured, extra) {
  const row = n * MOVE_WIDTH;
  mv[row + M_PIECE] = piece;
  mv[row + M_START] = start;
  mv[row + M_END] = end;
  mv[row + M_CAPTURED] = captured;
  mv[row + M_EXTRA] = extra;
  return n + 1;
}

// Every legal move of `side` with throw t into mv; how many (0: the turn passes). The rules
// and order of generator/engine/moves.py legal_moves: pieces in index order (one move per
// distinct progress when pieces are interchangeable), then a voluntary pass where the rules
// do not force a move. The position must not be won (the caller checks: see `successors`).
function legalMoves(K, S, side, t, mv) {
  if (t <= 0) return 0;
  const { P, C, L, off, stackLimit, defence, route, distinct } = K;
  const base = side * (L + 2);
  const own = 2 * P + side * C;
  const enemy = 2 * P + (1 - side) * C;
  const gives = t < K.width ? K.throwExtra[t] : 0;
  let n = 0;
  for (let i = 0; i < P; i++) {
    const start = S[side * P + i];
    if (start === off) continue;
    if (!distinct && i > 0 && S[side * P + i - 1] === start) continue;
    let target = start + t;
    if (start === 0) {
      target = entryTarget(K, i, t);
      if (target < 0) continue; // not an entry throw
    }
    if (target > off) {
      if (K.exact || start === 0) continue; // overshoots
      target = off;
    }
    if (target === off) {
      n = writeMove(mv, n, i, start, off, 0, gives);
      continue;
    }
    const cell = route[base + target];
    const here = S[own + cell] - (route[base + start] === cell ? 1 : 0);
    if (here >= stackLimit) continue; // its own piece
    const defenders = S[enemy + cell];
    if (defenders > 0) {
      if (K.safe[cell] !== 0 || K.capture[cell] === 0) continue; // safe, or no capture there
      if (defence >= 0 && defenders >= defence) {
        n = writeMove(mv, n, i, start, 0, 0, gives); // repelled to its hand
        continue;
      }
    }
    const extra = gives !== 0 || K.extraCell[cell] !== 0 || (defenders > 0 && K.captureExtra);
    n = writeMove(mv, n, i, start, target, defenders, extra ? 1 : 0);
  }
  if (n > 0 && !K.mustMove) n = writeMove(mv, n, -1, -1, -1, 0, K.extraWithoutMove ? gives : 0);
  return n;
}

// Play move m of mv in place (a pass changes no piece), keeping interchangeable pieces sorted.
function applyMove(K, S, side, mv, m) {
  const row = m * MOVE_WIDTH;
  const piece = mv[row + M_PIECE];
  if (piece < 0) return;
  const { P, C, L, route } = K;
  const base = side * (L + 2);
  const own = 2 * P + side * C;
  const before = route[base + mv[row + M_START]];
  if (before >= 0) S[own + before] -= 1;
  const end = mv[row + M_END];
  S[side * P + piece] = end;
  const after = route[base + end];
  if (after >= 0) S[own + after] += 1;
  if (mv[row + M_CAPTURED] > 0) {
    const other = 1 - side;
    const theirs = other * (L + 2);
    for (let j = 0; j < P; j++) if (route[theirs + S[other * P + j]] === after) S[other * P + j] = 0;
    S[2 * P + other * C + after] = 0;
    if (!K.distinct) sortRange(S, other * P, P);
  }
  if (!K.distinct) settle(S, side * P, side * P + piece, side * P + P - 1);
}

// The side to move after a throw that moves no piece (generator/engine/moves.py pass_turn):
// the other, unless the throw earns another throw by itself and the rules keep it.
function sideAfterPass(K, side, t) {
  return K.extraWithoutMove && t < K.width && K.throwExtra[t] !== 0 ? side : 1 - side;
}

// --- the computer: the kernel's evaluations (generator/sim/kernel_evaluation.py) -----------

// Mark in S's scratch flags the cells some enemy piece of `side`'s enemy reaches with throw t.
function markReach(K, S, side, t) {
  const { P, C, L, route } = K;
  const other = 1 - side;
  const reach = 2 * P + 2 * C;
  for (let j = 0; j < P; j++) {
    const q = S[other * P + j];
    if (q === L + 1) continue;
    const target = q === 0 ? entryTarget(K, j, t) : q + t;
    if (target >= 1 && target <= L) S[reach + route[other * (L + 2) + target]] = 1;
  }
}

// The summed progress of side's pieces on marked cells that a capture could take (no
// defending stack); clears the marks.
function progressAtRisk(K, S, side) {
  const { P, C, L, route, defence } = K;
  const reach = 2 * P + 2 * C;
  let progress = 0;
  for (let i = 0; i < P; i++) {
    const p = S[side * P + i];
    const cell = route[side * (L + 2) + p];
    if (cell < 0 || K.attack[cell] === 0 || S[reach + cell] === 0) continue;
    if (defence > 0 && S[2 * P + side * C + cell] >= defence) continue;
    progress += p;
  }
  S.fill(0, reach, reach + C);
  return progress;
}

// The summed progress of side's pieces some enemy piece could land on with any next throw
// (blocks by other pieces ignored): the kernel's `threatened`.
function threatenedProgress(K, S, side) {
  for (const t of K.throwValues) if (t > 0) markReach(K, S, side, t);
  return progressAtRisk(K, S, side);
}

// Own progress less the enemy's, less THREAT_WEIGHT times the progress of own pieces at risk.
function evaluate(K, S, side) {
  if (allOff(K, S, side)) return 1.0e9;
  if (allOff(K, S, 1 - side)) return -1.0e9;
  const P = K.P;
  let value = 0.0;
  for (let i = 0; i < P; i++) value += S[side * P + i] - S[(1 - side) * P + i];
  return value - THREAT_WEIGHT * threatenedProgress(K, S, side);
}

// The progress side expects to lose to the enemy's next throw: the kernel's `exposure`.
function exposure(K, S, side) {
  let total = 0.0;
  for (let k = 0; k < K.throwValues.length; k++) {
    const t = K.throwValues[k];
    if (t <= 0) continue;
    markReach(K, S, side, t);
    total += K.throwChance[k] * progressAtRisk(K, S, side);
  }
  return total;
}

// The fitted estimate of side's chance of winning, side to throw next (`fitted_value`).
function fittedValue(K, S, side, W) {
  if (allOff(K, S, side)) return 1.0;
  if (allOff(K, S, 1 - side)) return 0.0;
  const P = K.P;
  const steps = K.L + 2;
  const scale = P * (K.L + 1);
  let value = W[0];
  value += (W[1] * exposure(K, S, side)) / scale;
  value += (W[2] * exposure(K, S, 1 - side)) / scale;
  let placed = 0.0;
  for (let i = 0; i < P; i++) {
    placed += W[3 + S[side * P + i]];
    placed += W[3 + steps + S[(1 - side) * P + i]];
  }
  return value + placed / P;
}

// How much the computer likes move m: the fitted agent's one-ply expectimax
// (`fitted_score`), or greedy's evaluation of the position after the move plus the mean throw
// when the move throws again (`move_score`).
function moveScore(K, W, S, side, mv, m, after) {
  after.set(S);
  applyMove(K, after, side, mv, m);
  const row = m * MOVE_WIDTH;
  if (W === null) {
    const value = evaluate(K, after, side);
    return mv[row + M_EXTRA] !== 0 ? value + K.meanThrow : value;
  }
  const finishing = mv[row + M_PIECE] >= 0 && mv[row + M_END] === K.off;
  if (finishing && allOff(K, after, side)) return WIN_SCORE;
  if (mv[row + M_EXTRA] !== 0) return fittedValue(K, after, side, W);
  return 1.0 - fittedValue(K, after, 1 - side, W);
}

// The computer's move among n: a best-scoring one. Ties go to the first for the fitted agent
// (as the kernel plays it) and for greedy without a random source; greedy given one breaks
// them at random, as the kernel does.
function computerMove(K, W, S, side, mv, n, after, scores, rng) {
  if (n === 1) return 0;
  let best = -Infinity;
  let ties = 0;
  for (let m = 0; m < n; m++) {
    const s = moveScore(K, W, S, side, mv, m, after);
    scores[m] = s;
    if (s > best) {
      best = s;
      ties = 1;
    } else if (s === best) {
      ties += 1;
    }
  }
  let pick = ties === 1 || W !== null || rng === null ? 0 : below(rng, ties);
  for (let m = 0; m < n; m++) {
    if (scores[m] === best) {
      if (pick === 0) return m;
      pick -= 1;
    }
  }
  return 0;
}

// --- positions as text ------------------------------------------------------------------

// generator/engine/position.py parse_position: the state of a position, checked possible.
function parsePosition(K, text) {
  if (typeof text !== "string") fail(`a position is text such as '0,0,3/0,5,15 L', not ${typeof text}`);
  const parts = text.replace(EDGE_SPACES, "").split(SPACES);
  const sides = parts[0].split("/");
  if (parts.length !== 2 || !(parts[1] === "L" || parts[1] === "D") || sides.length !== 2) {
    fail(`expected '<light>/<dark> <L|D>' such as '0,0,3/0,5,15 L', got ${shown(text)}`);
  }
  const { P, off } = K;
  const S = newState(K);
  sides.forEach((part, side) => {
    const name = side === LIGHT ? "light" : "dark";
    const words = part.split(",");
    if (!words.every((word) => WHOLE.test(word))) {
      fail(`${name} pieces must be whole numbers from 0 to ${off} separated by commas: ${shown(part)}`);
    }
    if (words.length !== P) fail(`${name} has ${words.length} pieces; this variant has ${P}`);
    words.forEach((word, i) => {
      const progress = Number(word);
      if (!(progress >= 0 && progress <= off)) {
        fail(`${name} progress ${progress} is outside 0..${off} (0 in hand, ${off} borne off)`);
      }
      S[side * P + i] = progress;
    });
    if (!K.distinct) sortRange(S, side * P, P);
  });
  if (allOff(K, S, LIGHT) && allOff(K, S, DARK)) {
    fail(
      "both sides have borne off every piece, but the game ends when the first side does;" +
        ` leave some of one side's pieces below ${off}`,
    );
  }
  checkOccupancy(K, S);
  occupy(K, S);
  return { S, side: parts[1] === "L" ? LIGHT : DARK };
}

// generator/engine/position.py _check_occupancy: no over-full stack, no cell held by both.
function checkOccupancy(K, S) {
  const owner = new Set();
  for (const side of [LIGHT, DARK]) {
    const counts = new Map();
    for (let i = 0; i < K.P; i++) {
      const cell = K.route[side * (K.L + 2) + S[side * K.P + i]];
      if (cell >= 0) counts.set(cell, (counts.get(cell) ?? 0) + 1);
    }
    for (const [cell, count] of counts) {
      const where = K.names[cell];
      if (count > K.stackLimit) {
        fail(`${count} ${side === LIGHT ? "light" : "dark"} pieces on ${where}; at most ${K.stackLimit}`);
      }
      if (owner.has(cell)) fail(`both sides have pieces on ${where}`);
      owner.add(cell);
    }
  }
}

function formatPosition(K, S, side) {
  const light = Array.from(S.subarray(0, K.P)).join(",");
  const dark = Array.from(S.subarray(K.P, 2 * K.P)).join(",");
  return `${light}/${dark} ${LETTERS[side]}`;
}

function checkThrow(t) {
  if (!Number.isSafeInteger(t)) fail(`a throw is a whole number, not ${String(t).slice(0, 60)}`);
}

// --- a rulebook to play -------------------------------------------------------------------

class Game {
  constructor(data) {
    this.K = compile(data);
    const size = 3 + 2 * (this.K.L + 2);
    const weights = data.computer?.agent === "fitted" ? data.computer.weights : null;
    if (weights !== null && !(Array.isArray(weights) && weights.length === size)) {
      fail(`the fitted computer's weights must be ${size} numbers`);
    }
    this.W = weights === null ? null : Float64Array.from(weights);
    this.rulebook = data.rulebook;
    this.computer = this.W === null ? "greedy" : "fitted";
    this.throws = this.K.odds.map(([t, p]) => [t, p]);
    this.mv = new Int32Array((this.K.P + 1) * MOVE_WIDTH);
    this.scores = new Float64Array(this.K.P + 1);
    this.after = newState(this.K);
  }

  start() {
    return formatPosition(this.K, newState(this.K), LIGHT);
  }

  // The positions after each legal move with throw t, in the Python engine's order; when no
  // piece can move (or the game is over), the one position after the throw: the turn passes
  // on, or stays where a throw that earns another throw keeps it without a move.
  moves(position, t) {
    checkThrow(t);
    const { S, side } = parsePosition(this.K, position);
    const n = this.legal(S, side, t);
    if (n === 0) return [formatPosition(this.K, S, sideAfterPass(this.K, side, t))];
    return Array.from({ length: n }, (_, m) => this.play(S, side, t, m));
  }

  // legalMoves into this.mv, none once the game is over.
  legal(S, side, t) {
    return winnerOf(this.K, S) >= 0 ? 0 : legalMoves(this.K, S, side, t, this.mv);
  }

  // The position after move m of this.mv (generator/engine/moves.py apply_move).
  play(S, side, t, m) {
    const row = m * MOVE_WIDTH;
    if (this.mv[row + M_PIECE] < 0) return formatPosition(this.K, S, sideAfterPass(this.K, side, t));
    const after = S.slice();
    applyMove(this.K, after, side, this.mv, m);
    const again = this.mv[row + M_EXTRA] !== 0 && winnerOf(this.K, after) < 0;
    return formatPosition(this.K, after, again ? side : 1 - side);
  }

  winner(position) {
    const side = winnerOf(this.K, parsePosition(this.K, position).S);
    return side < 0 ? null : LETTERS[side];
  }

  // The computer's move with throw t: one of moves(position, t).
  choose(position, t) {
    checkThrow(t);
    const { S, side } = parsePosition(this.K, position);
    const n = this.legal(S, side, t);
    if (n === 0) return formatPosition(this.K, S, sideAfterPass(this.K, side, t));
    const m = computerMove(this.K, this.W, S, side, this.mv, n, this.after, this.scores, null);
    return this.play(S, side, t, m);
  }

  // `games` games from the start, game g's throws and random choices drawn from (seed, g)
  // alone; `first` and `second` each "random" (uniform over the legal moves) or "computer".
  simulate(games, seed, first, second) {
    if (!Number.isSafeInteger(games) || games < 1) fail(`games must be a whole number above 0, not ${games}`);
    if (!Number.isSafeInteger(seed) || seed < 0) fail(`a seed is a whole number from 0 up, not ${seed}`);
    for (const player of [first, second]) {
      if (!PLAYERS.includes(player)) fail(`a player is 'random' or 'computer', not ${shown(player)}`);
    }
    const began = performance.now();
    if (first === "random" && second === "random") {
      const { firstWins, throws } = randomGames(this.K, games, seed);
      return { games, firstWins, meanThrows: throws / games, seconds: (performance.now() - began) / 1000 };
    }
    let firstWins = 0;
    let throws = 0;
    const S = newState(this.K);
    const rng = new Uint32Array(4);
    for (let g = 0; g < games; g++) {
      S.fill(0);
      seedGame(rng, seed, g);
      const length = playGame(this.K, this.W, S, rng, first === "computer", second === "computer", this.mv, this.after, this.scores);
      if (length > 0) firstWins += 1;
      throws += Math.abs(length);
    }
    return { games, firstWins, meanThrows: throws / games, seconds: (performance.now() - began) / 1000 };
  }
}

// One game from the start in S: its number of throws, positive when the first player won and
// negative when the second did.
function playGame(K, W, S, rng, firstComputer, secondComputer, mv, after, scores) {
  const { draws, throwValues, off } = K;
  const last = draws.length - 1;
  let side = LIGHT;
  for (let throws = 1; throws <= MAX_THROWS; throws++) {
    const bits = nextBits(rng);
    let k = 0;
    while (k < last && bits >= draws[k]) k++;
    const t = throwValues[k];
    const n = legalMoves(K, S, side, t, mv);
    if (n === 0) {
      side = sideAfterPass(K, side, t);
      continue;
    }
    let m = 0;
    if (side === LIGHT ? firstComputer : secondComputer) {
      m = computerMove(K, W, S, side, mv, n, after, scores, rng);
    } else if (n > 1) {
      m = below(rng, n);
    }
    const row = m * MOVE_WIDTH;
    if (mv[row + M_PIECE] < 0) {
      side = sideAfterPass(K, side, t);
      continue;
    }
    applyMove(K, S, side, mv, m);
    if (mv[row + M_END] === off && allOff(K, S, side)) return side === LIGHT ? throws : -throws;
    if (mv[row + M_EXTRA] === 0) side = 1 - side;
  }
  return fail(`${K.rulebook}: a game went past ${MAX_THROWS} throws without a winner`);
}

// --- random against random: the hot path of simulate ---------------------------------------
// The same games as playGame with two random players (the same rules, move order, throws and
// choices from the same random stream), written as one loop over flat tables held in local
// variables: no property reads of the rules, no calls and no allocation per throw: about 1.5
// times as fast (`ur-variants bench --browser` times it against the native kernel).

// Per throw value below K.width, per piece: the route step a piece in hand enters on, or -1.
function entrySteps(K) {
  const steps = new Int32Array(K.P * K.width);
  for (let piece = 0; piece < K.P; piece++) {
    for (let t = 0; t < K.width; t++) steps[piece * K.width + t] = entryTarget(K, piece, t);
  }
  return steps;
}

// Per cell: an enemy piece there stops the move (a safe cell, or one where nothing is taken).
function blockingCells(K) {
  return Uint8Array.from(K.capture, (capture, cell) => (capture === 0 || K.safe[cell] !== 0 ? 1 : 0));
}

// Per throw value below K.width: the side keeps the throw when it moves no piece.
function keptWithoutMove(K) {
  return Uint8Array.from(K.throwExtra, (extra) => (K.extraWithoutMove && extra !== 0 ? 1 : 0));
}

// Per value of a draw's top 8 bits: the first throw that draw can pick (the throws before it
// end below that value), where the search among the throws' thresholds can begin.
function drawStarts(draws) {
  const starts = new Uint8Array(256);
  for (let top = 0; top < 256; top++) {
    let k = 0;
    while (k < draws.length - 1 && top * 2 ** 24 >= draws[k]) k++;
    starts[top] = k;
  }
  return starts;
}

// `games` random games from (seed, 0), (seed, 1), ...: the first player's wins and the throws.
function randomGames(K, games, seed) {
  const P = K.P;
  const C = K.C;
  const off = K.off;
  const steps = K.L + 2;
  const width = K.width;
  const route = K.route;
  const draws = K.draws;
  const values = K.throwValues;
  const last = draws.length - 1;
  const throwExtra = K.throwExtra;
  const extraCell = K.extraCell;
  const entry = entrySteps(K);
  const blocking = blockingCells(K);
  const kept = keptWithoutMove(K);
  const stackLimit = K.stackLimit;
  const defence = K.defence;
  const exact = K.exact;
  const choosesPass = !K.mustMove;
  const captureExtra = K.captureExtra;
  const sorted = !K.distinct;
  const pieces = new Int32Array(2 * P); // each side's pieces by progress, side by side
  const occupied = new Int32Array(2 * C); // each side's pieces per cell
  const borne = new Int32Array(2);
  const movers = new Int32Array(P); // the legal moves: which piece, to which step
  const targets = new Int32Array(P);
  const rng = new Uint32Array(4);
  const firstDraw = drawStarts(draws);
  let firstWins = 0;
  let totalThrows = 0;
  for (let g = 0; g < games; g++) {
    pieces.fill(0);
    occupied.fill(0);
    borne[0] = 0;
    borne[1] = 0;
    seedGame(rng, seed, g);
    let side = LIGHT;
    let throws = 0;
    for (;;) {
      throws += 1;
      if (throws > MAX_THROWS) fail(`${K.rulebook}: a game went past ${MAX_THROWS} throws without a winner`);
      const bits = nextBits(rng);
      let k = firstDraw[bits >>> 24];
      while (k < last && bits >= draws[k]) k++;
      const t = values[k];
      if (t <= 0) {
        if (t < 0 || kept[t] === 0) side = 1 - side; // no piece moves
        continue;
      }
      const mine = side * P;
      const base = side * steps;
      const own = side * C;
      const enemy = C - own;
      let n = 0;
      let previous = -1;
      for (let i = 0; i < P; i++) {
        const start = pieces[mine + i];
        if (start === off) {
          if (sorted) break; // the rest are borne off too
          continue;
        }
        if (sorted && start === previous) continue;
        previous = start;
        let target = start === 0 ? entry[i * width + t] : start + t;
        if (target < 0) continue;
        if (target > off) {
          if (exact || start === 0) continue;
          target = off;
        }
        if (target < off) {
          const cell = route[base + target];
          const here = occupied[own + cell] - (route[base + start] === cell ? 1 : 0);
          if (here >= stackLimit) continue;
          if (occupied[enemy + cell] > 0 && blocking[cell] !== 0) continue;
        }
        movers[n] = i;
        targets[n] = target;
        n++;
      }
      const choices = choosesPass && n > 0 ? n + 1 : n;
      const m = choices > 1 ? below(rng, choices) : 0;
      if (m === n) {
        // no piece can move, or the random player passes
        if (kept[t] === 0) side = 1 - side;
        continue;
      }
      const i = movers[m];
      const start = pieces[mine + i];
      let end = targets[m];
      const before = route[base + start];
      if (before >= 0) occupied[own + before] -= 1;
      let extra = throwExtra[t];
      if (end === off) {
        borne[side] += 1;
        if (borne[side] === P) {
          if (side === LIGHT) firstWins += 1;
          break;
        }
      } else {
        const cell = route[base + end];
        const defenders = occupied[enemy + cell];
        if (defenders > 0 && defence >= 0 && defenders >= defence) {
          end = 0; // repelled to its hand
        } else {
          if (defenders > 0) {
            const theirs = P - mine;
            const theirBase = steps - base;
            for (let j = theirs; j < theirs + P; j++) if (route[theirBase + pieces[j]] === cell) pieces[j] = 0;
            occupied[enemy + cell] = 0;
            if (sorted) sortRange(pieces, theirs, P);
            if (captureExtra) extra = 1;
          }
          if (extraCell[cell] !== 0) extra = 1;
          occupied[own + cell] += 1;
        }
      }
      pieces[mine + i] = end;
      if (sorted) settle(pieces, mine, mine + i, mine + P - 1);
      if (extra === 0) side = 1 - side;
    }
    totalThrows += throws;
  }
  return { firstWins, throws: totalThrows };
}

// --- your own rules: a set of answers compiled into rules, and why a set cannot be played ----
// The answers and the equipment they name come from play/answers.json (written by the site
// build from generator/measure/own_rules.py). `compileAnswers` is generator/engine/rules.py
// compile_rules, `answerProblems` generator/model/play_checks.py play_problems (for a rulebook
// that must end); tests/browser/test_own_rules_js.py holds both to the Python.

const MAX_GAME_THROWS = 2000; // generator/model/play_checks.py MAX_GAME_THROWS

function pick(table, id, what) {
  if (typeof id !== "string" || !Object.hasOwn(table, id)) fail(`no ${what} is called ${shown(id)}`);
  return table[id];
}

function cellsOf(value, rosettes) {
  if (value === "none") return [];
  if (value === "rosettes") return [...rosettes];
  if (!Array.isArray(value)) fail(`expected 'none', 'rosettes' or a list of squares, not ${shown(value)}`);
  return [...value];
}

function entryRules(value, pieces) {
  const rule = (spec) => ({
    throws: spec.throws === "any" ? null : [...new Set(spec.throws.map(Number))].sort((x, y) => x - y),
    square: spec.square === "throw" ? null : Number(spec.square),
    name: typeof spec.name === "string" ? spec.name : null,
  });
  if (Array.isArray(value.per_piece)) return value.per_piece.map(rule);
  return Array.from({ length: pieces }, () => rule(value));
}

const sortedCells = (cells) => [...new Set(cells)].sort();

// The rules (the format of play/rules/<id>.json) that a set of answers describes.
function compileAnswers(values, equipment, rulebook) {
  const route = pick(equipment.routes, values.route, "route");
  const board = pick(equipment.boards, values.board, "board");
  const dice = pick(equipment.dice, values.dice, "dice");
  const dark = new Set(route.dark);
  const shared = route.light.filter((cell) => dark.has(cell));
  return {
    format: FORMAT,
    rulebook,
    rules: {
      pieces: values.pieces,
      route_length: route.light.length,
      routes: { L: [...route.light], D: [...route.dark] },
      throws: dice.throws.map((row) => [...row]),
      entry: entryRules(values.entry, values.pieces),
      stack_limit: values.stacking,
      stack_defence: values["stack-defence"] ?? null,
      capture_cells: sortedCells(values["capture-zone"] === "shared" ? shared : board.cells),
      safe_cells: sortedCells(cellsOf(values["safe-squares"], board.rosettes)),
      extra_throw_cells: sortedCells(cellsOf(values["rosette-extra-throw"], board.rosettes)),
      extra_throw_throws: [...new Set(values["throw-extra-throw"])].sort((x, y) => x - y),
      extra_throw_without_move: values["extra-throw-without-move"] === "throws-again",
      extra_throw_on_capture: Boolean(values["capture-extra-throw"]),
      exact_bear_off: values["bearing-off"] === "exact",
      must_move: Boolean(values["must-move"]),
    },
  };
}

// Route steps from which some sequence of throws bears a piece off, blocks ignored.
function stepsReachingOff(length, throws, exact) {
  const off = length + 1;
  const good = new Set([off]);
  for (let step = length; step > 0; step--) {
    for (const t of throws) {
      let target = step + t;
      if (target > off && !exact) target = off;
      if (good.has(target)) {
        good.add(step);
        break;
      }
    }
  }
  return good;
}

// Where a throw takes a piece alone on `step` (0: in hand), or null when it cannot move.
function aloneLanding(step, t, rule, off, exact) {
  if (t <= 0) return null;
  if (step === 0) {
    if (rule.throws !== "any" && !rule.throws.includes(t)) return null;
    const square = rule.square === "throw" ? t : rule.square;
    return Number.isInteger(square) && square < off ? square : null;
  }
  if (step + t > off) return exact ? null : off;
  return step + t;
}

// Expected throws for one piece alone to enter by `rule` and bear off (play_checks.py
// _piece_throws), worked from the last step back in the same order of floating-point sums.
function pieceThrows(length, throws, rule, exact) {
  const off = length + 1;
  const remaining = new Array(off + 1).fill(0);
  for (let step = length; step >= 0; step--) {
    let moving = 0;
    let after = 0;
    for (const [t, n, d] of throws) {
      const square = aloneLanding(step, t, rule, off, exact);
      if (square === null) continue;
      moving += n / d;
      after += (n / d) * remaining[square];
    }
    remaining[step] = moving > 0 ? (1 + after) / moving : Infinity;
  }
  return remaining[0];
}

function expectedGameThrows(values, length, throws) {
  const entry = values.entry;
  const rules = entry.per_piece ?? Array.from({ length: values.pieces }, () => entry);
  const exact = values["bearing-off"] === "exact";
  let total = 0;
  for (const rule of rules) total += pieceThrows(length, throws, rule, exact);
  return 2 * total;
}

function endlessProblems(values, route, dice, diceId) {
  const throws = dice.throws.filter(([t, n]) => t > 0 && n > 0).map(([t]) => t).sort((x, y) => x - y);
  if (throws.length === 0) return [["dice", "no-moving-throw", { dice: diceId }]];
  const length = route.light.length;
  const entry = values.entry;
  const exact = values["bearing-off"] === "exact";
  const reachOff = stepsReachingOff(length, throws, exact);
  const found = [];
  for (const rule of entry.per_piece ?? [entry]) {
    const allowed = rule.throws === "any" ? throws : rule.throws.filter((t) => throws.includes(t));
    if (allowed.length === 0) {
      found.push(["entry", "no-entering-throw", { dice: diceId, entering: rule.throws }]);
      continue;
    }
    for (const square of rule.square === "throw" ? allowed : [rule.square]) {
      if (square > length) {
        found.push(["entry", "entry-beyond-route", { square, steps: length }]);
      } else if (!reachOff.has(square)) {
        found.push(["bearing-off", "never-bears-off", { square, throws }]);
      }
    }
  }
  return found;
}

// Each reason a set of answers cannot be played as a game that ends: [question, kind,
// details], in the order the Python gives them.
function answerProblems(values, equipment) {
  const route = pick(equipment.routes, values.route, "route");
  const board = pick(equipment.boards, values.board, "board");
  const dice = pick(equipment.dice, values.dice, "dice");
  if (route.board !== values.board) {
    return [["route", "route-off-board", { route: values.route, route_board: route.board, board: values.board }]];
  }
  const found = [];
  const onBoard = new Set(board.cells);
  const onRoute = new Set([...route.light, ...route.dark]);
  for (const question of ["safe-squares", "rosette-extra-throw"]) {
    const value = values[question];
    const cells = value === "rosettes" ? [...board.rosettes].sort() : value;
    if (!Array.isArray(cells)) continue;
    for (const cell of cells) {
      if (!onBoard.has(cell)) found.push([question, "square-off-board", { board: values.board }]);
      else if (!onRoute.has(cell)) found.push([question, "square-off-route", { route: values.route }]);
    }
  }
  const places = new Set(route.light).size * values.stacking;
  if (values.pieces > places) {
    found.push(["pieces", "too-many-pieces", { pieces: values.pieces, route: values.route, places }]);
  }
  const perPiece = values.entry.per_piece;
  if (Array.isArray(perPiece) && perPiece.length !== values.pieces) {
    found.push(["pieces", "entry-piece-count", { named: perPiece.length, pieces: values.pieces }]);
  }
  const endless = endlessProblems(values, route, dice, values.dice);
  found.push(...endless);
  if (endless.length === 0) {
    const throws = expectedGameThrows(values, route.light.length, dice.throws);
    if (throws > MAX_GAME_THROWS) {
      found.push(["dice", "too-long-game", { dice: values.dice, throws: rint(Math.min(throws, 1e12)) }]);
    }
  }
  return found;
}

const ANSWERS_FILE = new URL("answers.json", new URL("../play/", import.meta.url));
let answersFile = null;

const loaded = new Map();

export const UrEngine = Object.freeze({
  format: FORMAT,

  // The rulebook's game, from its rules file in play/rules/ of the site this script is on.
  load(rulebookId) {
    if (typeof rulebookId !== "string" || !RULEBOOK_ID.test(rulebookId)) {
      return Promise.reject(new Error(`no rulebook is called ${shown(rulebookId)}: ids are like 'finkel-english'`));
    }
    if (!loaded.has(rulebookId)) {
      const address = new URL(`${rulebookId}.json`, RULES_FOLDER);
      const game = fetch(address).then(async (response) => {
        if (!response.ok) fail(`no rules for the rulebook '${rulebookId}' (${response.status} at ${address})`);
        return new Game(await response.json());
      });
      game.catch(() => loaded.delete(rulebookId));
      loaded.set(rulebookId, game);
    }
    return loaded.get(rulebookId);
  },

  // A game from rules given as data, in the format of the rules files.
  fromRules(data) {
    return new Game(data);
  },

  // The answers a reader may change (play/answers.json): every played rulebook's answers,
  // each question's known answers with the rulebooks that give them, and the equipment.
  answers() {
    if (answersFile === null) {
      answersFile = fetch(ANSWERS_FILE).then(async (response) => {
        if (!response.ok) fail(`no answers file (${response.status} at ${ANSWERS_FILE})`);
        return response.json();
      });
      answersFile.catch(() => (answersFile = null));
    }
    return answersFile;
  },

  // The rules a set of answers describes, in the format of the rules files (give them to
  // fromRules); the equipment is the answers file's.
  compile(values, equipment, rulebook = "own-rules") {
    return compileAnswers(values, equipment, rulebook);
  },

  // Why a set of answers cannot be played as a game that ends: [[question, kind, details],
  // ...], empty when it can.
  problems(values, equipment) {
    return answerProblems(values, equipment);
  },
});

globalThis.UrEngine = UrEngine;
