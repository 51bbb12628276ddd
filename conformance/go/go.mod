module github.com/bitwire-dev/bitwire/conformance/go

go 1.23

require (
	github.com/bitwire-dev/bitwire/runtime/go v0.0.0
	github.com/bitwire-dev/bitwire/runtime/go/bwws v0.0.0
	github.com/coder/websocket v1.8.15
)

require (
	github.com/Tnze/go-mc v1.20.2
	github.com/google/uuid v1.3.0 // indirect
)

replace (
	github.com/bitwire-dev/bitwire/runtime/go => ../../runtime/go
	github.com/bitwire-dev/bitwire/runtime/go/bwws => ../../runtime/go/bwws
)
