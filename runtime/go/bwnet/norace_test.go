//go:build !race

package bwnet

const raceEnabled = false
