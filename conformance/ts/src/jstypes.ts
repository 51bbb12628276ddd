// Values of the wrong JavaScript type (docs/typescript.md, "Errors"): the encoder checks
// what it is given at run time, since untyped JavaScript can pass anything, and fails
// with a BitwireError of the plan's kind at the bit where the value would start — never
// writes wrong bytes, never converts. JSON cannot express most of these (the vectors
// scalars.whole.* and the other `encode` cases cover what it can), so they are here.
//
// The kinds: a scalar (`bool`, integer, float, quantized, varint) of the wrong type is
// `OutOfRange`; an enum name or union kind that is not declared `InvalidEnum`; a string
// that is not a string or has a lone surrogate `InvalidUtf8`; an array, list or bytes
// that is not an array (a `Uint8Array` for bytes) or has the wrong length
// `InvalidLength`; an optional's value other than `null` fails as its payload would; a
// struct that is not an object (`null`, `undefined`, a number) `OutOfRange`, a union
// `InvalidEnum` — never the engine's `TypeError`. A missing property is `undefined`.

import { BitwireError } from "@bitwire/runtime";

import * as ks from "../gen/codegen/kitchen_sink.js";
import * as game from "../gen/game.js";

/** A valid `Scalars` (bit offsets of its fields: testdata/codegen/kitchen_sink.ts). */
const scalars = (): ks.Scalars => ({
  flag: false,
  tiny: 0,
  full8: 0,
  odd: 0,
  wide: 0n,
  big: 0n,
  neg: 0,
  full16: 0,
  i64v: 0n,
  i33: 0,
  half: 0,
  double: 0,
  level: 0,
  offset: 0,
  shifted: 10,
  fixed: 7,
  huge: 0n,
  wideBounded: 5n,
  q: 0,
  q64: 0,
  mode: "Off",
  single: "Only",
});

/**
 * A valid `Composite` whose every variable field takes its fewest bits, so that the
 * fields start at 0 (type), 8 (r), 13 (v), 18 (big), 23 (small), 28 (maybe), 29
 * (maybe_named), 30 (arr), 66 (bytes_arr), 98 (points), 130 (list), 135 (nested), 140
 * (name), 145 (text), 150 (blob), 153 (raw), 158 (octets), 166 (quants), 171, 178.
 */
const composite = (): ks.Composite => ({
  type: 0,
  r: 0,
  v: 0,
  big: 0n,
  small: 0n,
  maybe: null,
  maybeNamed: null,
  arr: [0, 0, 0],
  bytesArr: [0, 0, 0, 0],
  points: [
    { x: 0, y: 0 },
    { x: 0, y: 0 },
  ],
  list: [],
  nested: [],
  name: "",
  text: "",
  blob: new Uint8Array(0),
  raw: new Uint8Array(0),
  octets: [],
  quants: [],
  aFieldWithARatherLongNameForTests: 0,
  anotherFieldWithALongNameForTests: [],
});

const packet = (): game.Packet64 => ({
  isAlive: true,
  weaponId: 1,
  teamId: 2,
  health: 100,
  posX: -5,
  posY: 5,
  rotation: 0,
  score: 0,
});

const input = (): game.Input => ({
  seq: 1,
  moveX: 0,
  moveY: 0,
  buttons: { fire: false, aim: false, jump: false, crouch: false, reload: false, useItem: false },
  yaw: 0,
  pitch: 0,
});

const wrapper = (): ks.Wrapper => ({
  shape: { kind: "Nothing" },
  lonely: { kind: "Alone", value: true },
  empty: {},
  composite: composite(),
});

/** A copy of `value` without the property `key`, as untyped JavaScript may pass it. */
function without<T extends object>(value: T, key: keyof T): T {
  const copy = { ...value };
  delete copy[key];
  return copy;
}

/** One field of a valid value replaced by something of the wrong type. */
type Case = [name: string, run: () => unknown, kind: string, bit: number, path: string];

