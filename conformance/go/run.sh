#!/usr/bin/env bash
# Every Go check, from a fresh clone (see conformance/go/README.md):
#
#   bash conformance/go/run.sh
#
# 1. builds the compiler with cargo unless $BITWIRE names one;
# 2. generates Go (with JSON) for every testdata/vectors/*.bw and examples/game.bw, and
#    with the bincode encoding too for every testdata/vectors/bincode/*.bw and
#    conformance/go/testdata/bincode/*.bw;
# 3. gofmt -l and go vet on the runtime (with bwnet and the bwws module), the generated
#    code, the runner, the go-mc peer, the bench, the network benchmark's server and
#    the examples (vet also builds the example programs and the server); staticcheck
#    (pinned, every check) on the runtime, bwws, the examples, the network
#    benchmark's server and the generated code;
# 4. go test -race on the runtime and bwws (real 127.0.0.1 sockets);
# 5. the conformance tests: every vector case (the frame and bincode vectors too), the allocation
#    checks (0 allocs/op), the differential corpus ($BITWIRE_DIFF_CORPUS, else the
#    small sample in testdata/), go-mc interop and the network faults, the delta
#    vectors and random delta pairs, and short fuzz runs of the decoders, the delta
#    decoders, the frame reader and the bincode decoders ($BITWIRE_FUZZ_TIME each,
#    default 15s);
#    the go-mc peer's own tests;
# 6. the committed examples/go/game/game.go, examples/net/go/arena/arena.go and
#    bench/net/go/netbench/netbench.go are what their go:generate lines generate
#    today, the networking example's Go clients work against its Go server, the
#    network benchmark's Go server answers over 127.0.0.1 (both shapes, 0 allocs per
#    packet), the benchmark's own tests pass, the
#    packet64 and verify benchmarks run in --quick mode and the connection benchmarks
#    briefly (0 allocs/op).
#
# Requirements: Go 1.23 or newer (the runtime itself needs 1.22; bwws, the WebSocket
# transport, needs 1.23 as coder/websocket does), and Rust (cargo) unless $BITWIRE is
# set. staticcheck
# comes from the Go module proxy (installed once into target/go-tools).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

step() { printf '\n==> %s\n' "$*"; }

if [[ -z "${BITWIRE:-}" ]]; then
  step "build the compiler (cargo build -p bitwire-compiler)"
  cargo build -q -p bitwire-compiler
  BITWIRE="${CARGO_TARGET_DIR:-$root/target}/debug/bitwire"
fi
export BITWIRE
command -v go >/dev/null || { echo "go not found: install Go 1.23 or newer" >&2; exit 1; }
go version

step "generate Go for every vector suite and examples/game.bw"
(cd conformance/go && go run ./internal/gen)

step "gofmt -l (runtime, generated code, runner, go-mc peer, bench, examples)"
unformatted=$(gofmt -l runtime/go conformance/go conformance/peers bench/go bench/net/go bench/delta/go examples/go examples/net/go)
if [[ -n "$unformatted" ]]; then
  echo "not gofmt-formatted:" >&2
  echo "$unformatted" >&2
  exit 1
fi

step "go vet"
(cd runtime/go && go vet ./...)
(cd runtime/go/bwws && go vet ./...)
(cd conformance/go && go vet ./...)
(cd conformance/peers/gomc && go vet ./...)
(cd bench/go && go vet ./...)
(cd bench/net/go && go vet ./... && go build -o /dev/null ./...)
(cd examples/go && go vet ./... && go build -o /dev/null .)
(cd examples/net/go && go vet ./... && go build -o /dev/null ./...)

staticcheck_version=v0.8.2
step "staticcheck $staticcheck_version -checks all (runtime, example, generated code)"
tools="$root/target/go-tools"
if ! "$tools/bin/staticcheck" -version 2>/dev/null | grep -q "(${staticcheck_version#v})"; then
  GOBIN="$tools/bin" go install "honnef.co/go/tools/cmd/staticcheck@$staticcheck_version"
