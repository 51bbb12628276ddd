// The generator step of the TypeScript conformance runner: generates TypeScript (with
// JSON conversions) for every `testdata/vectors/*.bw` and for `examples/game.bw` (suite
// `game`, no vector file, but part of the property test) into `gen/`, plus
// `gen/registry.ts`, which maps each suite to its generated `codecs` table (and, for
// the strict compile only, the codegen golden schemas into `gen/codegen/`); and for
// every `testdata/vectors/delta/*.bw` and conformance/rust/schemas/delta_edges.bw into
// `gen/delta/`, with `gen/delta/registry.ts`; and for every
// `testdata/vectors/bincode/*.bw` into `gen/bincode/`, with `gen/bincode/registry.ts`.
// Everything but the delta suites is generated with `--encoding bincode` too (spec
// §13: the bincode functions next to the packed ones, and `bincodeCodecs`), so that
// the bincode property test runs over every vector suite's types and tsc checks the
// bincode code of every schema.
// A suite dropped into testdata/vectors/ (or its delta/ or bincode/) is picked up with
// no other change.
//
// With BITWIRE_SUITES_DIR set, the suites are the `*.bw` files of that directory
// instead (the random schemas of conformance/schemagen), without the goldens (but
// with the modules the runner's tests import); run.sh regenerates the vector suites
// on its next run.
//
//     node scripts/generate.mjs        (BITWIRE=path/to/bitwire, default target/debug/bitwire)
//
// Plain JavaScript on purpose: it runs before anything is compiled.

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../../..");
const out = resolve(here, "../gen");
const bitwire = process.env.BITWIRE || join(root, "target/debug/bitwire");
if (!existsSync(bitwire)) {
  console.error(`bitwire binary not found at ${bitwire}: build it (cargo build -p bitwire-compiler) or set BITWIRE`);
  process.exit(1);
}

const suitesDir = process.env.BITWIRE_SUITES_DIR || "";
const vectors = suitesDir || join(root, "testdata/vectors");
const schemas = readdirSync(vectors)
  .filter((f) => f.endsWith(".bw"))
  .sort()
  .map((f) => join(vectors, f));
if (!suitesDir) {
  schemas.push(join(root, "examples/game.bw"));
}

/**
 * `bitwire gen --lang ts --json` of `schema` into `dir`, with the bincode encoding
 * unless `packedOnly`, with typed arrays when `typedArrays`.
 */
const gen = (schema, dir, packedOnly = false, typedArrays = false) =>
  execFileSync(
    bitwire,
    [
      "gen",
      "--lang",
      "ts",
      "--json",
      ...(packedOnly ? [] : ["--encoding", "bincode"]),
      ...(typedArrays ? ["--typed-arrays"] : []),
      "--out",
      dir,
      schema,
    ],
    { stdio: ["ignore", "ignore", "inherit"] },
  );

/** The module of a suite `bitwire gen` wrote: `<stem>.ts`, the stem made an identifier. */
const moduleOf = (suite) => suite.replace(/[^A-Za-z0-9_]/g, "_");

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const imports = [];
const entries = [];
const bincodeEntries = [];
for (const schema of schemas) {
  gen(schema, out);
  const suite = basename(schema, ".bw");
  // `bitwire gen` writes `<stem>.ts` with the stem made an identifier.
  const module = suite.replace(/[^A-Za-z0-9_]/g, "_");
  const local = `suite_${module}`;
  // A schema of constants only has no types, and its module no `codecs` table.
  if (!readFileSync(join(out, `${module}.ts`), "utf8").includes("export const codecs")) {
    continue;
  }
  imports.push(`import * as ${local} from "./${module}.js";`);
  entries.push(`  ${JSON.stringify(suite)}: ${local}.codecs,`);
  bincodeEntries.push(`  ${JSON.stringify(suite)}: ${local}.bincodeCodecs,`);
}
// The codegen golden schemas too: compiled under tsc --strict, not run. With
// BITWIRE_SUITES_DIR, only what the runner's own tests import by name (heap.ts,
// jstypes.ts), outside the registry.
const goldens = join(root, "testdata/codegen");
const goldenFiles = suitesDir ? ["kitchen_sink.bw"] : readdirSync(goldens).filter((f) => f.endsWith(".bw")).sort();
for (const f of goldenFiles) {
  gen(join(goldens, f), join(out, "codegen"));
}
// The frame vectors' schema (testdata/vectors/frames/), which src/frames.ts imports.
gen(join(root, "testdata/vectors/frames/frames.bw"), out);
if (suitesDir) {
  gen(join(root, "testdata/vectors/limits.bw"), out);
  gen(join(root, "examples/game.bw"), out);
}

