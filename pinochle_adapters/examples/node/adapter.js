#!/usr/bin/env node
// Protocol adapter for engine.js: JSON-RPC 2.0, one JSON object per line on stdin/stdout.
// Run the conformance suite against it:  pytest features/ --engine "node pinochle_adapters/examples/node/adapter.js"
"use strict";

const readline = require("readline");
const engine = require("./engine.js");

// Option values this engine implements: the defaults, named so that cases stating them run.
const VARIANTS = [
  {
    id: "double-deck",
    options: { trick_rules: ["pre-1945"], run: ["16"], queens_around: ["6"], pinochle_scale: ["table"] },
  },
];

const METHODS = {
  initialize: (p) => ({
    protocol: 1,
    engine: { name: "node-example", version: "0.1.0", language: "JavaScript" },
    variants: VARIANTS,
    methods: ["meld", "legal_plays", "trick_winner", "card_points"],
  }),
  meld: (p) => engine.meld(p.hand, p.trump),
  legal_plays: (p) => ({ cards: engine.legalPlays(p.hand, p.trick, p.trump) }),
  trick_winner: (p) => ({ winner: engine.trickWinner(p.trick, p.trump) }),
  card_points: (p) => ({ points: engine.cardPoints(p.cards, p.last_trick) }),
  shutdown: () => null,
};

function reply(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

const rl = readline.createInterface({ input: process.stdin, terminal: false });
rl.on("line", (line) => {
  if (!line.trim()) return;
  let request;
  try {
    request = JSON.parse(line);
  } catch (e) {
    return reply({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } });
  }
  const { id, method, params } = request;
  const handler = METHODS[method];
  if (!handler) {
    return reply({ jsonrpc: "2.0", id, error: { code: -32601, message: `no method ${method}` } });
  }
  try {
    reply({ jsonrpc: "2.0", id, result: handler(params || {}) });
  } catch (e) {
    reply({ jsonrpc: "2.0", id, error: { code: -32602, message: String(e.message || e) } });
  }
  if (method === "shutdown") process.exit(0);
});
