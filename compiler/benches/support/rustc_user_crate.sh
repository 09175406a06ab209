#!/bin/bash
# rustc time of a user's crate holding a schema's types (with the derives) and its generated module,
# in the dev profile, with dependencies built: the debug-build counterpart of
# `cargo bench --bench scale -- rustc-schemas`, and comparable across surqlc versions.
#
#   compiler/benches/support/rustc_user_crate.sh LABEL=ROOT... -- SCHEMA...
#
# ROOT is a surqlc checkout (the worktree, or `git archive COMMIT | tar -x -C DIR` for an older
# version); each probe crate depends on ROOT's compiler (`runtime`) and macros, holds
# ROOT/schemas/SCHEMA.rs and ROOT/tests/golden/SCHEMA.schema.{rs,surql}, and is built once with
# cargo (in $CARGO_TARGET_DIR, so the dependencies are shared). Then the rustc command cargo ran for
# the crate is run alone, without incremental reuse, 3 times per probe, probes interleaved: a full
# compile of the user crate, with no cargo lock to wait on. Prints wall and CPU (user + sys) seconds.
set -euo pipefail
roots=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do roots+=("$1"); shift; done
shift || true
schemas=("${@:-store enterprise}")
[ ${#roots[@]} -gt 0 ] || { echo "usage: $0 LABEL=ROOT... -- SCHEMA..." >&2; exit 2; }
work=${TMPDIR:-/tmp}/surqlc-rustc-user-crate
probes=()
for spec in "${roots[@]}"; do
  label=${spec%%=*}; root=$(cd "${spec#*=}" && pwd)
  for s in ${schemas[@]}; do
    d=$work/$label-$s; mkdir -p "$d/src"; probes+=("$d")
    cat > "$d/Cargo.toml" <<TOML
[package]
name = "probe-$label-$s"
version = "0.0.0"
edition = "2021"
publish = false

[workspace]

[dependencies]
surqlc = { path = "$root/compiler", default-features = false, features = ["runtime"] }
surqlc-macros = { path = "$root/macros" }
serde = { version = "1", features = ["derive"] }

[profile.dev.package."*"]
debug = false

[profile.dev]
debug = "line-tables-only"
TOML
    cp "$root/Cargo.lock" "$d/Cargo.lock"
    cp "$root/schemas/$s.rs" "$d/src/$s.rs"
    cp "$root/tests/golden/$s.schema.rs" "$d/src/schema_gen.rs"
    cp "$root/tests/golden/$s.schema.surql" "$d/src/schema.surql"
    printf '#![allow(dead_code)]\npub mod %s;\npub mod schema {\n    include!("schema_gen.rs");\n}\n' "$s" > "$d/src/lib.rs"
    (cd "$d" && cargo build --lib -v 2>&1 | grep -E "Running .*--crate-name probe_" \
      | sed -e 's/^ *Running `//' -e 's/`$//' -e 's/-C incremental=[^ ]*//' > rustc.cmd) || true
    [ -s "$d/rustc.cmd" ] || { echo "$d: cargo did not compile the crate (see cargo build there)" >&2; exit 1; }
  done
done
TIMEFORMAT='%R %U %S'
declare -A wall cpu
for i in 1 2 3; do
  for d in "${probes[@]}"; do
    t=$( { time (cd "$d" && sh -c "$(cat rustc.cmd)" >/dev/null 2>&1) ; } 2>&1 )
    read -r r u s <<<"$t"
    wall[$d]+="$r "; cpu[$d]+="$(echo "$u + $s" | bc) "
  done
done
median() { tr ' ' '\n' | grep . | sort -n | sed -n 2p; }
echo "probe wall_s cpu_s (median of 3; load $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores, $(lscpu | sed -n 's/^Model name: *//p'))"
for d in "${probes[@]}"; do
  echo "$(basename "$d") $(echo ${wall[$d]} | median) $(echo ${cpu[$d]} | median) lines=$(wc -l < "$d/src/schema_gen.rs")"
done
