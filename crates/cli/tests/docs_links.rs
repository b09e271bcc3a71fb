//! A clone of the repository alone must have everything its documentation points to.
//!
//! Every Markdown file of the repository (outside `target/`, `node_modules/` and hidden
//! directories) is read, and three things are checked:
//!
//! 1. every relative link, inline `[text](path#anchor)` or a reference definition
//!    `[name]: path`, names a file or directory that exists, and an `#anchor` into a Markdown
//!    file names one of its headings (GitHub's heading ids);
//! 2. every path in inline code that starts at a top-level directory of the repository
//!    (`crates/…`, `docs/…`, `web/…`, …) exists, unless it is a pattern (`*`, `<game>`, `{a,b}`)
//!    or something the build makes and `.gitignore` names (`e2e/artifacts/`);
//! 3. nothing points outside the clone to `../shared` (the workspace the project was started
//!    in), except a line that says the thing named is "not in the clone".
//!
//! Links to other sites (`https:`, `mailto:`) and links inside code blocks are not checked.

use std::collections::HashMap;
use std::fs;
use std::path::{Component, Path, PathBuf};

/// The repository's root: this crate is `crates/cli`.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the repository root")
}

/// Top-level directories whose paths, written in inline code, must exist.
const TOP_DIRS: &[&str] = &["crates/", "docs/", "web/", "e2e/", "scripts/", ".ci/"];

fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> =
        fs::read_dir(dir).expect("readable directory").map(|e| e.expect("entry").path()).collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if path.is_dir() {
            if !name.starts_with('.') && name != "target" && name != "node_modules" {
                markdown_files(&path, out);
            }
        } else if name.ends_with(".md") {
            out.push(path);
        }
    }
}

/// The lines of a Markdown file outside fenced code blocks, with their 1-based numbers.
fn prose_lines(text: &str) -> Vec<(usize, &str)> {
    let mut fence: Option<&str> = None;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim_start();
        let marker = if t.starts_with("```") {
            Some("```")
        } else if t.starts_with("~~~") {
            Some("~~~")
        } else {
            None
        };
        match (fence, marker) {
            (None, Some(m)) => fence = Some(m),
            (Some(f), Some(m)) if f == m => fence = None,
            (None, None) => out.push((i + 1, line)),
            _ => {}
        }
    }
    out
}

/// `line` split into its inline-code spans and the prose between them (code spans removed).
fn split_code(line: &str) -> (String, Vec<String>) {
    let mut prose = String::new();
    let mut code = Vec::new();
    let mut rest = line;
    while let Some(start) = rest.find('`') {
        let ticks = rest[start..].chars().take_while(|&c| c == '`').count();
        let delim = &rest[start..start + ticks];
        let after = &rest[start + ticks..];
        match after.find(delim) {
            Some(end) => {
                prose.push_str(&rest[..start]);
                prose.push(' ');
                code.push(after[..end].trim().to_string());
                rest = &after[end + ticks..];
            }
            None => break,
        }
    }
    prose.push_str(rest);
    (prose, code)
}

/// The targets of the inline links and images in `prose`.
fn inline_links(prose: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = prose;
    while let Some(i) = rest.find("](") {
        let after = &rest[i + 2..];
        let target = if let Some(stripped) = after.strip_prefix('<') {
            stripped.split('>').next().unwrap_or("")
        } else {
            // Up to the closing parenthesis, balancing any inside; a title follows a space.
            let mut depth = 0;
            let mut end = after.len();
            for (j, c) in after.char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' if depth == 0 => {
                        end = j;
                        break;
                    }
                    ')' => depth -= 1,
                    _ => {}
                }
            }
            after[..end].split_whitespace().next().unwrap_or("")
        };
        out.push(target.to_string());
        rest = after;
    }
    out
}

