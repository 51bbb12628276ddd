//go:build !race

package bitwire

const raceEnabled = false
