#!/usr/bin/env bash
# npm run train:extractor | train:reranker [-- --epochs N]: builds the pinned training environment once (outside the
# repository), then trains and writes the shipped model. Training never runs in CI.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
what="$1"; shift
python="$(bash "$here/setup-venv.sh")"
cd "$here/$what"
exec "$python" train.py "$@"