// `as never`: these values are what the types rule out; untyped JavaScript can pass them.
const cases: Case[] = [
  ["bool given 1", () => game.encodePacket64({ ...packet(), isAlive: 1 as never }), "OutOfRange", 0, "is_alive"],
  ["u4 given a string", () => game.encodePacket64({ ...packet(), weaponId: "5" as never }), "OutOfRange", 1, "weapon_id"],
  ["u9 given 2.5", () => game.encodePacket64({ ...packet(), health: 2.5 }), "OutOfRange", 7, "health"],
  ["i12 given NaN", () => game.encodePacket64({ ...packet(), posX: Number.NaN }), "OutOfRange", 16, "pos_x"],
  ["u16 given undefined", () => game.encodePacket64({ ...packet(), score: undefined as never }), "OutOfRange", 48, "score"],
  ["u16 given a bigint", () => game.encodePacket64({ ...packet(), score: 5n as never }), "OutOfRange", 48, "score"],
  ["quantized given a string", () => game.encodeInput({ ...input(), moveX: "0.5" as never }), "OutOfRange", 16, "move_x"],
  [
    "bool of a nested struct in a run",
    () => game.encodeInput({ ...input(), buttons: { ...input().buttons, jump: 1 as never } }),
    "OutOfRange",
    34,
    "buttons.jump",
  ],
  ["u64 given a number", () => ks.encodeScalars({ ...scalars(), wide: 5 as never }), "OutOfRange", 23, "wide"],
  ["i33 beyond its range", () => ks.encodeScalars({ ...scalars(), i33: 2 ** 40 }), "OutOfRange", 226, "i33"],
  ["f32 given a string", () => ks.encodeScalars({ ...scalars(), half: "1.5" as never }), "OutOfRange", 259, "half"],
  ["f64 given null", () => ks.encodeScalars({ ...scalars(), double: null as never }), "OutOfRange", 291, "double"],
  ["bounded given a string", () => ks.encodeScalars({ ...scalars(), level: "5" as never }), "OutOfRange", 355, "level"],
  ["zero-width bounded given a string", () => ks.encodeScalars({ ...scalars(), fixed: "7" as never }), "OutOfRange", 377, "fixed"],
  ["i64 bounded given a number", () => ks.encodeScalars({ ...scalars(), huge: 0 as never }), "OutOfRange", 377, "huge"],
  ["enum given an undeclared name", () => ks.encodeScalars({ ...scalars(), mode: "Purple" as never }), "InvalidEnum", 518, "mode"],
  ["enum given its tag", () => ks.encodeScalars({ ...scalars(), mode: 5 as never }), "InvalidEnum", 518, "mode"],
  ["zero-bit enum given another name", () => ks.encodeScalars({ ...scalars(), single: "Other" as never }), "InvalidEnum", 521, "single"],
  ["varint given a string", () => ks.encodeComposite({ ...composite(), r: "5" as never }), "OutOfRange", 8, "r"],
  ["varu64 given a number", () => ks.encodeComposite({ ...composite(), big: 5 as never }), "OutOfRange", 18, "big"],
  ["optional given undefined", () => ks.encodeComposite({ ...composite(), maybe: undefined as never }), "OutOfRange", 29, "maybe"],
  ["array given a string", () => ks.encodeComposite({ ...composite(), arr: "abc" as never }), "InvalidLength", 30, "arr"],
  ["array of the wrong length", () => ks.encodeComposite({ ...composite(), arr: [1, 2] }), "InvalidLength", 30, "arr"],
  ["array element given a string", () => ks.encodeComposite({ ...composite(), arr: [1, 2, "3" as never] }), "OutOfRange", 54, "arr[2]"],
  [
    "byte array given a Uint8Array",
    () => ks.encodeComposite({ ...composite(), bytesArr: Uint8Array.of(1, 2, 3, 4) as never }),
    "InvalidLength",
    66,
    "bytes_arr",
  ],
  ["list given an object", () => ks.encodeComposite({ ...composite(), list: {} as never }), "InvalidLength", 130, "list"],
  ["list element out of range", () => ks.encodeComposite({ ...composite(), list: [1001] }), "OutOfRange", 135, "list[0]"],
  ["string given a number", () => ks.encodeComposite({ ...composite(), name: 123 as never }), "InvalidUtf8", 140, "name"],
  ["string with a lone high surrogate", () => ks.encodeComposite({ ...composite(), name: "a\ud800" }), "InvalidUtf8", 140, "name"],
  ["string with a lone low surrogate", () => ks.encodeComposite({ ...composite(), text: "\udc00b" }), "InvalidUtf8", 145, "text"],
  ["bytes given an array", () => ks.encodeComposite({ ...composite(), blob: [1, 2, 300] as never }), "InvalidLength", 150, "blob"],
  ["bytes given a string", () => ks.encodeComposite({ ...composite(), raw: "abc" as never }), "InvalidLength", 153, "raw"],
  ["list<u8> element of 256", () => ks.encodeComposite({ ...composite(), octets: [256] }), "OutOfRange", 158 + 8, "octets[0]"],
  ["quantized element given a string", () => ks.encodeComposite({ ...composite(), quants: ["0.5" as never] }), "OutOfRange", 171, "quants[0]"],
  ["union of an undeclared kind", () => ks.encodeShape({ kind: "Triangle" } as never), "InvalidEnum", 0, ""],
  ["union payload out of range", () => ks.encodeShape({ kind: "Circle", value: 256 }), "OutOfRange", 3, "Circle"],
  ["union payload of the wrong type", () => ks.encodeShape({ kind: "Label", value: 5 as never }), "InvalidUtf8", 3, "Label"],
  // Missing values: a struct or union that is not an object, or has no such property.
  ["top-level struct given undefined", () => game.encodePacket64(undefined as never), "OutOfRange", 0, ""],
  ["top-level struct given null", () => ks.encodeScalars(null as never), "OutOfRange", 0, ""],
  ["top-level struct given a number", () => ks.encodeComposite(5 as never), "OutOfRange", 0, ""],
  ["empty struct given null", () => ks.encodeEmpty(null as never), "OutOfRange", 0, ""],
  ["struct with no properties", () => game.encodePacket64({} as never), "OutOfRange", 0, "is_alive"],
  ["missing u64", () => ks.encodeScalars(without(scalars(), "wide")), "OutOfRange", 23, "wide"],
  ["missing i64 bounded", () => ks.encodeScalars(without(scalars(), "huge")), "OutOfRange", 377, "huge"],
  ["missing enum", () => ks.encodeScalars(without(scalars(), "mode")), "InvalidEnum", 518, "mode"],
  ["missing varu64", () => ks.encodeComposite(without(composite(), "big")), "OutOfRange", 18, "big"],
  ["missing optional", () => ks.encodeComposite(without(composite(), "maybe")), "OutOfRange", 29, "maybe"],
  ["missing list", () => ks.encodeComposite(without(composite(), "list")), "InvalidLength", 130, "list"],
  ["missing string", () => ks.encodeComposite(without(composite(), "name")), "InvalidUtf8", 140, "name"],
  ["missing bytes", () => ks.encodeComposite(without(composite(), "blob")), "InvalidLength", 150, "blob"],
  ["nested struct in a run given null", () => game.encodeInput({ ...input(), buttons: null as never }), "OutOfRange", 32, "buttons"],
  ["nested struct in a run missing", () => game.encodeInput(without(input(), "buttons")), "OutOfRange", 32, "buttons"],
  ["optional struct given a number", () => ks.encodeComposite({ ...composite(), maybeNamed: 5 as never }), "OutOfRange", 30, "maybe_named"],
  ["array element struct given null", () => ks.encodeComposite({ ...composite(), points: [null as never, null as never] }), "OutOfRange", 98, "points[0]"],
  ["list element given null", () => ks.encodeComposite({ ...composite(), nested: [null as never] }), "InvalidLength", 140, "nested[0]"],
  ["struct field given undefined", () => ks.encodeWrapper({ ...wrapper(), composite: undefined as never }), "OutOfRange", 4, "composite"],
  ["empty struct field given null", () => ks.encodeWrapper({ ...wrapper(), empty: null as never }), "OutOfRange", 4, "empty"],
  ["union given null", () => ks.encodeShape(null as never), "InvalidEnum", 0, ""],
  ["union field given undefined", () => ks.encodeWrapper({ ...wrapper(), shape: undefined as never }), "InvalidEnum", 0, "shape"],
  ["union without a kind", () => ks.encodeShape({} as never), "InvalidEnum", 0, ""],
  ["union struct payload given null", () => ks.encodeShape({ kind: "Rect", value: null as never }), "OutOfRange", 3, "Rect"],
  ["union struct payload missing", () => ks.encodeShape({ kind: "Rect" } as never), "OutOfRange", 3, "Rect"],
  ["union list payload element null", () => ks.encodeShape({ kind: "Dots", value: [null as never] }), "OutOfRange", 6, "Dots[0]"],
  ["message given null", () => ks.encodeMessage(null as never), "InvalidEnum", 0, ""],
  ["message of an undeclared kind", () => ks.encodeMessage({ kind: "Nope" } as never), "InvalidEnum", 0, ""],
  ["message id of an undeclared kind", () => ks.messageId({ kind: "Nope" } as never), "InvalidEnum", 0, ""],
  ["message value given null", () => game.encodeMessage({ kind: "Input", value: null as never }), "OutOfRange", 0, ""],
];

