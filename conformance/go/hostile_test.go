package conformance

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"math/rand"
	"net"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/bitwire-dev/bitwire/conformance/go/generated/frames"
	bitwire "github.com/bitwire-dev/bitwire/runtime/go"
	"github.com/bitwire-dev/bitwire/runtime/go/bwnet"
)

// 50 hostile connections attack the server for a few seconds while 10 good clients
// keep exchanging messages: the good clients lose and reorder nothing, every hostile
// connection is closed with a typed error, and the server's memory stays bounded
// while the attackers push hundreds of megabytes at it.
func TestHostileAndGoodClients(t *testing.T) {
	const (
		hostile  = 50
		good     = 10
		duration = 3 * time.Second
	)
	// Compression level 1, as a busy server would run: zlib's default level costs
	// several times the CPU (docs/go.md).
	cfg := bwnet.Config{
		Frame:        bitwire.FrameConfig{Compression: true, Threshold: 256, MaxFrame: 64 << 10, MaxData: 1 << 20, CompressionLevel: 1},
		IdleTimeout:  time.Second,
		FrameTimeout: 500 * time.Millisecond,
		WriteTimeout: time.Second,
		MaxSendQueue: 128 << 10,
	}
	ts := startServer(t, cfg)
	goroutines := runtime.NumGoroutine()
	runtime.GC()
	before := liveHeap()

	stop := make(chan struct{})
	peak := samplePeak(stop)

	var sent atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < hostile; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			attack(ts.addr, i, stop, &sent)
		}()
	}
	results := make([]error, good)
	counts := make([]int, good)
	clients := make([]*bwnet.Conn, good)
	for i := 0; i < good; i++ {
		clients[i] = goodClient(t, ts.addr, cfg)
		wg.Add(1)
		go func() {
			defer wg.Done()
			counts[i], results[i] = chatter(clients[i], uint16(i), stop)
		}()
	}
	time.Sleep(duration)
	close(stop)
	wg.Wait()

	for i, err := range results {
		if err != nil {
			t.Errorf("good client %d after %d messages: %v", i, counts[i], err)
		} else if counts[i] < 10 {
			t.Errorf("good client %d exchanged only %d messages", i, counts[i])
		}
	}
	growth := int64(peak()) - int64(before)
	t.Logf("hostile bytes sent %d MB, the live heap grew at most %.1f MB, good clients exchanged %v messages",
		sent.Load()>>20, float64(growth)/(1<<20), counts)
	// What the settings allow per connection: a compressor while it compresses (about
	// 1.2 MiB at level 1, pooled), the read buffer, a body of at most MaxFrame (its
	// buffer grows as the bytes arrive) and the send queue's two buffers; inflated
	// bodies here are small (the bombs claim 1000 bytes). The test's 70 connections
	// (the server's 60 and the good clients' 10) stay under that, 16–42 MB measured,
	// while the attackers push gigabytes: memory follows the settings, not the input.
	perConn := int64(1200<<10 + 4<<10 + cfg.Frame.MaxFrame + 2*cfg.MaxSendQueue)
	if limit := (hostile + 2*good) * perConn; growth > limit {
		t.Errorf("the live heap grew by %d MB (bound %d MB)", growth>>20, limit>>20)
	}
	checkClosures(t, ts)
	for _, c := range clients {
		_ = c.Close()
	}
	ts.shutdown()
	checkGoroutines(t, goroutines)
}

// samplePeak samples the live heap every 20 ms until stop and returns a function
// that waits for the sampler and returns the peak.
func samplePeak(stop chan struct{}) func() uint64 {
	var peak uint64
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
			}
			peak = max(peak, liveHeap())
		}
	}()
	return func() uint64 {
		<-done
		return peak
	}
}

// checkClosures checks that the server closed every hostile connection with a typed
// error, the slow, bombing, oversized and non-reading ones with theirs.
func checkClosures(t *testing.T, ts *testServer) {
	kinds := map[string]int{}
	ts.mu.Lock()
	for _, err := range ts.reported {
		var fe *bitwire.FrameError
		var ce *bwnet.Error
		switch {
		case errors.As(err, &fe):
			kinds[fe.Kind.String()]++
		case errors.As(err, &ce):
			kinds[ce.Kind.String()]++
		default:
			t.Errorf("an untyped error: %v", err)
		}
	}
	ts.mu.Unlock()
	t.Logf("the server closed hostile connections with %v", kinds)
	for _, kind := range []string{"FrameTimeout", "SizeMismatch", "FrameTooLarge"} {
		if kinds[kind] == 0 {
			t.Errorf("no connection closed with %s", kind)
		}
	}
	if kinds["SendQueueFull"]+kinds["WriteTimeout"] == 0 {
		t.Error("the peers that never read were not closed")
	}
}

