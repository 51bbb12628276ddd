fn main() -> std::process::ExitCode {
    bitwire_compiler::cli::main()
}
