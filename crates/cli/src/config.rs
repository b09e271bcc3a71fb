//! `cardtable serve`'s settings from four places, the first that has one winning: its flags,
//! `CARDTABLE_*` environment variables, a TOML file (`--config FILE`), the defaults.
//!
//! One definition: the flags of [`crate::serve::ServeArgs`]. A flag's environment variable is
//! its long name in capitals, `-` as `_` (`--max-conns` → `CARDTABLE_MAX_CONNS`), and its key
//! in the file is its long name (`max-conns = 100`). A file value takes the place of a flag
//! the command line and the environment left out (it is handed to clap as that flag, so every
//! check a flag has applies to it); a key that is no flag is an error naming it.
//! `serve --print-config` prints the settings in effect as a file, each with where it came
//! from, passwords masked.

use anyhow::{Context, anyhow, bail};
use clap::builder::FalseyValueParser;
use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches, Command};
use std::collections::BTreeSet;
use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The subcommand whose flags are settings.
const SERVE: &str = "serve";
/// Flags that are not settings: not read from a file, not printed (`config` may come from the
/// environment: `CARDTABLE_CONFIG`).
const NOT_SETTINGS: [&str; 3] = ["help", "config", "print-config"];

/// A flag's environment variable: `CARDTABLE_` and its long name in capitals.
pub fn env_name(long: &str) -> String {
    format!("CARDTABLE_{}", long.to_ascii_uppercase().replace('-', "_"))
}

/// `cmd` with every flag of `serve` readable from its environment variable (a flag takes
/// `true`/`false`, `1`/`0`, `yes`/`no`; a repeatable flag a comma-separated list).
pub fn with_env(cmd: Command) -> Command {
    // In place (`mut_subcommand` would move `serve` to the end of `--help`'s list).
    cmd.mut_subcommands(|serve| {
        if serve.get_name() != SERVE {
            return serve;
        }
        serve.mut_args(|arg| {
            let Some(long) = arg.get_long() else { return arg };
            if long == "help" || long == "print-config" {
                return arg;
            }
            // Clap keeps a variable's name as a `&'static str`: a few bytes a flag, once.
            let name: &'static str = Box::leak(env_name(long).into_boxed_str());
            let action = arg.get_action().clone();
            let arg = match action {
                ArgAction::SetTrue => arg.value_parser(FalseyValueParser::new()),
                ArgAction::Append => arg.value_delimiter(','),
                _ => arg,
            };
            arg.env(name)
        })
    })
}

/// The command line's matches, and the text `serve --print-config` asks for.
pub struct Parsed {
    pub matches: ArgMatches,
    pub print: Option<String>,
}

/// Why the arguments were not taken: clap's own error (it prints itself, with the usage), or
/// the configuration file's.
pub enum ParseError {
    Clap(clap::Error),
    File(anyhow::Error),
}

impl From<clap::Error> for ParseError {
    fn from(e: clap::Error) -> Self {
        ParseError::Clap(e)
    }
}

/// Parses `argv` with `cmd` (see [`with_env`]), with `serve`'s configuration file, if one is
/// named, filling in what the command line and the environment left out.
pub fn parse(cmd: Command, argv: Vec<OsString>) -> Result<Parsed, ParseError> {
    let first = cmd.clone().try_get_matches_from(&argv)?;
    let Some((SERVE, serve)) = first.subcommand() else { return Ok(Parsed { matches: first, print: None }) };
    let mut built = cmd.clone();
    built.build();
    let serve_cmd = built.find_subcommand(SERVE).expect("serve is a subcommand");
    let file = serve.get_one::<PathBuf>("config").cloned();
    let mut extra: Vec<OsString> = Vec::new();
    let mut from_file = BTreeSet::new();
    if let Some(path) = &file {
        for (long, values) in read_file(path, serve_cmd, serve).map_err(ParseError::File)? {
            match values {
                Some(values) => extra.extend(values.into_iter().map(|v| OsString::from(format!("--{long}={v}")))),
                // A flag set to true: the flag alone.
                None => extra.push(OsString::from(format!("--{long}"))),
            }
            from_file.insert(long);
        }
    }
    let matches = if extra.is_empty() {
        first
    } else {
        cmd.try_get_matches_from(argv.into_iter().chain(extra))
            .map_err(|e| file_error(e, file.as_deref(), &from_file))?
    };
    let serve = matches.subcommand_matches(SERVE).expect("still serve");
    let print = serve.get_flag("print_config").then(|| print(serve_cmd, serve, file.as_deref(), &from_file));
    Ok(Parsed { matches, print })
}

