package bwnet_test

import (
	"context"
	"fmt"
	"log"
	"net"

	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
	"github.com/bitwire-dev/bitwire/runtime/go/bwnet"
)

// say is a message as the compiler generates them (here by hand: the runtime has no
// generated code of its own): a byte, id 7.
type say struct{ N uint8 }

func (m *say) MessageID() uint32 { return 7 }
func (m *say) WritePacked(w *bitwire.BitWriter) error {
	w.WriteBits(uint64(m.N), 8)
	return nil
}
func (m *say) ReadPacked(r *bitwire.BitReader) error {
	v, err := r.ReadBits(8)
	m.N = uint8(v)
	return err
}

// messages is the schema's message set, as the generated Messages type is.
type messages struct{ say say }

func (s *messages) Message(id uint32) bitwire.Message {
	if id == 7 {
		return &s.say
	}
	return nil
}

// A server that answers every say with the next number, and a client.
func Example() {
	srv := &bwnet.Server{
		Messages: func() bitwire.MessageSet { return new(messages) },
		Handler: func(ctx context.Context, c *bwnet.Conn) error {
			for {
				m, err := c.ReadMessage()
				if err != nil {
					return err // io.EOF when the client is done
				}
				switch m := m.(type) {
				case *say:
					if err := c.WriteMessage(&say{N: m.N + 1}); err != nil {
						return err
					}
				}
			}
		},
		OnError: func(c *bwnet.Conn, err error) { log.Printf("%v: %v", c.RemoteAddr(), err) },
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error)
	go func() { served <- srv.Serve(ctx, ln) }()

	c, err := bwnet.Dial(ctx, ln.Addr().String(), new(messages), bwnet.Config{})
	if err != nil {
		log.Fatal(err)
	}
	for n := uint8(1); n <= 3; n++ {
		if err := c.WriteMessage(&say{N: n}); err != nil {
			log.Fatal(err)
		}
		m, err := c.ReadMessage()
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(n, "→", m.(*say).N)
	}
	_ = c.Close()
	cancel()
	fmt.Println("Serve:", <-served)
	// Output:
	// 1 → 2
	// 2 → 3
	// 3 → 4
	// Serve: <nil>
}
