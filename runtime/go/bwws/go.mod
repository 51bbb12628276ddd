module github.com/bitwire-dev/bitwire/runtime/go/bwws

go 1.23

require (
	github.com/bitwire-dev/bitwire/runtime/go v0.0.0
	github.com/coder/websocket v1.8.15
)

replace github.com/bitwire-dev/bitwire/runtime/go => ../