// checkGoroutines waits (10 s at most) until no more goroutines run than before.
func checkGoroutines(t *testing.T, before int) {
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after the shutdown, %d before the attack", n, before)
		var dump strings.Builder
		_ = pprof.Lookup("goroutine").WriteTo(&dump, 1)
		t.Log(dump.String())
	}
}

// chatter exchanges numbered Chat messages until stop, checking each reply.
func chatter(c *bwnet.Conn, id uint16, stop chan struct{}) (int, error) {
	n := 0
	for {
		select {
		case <-stop:
			return n, nil
		default:
		}
		// Long enough (above the threshold) to be compressed every other time.
		text := fmt.Sprintf("client %d message %d ", id, n)
		if n%2 == 1 {
			text += string(bytes.Repeat([]byte("x"), 300))
		}
		if err := roundTrip(c, id, text); err != nil {
			return n, err
		}
		n++
	}
}

// attack runs one hostile connection after another until stop; kind i%5 says how.
func attack(addr string, i int, stop chan struct{}, sent *atomic.Int64) {
	rng := rand.New(rand.NewSource(int64(i)))
	bomb := zlibBomb()
	for {
		select {
		case <-stop:
			return
		default:
		}
		// A small receive buffer, so that a peer that never reads fills the server's
		// buffers soon.
		d := net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
			return rc.Control(func(fd uintptr) {
				_ = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096)
			})
		}}
		nc, err := d.Dial("tcp", addr)
		if err != nil {
			time.Sleep(10 * time.Millisecond)
			continue
		}
		_ = nc.SetDeadline(time.Now().Add(5 * time.Second))
		var payload func() []byte
		pause := time.Duration(0)
		switch i % 5 {
		case 0: // random bytes
			pause = time.Millisecond
			b := make([]byte, 8<<10)
			payload = func() []byte {
				rng.Read(b)
				return b
			}
		case 1: // zlib bombs: 1 MiB of zeros in about 1 KB, claiming 1000 bytes
			pause = time.Millisecond
			payload = func() []byte { return bomb }
		case 2: // a frame that never ends (slow loris)
			first := true
			pause = 100 * time.Millisecond
			payload = func() []byte {
				if first {
					first = false
					return []byte{0xff, 0xff, 0x03}
				}
				return []byte{0}
			}
		case 3: // valid messages (random letters: the echo compresses little), never
			// reading the replies
			text := make([]byte, 60000)
			for j := range text {
				text[j] = 'a' + byte(rng.Intn(26))
			}
			frame, _ := bitwire.NewFrameEncoder(bitwire.FrameConfig{Compression: true, Threshold: 1 << 20}).
				AppendMessage(nil, &frames.Chat{From: 3, Text: string(text)})
			payload = func() []byte { return frame }
		case 4: // a length above MaxFrame
			pause = time.Millisecond
			payload = func() []byte { return []byte{0xff, 0xff, 0x7f, 0x00} }
		}
		for {
			select {
			case <-stop:
				_ = nc.Close()
				return
			case <-time.After(pause):
			}
			n, err := nc.Write(payload())
			sent.Add(int64(n))
			if err != nil {
				break
			}
		}
		_ = nc.Close()
	}
}

// zlibBomb is a compressed frame whose zlib stream inflates to 1 MiB of zeros under
// a DataLength of 1000: SizeMismatch after 1001 bytes.
func zlibBomb() []byte {
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	_, _ = zw.Write(make([]byte, 1<<20))
	_ = zw.Close()
	body := append([]byte{0xe8, 0x07}, z.Bytes()...)
	frame := []byte{byte(len(body)) | 0x80, byte(len(body) >> 7)}
	return append(frame, body...)
}

// liveHeap returns the bytes of heap objects that were alive at the last garbage
// collection: what the process holds, without the garbage it has not collected.
func liveHeap() uint64 {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	return sample[0].Value.Uint64()
}
