package bench

import (
	"encoding/binary"

	"github.com/bitwire-dev/bitwire/examples/go/game"
)

// The baseline: the packet64 layout packed by hand with shifts and masks, as a team
// would write it without a schema compiler. Same bytes as the generated code (the
// benchmark checks before it times anything).

// HandEncode appends the 8-byte encoding of p. Like typical hand-written code it
// masks fields to their widths instead of checking ranges.
func HandEncode(p *game.Packet64, out []byte) []byte {
	var alive uint64
	if p.IsAlive {
		alive = 1
	}
	word := alive |
		uint64(p.WeaponID&0xF)<<1 |
		uint64(p.TeamID&0x3)<<5 |
		uint64(p.Health&0x1FF)<<7 |
		(uint64(p.PosX)&0xFFF)<<16 |
		(uint64(p.PosY)&0xFFF)<<28 |
		uint64(p.Rotation)<<40 |
		uint64(p.Score)<<48
	return binary.LittleEndian.AppendUint64(out, word)
}

// HandEncodeChecked is HandEncode refusing out-of-range fields instead of masking
// them, as the generated code must (spec §3.1): the fair baseline for the cost of
// safety. It returns false, appending nothing, when a field is out of range.
func HandEncodeChecked(p *game.Packet64, out []byte) ([]byte, bool) {
	over := uint64(p.WeaponID)>>4 | uint64(p.TeamID)>>2 | uint64(p.Health)>>9 |
		uint64(int64(p.PosX)+2048)>>12 | uint64(int64(p.PosY)+2048)>>12
	if over != 0 {
		return out, false
	}
	return HandEncode(p, out), true
}

// HandDecode decodes an 8-byte packet into p; false if b is not exactly 8 bytes.
func HandDecode(b []byte, p *game.Packet64) bool {
	if len(b) != 8 {
		return false
	}
	word := binary.LittleEndian.Uint64(b)
	p.IsAlive = word&1 != 0
	p.WeaponID = uint8(word >> 1 & 0xF)
	p.TeamID = uint8(word >> 5 & 0x3)
	p.Health = uint16(word >> 7 & 0x1FF)
	p.PosX = int16(int64(word<<36) >> 52)
	p.PosY = int16(int64(word<<24) >> 52)
	p.Rotation = uint8(word >> 40)
	p.Score = uint16(word >> 48)
	return true
}