/// The file's settings that the command line and the environment left out: each as its flag's
/// long name and the values to give it (`None`: a flag set to `true`, given alone).
fn read_file(
    path: &Path,
    serve_cmd: &Command,
    serve: &ArgMatches,
) -> anyhow::Result<Vec<(String, Option<Vec<String>>)>> {
    let shown = path.display();
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read the configuration file {shown}"))?;
    let table: toml::Table = text.parse().map_err(|e| anyhow!("{shown} is not TOML: {e}"))?;
    let settings: Vec<&Arg> =
        serve_cmd.get_arguments().filter(|a| a.get_long().is_some_and(|l| !NOT_SETTINGS.contains(&l))).collect();
    let mut out = Vec::new();
    for (key, value) in &table {
        let Some(arg) = settings.iter().find(|a| a.get_long() == Some(key.as_str())) else {
            let known: Vec<&str> = settings.iter().filter_map(|a| a.get_long()).collect();
            bail!("{shown}: unknown key `{key}` (the keys are `cardtable serve`'s flags: {})", known.join(", "));
        };
        if matches!(
            serve.value_source(arg.get_id().as_str()),
            Some(ValueSource::CommandLine | ValueSource::EnvVariable)
        ) {
            continue;
        }
        let values = file_values(value, arg).map_err(|e| anyhow!("{shown}: `{key}`: {e}"))?;
        let defaults: Vec<String> = arg.get_default_values().iter().map(|d| d.to_string_lossy().into_owned()).collect();
        match arg.get_action() {
            // The default written out (a printed configuration read back): nothing to give
            // clap, which would take it for a choice (`advertise` wants a `node-id`).
            _ if !defaults.is_empty() && values == defaults => out.push((key.clone(), Some(Vec::new()))),
            // A flag: `true` sets it (the flag alone), `false` leaves it unset.
            ArgAction::SetTrue if values.first().is_some_and(|v| v == "true") => out.push((key.clone(), None)),
            // `false`: nothing to give clap (the flag's default), but it is the file's setting.
            ArgAction::SetTrue => out.push((key.clone(), Some(Vec::new()))),
            _ => out.push((key.clone(), Some(values))),
        }
    }
    Ok(out)
}

/// Clap's error about a value it was given from the file, told as the file's (its key named);
/// any other error as clap's own.
fn file_error(e: clap::Error, file: Option<&Path>, from_file: &BTreeSet<String>) -> ParseError {
    let arg = e.get(clap::error::ContextKind::InvalidArg).map(ToString::to_string).unwrap_or_default();
    let key = from_file.iter().find(|l| arg == format!("--{l}") || arg.starts_with(&format!("--{l} ")));
    match (key, file) {
        (Some(key), Some(file)) => {
            let text = e.to_string();
            let first = text.lines().next().unwrap_or_default().trim_start_matches("error: ");
            ParseError::File(anyhow!("{}: `{key}`: {first}", file.display()))
        }
        _ => ParseError::Clap(e),
    }
}

/// A TOML value as the values of `arg`: a flag's `true` or `false`, a repeatable flag's array
/// (or one value), anyone else's string or number.
fn file_values(value: &toml::Value, arg: &Arg) -> Result<Vec<String>, String> {
    let scalar = |v: &toml::Value| match v {
        toml::Value::String(s) => Ok(s.clone()),
        toml::Value::Integer(i) => Ok(i.to_string()),
        toml::Value::Float(f) => Ok(f.to_string()),
        _ => Err(format!("{v} is not a string or a number")),
    };
    match (arg.get_action(), value) {
        (ArgAction::SetTrue, toml::Value::Boolean(b)) => Ok(vec![b.to_string()]),
        (ArgAction::SetTrue, v) => Err(format!("{v} is not true or false")),
        (ArgAction::Append, toml::Value::Array(items)) => items.iter().map(scalar).collect(),
        (_, v) => scalar(v).map(|s| vec![s]),
    }
}