// The delta suites (testdata/vectors/delta/, spec §12): a folder of their own, so that
// the runners of the full encoding do not see them; src/delta.ts runs them, with
// their own registry (each suite's `codecs` and `deltaCodecs`). With them, the delta
// generators' edge cases of the Rust conformance crate (suite `delta_edges`: locals
// named as fields, zero-width fields at the top and nested, arrays of keyed lists,
// enum and i64 keys, empty messages, a delta message inside another), which the
// differential corpus covers (src/corpus.ts).
const deltaDir = join(root, "testdata/vectors/delta");
const deltaOut = join(out, "delta");
mkdirSync(deltaOut, { recursive: true });
const deltaImports = [];
const deltaEntries = [];
const deltaSchemas = readdirSync(deltaDir)
  .filter((f) => f.endsWith(".bw"))
  .sort()
  .map((f) => join(deltaDir, f));
deltaSchemas.push(join(root, "conformance/rust/schemas/delta_edges.bw"));
for (const schema of deltaSchemas) {
  gen(schema, deltaOut, true);
  const suite = basename(schema, ".bw");
  const module = suite.replace(/[^A-Za-z0-9_]/g, "_");
  const local = `suite_${module}`;
  deltaImports.push(`import * as ${local} from "./${module}.js";`);
  deltaEntries.push(`  ${JSON.stringify(suite)}: { codecs: ${local}.codecs, deltas: ${local}.deltaCodecs },`);
}
writeFileSync(
  join(deltaOut, "registry.ts"),
  `// Generated by conformance/ts/scripts/generate.mjs. DO NOT EDIT.

import type { DeltaTypeCodec, TypeCodec } from "@bitwire/runtime";
${deltaImports.join("\n")}

/** A delta suite's generated codecs: every type's, and every \`delta message\`'s delta functions. */
export interface DeltaSuite {
  readonly codecs: Readonly<Record<string, TypeCodec<unknown>>>;
  readonly deltas: Readonly<Record<string, DeltaTypeCodec<unknown>>>;
}

/** Every delta suite by name (the schema's file stem). */
export const deltaSuites: Readonly<Record<string, DeltaSuite>> = {
${deltaEntries.join("\n")}
};
`,
);

// The bincode suites (testdata/vectors/bincode/, spec §13): their own folder and
// registry, run by src/bincode.ts.
const bincodeDir = join(root, "testdata/vectors/bincode");
const bincodeOut = join(out, "bincode");
mkdirSync(bincodeOut, { recursive: true });
const binImports = [];
const binEntries = [];
// (A missing folder generates nothing here; src/bincode.ts then fails the run.)
const bincodeSchemas = (existsSync(bincodeDir) ? readdirSync(bincodeDir) : [])
  .filter((f) => f.endsWith(".bw"))
  .sort()
  .map((f) => join(bincodeDir, f));
for (const schema of bincodeSchemas) {
  gen(schema, bincodeOut);
  const suite = basename(schema, ".bw");
  const module = suite.replace(/[^A-Za-z0-9_]/g, "_");
  const local = `suite_${module}`;
  if (!readFileSync(join(bincodeOut, `${module}.ts`), "utf8").includes("export const bincodeCodecs")) {
    continue;
  }
  binImports.push(`import * as ${local} from "./${module}.js";`);
  binEntries.push(`  ${JSON.stringify(suite)}: ${local}.bincodeCodecs,`);
}
writeFileSync(
  join(bincodeOut, "registry.ts"),
  `// Generated by conformance/ts/scripts/generate.mjs. DO NOT EDIT.

import type { BincodeTypeCodec } from "@bitwire/runtime";
${binImports.join("\n")}

/** Every bincode suite's bincode codecs, by suite name (the schema's file stem) and type name. */
export const bincodeVectorSuites: Readonly<Record<string, Readonly<Record<string, BincodeTypeCodec<unknown>>>>> = {
${binEntries.join("\n")}
};
`,
);

