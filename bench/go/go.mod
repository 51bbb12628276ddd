module github.com/bitwire-dev/bitwire/bench/go

go 1.22

require (
	github.com/bitwire-dev/bitwire/examples/go v0.0.0
	github.com/bitwire-dev/bitwire/runtime/go v0.0.0
)

replace (
	github.com/bitwire-dev/bitwire/examples/go => ../../examples/go
	github.com/bitwire-dev/bitwire/runtime/go => ../../runtime/go
)
