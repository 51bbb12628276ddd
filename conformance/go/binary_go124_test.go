//go:build go1.24

package conformance

import (
	"encoding"
	"testing"

	"github.com/bitwire-dev/bitwire/conformance/go/generated/game"
	"github.com/bitwire-dev/bitwire/conformance/go/generated/registry"
)

// encoding.BinaryAppender exists from Go 1.24 on; a build constraint is how a
// module that supports older Go versions names it (the generated code does not).
var (
	_ encoding.BinaryAppender = (*game.Snapshot)(nil)
	_ encoding.BinaryAppender = game.Team(0)
)

func TestEveryGeneratedTypeIsABinaryAppender(t *testing.T) {
	for _, c := range registry.All() {
		if _, ok := c.New().(encoding.BinaryAppender); !ok {
			t.Errorf("%s.%s is not an encoding.BinaryAppender", c.Suite, c.Type)
		}
	}
}
