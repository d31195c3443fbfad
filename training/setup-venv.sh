#!/usr/bin/env bash
# Creates (once) the pinned training environment outside the repository and prints its python.
# Training never runs in CI; CI loads the shipped models.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="${ENGRAM_TRAIN_VENV:-$HOME/.cache/engram/train-venv}"
stamp="$venv/.requirements.sha256"
want="$(sha256sum "$here/requirements.txt" | cut -d' ' -f1)"
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install -q --upgrade pip >&2
  "$venv/bin/pip" install -q -r "$here/requirements.txt" >&2
  echo "$want" > "$stamp"
fi
echo "$venv/bin/python"
