//! Placeholder driver: prints schema N of seed S.
fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().unwrap())
        .collect();
    print!(
        "{}",
        bitwire_schemagen::render::render(&bitwire_schemagen::generate(args[0], args[1]))
    );
}
