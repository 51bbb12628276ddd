// Deep comparison of decoded values with the originals: plain objects (same keys),
// arrays, typed arrays (element by element, whatever their class: msgpackr hands back a
// Buffer on Node), numbers (NaN equals NaN), bigints, strings, booleans and null.

/** Where `a` and `b` first differ (`entities[3].name`), or null if they are equal. */
export function difference(a: unknown, b: unknown, path = "$"): string | null {
  if (a === b) {
    return null;
  }
  if (typeof a === "number" && typeof b === "number") {
    return a !== a && b !== b ? null : `${path}: ${a} vs ${b}`;
  }
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    return `${path}: ${String(a)} (${typeof a}) vs ${String(b)} (${typeof b})`;
  }
  if (ArrayBuffer.isView(a) || ArrayBuffer.isView(b)) {
    if (!ArrayBuffer.isView(a) || !ArrayBuffer.isView(b)) {
      return `${path}: a typed array and something else`;
    }
    const x = a as unknown as ArrayLike<number | bigint>;
    const y = b as unknown as ArrayLike<number | bigint>;
    if (x.length !== y.length) {
      return `${path}: length ${x.length} vs ${y.length}`;
    }
    for (let i = 0; i < x.length; i++) {
      const p = x[i];
      const q = y[i];
      if (p !== q && !(p !== p && q !== q)) {
        return `${path}[${i}]: ${String(p)} vs ${String(q)}`;
      }
    }
    return null;
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b)) {
      return `${path}: an array and something else`;
    }
    if (a.length !== b.length) {
      return `${path}: length ${a.length} vs ${b.length}`;
    }
    for (let i = 0; i < a.length; i++) {
      const d = difference(a[i], b[i], `${path}[${i}]`);
      if (d !== null) {
        return d;
      }
    }
    return null;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length || ka.some((k) => !Object.prototype.hasOwnProperty.call(b, k))) {
    return `${path}: keys ${ka.join(",")} vs ${kb.join(",")}`;
  }
  for (const k of ka) {
    const d = difference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
    if (d !== null) {
      return d;
    }
  }
  return null;
}

/** Whether two byte strings are equal. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) {
    return false;
  }
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== b[i]) {
      return false;
    }
  }
  return true;
}
