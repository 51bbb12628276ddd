module github.com/bitwire-dev/bitwire/examples/net/go

go 1.23

require (
	github.com/bitwire-dev/bitwire/runtime/go v0.0.0
	github.com/bitwire-dev/bitwire/runtime/go/bwws v0.0.0
)

require github.com/coder/websocket v1.8.15 // indirect

replace (
	github.com/bitwire-dev/bitwire/runtime/go => ../../../runtime/go
	github.com/bitwire-dev/bitwire/runtime/go/bwws => ../../../runtime/go/bwws
)