/// The target of a reference definition `[name]: target`, if `line` is one.
fn reference_definition(line: &str) -> Option<String> {
    let t = line.trim_start();
    if line.len() - t.len() > 3 || !t.starts_with('[') || t.starts_with("[^") {
        return None;
    }
    let close = t.find("]:")?;
    let target = t[close + 2..].split_whitespace().next()?;
    Some(target.trim_start_matches('<').trim_end_matches('>').to_string())
}

/// GitHub's id for a heading: formatting and link targets dropped, lower case, punctuation
/// removed, spaces to hyphens.
fn slug(heading: &str) -> String {
    let mut text = String::new();
    let mut rest = heading;
    while let Some(i) = rest.find("](") {
        text.push_str(&rest[..i]);
        rest = rest[i + 2..].split_once(')').map_or("", |(_, r)| r);
    }
    text.push_str(rest);
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            '-' | '_' => Some(c),
            c if c.is_alphanumeric() => Some(c),
            _ => None,
        })
        .collect()
}

/// The ids of the headings of a Markdown file, numbered as GitHub numbers repeats.
fn anchors(text: &str) -> Vec<String> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::new();
    for (_, line) in prose_lines(text) {
        let t = line.trim_start();
        let hashes = t.chars().take_while(|&c| c == '#').count();
        if hashes == 0 || hashes > 6 || !t[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(t[hashes..].trim().trim_end_matches('#').trim());
        let n = seen.entry(base.clone()).or_insert(0);
        out.push(if *n == 0 { base.clone() } else { format!("{base}-{n}") });
        *n += 1;
    }
    out
}

/// `path` with `.` and `..` worked out, without touching the file system.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// Whether the root `.gitignore` (its simple forms: `/anchored`, `/prefix-*`, `*.ext`, `name/`)
/// names `path` or a directory above it.
fn ignored(path: &str, patterns: &[String]) -> bool {
    let path = path.trim_end_matches('/');
    patterns.iter().any(|pattern| {
        let pattern = pattern.trim_end_matches('/');
        if let Some(anchored) = pattern.strip_prefix('/') {
            match anchored.strip_suffix('*') {
                Some(prefix) => path.starts_with(prefix),
                None => path == anchored || path.starts_with(&format!("{anchored}/")),
            }
        } else if let Some(suffix) = pattern.strip_prefix('*') {
            path.ends_with(suffix)
        } else {
            path.split('/').any(|c| c == pattern)
        }
    })
}

fn is_external(target: &str) -> bool {
    target.contains("://") || target.starts_with("mailto:") || target.starts_with("tel:")
}

