//! Where `rumis serve`'s options come from: the command line, else the environment
//! (`RUMIS_` and the option's name in capitals, `-` as `_`: `--database-url` is
//! `RUMIS_DATABASE_URL`), else the configuration file (`--config FILE` or `RUMIS_CONFIG`;
//! its keys are the options' names: `database-url = "..."`), else the default.
//!
//! The options are one list, `ServeArgs` (clap's): the environment's and the file's values
//! are handed to clap as if they had been typed, each only for an option the command line
//! did not give, so that every option added to `ServeArgs` has its variable and its key
//! without a line here, and each value is checked by the option's own parser.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use clap::parser::ValueSource;
use clap::{Args, FromArgMatches};

use super::ServeArgs;

pub const AFTER_HELP: &str = "Every option can also be given in the environment, as RUMIS_ and its name in capitals \
with _ for - (--database-url: RUMIS_DATABASE_URL), or in the --config file under its name \
(`rumis config --example` writes one). The command line wins over the environment, which \
wins over the file.";

/// The variable of the configuration file itself.
const CONFIG_ENV: &str = "RUMIS_CONFIG";

/// `rumis serve` alone, as clap reads it.
fn command() -> clap::Command {
    ServeArgs::augment_args(clap::Command::new("serve").no_binary_name(true))
}

/// The environment variable of an option: `database-url` → `RUMIS_DATABASE_URL`.
pub fn env_name(long: &str) -> String {
    format!("RUMIS_{}", long.to_ascii_uppercase().replace('-', "_"))
}

/// The options a file or the environment may set: each but `--config` (and `--help`).
fn options(cmd: &clap::Command) -> impl Iterator<Item = &clap::Arg> {
    cmd.get_arguments()
        .filter(|a| a.get_id() != "config" && a.get_id() != "help")
        .filter(|a| a.get_long().is_some())
}

/// `rumis serve`'s options from `cli` (the arguments after `serve`), the environment
/// (`env`: a variable's value) and the configuration file, in that order of precedence.
pub fn resolve(cli: &[OsString], env: &dyn Fn(&str) -> Option<OsString>) -> Result<ServeArgs, String> {
    let cmd = command();
    let given = cmd.clone().try_get_matches_from(cli).map_err(one_line)?;
    let file = given
        .get_one::<PathBuf>("config")
        .cloned()
        .or_else(|| env(CONFIG_ENV).filter(|v| !v.is_empty()).map(PathBuf::from));
    let table = match &file {
        Some(path) => read(path, &cmd)?,
        None => toml::Table::new(),
    };
    // Each value not on the command line, as an argument, with where it came from.
    let mut added: Vec<(OsString, String)> = Vec::new();
    for arg in options(&cmd) {
        let long = arg.get_long().expect("options() keeps long options");
        if given.value_source(arg.get_id().as_str()) == Some(ValueSource::CommandLine) {
            continue;
        }
        let var = env_name(long);
        if let Some(value) = env(&var).filter(|v| !v.is_empty()) {
            let from = format!("{var}={}", value.to_string_lossy());
            for a in as_arguments(arg, Value::Text(value)).map_err(|e| format!("{from}: {e}"))? {
                added.push((a, from.clone()));
            }
        } else if let Some(value) = table.get(long) {
            let file = file.as_deref().unwrap_or(Path::new("?")).display();
            let from = format!("{file}: {long} = {value}");
            for a in as_arguments(arg, Value::Toml(value)).map_err(|e| format!("{from}: {e}"))? {
                added.push((a, from.clone()));
            }
        }
    }
    // Each value alone first, so that an error says where the bad one came from.
    for (a, from) in &added {
        cmd.clone()
            .try_get_matches_from([a])
            .map_err(|e| format!("{from}: {}", one_line(e)))?;
    }
    let all: Vec<&OsStr> = cli
        .iter()
        .map(OsString::as_os_str)
        .chain(added.iter().map(|a| a.0.as_os_str()))
        .collect();
    let matches = cmd.try_get_matches_from(all).map_err(one_line)?;
    ServeArgs::from_arg_matches(&matches).map_err(one_line)
}

