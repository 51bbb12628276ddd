//! The `bitwire` command line. Each subcommand lives in its own module; this file
//! only declares the arguments and dispatches.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

pub use compat::CompatArgs;

mod codec;
mod compat;
mod delta;
mod explain;
mod explain_bincode;
mod fingerprint;
mod fmt;
mod frame;
mod gen;
mod ir;
mod term;

/// What `bitwire --version` prints: the compiler's version and the wire format's.
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (packed wire format 1)");

/// Schema compiler and reference codec for the bitwire packed wire format.
#[derive(Debug, Parser)]
#[command(name = "bitwire", version = VERSION, about, long_about = None)]
#[command(
    after_help = "Examples:\n  bitwire check game.bw\n  bitwire gen --lang rust -o src/generated game.bw\n  echo '{\"seq\": 1}' | bitwire encode --schema game.bw --type Input --hex\n\nDocs: https://github.com/bitwire-dev/bitwire/blob/main/docs/getting-started.md"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Generate code for a schema.
    #[command(
        after_help = "Example:\n  bitwire gen --lang rust -o src/generated game.bw\n  bitwire gen --lang go --package game -o game game.bw\n  bitwire gen --lang ts --json -o src/gen game.bw"
    )]
    Gen(GenArgs),
    /// Check a schema and report every diagnostic.
    #[command(after_help = "Example:\n  bitwire check game.bw")]
    Check(SchemaArg),
    /// Print the compiled IR of a schema as JSON.
    #[command(after_help = "Example:\n  bitwire ir game.bw > game.ir.json")]
    Ir(SchemaArg),
    /// Print the codec plan of a schema as JSON: every wire operation, check, error
    /// kind and allocation charge the code generators print (ADR 0010).
    #[command(after_help = "Example:\n  bitwire plan game.bw > game.plan.json")]
    Plan(SchemaArg),
    /// Encode a JSON value into packed (or bincode) bytes (reference codec).
    #[command(
        after_help = "Example:\n  echo '{\"seq\": 1, \"move_x\": 0.0}' | bitwire encode --schema game.bw --type Input --hex\n  bitwire encode --schema game.bw --type Input -i input.json -o input.bin\n  bitwire encode --encoding bincode --schema game.bw --type Input -i input.json -o input.bincode"
    )]
    Encode(WireArgs),
    /// Decode packed (or bincode) bytes into a JSON value (reference codec).
    #[command(
        after_help = "Example:\n  echo 0a00ff | bitwire decode --schema game.bw --type Input --hex\n  bitwire decode --schema game.bw --type Input -i input.bin\n  bitwire decode --encoding bincode --schema game.bw --type Input -i capture.bincode"
    )]
    Decode(WireArgs),
    /// Format schema files in place in the canonical layout (`--check`: only list
    /// the files that would change).
    #[command(
        after_help = "Example:\n  bitwire fmt schemas/*.bw\n  bitwire fmt --check game.bw   # exit 1 if not formatted"
    )]
    Fmt(FmtArgs),
    /// Annotated dump of packed (or bincode) bytes: every value with its path, bits
    /// (bytes) and meaning.
    #[command(
        after_help = "Example:\n  bitwire explain --schema game.bw --type Packet64 --hex < packet.hex\n  bitwire explain --encoding bincode --schema game.bw --type Packet64 -i capture.bincode"
    )]
    Explain(WireArgs),
    /// Check packed (or bincode) bytes completely (reference codec): `ok: N bytes` or
    /// the error.
    #[command(
        after_help = "Example:\n  bitwire verify --schema game.bw --type Packet64 -i packet.bin\n  bitwire verify --encoding bincode --schema game.bw --type Packet64 -i capture.bincode"
    )]
    Verify(WireArgs),
    /// Compare two versions of a schema: every change, wire-compatible or breaking.
    #[command(after_help = "Example:\n  bitwire compat v1/game.bw v2/game.bw")]
    Compat(CompatArgs),
    /// Print the schema fingerprint and one per named type (hash of the packed wire).
    #[command(after_help = "Example:\n  bitwire fingerprint game.bw")]
    Fingerprint(SchemaArg),
    /// Read or write frames (docs/framing.md): Minecraft-style length-prefixed
    /// messages with their id, optionally zlib-compressed.
    #[command(
        subcommand,
        after_help = "Example:\n  bitwire frame decode --schema game.bw < capture.bin\n  bitwire frame encode --schema game.bw --type Input --hex < input.json"
    )]
    Frame(FrameCommand),
    /// Encode or decode a `delta message` against a baseline (docs/spec.md §12),
    /// with the reference codec.
    #[command(
        subcommand,
        after_help = "Example:\n  bitwire delta encode --schema game.bw --type Snapshot --baseline base.json --hex < now.json\n  bitwire delta decode --schema game.bw --type Snapshot --baseline base.json --hex < delta.hex\n  bitwire delta explain --schema game.bw --type Snapshot --baseline base.json --hex < delta.hex"
    )]
    Delta(DeltaCommand),
    /// Print a shell completion script for bash, zsh, fish, elvish or PowerShell.
    #[command(
        after_help = "Example:\n  bitwire completions bash > ~/.local/share/bash-completion/completions/bitwire\n  bitwire completions zsh > \"${fpath[1]}/_bitwire\"\n  bitwire completions fish > ~/.config/fish/completions/bitwire.fish"
    )]
    Completions(CompletionsArgs),
}

