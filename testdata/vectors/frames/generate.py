#!/usr/bin/env python3
"""Writes frames.json, the frame vectors of docs/framing.md, from the case list below.

    python3 testdata/vectors/frames/generate.py [BITWIRE]

BITWIRE is the `bitwire` CLI (default: target/debug/bitwire), used only to pack message
values with the reference codec. Compressed frames are built with Python's zlib; their
exact bytes are not part of the format (docs/framing.md §3.1), so the file, not this script,
is the contract: the script is how the file was made, and rerunning it must give the same
file on a machine with the same zlib. Every framer runs frames.json (see README.md next
to it).
"""

import json
import os
import subprocess
import sys
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
BITWIRE = sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, "target", "debug", "bitwire")
SCHEMA = os.path.join(HERE, "frames.bw")

MAX_FRAME = 2097151
MAX_DATA = 8388608

PACKET = {"is_alive": True, "weapon_id": 2, "team_id": 1, "health": 87, "pos_x": -310,
          "pos_y": 1200, "rotation": 64, "score": 1250}
IDS = {"Ping": 0, "Packet64": 1, "Chat": 2, "Wide": 300, "Last": 2147483647, "World": 3, "Input": 4}


def pack(type_name, value):
    out = subprocess.run([BITWIRE, "encode", "--schema", SCHEMA, "--type", type_name, "--hex"],
                         input=json.dumps(value).encode(), capture_output=True, check=True)
    return bytes.fromhex(out.stdout.decode().strip())


def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def body(id_, data):
    return varint(id_) + data


def plain(s):
    """An uncompressed frame of body s."""
    return varint(len(s)) + s


def with_data_length(data_length, rest):
    inner = varint(data_length) + rest
    return varint(len(inner)) + inner


def zlib_level(s, level=6):
    return zlib.compress(s, level)


def zlib_sync_flush(s):
    """A stream ending in a sync-flush block and an empty final block, like Go's writer."""
    c = zlib.compressobj(6)
    return c.compress(s) + c.flush(zlib.Z_SYNC_FLUSH) + c.flush(zlib.Z_FINISH)


def msg(type_name, value):
    data = pack(type_name, value)
    return {"id": IDS[type_name], "data": data.hex(), "type": type_name, "value": value}, body(IDS[type_name], data)


def envelope(seq, back, body_):
    """A frame of the delta message World: a snapshot envelope (docs/framing.md §10), which the
    message dispatch yields as it is, with its header."""
    data = bytes([seq & 0xFF, seq >> 8, back]) + body_
    frame = {"id": IDS["World"], "data": data.hex(), "type": "World", "envelope": {"seq": seq, "back": back}}
    return frame, body(IDS["World"], data)


def raw(id_, data):
    return {"id": id_, "data": data.hex()}, body(id_, data)


def case(cid, stream, frames, end="clean", encode="exact", threshold=None, max_frame=MAX_FRAME,
         max_data=MAX_DATA, note=None):
    c = {"id": f"frames.{cid}", "threshold": threshold, "max_frame": max_frame, "max_data": max_data,
         "stream": stream.hex(), "frames": frames, "end": end, "encode": encode}
    if note:
        c["note"] = note
    return c


def err(kind, offset, **extra):
    e = {"kind": kind, "offset": offset}
    e.update(extra)
    return e


