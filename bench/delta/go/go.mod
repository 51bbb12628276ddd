module github.com/bitwire-dev/bitwire/bench/delta/go

go 1.22

require github.com/bitwire-dev/bitwire/runtime/go v0.0.0

replace github.com/bitwire-dev/bitwire/runtime/go => ../../../runtime/go
