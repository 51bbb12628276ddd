module github.com/bitwire-dev/bitwire/bench/go

go 1.23

require (
	github.com/bitwire-dev/bitwire/examples/go v0.0.0
	github.com/bitwire-dev/bitwire/runtime/go v0.0.0
	github.com/google/flatbuffers v25.12.19+incompatible
	github.com/jmatsuzawa/go-bitfield v0.0.1
	google.golang.org/protobuf v1.36.11
)

replace (
	github.com/bitwire-dev/bitwire/examples/go => ../../examples/go
	github.com/bitwire-dev/bitwire/runtime/go => ../../runtime/go
)
