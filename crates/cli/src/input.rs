//! Command input for terminal games: the lines of an `--init` file first, then standard input.

use std::io::{BufRead, BufReader, Read};

/// Yields input lines: the init file's, then the reader's. `None` at the end of both.
pub struct Lines {
    init: std::vec::IntoIter<String>,
    rest: Box<dyn BufRead>,
}

impl Lines {
    pub fn new(init: Option<&std::path::Path>, rest: Box<dyn Read>) -> anyhow::Result<Self> {
        let init = match init {
            Some(path) => std::fs::read_to_string(path)
                .map_err(|e| anyhow::anyhow!("cannot read init file {}: {e}", path.display()))?
                .lines()
                .map(str::to_owned)
                .collect(),
            None => Vec::new(),
        };
        Ok(Lines { init: init.into_iter(), rest: Box::new(BufReader::new(rest)) })
    }

    pub fn next_line(&mut self) -> Option<String> {
        if let Some(l) = self.init.next() {
            return Some(l);
        }
        let mut s = String::new();
        match self.rest.read_line(&mut s) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(s.trim_end_matches(['\n', '\r']).to_owned()),
        }
    }
}
