package lab

import (
	"fmt"
	"testing"
	"unsafe"
)

// BenchmarkPodCopyAlignment times Go's copy of a pod-sized block into a destination
// at a 32-byte boundary, 8 bytes past one (where a bincode payload lands after its
// u64 length), and 8 bytes past one copied in two parts (up to the boundary, then
// the rest), with the source aligned or 8 bytes past (docs/benchmarks.md):
//
//	cd bench/go && go test -run '^$' -bench PodCopyAlignment -benchtime 100x ./lab
func BenchmarkPodCopyAlignment(b *testing.B) {
	for _, size := range []int{1 << 20, 8 << 20, 64 << 20} {
		src := make([]byte, size+64)
		dst := make([]byte, size+64)
		for i := range src {
			src[i] = byte(i)
		}
		run := func(name string, pass func()) {
			b.Run(fmt.Sprintf("%dMiB/%s", size>>20, name), func(b *testing.B) {
				b.SetBytes(int64(size))
				for i := 0; i < b.N; i++ {
					pass()
				}
			})
		}
		run("dst+0", func() { copy(dst[:size], src[:size]) })
		run("dst+8", func() { copy(dst[8:8+size], src[:size]) })
		run("dst+8-split", func() {
			d := dst[8 : 8+size]
			k := int((32 - uintptr(unsafe.Pointer(&d[0]))%32) % 32)
			copy(d[:k], src[:k])
			copy(d[k:], src[k:size])
		})
		run("src+8", func() { copy(dst[:size], src[8:8+size]) })
	}
}
