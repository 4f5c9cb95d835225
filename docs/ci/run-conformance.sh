#!/bin/sh
# Conformance run for CI, in any shell CI (GitHub Actions: see github-actions.yml beside it).
#
#   ENGINE="node my_adapter.js" sh run-conformance.sh
#
# Installs the suite, checks that the engine speaks the protocol, runs the whole suite with the
# known failures (strict: a listed case that passes fails the run, "fixed: remove it"), keeps the
# JSON report and writes the site and the badge. Exit status: the suite's (0 green, 1 failures,
# 4 the engine cannot start). Settings, from the environment:
#   ENGINE            the command that starts the engine (required)
#   KNOWN_FAILURES    the known-failures file (default known-failures.yaml; used if it exists;
#                     write it once with: pinochle test --engine ... --write-known-failures FILE)
#   OUT               where the report, the site and the badge go (default conformance)
#   PINOCHLE_INSTALL  what pip installs (default pinochle-spec; a wheel's path works; empty:
#                     already installed)
#   PINOCHLE_ARGS     more options for pinochle test (e.g. --variant double-deck)
set -eu

: "${ENGINE:?set ENGINE to the command that starts your engine}"
KNOWN_FAILURES="${KNOWN_FAILURES-known-failures.yaml}"
OUT="${OUT:-conformance}"
PINOCHLE_INSTALL="${PINOCHLE_INSTALL-pinochle-spec}"
PINOCHLE_ARGS="${PINOCHLE_ARGS-}"

if [ -n "$PINOCHLE_INSTALL" ]; then
    python -m pip install "$PINOCHLE_INSTALL"
fi
mkdir -p "$OUT"

pinochle smoke --engine "$ENGINE"

set -- --engine "$ENGINE" --conformance-report "$OUT/report.json"
if [ -n "$KNOWN_FAILURES" ] && [ -f "$KNOWN_FAILURES" ]; then
    set -- "$@" --known-failures "$KNOWN_FAILURES"
fi
status=0
# shellcheck disable=SC2086 # PINOCHLE_ARGS is a list of options
pinochle test "$@" $PINOCHLE_ARGS || status=$?

# The report and the site are written whatever the verdict: they say what failed.
if [ -f "$OUT/report.json" ]; then
    pinochle report "$OUT/report.json" -o "$OUT/site"
    cp "$OUT"/site/badges/*.svg "$OUT/badge.svg"
fi
exit "$status"
