module github.com/bitwire-dev/bitwire/conformance/peers/gomc

go 1.22

require github.com/Tnze/go-mc v1.20.2

require github.com/google/uuid v1.3.0 // indirect