def text_of(n):
    words = "the quick brown fox jumps over the lazy dog "
    return (words * (n // len(words) + 1))[:n]


def plain_cases():
    p64, p64b = msg("Packet64", PACKET)
    ping, pingb = msg("Ping", {})
    wide, wideb = msg("Wide", {"v": 7})
    last, lastb = msg("Last", {"v": 255})
    chat, chatb = msg("Chat", {"from": 42, "text": text_of(200)})
    big, bigb = msg("Chat", {"from": 1, "text": text_of(17000)})
    hs, hsb = raw(0, bytes.fromhex("8106096c6f63616c686f737463dd01"))
    yield case("plain.packet64", plain(p64b), [p64], note="docs/framing.md §8")
    yield case("plain.ping", plain(pingb), [ping], note="an empty message: the frame is its PacketID; Minecraft's Status Request")
    yield case("plain.handshake_raw", plain(hsb), [hs], note="Minecraft's handshake (protocol 769, localhost:25565, next state 1): frame level only")
    yield case("plain.coalesced", plain(p64b) + plain(pingb) + plain(wideb), [p64, ping, wide])
    yield case("plain.wide_id", plain(wideb), [wide])
    yield case("plain.last_id", plain(lastb), [last], note="id 2^31-1: a five-byte PacketID")
    yield case("plain.two_byte_length", plain(chatb), [chat])
    yield case("plain.three_byte_length", plain(bigb), [big])
    yield case("plain.max_frame_exact", plain(chatb), [chat], max_frame=len(chatb))
    yield case("plain.empty_stream", b"", [])
    # Errors of the length.
    yield case("plain.truncated_length", bytes.fromhex("80"), [], err("Truncated", 0))
    yield case("plain.truncated_body", plain(p64b)[:4], [], err("Truncated", 0))
    yield case("plain.truncated_second", plain(p64b) + plain(p64b)[:2], [p64], err("Truncated", 10))
    yield case("plain.length_too_wide", bytes.fromhex("ffffff01") + bytes(8), [], err("LengthTooWide", 0))
    yield case("plain.length_too_wide_nonminimal", bytes.fromhex("80808000"), [], err("LengthTooWide", 0),
               note="four bytes: too wide at the third, before its minimality is known")
    yield case("plain.zero_length", bytes.fromhex("00"), [], err("ZeroLength", 0))
    yield case("plain.zero_length_second", plain(p64b) + bytes.fromhex("00"), [p64], err("ZeroLength", 10))
    yield case("plain.nonminimal_zero", bytes.fromhex("8000"), [], err("NonMinimalVarInt", 0))
    yield case("plain.nonminimal_length", bytes.fromhex("8900") + p64b, [], err("NonMinimalVarInt", 0))
    yield case("plain.nonminimal_length_3", bytes.fromhex("898000") + p64b, [], err("NonMinimalVarInt", 0))
    yield case("plain.frame_too_large", varint(1025) + bytes(1025), [], err("FrameTooLarge", 0, length=1025, max=1024),
               max_frame=1024)
    yield case("plain.frame_too_large_header_only", varint(1025), [], err("FrameTooLarge", 0, length=1025, max=1024),
               max_frame=1024, note="rejected at the length, before any of the body arrives")
    yield case("plain.frame_too_large_second", plain(p64b) + varint(200000), [p64], err("FrameTooLarge", 10),
               max_frame=100000)
    # Errors of the PacketID.
    yield case("plain.id_nonminimal", plain(bytes.fromhex("8100") + p64b[1:]), [], err("NonMinimalVarInt", 0))
    yield case("plain.id_six_bytes", plain(bytes.fromhex("808080808001")), [], err("VarIntTooLong", 0))
    yield case("plain.id_above_2_31", plain(bytes.fromhex("ffffffff08")), [], err("VarIntTooLong", 0))
    yield case("plain.id_runs_past_frame", plain(bytes.fromhex("8080")), [], err("Truncated", 0),
               note="the PacketID does not end inside its frame")
    # Errors of the message.
    yield case("plain.unknown_id", plain(body(99, p64b)), [], err("UnknownMessage", 0, message_id=99))
    yield case("plain.message_trailing", plain(p64b + b"\x00"), [],
               err("Message", 0, message={"kind": "TrailingData", "bit": 64, "path": ""}))
    yield case("plain.message_truncated", plain(p64b[:6]), [],
               err("Message", 0, message={"kind": "Truncated", "bit": 40, "path": "rotation"}))
    yield case("plain.ping_with_data", plain(body(0, b"\x01")), [],
               err("Message", 0, message={"kind": "TrailingData", "bit": 0, "path": ""}))


def envelope_cases():
    world = {"tick": 7, "entities": [{"id": 1, "x": 2, "y": -3}, {"id": 9, "x": -100, "y": 250}]}
    full, fullb = envelope(300, 0, pack("World", world))
    delta, deltab = envelope(300, 2, b"\x00")
    inp, inpb = msg("Input", {"ack": 298, "full": False})
    yield case("envelope.delta", plain(deltab), [delta],
               note="docs/framing.md §10.6: snapshot 300 against 298, which it equals")
    yield case("envelope.full_and_input", plain(fullb) + plain(inpb), [full, inp],
               note="a full snapshot (back 0) and the client's input acknowledging 298")
    yield case("envelope.header_only", plain(envelope(5, 0, b"")[1]), [envelope(5, 0, b"")[0]],
               note="the dispatch checks only the header: the body is the snapshot receiver's")
    yield case("envelope.truncated", plain(body(IDS["World"], bytes.fromhex("2c01"))), [],
               err("Message", 0, message={"kind": "Truncated", "bit": 0, "path": ""}),
               note="Data shorter than the 3-byte header")
    yield case("envelope.empty", plain(body(IDS["World"], b"")), [],
               err("Message", 0, message={"kind": "Truncated", "bit": 0, "path": ""}))


def compressed_cases():
    p64, p64b = msg("Packet64", PACKET)
    chat, chatb = msg("Chat", {"from": 42, "text": text_of(300)})
    t = 256
    yield case("zlib.below_threshold_plain", with_data_length(0, p64b), [p64], threshold=t,
               note="n = 9 < T = 256: DataLength 0 and the body as it is")
    yield case("zlib.level6", with_data_length(len(chatb), zlib_level(chatb)), [chat], threshold=t,
               encode="roundtrip", note="n >= T: zlib; other zlib streams are as valid, so writers are checked by a round trip")
    yield case("zlib.level0_stored", with_data_length(len(chatb), zlib_level(chatb, 0)), [chat], threshold=t,
               encode="roundtrip")
    yield case("zlib.sync_flush_tail", with_data_length(len(chatb), zlib_sync_flush(chatb)), [chat], threshold=t,
               encode="roundtrip", note="a sync-flush block then an empty final block, as Go's writer ends a stream")
    yield case("zlib.data_length_0_above_threshold", with_data_length(0, chatb), [chat], threshold=t,
               encode="roundtrip", note="go-mc sends frames of n >= T uncompressed (it compares only Data with T): accepted")
    yield case("zlib.threshold_0", with_data_length(len(p64b), zlib_level(p64b)), [p64], threshold=0,
               encode="roundtrip", note="docs/framing.md §8")
    yield case("zlib.threshold_exact", with_data_length(len(p64b), zlib_level(p64b)), [p64], threshold=len(p64b),
               encode="roundtrip", note="n = T is compressed")
    yield case("zlib.threshold_minus_one", with_data_length(0, p64b), [p64], threshold=len(p64b) + 1)
    yield case("zlib.mixed", with_data_length(0, p64b) + with_data_length(len(chatb), zlib_level(chatb)),
               [p64, chat], threshold=t, encode="roundtrip")
    # Errors.
    good = zlib_level(chatb)
    yield case("zlib.below_threshold", with_data_length(len(p64b), zlib_level(p64b)), [],
               err("BelowThreshold", 0, data_length=9, threshold=256), threshold=t)
    yield case("zlib.data_too_large", with_data_length(len(chatb), good), [],
               err("DataTooLarge", 0, data_length=len(chatb), max=300), threshold=t, max_data=300)
    yield case("zlib.data_too_large_default", with_data_length(MAX_DATA + 1, zlib_level(bytes(64))), [],
               err("DataTooLarge", 0), threshold=t)
    yield case("zlib.bad_header", with_data_length(len(chatb), bytes([0x78, 0x9d]) + good[2:]), [],
               err("BadZlib", 0), threshold=t)
    yield case("zlib.gzip", with_data_length(len(chatb), gzip_of(chatb)), [], err("BadZlib", 0), threshold=t,
               note="a gzip stream is not zlib (minecraft-protocol's unzipSync would take it)")
    yield case("zlib.bad_adler", with_data_length(len(chatb), good[:-1] + bytes([good[-1] ^ 1])), [],
               err("BadZlib", 0), threshold=t)
    yield case("zlib.no_adler", with_data_length(len(chatb), good[:-4]), [], err("BadZlib", 0), threshold=t,
               note="the stream stops before its checksum")
    yield case("zlib.truncated_deflate", with_data_length(len(chatb), good[:len(good) // 2]), [],
               err("BadZlib", 0), threshold=t)
    yield case("zlib.inflates_longer", with_data_length(len(chatb) - 1, good), [],
               err("SizeMismatch", 0), threshold=t)
    yield case("zlib.inflates_shorter", with_data_length(len(chatb) + 1, good), [],
               err("SizeMismatch", 0), threshold=t)
    bomb = zlib_level(bytes(1 << 20), 9)
    yield case("zlib.bomb", with_data_length(1000, bomb), [], err("SizeMismatch", 0), threshold=t,
               note=f"{len(bomb)} bytes inflating to 1 MiB under a DataLength of 1000: rejected after 1001 bytes")
    yield case("zlib.trailing_bytes", with_data_length(len(chatb), good + b"\x00\x00"), [],
               err("TrailingBytes", 0), threshold=t)
    yield case("zlib.data_length_nonminimal", bytes.fromhex("0b8000") + p64b, [], err("NonMinimalVarInt", 0),
               threshold=t)
    yield case("zlib.data_length_six_bytes", plain(bytes.fromhex("808080808001") + p64b), [],
               err("VarIntTooLong", 0), threshold=t)
    yield case("zlib.data_length_runs_past_frame", plain(bytes.fromhex("80")), [], err("Truncated", 0), threshold=t)
    yield case("zlib.packet_length_too_wide", bytes.fromhex("ffffff01"), [], err("LengthTooWide", 0), threshold=t)
    yield case("zlib.unknown_id_inside", with_data_length(0, body(99, p64b)), [],
               err("UnknownMessage", 0, message_id=99), threshold=t)
    yield case("zlib.empty_rest", with_data_length(0, b""), [], err("Truncated", 0), threshold=t,
               note="DataLength 0 and no PacketID: the body ends before its PacketID")


def gzip_of(s):
    import gzip
    return gzip.compress(s, mtime=0)


def websocket_cases():
    p64, p64b = msg("Packet64", PACKET)
    ping, pingb = msg("Ping", {})
    def ws(cid, messages, frames, end="clean", **kw):
        c = case(cid, b"", frames, end, **kw)
        c["id"] = f"frames.ws.{cid}"
        del c["stream"]
        c["transport"] = "websocket"
        c["messages"] = [m.hex() for m in messages]
        return c
    yield ws("one_frame_each", [plain(p64b), plain(pingb)], [p64, ping])
    yield ws("two_frames_in_one", [plain(p64b) + plain(pingb)], [p64], err("TrailingBytes", 10, message=0),
             note="one frame per message: the offset is inside message 0")
    yield ws("partial_frame", [plain(p64b)[:5]], [], err("Truncated", 0, message=0))
    yield ws("empty_message", [plain(p64b), b""], [p64], err("Truncated", 0, message=1))


def encode_error_cases():
    return [
        {"id": "frames.encode.too_large", "threshold": None, "max_frame": 8, "max_data": MAX_DATA,
         "write": [{"type": "Packet64", "value": PACKET}], "write_error": {"kind": "FrameTooLarge"},
         "note": "a writer refuses a frame above max_frame (the body is 9 bytes)"},
        {"id": "frames.encode.too_large_compressed", "threshold": 0, "max_frame": 8, "max_data": MAX_DATA,
         "write": [{"type": "Packet64", "value": PACKET}], "write_error": {"kind": "FrameTooLarge"}},
    ]


def main():
    cases = list(plain_cases()) + list(envelope_cases()) + list(compressed_cases()) + list(websocket_cases()) + encode_error_cases()
    ids = [c["id"] for c in cases]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    doc = {
        "suite": "frames",
        "schema": "frames.bw",
        "description": "Frames of docs/framing.md: streams (or WebSocket messages) with the frames a reader yields and how the stream ends, and frames a writer must refuse.",
        "cases": cases,
    }
    with open(os.path.join(HERE, "frames.json"), "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"frames.json: {len(cases)} cases")


if __name__ == "__main__":
    main()
