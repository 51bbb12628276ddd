//! The `bitwire` command line. Each subcommand lives in its own module; this file
//! only declares the arguments and dispatches.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

pub use compat::CompatArgs;

mod codec;
mod compat;
mod explain;
mod fingerprint;
mod fmt;
mod gen;
mod ir;

/// Schema compiler and reference codec for the bitwire packed wire format.
#[derive(Debug, Parser)]
#[command(name = "bitwire", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Generate code for a schema.
    Gen(GenArgs),
    /// Check a schema and report every diagnostic.
    Check(SchemaArg),
    /// Print the compiled IR of a schema as JSON.
    Ir(SchemaArg),
    /// Print the codec plan of a schema as JSON: every wire operation, check, error
    /// kind and allocation charge the code generators print (ADR 0010).
    Plan(SchemaArg),
    /// Encode a JSON value into packed bytes (reference codec).
    Encode(CodecArgs),
    /// Decode packed bytes into a JSON value (reference codec).
    Decode(CodecArgs),
    /// Format schema files in place in the canonical layout (`--check`: only list
    /// the files that would change).
    Fmt(FmtArgs),
    /// Annotated dump of packed bytes: every value with its path, bits and meaning.
    Explain(CodecArgs),
    /// Check packed bytes completely (reference codec): `ok: N bytes` or the error.
    Verify(CodecArgs),
    /// Compare two versions of a schema: every change, wire-compatible or breaking.
    Compat(CompatArgs),
    /// Print the schema fingerprint and one per named type (hash of the packed wire).
    Fingerprint(SchemaArg),
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

/// Arguments of `bitwire gen`.
#[derive(Debug, clap::Args)]
pub struct GenArgs {
    /// Target language.
    #[arg(long)]
    pub lang: Lang,
    /// Output directory (created if missing).
    #[arg(long)]
    pub out: PathBuf,
    /// Also emit JSON conversions (Rust: needs the runtime's `json` feature).
    #[arg(long)]
    pub json: bool,
    /// Go only: the package name of the generated file (default: the schema file
    /// name without extension, made a valid identifier).
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

/// Arguments of `bitwire encode` / `bitwire decode`.
#[derive(Debug, clap::Args)]
pub struct CodecArgs {
    /// The schema file.
    #[arg(long)]
    pub schema: PathBuf,
    /// The type (struct, enum, union or message) to encode or decode.
    #[arg(long = "type")]
    pub type_name: String,
    /// Read (decode) or write (encode) the packed bytes as hex text instead of raw bytes.
    #[arg(long)]
    pub hex: bool,
    /// Input file (default: standard input).
    #[arg(long, short)]
    pub input: Option<PathBuf>,
    /// Output file (default: standard output).
    #[arg(long, short)]
    pub output: Option<PathBuf>,
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
    }
}