/// Reads the configuration file: TOML whose keys are the options' names, nothing else.
fn read(path: &Path, cmd: &clap::Command) -> Result<toml::Table, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let table: toml::Table = text.parse().map_err(|e: toml::de::Error| {
        format!(
            "{} is not a configuration file: {}",
            path.display(),
            e.to_string().trim()
        )
    })?;
    let known: Vec<&str> = options(cmd).filter_map(clap::Arg::get_long).collect();
    if let Some(key) = table.keys().find(|k| !known.contains(&k.as_str())) {
        return Err(format!(
            "{}: unknown key \"{key}\" (the keys are rumis serve's options, as `rumis config --example` lists them)",
            path.display()
        ));
    }
    Ok(table)
}

enum Value<'a> {
    Text(OsString),
    Toml(&'a toml::Value),
}

/// A value as the command-line arguments that give it: `--name=value`; for a switch,
/// `--name` when true and nothing when false; for an option that takes several, one
/// argument per value of an array.
fn as_arguments(arg: &clap::Arg, value: Value) -> Result<Vec<OsString>, String> {
    let long = arg.get_long().expect("options() keeps long options");
    let takes_values = arg.get_action().takes_values();
    let many = matches!(arg.get_action(), clap::ArgAction::Append);
    let with = |v: &OsStr| {
        let mut a = OsString::from(format!("--{long}="));
        a.push(v);
        a
    };
    let switch = |on: bool| {
        if on {
            vec![OsString::from(format!("--{long}"))]
        } else {
            Vec::new()
        }
    };
    match value {
        Value::Text(v) if takes_values => Ok(vec![with(&v)]),
        Value::Text(v) => match v.to_str() {
            Some("true" | "1") => Ok(switch(true)),
            Some("false" | "0") => Ok(switch(false)),
            _ => Err("a switch is true or false".into()),
        },
        Value::Toml(toml::Value::Boolean(on)) if !takes_values => Ok(switch(*on)),
        Value::Toml(_) if !takes_values => Err("a switch is true or false".into()),
        Value::Toml(toml::Value::Array(items)) if many => {
            items.iter().map(|v| scalar(v).map(|s| with(OsStr::new(&s)))).collect()
        }
        Value::Toml(toml::Value::Array(_)) => Err("takes one value, not a list".into()),
        Value::Toml(v) => Ok(vec![with(OsStr::new(&scalar(v)?))]),
    }
}

/// A TOML value as the text typed on a command line.
fn scalar(v: &toml::Value) -> Result<String, String> {
    match v {
        toml::Value::String(s) => Ok(s.clone()),
        toml::Value::Integer(i) => Ok(i.to_string()),
        toml::Value::Float(f) => Ok(f.to_string()),
        toml::Value::Boolean(b) => Ok(b.to_string()),
        _ => Err("a value is a string, a number or true/false".into()),
    }
}

/// A clap error as one line, without its usage.
fn one_line(e: clap::Error) -> String {
    let msg = e.to_string();
    let lines: Vec<&str> = msg
        .lines()
        .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    lines.join(" ").trim_start_matches("error: ").to_string()
}

/// `rumis config --example`: a configuration file with every option, its help, its
/// variable, and its default commented out (or its value's name for one without).
pub fn example() -> String {
    let cmd = command();
    let mut out = String::from(
        "# rumis serve's configuration: rumis serve --config rumis.toml (or RUMIS_CONFIG=rumis.toml).\n\
         # Each key is an option of `rumis serve --help`; each can also be set in the environment\n\
         # (the variable is named beside it). The command line wins over the environment, which\n\
         # wins over this file, which wins over the defaults shown here commented out.\n",
    );
    for arg in options(&cmd) {
        let long = arg.get_long().expect("options() keeps long options");
        let help = arg
            .get_long_help()
            .or(arg.get_help())
            .map(|h| h.to_string())
            .unwrap_or_default();
        out.push('\n');
        for line in wrap(&help, 88) {
            out += &format!("# {line}\n");
        }
        out += &format!("# (environment: {})\n", env_name(long));
        match arg.get_default_values().first() {
            Some(d) => out += &format!("# {long} = {}\n", toml_text(&d.to_string_lossy())),
            None => {
                let name = arg
                    .get_value_names()
                    .and_then(|n| n.first())
                    .map_or("VALUE".to_string(), |n| n.to_string());
                out += &format!("# {long} = {name}  (no default)\n");
            }
        }
    }
    out
}

