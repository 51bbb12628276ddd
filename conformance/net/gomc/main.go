// Command gomc is the go-mc peer of conformance/net/tests/gomc.rs: it connects to ADDR,
// writes each packet ID:HEX with go-mc's framing (pk.Packet.Pack through net.Conn, at
// THRESHOLD; -1 for no compression), reads READBACK packets back with go-mc's reader and
// prints each as "ID HEX".
//
//	go run . ADDR THRESHOLD READBACK ID:HEX...
package main

import (
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/Tnze/go-mc/net"
	pk "github.com/Tnze/go-mc/net/packet"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gomc:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) < 3 {
		return fmt.Errorf("usage: gomc ADDR THRESHOLD READBACK ID:HEX...")
	}
	threshold, err := strconv.Atoi(args[1])
	if err != nil {
		return err
	}
	readback, err := strconv.Atoi(args[2])
	if err != nil {
		return err
	}
	var packets []pk.Packet
	for _, a := range args[3:] {
		id, data, ok := strings.Cut(a, ":")
		if !ok {
			return fmt.Errorf("bad packet %q", a)
		}
		n, err := strconv.ParseInt(id, 10, 32)
		if err != nil {
			return err
		}
		b, err := hex.DecodeString(data)
		if err != nil {
			return err
		}
		packets = append(packets, pk.Packet{ID: int32(n), Data: b})
	}
	conn, err := net.DialMC(args[0])
	if err != nil {
		return err
	}
	defer conn.Close()
	conn.SetThreshold(threshold)
	for _, p := range packets {
		if err := conn.WritePacket(p); err != nil {
			return err
		}
	}
	for range readback {
		var p pk.Packet
		if err := conn.ReadPacket(&p); err != nil {
			return err
		}
		fmt.Printf("%d %s\n", p.ID, hex.EncodeToString(p.Data))
	}
	return nil
}