/// The settings in effect, as a configuration file: every setting of `serve` with its value
/// and where it came from, passwords masked.
fn print(serve_cmd: &Command, serve: &ArgMatches, file: Option<&Path>, from_file: &BTreeSet<String>) -> String {
    let mut out = String::from(
        "# cardtable serve: the settings in effect (flags, then CARDTABLE_* variables, then the\n\
         # --config file, then the defaults); passwords masked.\n",
    );
    for arg in serve_cmd.get_arguments() {
        let Some(long) = arg.get_long().filter(|l| !NOT_SETTINGS.contains(l)) else { continue };
        let id = arg.get_id().as_str();
        let source = if from_file.contains(long) {
            format!("from {}", file.map_or_else(String::new, |f| f.display().to_string()))
        } else {
            match serve.value_source(id) {
                Some(ValueSource::CommandLine) => format!("from --{long}"),
                Some(ValueSource::EnvVariable) => format!("from {}", env_name(long)),
                _ => "default".to_string(),
            }
        };
        let raw: Vec<String> =
            serve.get_raw(id).map(|vs| vs.map(|v| mask(long, &v.to_string_lossy())).collect()).unwrap_or_default();
        let value = match arg.get_action() {
            ArgAction::SetTrue => Some(serve.get_flag(id).to_string()),
            ArgAction::Append => {
                Some(format!("[{}]", raw.iter().map(|v| toml_scalar(v)).collect::<Vec<_>>().join(", ")))
            }
            _ => raw.first().map(|v| toml_scalar(v)),
        };
        let _ = match value {
            Some(v) => writeln!(out, "{long} = {v}  # {source}"),
            None => writeln!(out, "# {long} = (not set)"),
        };
    }
    out
}

/// A value as TOML: a number where it reads back as the same number, else a string.
fn toml_scalar(v: &str) -> String {
    let number = v.parse::<i64>().is_ok_and(|i| i.to_string() == v)
        || v.parse::<f64>().is_ok_and(|f| f.is_finite() && f.to_string() == v);
    if number { v.to_string() } else { toml::Value::String(v.to_string()).to_string() }
}

/// `value` with its secrets masked: a URL's password (`postgres://user:***@host`), a
/// `password=` parameter's value, and the whole of a setting named as a secret.
pub fn mask(key: &str, value: &str) -> String {
    if ["password", "secret", "token"].iter().any(|s| key.contains(s)) && !value.is_empty() {
        return "***".to_string();
    }
    let mut out = store::postgres::redact(value);
    let mut from = 0;
    while let Some(at) = out[from..].find("password=").map(|i| from + i + "password=".len()) {
        let end = out[at..].find(['&', ' ', ';']).map_or(out.len(), |e| at + e);
        out.replace_range(at..end, "***");
        from = at + 3;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_masked_wherever_they_are_written() {
        assert_eq!(mask("db", "postgres://ann:hunter2@db.example/cards"), "postgres://ann:***@db.example/cards");
        assert_eq!(
            mask("db", "postgres://db.example/cards?password=hunter2&x=1"),
            "postgres://db.example/cards?password=***&x=1"
        );
        assert_eq!(mask("db", "cardtable.db"), "cardtable.db");
        assert_eq!(mask("admin-token", "abc"), "***");
    }

    #[test]
    fn values_print_as_toml_that_reads_back_the_same() {
        assert_eq!(toml_scalar("20"), "20");
        assert_eq!(toml_scalar("0.5"), "0.5");
        assert_eq!(toml_scalar("007"), "\"007\"");
        assert_eq!(toml_scalar("127.0.0.1:7878"), "\"127.0.0.1:7878\"");
        assert_eq!(toml_scalar(""), "\"\"");
    }
}
