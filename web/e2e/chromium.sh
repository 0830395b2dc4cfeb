#!/usr/bin/env bash
# The browser tests' Chromium (harness.mjs starts it through this script): Debian's chromium,
# or $CHROMIUM, with every --disable-features list on its command line merged into one.
# Chromium honours only the last --disable-features it is given, and Playwright gives its own
# list (features that make tests flaky or reach the network) before the harness's: without
# the merge the harness's list would switch Playwright's back on.
set -euo pipefail
args=()
features=()
for arg in "$@"; do
  case "$arg" in
    --disable-features=*) features+=("${arg#--disable-features=}") ;;
    *) args+=("$arg") ;;
  esac
done
if [ ${#features[@]} -gt 0 ]; then
  args+=("--disable-features=$(IFS=,; echo "${features[*]}")")
fi
exec "${CHROMIUM:-/usr/bin/chromium}" "${args[@]}"