#[test]
fn every_relative_link_and_path_in_the_docs_exists() {
    let root = root();
    let mut files = Vec::new();
    markdown_files(&root, &mut files);
    assert!(files.iter().any(|f| f.ends_with("README.md")), "README.md not found under {}", root.display());
    assert!(files.iter().any(|f| f.starts_with(root.join("docs/rules"))), "docs/rules/ has no Markdown files");

    let gitignore: Vec<String> = fs::read_to_string(root.join(".gitignore"))
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with('!'))
        .map(String::from)
        .collect();
    let mut problems = Vec::new();
    let mut checked = 0;
    let mut anchor_cache: HashMap<PathBuf, Vec<String>> = HashMap::new();
    for file in &files {
        let text = fs::read_to_string(file).expect("a UTF-8 Markdown file");
        let rel = file.strip_prefix(&root).unwrap_or(file).display().to_string();
        let dir = file.parent().expect("a file has a directory");
        for (n, line) in prose_lines(&text) {
            let (prose, code) = split_code(line);
            let mut links = inline_links(&prose);
            links.extend(reference_definition(&prose));
            for target in links {
                if target.is_empty() || is_external(&target) {
                    continue;
                }
                checked += 1;
                let (path, fragment) = match target.split_once('#') {
                    Some((p, f)) => (p, Some(f)),
                    None => (target.as_str(), None),
                };
                let resolved = if path.is_empty() { file.clone() } else { normalize(&dir.join(path)) };
                if !resolved.starts_with(&root) {
                    problems.push(format!("{rel}:{n}: `{target}` points outside the repository"));
                    continue;
                }
                if !resolved.exists() {
                    problems.push(format!("{rel}:{n}: `{target}` does not exist"));
                    continue;
                }
                if let Some(fragment) = fragment.filter(|f| !f.is_empty())
                    && resolved.extension().is_some_and(|e| e == "md")
                {
                    let ids = anchor_cache
                        .entry(resolved.clone())
                        .or_insert_with(|| anchors(&fs::read_to_string(&resolved).unwrap_or_default()));
                    if !ids.iter().any(|id| id == fragment) {
                        problems.push(format!("{rel}:{n}: `{target}`: no heading with id `{fragment}`"));
                    }
                }
            }
            for span in &code {
                let candidate = span.split_whitespace().next().unwrap_or("");
                let is_path = TOP_DIRS.iter().any(|d| candidate.starts_with(d))
                    && !candidate.contains(['*', '<', '{', '…', ':', '$', '('])
                    && !candidate.ends_with("...")
                    && !ignored(candidate, &gitignore);
                if is_path {
                    checked += 1;
                    if !root.join(candidate.trim_end_matches(['.', ',', ';'])).exists() {
                        problems.push(format!("{rel}:{n}: `{candidate}` (in inline code) does not exist"));
                    }
                }
            }
            if line.contains("../shared") && !line.contains("not in the clone") {
                problems.push(format!(
                    "{rel}:{n}: points to `../shared`, which a clone does not have (link the copy in the repository)"
                ));
            }
        }
    }
    assert!(checked > 20, "only {checked} links and paths found: is the parser broken?");
    assert!(problems.is_empty(), "{} broken links or paths in the docs:\n{}", problems.len(), problems.join("\n"));
}

#[test]
fn the_link_parser_finds_what_it_should() {
    let (prose, code) = split_code("see [the rules](docs/rules/a.md#setup) and `crates/cli` or `x`");
    assert_eq!(inline_links(&prose), vec!["docs/rules/a.md#setup"]);
    assert_eq!(code, vec!["crates/cli", "x"]);
    let (prose, _) = split_code("`[not](a link)` but [one](b.md \"title\") and ![img](c.png)");
    assert_eq!(inline_links(&prose), vec!["b.md", "c.png"]);
    assert_eq!(reference_definition("[rules]: docs/rules/README.md"), Some("docs/rules/README.md".into()));
    assert_eq!(reference_definition("    [code]: x"), None);
    let lines = prose_lines("a\n```\n[x](y)\n```\nb");
    assert_eq!(lines, vec![(1, "a"), (5, "b")]);
}

#[test]
fn what_gitignore_names_is_not_required() {
    let patterns: Vec<String> =
        ["/target", "/target-*", "node_modules/", "/e2e/artifacts/", "*.db"].map(String::from).into();
    assert!(ignored("e2e/artifacts/", &patterns));
    assert!(ignored("e2e/artifacts/x.png", &patterns));
    assert!(ignored("e2e/node_modules/playwright-core", &patterns));
    assert!(ignored("web/cardtable.db", &patterns));
    assert!(!ignored("e2e/run.sh", &patterns));
    assert!(!ignored("crates/target-practice", &patterns));
}

#[test]
fn headings_get_githubs_ids() {
    assert_eq!(slug("Buckshot — shotgun roulette"), "buckshot--shotgun-roulette");
    assert_eq!(slug("The `view` of a seat"), "the-view-of-a-seat");
    assert_eq!(slug("3. Turns, and what ends them!"), "3-turns-and-what-ends-them");
    assert_eq!(slug("See [the rules](x.md) now"), "see-the-rules-now");
    let ids = anchors("# A\n## Setup\n```\n# not a heading\n```\n## Setup\n");
    assert_eq!(ids, vec!["a", "setup", "setup-1"]);
}
