// A small double-deck Pinochle engine written for this example: meld, legal plays, trick winner
// and card points, following spec/rules (MELD-*, PLAY-*, TRICK-*, POINTS-*). No dependencies.
"use strict";

const RANKS = "ATKQJ9"; // high to low (DECK-RANK)
const SUITS = "shdc";

function parseCard(code) {
  if (typeof code !== "string" || !/^[ATKQJ9][shdc]$/.test(code)) {
    throw new RangeError(`bad card code ${JSON.stringify(code)}`);
  }
  return { rank: RANKS.indexOf(code[0]), suit: SUITS.indexOf(code[1]), code };
}

function counts(hand) {
  const c = new Array(24).fill(0);
  for (const code of hand) {
    const card = parseCard(code);
    c[card.suit * 6 + card.rank] += 1;
  }
  return c;
}

// Double-deck meld table of source 000: value at single, double, triple, quadruple.
const TABLE = {
  run: [16, 150, 225, 300],
  royal_marriage: [4, 8, 12, 16],
  marriage: [2, 4, 6, 8],
  pinochle: [4, 30, 60, 90],
  aces_around: [10, 100, 150, 200],
  kings_around: [8, 80, 120, 160],
  queens_around: [6, 60, 90, 120],
  jacks_around: [4, 40, 60, 80],
};
const TYPES = { run: "I", royal_marriage: "I", marriage: "I", pinochle: "II" };
const [A, T, K, Q, J] = [0, 1, 2, 3, 4];

function repeat(codes, n) {
  const out = [];
  for (const code of codes) for (let i = 0; i < n; i++) out.push(code);
  return out;
}

function meld(hand, trumpLetter) {
  const c = counts(hand);
  const t = SUITS.indexOf(trumpLetter);
  if (t < 0) throw new RangeError(`bad trump ${JSON.stringify(trumpLetter)}`);
  const melds = [];
  const add = (id, count, cards, suit) => {
    if (count <= 0) return;
    const item = { id, type: TYPES[id] || "III", count, points: TABLE[id][count - 1], cards };
    if (suit !== undefined) item.suit = SUITS[suit];
    melds.push(item);
  };
  const at = (suit, rank) => c[suit * 6 + rank];
  const code = (suit, rank) => RANKS[rank] + SUITS[suit];
  // A run counts only in trumps; its king and queen are not also a royal marriage (MELD-TYPES).
  const runs = Math.min(...[A, T, K, Q, J].map((r) => at(t, r)));
  add("run", runs, repeat([A, T, K, Q, J].map((r) => code(t, r)), runs), t);
  const royal = Math.min(at(t, K), at(t, Q)) - runs;
  add("royal_marriage", royal, repeat([code(t, K), code(t, Q)], royal), t);
  for (let s = 0; s < 4; s++) {
    if (s === t) continue;
    const m = Math.min(at(s, K), at(s, Q));
    add("marriage", m, repeat([code(s, K), code(s, Q)], m), s);
  }
  const p = Math.min(at(0, Q), at(2, J));
  add("pinochle", p, repeat(["Qs", "Jd"], p));
  for (const [id, rank] of [["aces_around", A], ["kings_around", K], ["queens_around", Q], ["jacks_around", J]]) {
    const n = Math.min(at(0, rank), at(1, rank), at(2, rank), at(3, rank));
    add(id, n, repeat([0, 1, 2, 3].map((s) => code(s, rank)), n));
  }
  return { total: melds.reduce((sum, m) => sum + m.points, 0), melds };
}

function beats(card, winning, trump) {
  if (card.suit === winning.suit) return card.rank < winning.rank; // identical cards do not beat
  return card.suit === trump;
}

function trickWinner(trick, trumpLetter) {
  const t = SUITS.indexOf(trumpLetter);
  const cards = trick.map(parseCard);
  let best = 0;
  for (let i = 1; i < cards.length; i++) if (beats(cards[i], cards[best], t)) best = i;
  return best;
}

// Pre-1945 crawl (PLAY-CRAWL): follow suit and beat the winning card if you can; if trumped,
// any card of the suit; void: trump, over-trumping if you can; void of both: anything.
function legalPlays(hand, trick, trumpLetter) {
  const t = SUITS.indexOf(trumpLetter);
  const held = [...new Set(hand)].map(parseCard);
  if (trick.length === 0) return held.map((c) => c.code);
  const played = trick.map(parseCard);
  const led = played[0].suit;
  const winning = played[trickWinner(trick, trumpLetter)];
  const pick = (cards) => cards.map((c) => c.code);
  const follow = held.filter((c) => c.suit === led);
  if (follow.length) {
    if (winning.suit === t && led !== t) return pick(follow);
    const higher = follow.filter((c) => c.rank < winning.rank);
    return pick(higher.length ? higher : follow);
  }
  const trumps = held.filter((c) => c.suit === t);
  if (trumps.length) {
    if (winning.suit === t) {
      const higher = trumps.filter((c) => c.rank < winning.rank);
      if (higher.length) return pick(higher);
    }
    return pick(trumps);
  }
  return pick(held);
}

// POINTS-COUNTERS: aces, tens and kings one point each; POINTS-LAST-TRICK: 2 more.
function cardPoints(cards, lastTrick) {
  const pts = cards.map(parseCard).filter((c) => c.rank <= K).length;
  return pts + (lastTrick ? 2 : 0);
}

module.exports = { meld, legalPlays, trickWinner, cardPoints };
