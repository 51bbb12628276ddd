module github.com/bitwire-dev/bitwire/runtime/go

go 1.22