/** Runs every case; returns the problems (empty when each fails as it should). */
export function runJsTypes(): { passed: number; problems: string[] } {
  const problems: string[] = [];
  for (const [name, run, kind, bit, path] of cases) {
    try {
      run();
      problems.push(`${name}: encoded, expected ${kind}`);
    } catch (e) {
      if (!(e instanceof BitwireError)) {
        problems.push(`${name}: threw ${String(e)}, not a BitwireError`);
      } else if (e.kind !== kind || e.bit !== bit || e.path !== path) {
        problems.push(`${name}: ${e.message}; expected ${kind} at bit ${bit}, ${path}`);
      } else if (e.detail.type === "None") {
        problems.push(`${name}: ${e.message} has no detail`);
      }
    }
  }
  // The message names the value and the limit.
  try {
    ks.encodeScalars({ ...scalars(), level: 1200 });
  } catch (e) {
    const want = "OutOfRange at bit 355, level: 1200 not in 0..=1000";
    if (!(e instanceof BitwireError) || e.message !== want) {
      problems.push(`message ${String(e)}, expected ${want}`);
    }
  }
  // Messages of wrong and missing values name the value and what it had to be.
  const messages: [() => unknown, string][] = [
    [
      () => ks.encodeScalars({ ...scalars(), wide: 5 as never }),
      "OutOfRange at bit 23, wide: the number 5, expected a bigint in 0..=18446744073709551615",
    ],
    [
      () => game.encodeInput({ ...input(), moveX: undefined as never }),
      "OutOfRange at bit 16, move_x: undefined, expected a number in -1.0..=1.0",
    ],
    [
      () => game.encodeInput({ ...input(), buttons: null as never }),
      "OutOfRange at bit 32, buttons: null, expected an object (struct Buttons)",
    ],
    [
      () => ks.encodeComposite({ ...composite(), list: "x" as never }),
      'InvalidLength at bit 130, list: the string "x", expected an array of at most 20 elements',
    ],
    [() => ks.encodeShape(undefined as never), "InvalidEnum at bit 0: undefined, expected an object (union Shape)"],
  ];
  for (const [run, want] of messages) {
    try {
      run();
      problems.push(`encoded, expected ${want}`);
    } catch (e) {
      if (!(e instanceof BitwireError) || e.message !== want) {
        problems.push(`message ${String(e)}, expected ${want}`);
      }
    }
  }
  // Surrogate pairs are fine, and written as one 4-byte character.
  const emoji = ks.decodeComposite(ks.encodeComposite({ ...composite(), name: "\ud83d\ude00" }).slice());
  if (emoji.name !== "\ud83d\ude00") {
    problems.push(`a surrogate pair came back as ${JSON.stringify(emoji.name)}`);
  }
  return { passed: cases.length + messages.length + 2 - problems.length, problems };
}
