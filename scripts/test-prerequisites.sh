#!/usr/bin/env bash
# Installs with apt-get what the test suites need and this machine lacks. When everything is there it only
# looks (a fraction of a second) and prints nothing. `npm test` runs it first (the `pretest` script), and
# `npm run test:backends` with --backends; `.ci/run` calls it too.
#
#   bash scripts/test-prerequisites.sh              # what `npm test` needs
#   bash scripts/test-prerequisites.sh --backends   # also Maven, for the Elasticsearch node of `npm run backends:up`
#   bash scripts/test-prerequisites.sh --check      # only list what is missing (exit 1 when something is)
#
# What and why:
#   redis-server   the BullMQ, shared-limit and erasure tests (the suite starts its own throwaway server)
#   chromium       Debian's headless Chromium for the queue-dashboard and /docs browser tests (playwright-core)
#   python3-venv   virtual environments for the published Python SDK test and the schemathesis run
#                  (they live in ~/.cache/engram, outside the repository)
#   maven          --backends only: resolves the Elasticsearch jars (Go and a JDK are expected on the machine)
#
# ENGRAM_SKIP_PREREQUISITES=1 skips it all (for machines set up another way).
set -euo pipefail

backends=false
check=false
for arg in "$@"; do
  case "$arg" in
    --backends) backends=true ;;
    --check) check=true ;;
    *) echo "usage: bash scripts/test-prerequisites.sh [--backends] [--check]" >&2; exit 2 ;;
  esac
done
[ "${ENGRAM_SKIP_PREREQUISITES:-}" = "1" ] && exit 0

have() { command -v "$1" >/dev/null 2>&1; }

missing=()
{ have redis-server && have redis-cli; } || missing+=(redis-server)
# test/support/browser.ts looks for exactly these two paths.
{ [ -x /usr/bin/chromium ] || [ -x /usr/bin/chromium-browser ]; } || missing+=(chromium)
if ! have python3; then
  missing+=(python3 python3-venv)
elif ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then
  missing+=(python3-venv)
fi
if $backends; then
  have mvn || missing+=(maven)
fi

[ ${#missing[@]} -eq 0 ] && exit 0

if $check; then
  echo "test prerequisites missing: ${missing[*]}" >&2
  exit 1
fi

manual="apt-get install ${missing[*]}"
if ! have apt-get; then
  echo "test prerequisites: no apt-get on this machine; install by hand: ${missing[*]} (tests that need them fail or skip with a message)" >&2
  exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
  as_root=(env)
elif have sudo && sudo -n true >/dev/null 2>&1; then
  as_root=(sudo -n env)
else
  echo "test prerequisites: not root; run \`$manual\` as root (tests that need them fail or skip with a message)" >&2
  exit 0
fi

echo "test prerequisites: installing ${missing[*]} with apt-get" >&2
"${as_root[@]}" DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${as_root[@]}" DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o DPkg::Lock::Timeout=600 "${missing[@]}" >/dev/null
echo "test prerequisites: installed ${missing[*]}" >&2
