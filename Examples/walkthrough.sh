#!/usr/bin/env bash
# Replays Acts I and III of the 2012 Zinc talk on the embedded default catalog folder
# (catalogs/): create a catalog, import a bundle, publish it as `master`, change a
# file, import version 2, publish it as `test`, then promote `test` to `master`.
# The index is shown after each step.
#
#   Examples/walkthrough.sh            uses .build/release/zinc (build it first)
#   ZINC=path/to/zinc Examples/walkthrough.sh
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
zinc=${ZINC:-$repo/.build/release/zinc}
[ -x "$zinc" ] || { echo "walkthrough: no zinc binary at $zinc (run: make build)" >&2; exit 2; }

catalog_id=com.mindsnacks.french
bundle=BasicAdjectives

if [ -t 1 ]; then bold=$'\033[1m' plain=$'\033[0m'; else bold='' plain=''; fi
step() { printf '\n%s== %s%s\n' "$bold" "$*" "$plain"; }
run() { printf '$ zinc %s\n' "$*"; "$zinc" "$@"; }
show_index() { "$zinc" dump_index --catalog "$catalog_id"; }

# The demo owns this catalog: start it afresh each time so every run tells the same story.
rm -rf "catalogs/$catalog_id"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -R "Examples/$bundle" "$work/$bundle"

step "Act I: create a catalog (in catalogs/$catalog_id)"
run create_catalog --id "$catalog_id"
show_index

step "Create a bundle"
run update_bundle --catalog "$catalog_id" --name "$bundle" --source "$work/$bundle"
show_index

step "Create a distribution"
run update_distro --catalog "$catalog_id" --id "$bundle" --name master --version 1
show_index

step "Act III: hackety hack, then update the bundle"
printf '\n// Reviewed: adjectives agree with the noun.\n' >> "$work/$bundle/Basic Adjectives.js"
run update_bundle --catalog "$catalog_id" --id "$bundle" --source "$work/$bundle"
show_index

step "Create a test distro"
run update_distro --catalog "$catalog_id" --id "$bundle" --name test --version 2
show_index

step "Make it live: promote test to master"
run update_distro --catalog "$catalog_id" --id "$bundle" --name master --version @test
show_index

step "The catalog, ready for any static host or CDN"
(cd "catalogs/$catalog_id" && find . -type f ! -name '.*' | sort)
