// Package conformance runs the shared test vectors (testdata/vectors/) through the
// generated Go code, and holds the allocation, fuzz and differential tests. The
// code under test is written by internal/gen (go generate, or run.sh); see
// README.md.
package conformance

//go:generate go run ./internal/gen
