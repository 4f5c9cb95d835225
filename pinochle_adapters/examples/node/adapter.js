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

// JSON-RPC error codes (spec/protocol.md): the caller's fault against the engine's own.
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

// Thrown by checkParams: the request is wrong, so the answer is -32602, not a crash.
class InvalidParams extends Error {}

const CARD = /^[ATKQJ9][shdc]$/;

// Params are checked before the engine sees them: any exception after this point is a bug in
// the engine's own code and is answered -32603 with where it happened.
function checkParams(method, p) {
  if (method === "initialize" || method === "shutdown") return;
  if (typeof p !== "object" || p === null || Array.isArray(p)) {
    throw new InvalidParams("params must be an object");
  }
  const variant = VARIANTS.find((v) => v.id === p.variant);
  if (!variant) throw new InvalidParams(`unknown variant ${JSON.stringify(p.variant)}`);
  for (const [name, value] of Object.entries(p.options || {})) {
    const known = variant.options[name];
    if (!known || !known.includes(String(value))) {
      throw new InvalidParams(`option ${name}=${JSON.stringify(value)} is not implemented`);
    }
  }
  for (const field of ["hand", "trick", "cards"]) {
    if (!(field in p)) continue;
    if (!Array.isArray(p[field])) throw new InvalidParams(`params.${field} must be a list`);
    const bad = p[field].findIndex((code) => typeof code !== "string" || !CARD.test(code));
    if (bad >= 0) {
      throw new InvalidParams(`params.${field}[${bad}]: ${JSON.stringify(p[field][bad])} is not a card code`);
    }
  }
  if ("trump" in p && !/^[shdc]$/.test(p.trump)) {
    throw new InvalidParams(`params.trump: ${JSON.stringify(p.trump)} is not a suit letter`);
  }
}

function reply(obj) {
  process.stdout.write(JSON.stringify(obj) + "\n");
}

function internalError(method, e) {
  const type = (e && e.name) || typeof e;
  const message = String((e && e.message) || e);
  // The innermost frames of the stack: where the engine's bug is.
  const frames = String((e && e.stack) || "")
    .split("\n")
    .filter((line) => line.trim().startsWith("at "))
    .slice(0, 3)
    .map((line) => line.trim());
  process.stderr.write(`${(e && e.stack) || message}\n`);
  return {
    code: INTERNAL_ERROR,
    message: `internal error in ${method}: ${type}: ${message}`,
    data: { type, message, traceback: frames },
  };
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
    checkParams(method, params || {});
  } catch (e) {
    return reply({ jsonrpc: "2.0", id, error: { code: INVALID_PARAMS, message: e.message } });
  }
  try {
    reply({ jsonrpc: "2.0", id, result: handler(params || {}) });
  } catch (e) {
    reply({ jsonrpc: "2.0", id, error: internalError(method, e) });
  }
  if (method === "shutdown") process.exit(0);
});