const registry = `// Generated by conformance/ts/scripts/generate.mjs. DO NOT EDIT.

import type { BincodeTypeCodec, TypeCodec } from "@bitwire/runtime";
${imports.join("\n")}

/** Every suite's generated codecs, by suite name (the schema's file stem) and type name. */
export const suites: Readonly<Record<string, Readonly<Record<string, TypeCodec<unknown>>>>> = {
${entries.join("\n")}
};

/** The same types' bincode codecs (spec §13), by suite and type name. */
export const bincodeSuites: Readonly<Record<string, Readonly<Record<string, BincodeTypeCodec<unknown>>>>> = {
${bincodeEntries.join("\n")}
};
`;
writeFileSync(join(out, "registry.ts"), registry);

// Typed arrays (`--typed-arrays`, docs/typescript.md): every suite once more with lists
// and arrays of plain numbers held in typed arrays — the vector suites (with the
// bincode encoding) in gen/typed/, the bincode suites in gen/typed/bincode/, the delta
// suites in gen/typed/delta/, the goldens in gen/typed/codegen/ (compiled only) — and
// gen/typed/registry.ts, from which src/typed.ts runs the vectors and property tests.
const typedOut = join(out, "typed");
const typedImports = [];
/** Generates `list` into `typedOut/sub` and returns registry lines `"suite": local.table`. */
const typedSuites = (list, sub, packedOnly, table) => {
  const lines = [];
  for (const schema of list) {
    gen(schema, join(typedOut, sub), packedOnly, true);
    const suite = basename(schema, ".bw");
    const module = moduleOf(suite);
    const local = `typed_${sub === "" ? "" : `${sub}_`}${module}`;
    if (!readFileSync(join(typedOut, sub, `${module}.ts`), "utf8").includes(`export const ${table}`)) {
      continue;
    }
    typedImports.push(`import * as ${local} from "./${sub === "" ? "" : `${sub}/`}${module}.js";`);
    lines.push(`  ${JSON.stringify(suite)}: ${local},`);
  }
  return lines;
};
const typedVectors = typedSuites(schemas, "", false, "codecs");
const typedBincode = typedSuites(bincodeSchemas, "bincode", false, "bincodeCodecs");
const typedDelta = typedSuites(deltaSchemas, "delta", true, "deltaCodecs");
for (const f of goldenFiles) {
  gen(join(goldens, f), join(typedOut, "codegen"), false, true);
}
writeFileSync(
  join(typedOut, "registry.ts"),
  `// Generated by conformance/ts/scripts/generate.mjs. DO NOT EDIT.

import type { BincodeTypeCodec, DeltaTypeCodec, TypeCodec } from "@bitwire/runtime";
${typedImports.join("\n")}

type Codecs<C> = Readonly<Record<string, Readonly<Record<string, C>>>>;
type Table<C> = Readonly<Record<string, C>>;

const vectors: Record<string, { codecs: Table<TypeCodec<unknown>>; bincodeCodecs: Table<BincodeTypeCodec<unknown>> }> = {
${typedVectors.join("\n")}
};
const bincode: Record<string, { bincodeCodecs: Table<BincodeTypeCodec<unknown>> }> = {
${typedBincode.join("\n")}
};
const delta: Record<string, { codecs: Table<TypeCodec<unknown>>; deltaCodecs: Table<DeltaTypeCodec<unknown>> }> = {
${typedDelta.join("\n")}
};

/** The vector suites' packed codecs, generated with typed arrays. */
export const typedSuites: Codecs<TypeCodec<unknown>> = Object.fromEntries(
  Object.entries(vectors).map(([k, m]) => [k, m.codecs]),
);
/** The vector suites' bincode codecs, generated with typed arrays. */
export const typedBincodeSuites: Codecs<BincodeTypeCodec<unknown>> = Object.fromEntries(
  Object.entries(vectors).map(([k, m]) => [k, m.bincodeCodecs]),
);
/** The bincode suites' codecs (testdata/vectors/bincode/), generated with typed arrays. */
export const typedBincodeVectorSuites: Codecs<BincodeTypeCodec<unknown>> = Object.fromEntries(
  Object.entries(bincode).map(([k, m]) => [k, m.bincodeCodecs]),
);
/** The delta suites' codecs and delta functions, generated with typed arrays. */
export const typedDeltaSuites: Readonly<
  Record<string, { readonly codecs: Readonly<Record<string, TypeCodec<unknown>>>; readonly deltas: Readonly<Record<string, DeltaTypeCodec<unknown>>> }>
> = Object.fromEntries(Object.entries(delta).map(([k, m]) => [k, { codecs: m.codecs, deltas: m.deltaCodecs }]));
`,
);
console.log(`generated ${schemas.length} schemas and ${bincodeSchemas.length} bincode suites into ${out}`);
