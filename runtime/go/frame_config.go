package bitwire

// Frames (docs/framing.md, "§" in the frame files refers to it): Minecraft's packet
// format, `Length VarInt | PacketID VarInt | Data`, or with compression `PacketLength
// VarInt | DataLength VarInt | Rest`, with bitwire's strict limits. FrameConfig holds
// the settings both ends agree on; FrameEncoder and FrameWriter write frames,
// FrameReader reads them from a stream and FrameDecoder from one slice (a WebSocket
// message). Connections are in the package bwnet.

const (
	// MaxFrameLimit is the largest frame length the format can carry: a Length VarInt
	// has at most 3 bytes (§2.2), so 2^21 - 1 = 2,097,151.
	MaxFrameLimit = 1<<21 - 1
	// DefaultMaxFrame is the maximum frame length by default: MaxFrameLimit.
	DefaultMaxFrame = MaxFrameLimit
	// DefaultMaxData is the maximum DataLength of a compressed frame by default:
	// 8,388,608 = 2^23, vanilla Minecraft's limit (§3.2).
	DefaultMaxData = 1 << 23
	// MaxDataLimit is the largest DataLength a VarInt can hold (§1.1): 2^31 - 1.
	MaxDataLimit = 1<<31 - 1
	// MaxMessageID is the largest message id a PacketID VarInt can hold: 2^31 - 1.
	MaxMessageID = 1<<31 - 1
)

// FrameConfig holds the settings of a framer. Both ends of a stream must agree on
// Compression and Threshold; the limits are each reader's own. The zero value is
// ready to use: no compression, the default limits.
type FrameConfig struct {
	// Compression turns on compressed frames (§3) with the threshold Threshold:
	// bodies of Threshold bytes or more are written zlib-compressed, smaller ones as
	// they are (DataLength 0).
	Compression bool
	// Threshold is the compression threshold T (negative counts as 0).
	Threshold int
	// CompressionLevel is the zlib level a writer compresses with: 1 (fastest) to 9
	// (smallest); 0 means zlib's default, 6. The compressor's state (about 1.1 MiB at
	// level 1, 800 KiB at 2 to 9) is pooled and shared by every writer: a connection
	// holds one only while it compresses a frame. Readers accept any level.
	CompressionLevel int
	// MaxFrame is the largest Length (or PacketLength) a reader accepts and a writer
	// writes: 0 (or anything above MaxFrameLimit) means MaxFrameLimit. A reader never
	// buffers more than MaxFrame+3 bytes of one frame.
	MaxFrame int
	// MaxData is the largest DataLength of a compressed frame (0: DefaultMaxData; at
	// most MaxDataLimit): what a reader may inflate a frame to.
	MaxData int
	// Limits is the decode budget of the messages (spec §11); the zero value means
	// DefaultLimits().
	Limits Limits
}

// normalized returns c with its zero and out-of-range values replaced as documented.
func (c FrameConfig) normalized() FrameConfig {
	if c.Threshold < 0 {
		c.Threshold = 0
	}
	if c.CompressionLevel < 1 || c.CompressionLevel > 9 {
		c.CompressionLevel = 6
	}
	if c.MaxFrame <= 0 || c.MaxFrame > MaxFrameLimit {
		c.MaxFrame = MaxFrameLimit
	}
	if c.MaxData <= 0 {
		c.MaxData = DefaultMaxData
	}
	if c.MaxData > MaxDataLimit {
		c.MaxData = MaxDataLimit
	}
	if c.Limits == (Limits{}) {
		c.Limits = DefaultLimits()
	}
	return c
}

// Normalized returns the settings a framer made with c uses: zero values replaced
// by the defaults and out-of-range values clamped.
func (c FrameConfig) Normalized() FrameConfig { return c.normalized() }

// varIntLen returns the number of bytes of the VarInt of v (§1.1).
func varIntLen(v uint32) int {
	n := 1
	for v >= 0x80 {
		v >>= 7
		n++
	}
	return n
}

// appendVarInt appends the shortest VarInt of v (§1.1).
func appendVarInt(dst []byte, v uint32) []byte {
	for v >= 0x80 {
		dst = append(dst, byte(v)|0x80)
		v >>= 7
	}
	return append(dst, byte(v))
}

// putVarInt writes the shortest VarInt of v at the front of b, which has room, and
// returns its length.
func putVarInt(b []byte, v uint32) int {
	i := 0
	for v >= 0x80 {
		b[i] = byte(v) | 0x80
		v >>= 7
		i++
	}
	b[i] = byte(v)
	return i + 1
}

// parseVarInt reads a DataLength or PacketID VarInt from the front of b (§1.2): its
// value and length, or the kind of what is wrong with it (FrameTruncated when b
// ends inside it).
func parseVarInt(b []byte) (v uint32, n int, kind FrameKind) {
	for i := 0; i < 5; i++ {
		if i >= len(b) {
			return 0, 0, FrameTruncated
		}
		c := b[i]
		if i == 4 && c > 0x07 {
			// A fifth byte with its high bit set (a sixth byte follows) or a value of
			// 2^31 or more.
			return 0, 0, FrameVarIntTooLong
		}
		v |= uint32(c&0x7f) << (7 * i)
		if c < 0x80 {
			if i > 0 && c == 0 {
				return 0, 0, FrameNonMinimalVarInt
			}
			return v, i + 1, 0
		}
	}
	// Not reached: the fifth byte returns above.
	return 0, 0, FrameVarIntTooLong
}