/// Arguments of `bitwire completions`.
#[derive(Debug, clap::Args)]
pub struct CompletionsArgs {
    /// The shell to print the script for.
    pub shell: clap_complete::Shell,
}

/// Target languages of `bitwire gen`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Lang {
    Rust,
    /// Go (`<stem>.go`; package name from `--package`).
    Go,
    /// TypeScript (`<stem>.ts`, imports `@bitwire/runtime`).
    Ts,
}

/// A wire encoding (docs/spec.md: packed §1–§12, bincode §13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum Encoding {
    /// The canonical bit stream of docs/spec.md §1–§12.
    #[default]
    Packed,
    /// Byte-identical with `bincode::serialize` 1.3 and wincode (docs/spec.md §13).
    Bincode,
}

/// Arguments of `bitwire gen`.
#[derive(Debug, clap::Args)]
pub struct GenArgs {
    /// Target language.
    #[arg(long)]
    pub lang: Lang,
    /// Output directory (created if missing).
    #[arg(
        short = 'o',
        long = "output",
        visible_alias = "out",
        value_name = "DIR"
    )]
    pub out: PathBuf,
    /// Also emit JSON conversions (Rust: needs the runtime's `json` feature).
    #[arg(long)]
    pub json: bool,
    /// Wire encodings to generate: `packed` (the default) or `bincode`, which adds
    /// the bincode 1.x / wincode-compatible encoding (docs/spec.md §13) next to the
    /// packed codec (frames, JSON and delta are built on packed, so it is always there).
    #[arg(long, value_enum, default_value = "packed")]
    pub encoding: Encoding,
    /// TypeScript only: hold lists and arrays of plain numbers (`u8`, `u16`…`u64`,
    /// `i8`…`i64`, `f32`, `f64`) in typed arrays (`Uint8Array`, `Float64Array`,
    /// `BigUint64Array`, …) instead of `number[]` / `bigint[]` (docs/typescript.md).
    #[arg(long)]
    pub typed_arrays: bool,
    /// Go only: the package name of the generated file (default: the schema file
    /// name without extension, in lower case without punctuation: game-state.bw →
    /// gamestate).
    #[arg(long)]
    pub package: Option<String>,
    /// The schema file.
    pub schema: PathBuf,
}

/// A single schema file argument.
#[derive(Debug, clap::Args)]
pub struct SchemaArg {
    /// The schema file.
    pub schema: PathBuf,
}

/// Arguments of the reference codec's commands (`encode`, `decode`, `explain`,
/// `verify`, `delta`).
#[derive(Debug, clap::Args)]
pub struct CodecArgs {
    /// The schema file.
    #[arg(long)]
    pub schema: PathBuf,
    /// The type (struct, enum, union or message) to encode or decode.
    #[arg(long = "type")]
    pub type_name: String,
    /// Read (decode) or write (encode) the bytes as hex text instead of raw bytes.
    #[arg(long)]
    pub hex: bool,
    /// Input file (default: standard input).
    #[arg(long, short)]
    pub input: Option<PathBuf>,
    /// Output file (default: standard output).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

/// Arguments of `bitwire encode`, `decode`, `explain` and `verify`: those of the
/// codec, and the wire encoding of the bytes.
#[derive(Debug, clap::Args)]
pub struct WireArgs {
    #[command(flatten)]
    pub codec: CodecArgs,
    /// The wire encoding of the bytes: `packed` (the default, docs/spec.md §1–§12) or
    /// `bincode` (bincode 1.3 / wincode bytes, docs/spec.md §13).
    #[arg(long, value_enum, default_value = "packed")]
    pub encoding: Encoding,
}

/// The subcommands of `bitwire delta`.
#[derive(Debug, Subcommand)]
pub enum DeltaCommand {
    /// Read the value as JSON, write its delta against the baseline (raw, or lowercase
    /// hex and a newline with `--hex`).
    Encode(DeltaArgs),
    /// Read a delta (raw, or hex text with `--hex`), write the value it gives against
    /// the baseline as pretty JSON.
    Decode(DeltaArgs),
    /// Read a delta and print what each of its bits says: changed bits, difference
    /// codes, gaps and op bits of keyed lists, added counts, full encodings.
    Explain(DeltaArgs),
}

/// Arguments of `bitwire delta encode` / `bitwire delta decode`.
#[derive(Debug, clap::Args)]
pub struct DeltaArgs {
    /// The baseline: a JSON file holding a value of the message.
    #[arg(long, value_name = "FILE")]
    pub baseline: PathBuf,
    #[command(flatten)]
    pub codec: CodecArgs,
}

/// The subcommands of `bitwire frame`.
#[derive(Debug, Subcommand)]
pub enum FrameCommand {
    /// Read frames from standard input (binary, or hex text with `--hex`) and print one
    /// JSON line per frame: `{"id":…,"type":…,"value":…}`. Stops at the first
    /// malformed frame with its typed error and byte offset (exit 1).
    #[command(
        after_help = "Example:\n  bitwire frame decode --schema game.bw < capture.bin\n  echo 09 01 a5 2b ca 0e 4b 40 e2 04 | bitwire frame decode --schema game.bw --hex\n  bitwire frame decode --schema game.bw --threshold 256 --max 65536 < capture.bin"
    )]
    Decode(FrameDecodeArgs),
    /// Write the frame of one message, given as JSON on standard input (binary, or
    /// hex text with `--hex`).
    #[command(
        after_help = "Example:\n  echo '{\"seq\": 1, \"move_x\": 0.0}' | bitwire frame encode --schema game.bw --type Input --hex\n  bitwire frame encode --schema game.bw --type Input --threshold 256 < input.json > input.frame"
    )]
    Encode(FrameEncodeArgs),
}