/// A default as TOML: a number or true/false bare, anything else a string.
fn toml_text(v: &str) -> String {
    let bare = format!("v = {v}")
        .parse::<toml::Table>()
        .ok()
        .and_then(|t| t.get("v").cloned())
        .filter(|t| {
            matches!(
                t,
                toml::Value::Integer(_) | toml::Value::Float(_) | toml::Value::Boolean(_)
            )
        });
    match bare {
        Some(_) => v.to_string(),
        None => toml::Value::String(v.to_string()).to_string(),
    }
}

/// Words into lines of at most `width` characters (a longer word stands alone).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for paragraph in text.split("\n\n") {
        let mut line = String::new();
        for word in paragraph.split_whitespace() {
            if !line.is_empty() && line.len() + 1 + word.len() > width {
                lines.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Temp(PathBuf);
    impl Drop for Temp {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    /// A configuration file with this text, removed when dropped.
    fn file(name: &str, text: &str) -> Temp {
        let path = std::env::temp_dir().join(format!("rumis-config-{}-{name}.toml", std::process::id()));
        std::fs::write(&path, text).unwrap();
        Temp(path)
    }

    fn args(a: &[&str]) -> Vec<OsString> {
        a.iter().map(OsString::from).collect()
    }

    fn env_of(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<OsString> {
        let vars: Vec<(String, OsString)> = vars.iter().map(|(k, v)| (k.to_string(), v.into())).collect();
        move |k| vars.iter().find(|v| v.0 == k).map(|v| v.1.clone())
    }

    #[test]
    fn command_line_then_environment_then_file_then_default() {
        let f = file("precedence", "rate = 10\nkeys-per-hour = 11\nai-only-total = 12\n");
        let path = f.0.to_str().unwrap();
        let env = env_of(&[("RUMIS_RATE", "20"), ("RUMIS_KEYS_PER_HOUR", "21")]);
        let a = resolve(&args(&["--config", path, "--rate", "30"]), &env).unwrap();
        assert_eq!(a.rate, 30.0, "the command line over the environment and the file");
        assert_eq!(a.keys_per_hour, 21.0, "the environment over the file");
        assert_eq!(a.ai_only_total, 12, "the file over the default");
        assert_eq!(a.ai_only_per_address, 2, "the default");
        assert_eq!(a.addr.to_string(), "127.0.0.1:8080", "the default");
        // The file named by the environment, and an empty variable counts as unset.
        let env = env_of(&[("RUMIS_CONFIG", path), ("RUMIS_RATE", "")]);
        let a = resolve(&[], &env).unwrap();
        assert_eq!((a.rate, a.keys_per_hour), (10.0, 11.0));
        // Neither: the defaults.
        let a = resolve(&[], &env_of(&[])).unwrap();
        assert_eq!((a.rate, a.ai_only_total), (40.0, 8));
    }

    #[test]
    fn the_metrics_address_from_the_environment_or_the_file() {
        assert_eq!(
            resolve(&[], &env_of(&[])).unwrap().metrics_addr,
            None,
            "none by default"
        );
        let env = env_of(&[("RUMIS_METRICS_ADDR", "127.0.0.1:9100")]);
        let a = resolve(&[], &env).unwrap();
        assert_eq!(a.metrics_addr.map(|a| a.to_string()).as_deref(), Some("127.0.0.1:9100"));
        let f = file("metrics", "metrics-addr = \"127.0.0.1:9101\"\n");
        let a = resolve(&args(&["--config", f.0.to_str().unwrap()]), &env_of(&[])).unwrap();
        assert_eq!(a.metrics_addr.map(|a| a.to_string()).as_deref(), Some("127.0.0.1:9101"));
        let e = resolve(&[], &env_of(&[("RUMIS_METRICS_ADDR", "nine")])).err().unwrap();
        assert!(e.contains("RUMIS_METRICS_ADDR=nine"), "{e}");
    }

    #[test]
    fn every_kind_of_value_from_the_file() {
        let f = file(
            "values",
            "addr = \"0.0.0.0:9000\"\ntrusted-proxy = \"127.0.0.1\"\ngame-ttl = 0.5\nai-workers = 0\nweb-dir = \"/tmp\"\n",
        );
        let a = resolve(&args(&["--config", f.0.to_str().unwrap()]), &env_of(&[])).unwrap();
        assert_eq!(a.addr.to_string(), "0.0.0.0:9000");
        assert_eq!(a.trusted_proxy, Some("127.0.0.1".parse().unwrap()));
        assert_eq!((a.game_ttl, a.ai_workers), (0.5, Some(0)));
        assert_eq!(a.web_dir, Some(PathBuf::from("/tmp")));
    }

    #[test]
    fn bad_input_is_refused_with_where_it_came_from() {
        let err = |text: &str, env: &[(&str, &str)]| {
            let f = file("bad", text);
            match resolve(&args(&["--config", f.0.to_str().unwrap()]), &env_of(env)) {
                Ok(_) => panic!("accepted: {text} {env:?}"),
                Err(e) => e,
            }
        };
        let e = err("rate = 10\nrats = 3\n", &[]);
        assert!(e.contains("unknown key \"rats\""), "{e}");
        let e = err("config = \"other.toml\"\n", &[]);
        assert!(e.contains("unknown key \"config\""), "{e}");
        let e = err("rate = \n", &[]);
        assert!(e.contains("is not a configuration file"), "{e}");
        let e = err("rate = \"fast\"\n", &[]);
        assert!(
            e.contains("rate = \"fast\"") && e.contains("invalid value 'fast'"),
            "{e}"
        );
        let e = err("addr = [\"127.0.0.1:1\"]\n", &[]);
        assert!(e.contains("addr") && e.contains("not a list"), "{e}");
        let e = err("[serve]\nrate = 1\n", &[]);
        assert!(e.contains("unknown key \"serve\""), "{e}");
        let e = err("", &[("RUMIS_ADDR", "nowhere")]);
        assert!(e.contains("RUMIS_ADDR=nowhere") && e.contains("invalid value"), "{e}");
        let missing = std::env::temp_dir().join("rumis-config-no-such-file.toml");
        let e = resolve(&args(&["--config", missing.to_str().unwrap()]), &env_of(&[]))
            .err()
            .unwrap();
        assert!(
            e.contains("cannot read") && e.contains("rumis-config-no-such-file.toml"),
            "{e}"
        );
    }

    /// The example names every option; with its defaults uncommented it is a file that
    /// gives the defaults.
    #[test]
    fn the_example_covers_every_option_and_reads_back() {
        let text = example();
        for arg in options(&command()) {
            let long = arg.get_long().unwrap();
            assert!(text.contains(&format!("\n# {long} = ")), "{long} missing:\n{text}");
            assert!(text.contains(&env_name(long)), "{long}'s variable missing");
        }
        let uncommented: String = text
            .lines()
            .filter(|l| l.starts_with("# ") && l.contains(" = ") && !l.ends_with("(no default)"))
            .map(|l| format!("{}\n", &l[2..]))
            .collect();
        assert!(uncommented.contains("addr = \"127.0.0.1:8080\"\n"), "{uncommented}");
        assert!(uncommented.contains("rate = 40\n"), "{uncommented}");
        let f = file("example", &uncommented);
        let a = resolve(&args(&["--config", f.0.to_str().unwrap()]), &env_of(&[])).unwrap();
        let d = resolve(&[], &env_of(&[])).unwrap();
        assert_eq!((a.addr, a.rate, a.database_url), (d.addr, d.rate, d.database_url));
    }
}
