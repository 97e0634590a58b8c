#!/usr/bin/env bash
# Format only the files the search/eval/book work owns (the rest of the crate is
# formatted by its owners): rustfmt follows the module tree from these roots.
set -eu
cd "$(dirname "$0")/.."
rustfmt --edition 2024 "$@" src/search/mod.rs src/eval/mod.rs src/book/mod.rs tests/search_*.rs
