#!/usr/bin/env bash
# Every Go check, from a fresh clone (see conformance/go/README.md):
#
#   bash conformance/go/run.sh
#
# 1. builds the compiler with cargo unless $BITWIRE names one;
# 2. generates Go (with JSON) for every testdata/vectors/*.bw and examples/game.bw;
# 3. gofmt -l and go vet on the runtime, the generated code, the runner, the bench and
#    the example (vet also builds the example's demo program);
# 4. go test -race on the runtime;
# 5. the conformance tests: every vector case, the allocation checks (0 allocs/op),
#    the differential corpus ($BITWIRE_DIFF_CORPUS, else the small sample in
#    testdata/), and a short fuzz run ($BITWIRE_FUZZ_TIME, default 15s);
# 6. the committed examples/go/game/game.go is what the compiler generates today, the
#    benchmark's own tests pass, and the packet64 and verify benchmarks run in --quick mode.
#
# Requirements: Go 1.22 or newer, and Rust (cargo) unless $BITWIRE is set.
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
command -v go >/dev/null || { echo "go not found: install Go 1.22 or newer" >&2; exit 1; }
go version

step "generate Go for every vector suite and examples/game.bw"
(cd conformance/go && go run ./internal/gen)

step "gofmt -l (runtime, generated code, runner, bench, example)"
unformatted=$(gofmt -l runtime/go conformance/go bench/go examples/go)
if [[ -n "$unformatted" ]]; then
  echo "not gofmt-formatted:" >&2
  echo "$unformatted" >&2
  exit 1
fi

step "go vet"
(cd runtime/go && go vet ./...)
(cd conformance/go && go vet ./...)
(cd bench/go && go vet ./...)
(cd examples/go && go vet ./... && go build -o /dev/null .)

step "runtime: go test -race"
(cd runtime/go && go test -race -count=1 ./...)

step "conformance: vectors, allocations, differential corpus"
corpus="${BITWIRE_DIFF_CORPUS:-$root/conformance/go/testdata/diff-sample.jsonl}"
(cd conformance/go && BITWIRE_DIFF_CORPUS="$corpus" go test -count=1 -v ./... 2>&1 |
  tee "$tmp/conformance.log" |
  grep -E '^(vectors[^:]*:|differential corpus)|allocs/op|^(--- FAIL|FAIL|ok|PASS)' || true)
if grep -qE '^(--- FAIL|FAIL)' "$tmp/conformance.log"; then
  cat "$tmp/conformance.log" >&2
  exit 1
fi

step "fuzz the generated decoders of examples/game.bw (${BITWIRE_FUZZ_TIME:-15s})"
(cd conformance/go && go test -run '^$' -fuzz '^FuzzDecodeGame$' -fuzztime "${BITWIRE_FUZZ_TIME:-15s}" . 2>&1 | tail -n 3)

step "bench/go: generated code is fresh, tests pass, quick run"
"$BITWIRE" gen --lang go --out "$tmp/bench" examples/game.bw >/dev/null
if ! diff -u examples/go/game/game.go "$tmp/bench/game.go"; then
  echo "examples/go/game/game.go is stale: regenerate it with" >&2
  echo "  bitwire gen --lang go --out examples/go/game examples/game.bw" >&2
  exit 1
fi
(cd bench/go && go test -count=1 ./... && go run ./cmd/packet64 --quick && go run ./cmd/verify --quick)

step "Go: all checks passed"
