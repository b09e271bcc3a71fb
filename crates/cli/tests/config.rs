//! `cardtable serve`'s settings, as `serve --print-config` prints them: a flag wins over its
//! `CARDTABLE_*` variable, which wins over the `--config` file, which wins over the default;
//! an unknown key (or a bad value) in the file is an error naming it; passwords are masked; the
//! printed settings read back as a file give the same settings.

use std::path::PathBuf;
use std::process::Command;

/// `cardtable serve ARGS` with only `env` of the CARDTABLE_* variables: whether it succeeded,
/// its standard output and error.
fn serve(args: &[&str], env: &[(&str, &str)]) -> (bool, String, String) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_cardtable"));
    c.arg("serve").args(args);
    for (k, _) in std::env::vars() {
        if k.starts_with("CARDTABLE_") {
            c.env_remove(k);
        }
    }
    c.envs(env.iter().copied());
    let out = c.output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

/// A configuration file of this test's, holding `text`.
fn file(name: &str, text: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!("cardtable-config-{}-{name}.toml", std::process::id()));
    std::fs::write(&path, text).unwrap();
    path
}

/// `key`'s line of printed settings: its value and where it came from.
fn setting(printed: &str, key: &str) -> (String, String) {
    let line = printed
        .lines()
        .find(|l| l.starts_with(&format!("{key} = ")))
        .unwrap_or_else(|| panic!("no {key} in\n{printed}"));
    let (value, source) = line[key.len() + 3..].split_once("  # ").unwrap_or_else(|| panic!("{line}"));
    (value.to_string(), source.to_string())
}

#[test]
fn a_flag_beats_its_variable_which_beats_the_file_which_beats_the_default() {
    let path = file(
        "precedence",
        r#"
addr = "127.0.0.1:1111"
max-conns = 11
rate-limit = 31.5
lan = true
allow-origin = ["https://a.example", "https://b.example"]
db = "postgres://ann:hunter2@db.example/cards?sslmode=disable"
"#,
    );
    let p = path.to_str().unwrap();
    let env = [("CARDTABLE_ADDR", "127.0.0.1:2222"), ("CARDTABLE_MAX_CONNS", "22")];
    let (ok, out, err) = serve(&["--config", p, "--addr", "127.0.0.1:3333", "--print-config"], &env);
    assert!(ok, "{err}");
    let from_file = format!("from {p}");
    assert_eq!(setting(&out, "addr"), ("\"127.0.0.1:3333\"".into(), "from --addr".into()));
    assert_eq!(setting(&out, "max-conns"), ("22".into(), "from CARDTABLE_MAX_CONNS".into()));
    assert_eq!(setting(&out, "rate-limit"), ("31.5".into(), from_file.clone()));
    assert_eq!(setting(&out, "lan"), ("true".into(), from_file.clone()));
    assert_eq!(
        setting(&out, "allow-origin"),
        (r#"["https://a.example", "https://b.example"]"#.into(), from_file.clone())
    );
    assert_eq!(setting(&out, "header-timeout"), ("10".into(), "default".into()));
    assert_eq!(setting(&out, "log-format"), ("\"human\"".into(), "default".into()));
    // The password never shows; the rest of the URL does.
    assert!(!out.contains("hunter2"), "{out}");
    assert_eq!(setting(&out, "db").0, "\"postgres://ann:***@db.example/cards?sslmode=disable\"");
    assert!(out.contains("# node-id = (not set)"), "{out}");
    // Without the flag and the variables, the file's; without the file, the defaults.
    let (ok, out, err) = serve(&["--config", p, "--print-config"], &[]);
    assert!(ok, "{err}");
    assert_eq!(setting(&out, "addr"), ("\"127.0.0.1:1111\"".into(), from_file.clone()));
    assert_eq!(setting(&out, "max-conns"), ("11".into(), from_file));
    let (ok, out, err) = serve(&["--print-config"], &[]);
    assert!(ok, "{err}");
    assert_eq!(setting(&out, "addr"), ("\"127.0.0.1:7878\"".into(), "default".into()));
    assert_eq!(setting(&out, "lan"), ("false".into(), "default".into()));
    assert_eq!(setting(&out, "allow-origin"), ("[]".into(), "default".into()));
    let _ = std::fs::remove_file(path);
}

#[test]
fn the_printed_settings_are_a_file_that_gives_them_back() {
    let env = [("CARDTABLE_MAX_ROOMS", "77"), ("CARDTABLE_TRUSTED_PROXY", "10.0.0.1,10.0.0.2"), ("CARDTABLE_LAN", "1")];
    let (ok, printed, err) = serve(&["--print-config", "--rate-limit", "25", "--log-format", "json"], &env);
    assert!(ok, "{err}");
    assert_eq!(setting(&printed, "trusted-proxy").0, r#"["10.0.0.1", "10.0.0.2"]"#);
    assert_eq!(setting(&printed, "lan"), ("true".into(), "from CARDTABLE_LAN".into()));
    printed.parse::<toml::Table>().expect("the printed settings are TOML");
    let path = file("round-trip", &printed);
    let (ok, again, err) = serve(&["--config", path.to_str().unwrap(), "--print-config"], &[]);
    assert!(ok, "{err}");
    let values = |s: &str| -> Vec<String> {
        s.lines().filter(|l| !l.starts_with('#')).map(|l| l.split("  # ").next().unwrap().to_string()).collect()
    };
    assert_eq!(values(&again), values(&printed));
    let _ = std::fs::remove_file(path);
}

#[test]
fn an_unknown_key_or_a_bad_value_in_the_file_is_an_error_naming_it() {
    let path = file("unknown", "addr = \"127.0.0.1:1\"\nmax-conn = 5\n");
    let (ok, out, err) = serve(&["--config", path.to_str().unwrap(), "--print-config"], &[]);
    assert!(!ok, "{out}");
    assert!(err.contains("unknown key `max-conn`"), "{err}");
    assert!(err.contains("max-conns"), "the known keys are listed: {err}");
    let path = file("bad-value", "max-conns = \"lots\"\n");
    let (ok, _, err) = serve(&["--config", path.to_str().unwrap(), "--print-config"], &[]);
    assert!(!ok);
    assert!(err.contains("`max-conns`") && err.contains("lots"), "{err}");
    let path = file("bad-flag", "lan = \"yes\"\n");
    let (ok, _, err) = serve(&["--config", path.to_str().unwrap(), "--print-config"], &[]);
    assert!(!ok);
    assert!(err.contains("`lan`"), "{err}");
    let path = file("not-toml", "addr = \n");
    let (ok, _, err) = serve(&["--config", path.to_str().unwrap(), "--print-config"], &[]);
    assert!(!ok);
    assert!(err.contains("is not TOML"), "{err}");
    // A variable with a bad value is clap's error, naming the variable.
    let (ok, _, err) = serve(&["--print-config"], &[("CARDTABLE_MAX_CONNS", "lots")]);
    assert!(!ok);
    assert!(err.contains("lots"), "{err}");
    for name in ["unknown", "bad-value", "bad-flag", "not-toml"] {
        let _ = std::fs::remove_file(
            std::env::temp_dir().join(format!("cardtable-config-{}-{name}.toml", std::process::id())),
        );
    }
}
