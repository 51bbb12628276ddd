//! The command lines of both programs: `--flag value` pairs and bare switches.

/// A parsed command line.
#[derive(Debug, Default)]
pub struct Args {
    values: Vec<(String, String)>,
    switches: Vec<String>,
}

impl Args {
    /// Parses `args` (without the program name), accepting the flags in `valued`
    /// (which take a value) and `switches` (which do not). Anything else is an error.
    pub fn parse(
        args: impl IntoIterator<Item = String>,
        valued: &[&str],
        switches: &[&str],
    ) -> Result<Args, String> {
        let mut parsed = Args::default();
        let mut args = args.into_iter();
        while let Some(flag) = args.next() {
            let name = flag
                .strip_prefix("--")
                .ok_or_else(|| format!("unknown argument {flag:?}"))?;
            if switches.contains(&name) {
                parsed.switches.push(name.to_string());
            } else if valued.contains(&name) {
                let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
                parsed.values.push((name.to_string(), value));
            } else {
                return Err(format!("unknown argument {flag:?}"));
            }
        }
        Ok(parsed)
    }

    /// The last value of `--name`, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether the switch `--name` was given.
    pub fn has(&self, name: &str) -> bool {
        self.switches.iter().any(|s| s == name)
    }

    /// The value of `--name` parsed, if given.
    pub fn parsed<T: std::str::FromStr>(&self, name: &str) -> Result<Option<T>, String> {
        self.get(name)
            .map(|v| {
                v.parse()
                    .map_err(|_| format!("--{name}: cannot parse {v:?}"))
            })
            .transpose()
    }

    /// The value of `--name` as a comma-separated list, if given.
    pub fn list<T: std::str::FromStr>(&self, name: &str) -> Result<Option<Vec<T>>, String> {
        self.get(name)
            .map(|v| {
                v.split(',')
                    .map(|item| {
                        item.trim()
                            .parse()
                            .map_err(|_| format!("--{name}: cannot parse {item:?}"))
                    })
                    .collect()
            })
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::Args;

    fn args(list: &[&str]) -> Result<Args, String> {
        Args::parse(
            list.iter().map(|s| s.to_string()),
            &["addr", "sizes"],
            &["quick"],
        )
    }

    #[test]
    fn values_switches_and_lists() {
        let a = args(&["--addr", "x", "--quick", "--sizes", "8, 64"]).unwrap();
        assert_eq!(a.get("addr"), Some("x"));
        assert!(a.has("quick"));
        assert_eq!(a.list::<usize>("sizes").unwrap(), Some(vec![8, 64]));
        assert_eq!(
            a.list::<usize>("addr").unwrap_err(),
            "--addr: cannot parse \"x\""
        );
    }

    #[test]
    fn unknown_and_missing_values_are_errors() {
        assert!(args(&["--port", "1"]).is_err());
        assert!(args(&["addr"]).is_err());
        assert_eq!(args(&["--addr"]).unwrap_err(), "--addr needs a value");
    }
}
