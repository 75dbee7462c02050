#!/usr/bin/env bash
# The release check, run by .ci/run: GoReleaser (a tool of the module here, go.mod) checks
# goreleaser.yaml and makes a snapshot build of all six targets, publishing nothing; then
# this directory's program verifies the archives, the checksums, the SBOMs and the Homebrew
# cask (ruby -c), and makes the npm packages, packs them, installs them offline into an
# empty project and runs `npx mcpscope`. Needs Go, Node.js with npm, and Ruby.
set -euo pipefail
cd "$(dirname "$0")/../.."
rel=.ci/release
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

go -C "$rel" vet ./...
go -C "$rel" test ./...
# The SBOM command GoReleaser runs (goreleaser.yaml, sboms) is found on PATH.
go -C "$rel" build -o "$work/bin/mcpscope-release" .
export PATH="$work/bin:$PATH"
goreleaser=$(go -C "$rel" tool -n goreleaser)
# GoReleaser asks git for the remote's URL and, without one, leaves the commit unknown
# (a clone made from a directory has one; a bare work tree may not): the project's own,
# given through git's environment, changes nothing in the clone.
export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=remote.origin.url GIT_CONFIG_VALUE_0=https://github.com/mcpscope/mcpscope.git

"$goreleaser" check --config "$rel/goreleaser.yaml"
# Two of the six builds at a time: each is a parallel build of its own already.
"$goreleaser" release --snapshot --clean --parallelism 2 --config "$rel/goreleaser.yaml"
mcpscope-release verify "$rel/dist"
mcpscope-release npm . "$rel/dist" "$work/npm"
echo "release check: six archives, checksums, SBOMs, the Homebrew cask and the npm packages are right"