/// The frame settings `bitwire frame` takes.
#[derive(Debug, clap::Args)]
pub struct FrameLimits {
    /// Compression threshold: frames have a DataLength and bodies of at least this
    /// many bytes are zlib-compressed (docs/framing.md §3). Without it, no compression.
    #[arg(long, value_name = "BYTES")]
    pub threshold: Option<u32>,
    /// Largest frame Length (default and most: 2097151).
    #[arg(long, value_name = "BYTES")]
    pub max: Option<u32>,
    /// Largest inflated body of a compressed frame (default 8388608).
    #[arg(long, value_name = "BYTES")]
    pub max_data: Option<u32>,
}

/// Arguments of `bitwire frame decode`.
#[derive(Debug, clap::Args)]
pub struct FrameDecodeArgs {
    /// The schema whose message ids the frames carry.
    #[arg(long)]
    pub schema: PathBuf,
    #[command(flatten)]
    pub limits: FrameLimits,
    /// Read hex text (whitespace ignored) instead of raw bytes.
    #[arg(long)]
    pub hex: bool,
}

/// Arguments of `bitwire frame encode`.
#[derive(Debug, clap::Args)]
pub struct FrameEncodeArgs {
    /// The schema.
    #[arg(long)]
    pub schema: PathBuf,
    /// The message to frame.
    #[arg(long = "type")]
    pub type_name: String,
    #[command(flatten)]
    pub limits: FrameLimits,
    /// Write the frame as lowercase hex and a newline instead of raw bytes.
    #[arg(long)]
    pub hex: bool,
}

/// Arguments of `bitwire fmt`.
#[derive(Debug, clap::Args)]
pub struct FmtArgs {
    /// Write nothing; print the files that are not formatted and exit 1 if any.
    #[arg(long)]
    pub check: bool,
    /// The schema files.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

/// `bitwire completions SHELL`: the script on standard output (a closed pipe is not an error).
fn completions(shell: clap_complete::Shell) -> ExitCode {
    let mut cmd = <Cli as clap::CommandFactory>::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, "bitwire", &mut script);
    let _ = std::io::Write::write_all(&mut std::io::stdout().lock(), &script);
    ExitCode::SUCCESS
}

/// Runs the CLI with the process arguments.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Gen(args) => gen::run(&args),
        Command::Check(args) => ir::check(&args),
        Command::Ir(args) => ir::dump(&args),
        Command::Plan(args) => ir::plan(&args),
        Command::Encode(args) => codec::encode(&args),
        Command::Decode(args) => codec::decode(&args),
        Command::Fmt(args) => fmt::run(&args),
        Command::Explain(args) => explain::explain(&args),
        Command::Verify(args) => explain::verify(&args),
        Command::Compat(args) => compat::run(&args),
        Command::Fingerprint(args) => fingerprint::run(&args),
        Command::Frame(FrameCommand::Decode(args)) => frame::decode(&args),
        Command::Delta(DeltaCommand::Encode(args)) => delta::encode(&args),
        Command::Delta(DeltaCommand::Decode(args)) => delta::decode(&args),
        Command::Delta(DeltaCommand::Explain(args)) => delta::explain(&args),
        Command::Frame(FrameCommand::Encode(args)) => frame::encode(&args),
        Command::Completions(args) => completions(args.shell),
    }
}
