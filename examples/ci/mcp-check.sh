#!/bin/sh
# mcp-check: what CI runs before a server is published (docs/testing.md, "In CI").
#
#   1. mcpkit test: every **/*.mcptest.yaml of the project; a JUnit report for the CI's
#      test view (mcp-test-results.xml). A failed test fails the check.
#   2. mcpkit snapshot: the server's surface now, written to mcp-snapshot.json (commit it
#      with each release: the next release is compared with it).
#   3. mcpkit diff: the snapshot of the last release (read from git, at its tag) against
#      this one. A change that breaks clients fails the check; compatible ones are listed.
#
# Usage: sh mcp-check.sh [-- COMMAND [ARGS...]]   the command that starts the server over
#        stdio (default: $MCP_SERVER, e.g. "node dist/main.js")
# Environment:
#   MCPKIT            how to run mcpkit (default: npx --no-install mcpkit)
#   MCP_SNAPSHOT      the snapshot's file (default: mcp-snapshot.json)
#   MCP_BASELINE_REF  the git ref of the last release (default: the latest tag)
set -eu

mcpkit=${MCPKIT:-npx --no-install mcpkit}
snapshot=${MCP_SNAPSHOT:-mcp-snapshot.json}
if [ "${1:-}" = "--" ]; then shift; fi
if [ $# -eq 0 ]; then
  if [ -z "${MCP_SERVER:-}" ]; then
    echo "mcp-check: give the command that starts the server: sh mcp-check.sh -- node dist/main.js" >&2
    exit 2
  fi
  # shellcheck disable=SC2086 # MCP_SERVER is a command line: its words are meant to split.
  set -- $MCP_SERVER
fi

echo "== mcpkit test"
$mcpkit test --reporter junit --output mcp-test-results.xml

echo "== mcpkit snapshot -- $*"
$mcpkit snapshot --out "$snapshot" -- "$@"

ref=${MCP_BASELINE_REF:-$(git describe --tags --abbrev=0 2>/dev/null || true)}
if [ -z "$ref" ]; then
  echo "== no release tag yet: nothing to compare $snapshot with"
  exit 0
fi
baseline=$(mktemp)
trap 'rm -f "$baseline"' EXIT
if ! git show "$ref:$snapshot" >"$baseline" 2>/dev/null; then
  echo "== $ref has no $snapshot: nothing to compare with (commit it with the next release)"
  exit 0
fi
echo "== mcpkit diff $ref:$snapshot $snapshot"
$mcpkit diff "$baseline" "$snapshot"
