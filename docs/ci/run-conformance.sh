#!/bin/sh
# Conformance run for CI, in any shell CI (GitHub Actions: see github-actions.yml beside it).
#
#   PINOCHLE_INSTALL=ci/pinochle_spec-0.1.0-py3-none-any.whl ENGINE="node my_adapter.js" \
#       sh run-conformance.sh
#
# Installs the suite you name, checks that the engine speaks the protocol, runs the whole suite
# with the known failures (strict: a listed case that passes fails the run, "fixed: remove it"),
# keeps the JSON report and writes the site and the badge. Exit status: 1 when the engine does
# not speak the protocol (pinochle smoke: one that cannot start is one), else the suite's (0 green,
# 1 failures, 4 the run cannot start); 2 when a setting is missing or names nothing.
# Settings, from the environment:
#   ENGINE            the command that starts the engine (required)
#   PINOCHLE_INSTALL  what pip installs: the suite's wheel (build it in a checkout with
#                     `pip wheel --no-deps .`, or take a release's), a checkout's folder (pip
#                     builds it), or a pip requirement of a source you trust (git+https://...).
#                     Unset or empty: the `pinochle` already on PATH; without one, the run stops.
#   PYTHON            the Python whose pip installs it (default python3)
#   KNOWN_FAILURES    the known-failures file (default known-failures.yaml; used if it exists;
#                     write it once with: pinochle test --engine ... --write-known-failures FILE)
#   OUT               where the report, the site and the badge go (default conformance)
#   PINOCHLE_ARGS     more options for pinochle test, quoted as in a shell (e.g. --variant
#                     double-deck -m "rule(id='PLAY-CRAWL')")
set -eu

: "${ENGINE:?set ENGINE to the command that starts your engine}"
KNOWN_FAILURES="${KNOWN_FAILURES-known-failures.yaml}"
OUT="${OUT:-conformance}"
PINOCHLE_INSTALL="${PINOCHLE_INSTALL-}"
PYTHON="${PYTHON:-python3}"
PINOCHLE_ARGS="${PINOCHLE_ARGS-}"

if [ -n "$PINOCHLE_INSTALL" ]; then
    case "$PINOCHLE_INSTALL" in
        */* | *.whl)  # a path: it must be there (pip would guess at a name otherwise)
            if [ ! -e "$PINOCHLE_INSTALL" ]; then
                echo "run-conformance.sh: PINOCHLE_INSTALL $PINOCHLE_INSTALL: no such file or folder" >&2
                exit 2
            fi ;;
    esac
    "$PYTHON" -m pip install "$PINOCHLE_INSTALL"
elif ! command -v pinochle >/dev/null 2>&1; then
    echo "run-conformance.sh: pinochle is not installed: set PINOCHLE_INSTALL to the suite's wheel, a checkout's folder or a pip requirement of a source you trust" >&2
    exit 2
fi
echo "using $(pinochle --version) ($(command -v pinochle))"
mkdir -p "$OUT"
# An earlier run's report and badge never pass for this run's: removed before anything can stop
# the run (a failed smoke check, a run that cannot start writes none).
rm -f "$OUT/report.json" "$OUT/badge.svg"

pinochle smoke --engine "$ENGINE"

set -- --engine "$ENGINE" --conformance-report "$OUT/report.json"
if [ -n "$KNOWN_FAILURES" ] && [ -f "$KNOWN_FAILURES" ]; then
    set -- "$@" --known-failures "$KNOWN_FAILURES"
fi
eval "set -- \"\$@\" $PINOCHLE_ARGS"  # shell words: a quoted argument stays one
status=0
pinochle test "$@" || status=$?

# The report and the site are written whatever the verdict: they say what failed.
if [ -f "$OUT/report.json" ]; then
    pinochle report "$OUT/report.json" -o "$OUT/site"
    cp "$OUT"/site/badges/*.svg "$OUT/badge.svg"
fi
exit "$status"