fi
(cd runtime/go && "$tools/bin/staticcheck" -checks all ./...)
(cd runtime/go/bwws && "$tools/bin/staticcheck" -checks all ./...)
(cd examples/go && "$tools/bin/staticcheck" -checks all ./...)
(cd examples/net/go && "$tools/bin/staticcheck" -checks all ./...)
(cd bench/net/go && "$tools/bin/staticcheck" -checks all ./...)
# staticcheck skips files marked "Code generated ... DO NOT EDIT." (they are not for
# people to fix), so the generated code is checked in a copy whose first line says
# otherwise: every vector suite, the delta edge shapes, the Go-only schemas, the example
# and pod, with --json
# and the default package names.
sc="$tmp/staticcheck"
mkdir -p "$sc"
for schema in testdata/vectors/*.bw testdata/vectors/frames/frames.bw testdata/vectors/delta/delta.bw conformance/rust/schemas/delta_edges.bw conformance/go/testdata/*.bw examples/game.bw examples/net/arena.bw bench/net/netbench.bw bench/schemas/pod.bw; do
  pkg=$(basename "$schema" .bw | tr -cd 'a-z0-9')
  "$BITWIRE" gen --lang go --json --out "$sc/$pkg" "$schema" >/dev/null
done
# The delta lab's schema (its package name would clash with the delta vectors').
"$BITWIRE" gen --lang go --json --out "$sc/deltalab" --package deltalab bench/delta/delta.bw >/dev/null
# The bincode suites and the Go-only bincode schemas, with --encoding bincode.
for schema in testdata/vectors/bincode/*.bw conformance/go/testdata/bincode/*.bw; do
  [[ -e "$schema" ]] || continue
  pkg=$(basename "$schema" .bw | tr -cd 'a-z0-9')
  "$BITWIRE" gen --lang go --json --encoding bincode --out "$sc/$pkg" "$schema" >/dev/null
done
sed -i '1s|^// Code generated by \(.*\)\. DO NOT EDIT\.$|// Made by \1 (checked as if hand-written).|' "$sc"/*/*.go
if grep -l 'DO NOT EDIT' "$sc"/*/*.go; then
  echo "the header of the generated files above changed: update run.sh" >&2
  exit 1
fi
printf 'module staticcheck\n\ngo 1.22\n\nrequire github.com/bitwire-dev/bitwire/runtime/go v0.0.0\n\nreplace github.com/bitwire-dev/bitwire/runtime/go => %s\n' \
  "$root/runtime/go" >"$sc/go.mod"
(cd "$sc" && "$tools/bin/staticcheck" -checks all ./...)

step "runtime and bwws: go test -race"
(cd runtime/go && go test -race -count=1 ./...)
(cd runtime/go/bwws && go test -race -count=1 ./...)

step "conformance: vectors, allocations, differential corpus, go-mc interop, network faults"
corpus="${BITWIRE_DIFF_CORPUS:-$root/conformance/go/testdata/diff-sample.jsonl}"
(cd conformance/go && BITWIRE_DIFF_CORPUS="$corpus" go test -count=1 -v ./... 2>&1 |
  tee "$tmp/conformance.log" |
  grep -E '^(vectors[^:]*:|differential corpus|delta )|allocs/op|^(--- FAIL|FAIL|ok|PASS)' || true)
if grep -qE '^(--- FAIL|FAIL)' "$tmp/conformance.log"; then
  cat "$tmp/conformance.log" >&2
  exit 1
fi

step "fuzz the generated decoders of examples/game.bw, the delta decoders of the delta vectors' schema, the frame reader and the bincode decoders of testdata/bincode/gobincode.bw (${BITWIRE_FUZZ_TIME:-15s} each)"
(cd conformance/go && go test -run '^$' -fuzz '^FuzzDecodeGame$' -fuzztime "${BITWIRE_FUZZ_TIME:-15s}" . 2>&1 | tail -n 3)
(cd conformance/go && go test -run '^$' -fuzz '^FuzzDeltaWorld$' -fuzztime "${BITWIRE_FUZZ_TIME:-15s}" . 2>&1 | tail -n 3)
(cd conformance/go && go test -run '^$' -fuzz '^FuzzFrameReader$' -fuzztime "${BITWIRE_FUZZ_TIME:-15s}" . 2>&1 | tail -n 3)
(cd conformance/go && go test -run '^$' -fuzz '^FuzzDecodeBincode$' -fuzztime "${BITWIRE_FUZZ_TIME:-15s}" . 2>&1 | tail -n 3)

step "the go-mc peer (conformance/peers/gomc)"
(cd conformance/peers/gomc && go test -count=1 ./...)

step "examples and bench/go: generated code is fresh, tests pass, quick runs"
# The example's own recipe (its //go:generate line, bitwire on PATH) in a copy, so
# that the check also proves the recipe works.
mkdir -p "$tmp/fresh/examples" "$tmp/bin"
cp -r examples/go examples/game.bw "$tmp/fresh/examples/"
ln -s "$root/runtime" "$tmp/fresh/runtime"
ln -s "$BITWIRE" "$tmp/bin/bitwire"
rm "$tmp/fresh/examples/go/game/game.go"
(cd "$tmp/fresh/examples/go" && PATH="$tmp/bin:$PATH" go generate ./...)
if ! diff -u examples/go/game/game.go "$tmp/fresh/examples/go/game/game.go"; then
  echo "examples/go/game/game.go is stale: regenerate it with" >&2
  echo "  (cd examples/go && go generate ./...)   # bitwire on PATH" >&2
  exit 1
fi
# The networking example: the same check of its go:generate line, then its test (the
# Go clients over TCP and WebSocket against the Go server).
mkdir -p "$tmp/fresh/examples/net"
cp -r examples/net/go examples/net/arena.bw "$tmp/fresh/examples/net/"
rm "$tmp/fresh/examples/net/go/arena/arena.go"
(cd "$tmp/fresh/examples/net/go" && PATH="$tmp/bin:$PATH" go generate ./...)
if ! diff -u examples/net/go/arena/arena.go "$tmp/fresh/examples/net/go/arena/arena.go"; then
  echo "examples/net/go/arena/arena.go is stale: regenerate it with" >&2
  echo "  (cd examples/net/go && go generate ./...)   # bitwire on PATH" >&2
  exit 1
fi
(cd examples/net/go && go test -count=1 ./...)
# The network benchmark's Go server: the same check of its go:generate line, then its
# test (both shapes over 127.0.0.1, the served line, 0 allocs per packet).
mkdir -p "$tmp/fresh/bench/net"
cp -r bench/net/go bench/net/netbench.bw "$tmp/fresh/bench/net/"
rm "$tmp/fresh/bench/net/go/netbench/netbench.go"
(cd "$tmp/fresh/bench/net/go" && PATH="$tmp/bin:$PATH" go generate ./...)
if ! diff -u bench/net/go/netbench/netbench.go "$tmp/fresh/bench/net/go/netbench/netbench.go"; then
  echo "bench/net/go/netbench/netbench.go is stale: regenerate it with" >&2
  echo "  (cd bench/net/go && go generate ./...)   # bitwire on PATH" >&2
  exit 1
fi
(cd bench/net/go && go test -count=1 ./...)
(cd bench/go && go test -count=1 ./... && go run ./cmd/packet64 --quick && go run ./cmd/verify --quick)
(cd bench/go && go test -run '^$' -bench 'Frame|Conn' -benchtime 20000x -benchmem . | grep -E '^(Benchmark|ok)')

step "Go: all checks passed"
