//! The rules pages: each file of `docs/rules` (compiled into the binary) served as a plain
//! HTML page at `/rules/<name>` (`/rules` is the index), readable on a phone and without
//! JavaScript. The pages are written in a small part of Markdown — headings, paragraphs,
//! lists, tables, fenced code, `**bold**`, `*emphasis*`, `` `code` `` and links — and
//! [`render`] turns exactly that part into HTML, escaping every character of text.
//!
//! Links between rules pages go to their `/rules/…` address; links to the source tree
//! (`../../crates/…`), which a browser cannot follow, stay as their words.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

/// `(name, title, markdown)` of every page.
pub const PAGES: &[(&str, &str, &str)] = &[
    ("README", "The games' rules", include_str!("../../../docs/rules/README.md")),
    ("buckshot", "Buckshot", include_str!("../../../docs/rules/buckshot.md")),
    ("sorcery", "Sorcery", include_str!("../../../docs/rules/sorcery.md")),
    ("ivanhoe", "Ivanhoe", include_str!("../../../docs/rules/ivanhoe.md")),
    ("wolfpack", "Wolf Pack", include_str!("../../../docs/rules/wolfpack.md")),
    ("wolfpack-balance", "Wolf Pack balance", include_str!("../../../docs/rules/wolfpack-balance.md")),
    ("three-kingdoms", "Three Kingdoms", include_str!("../../../docs/rules/three-kingdoms.md")),
    ("three-kingdoms-balance", "Three Kingdoms balance", include_str!("../../../docs/rules/three-kingdoms-balance.md")),
];

/// The page called `name` (`buckshot`, `buckshot.md`, `README`), or a 404 listing them.
pub fn page(name: &str) -> Response {
    let name = name.strip_suffix(".md").unwrap_or(name);
    let html_headers = [(header::CONTENT_TYPE, "text/html; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")];
    match PAGES.iter().find(|(n, _, _)| n.eq_ignore_ascii_case(name)) {
        Some((_, title, text)) => (html_headers, document(title, &render(text))).into_response(),
        None => {
            let mut body = String::from("<h1>No such rules page</h1><p>The rules pages are:</p><ul>");
            for (n, t, _) in PAGES {
                body.push_str(&format!("<li><a href=\"/rules/{n}\">{}</a></li>", escape(t)));
            }
            body.push_str("</ul>");
            (StatusCode::NOT_FOUND, html_headers, document("Not found", &body)).into_response()
        }
    }
}

/// A whole page around `body`: the site's style sheet, a way back, no script.
fn document(title: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"color-scheme\" content=\"dark\"><title>{t} · rules · cardtable</title>\
         <link rel=\"icon\" href=\"data:,\"><link rel=\"stylesheet\" href=\"/style.css\"></head>\
         <body><header class=\"topbar\"><a href=\"/\" class=\"brand\">cardtable</a>\
         <a href=\"/rules\" class=\"topbar-link\">All rules</a></header>\
         <main class=\"rules-page\" id=\"rules\">{body}</main></body></html>\n",
        t = escape(title)
    )
}

pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A heading's anchor as GitHub makes it: lower case, spaces to `-`, punctuation dropped.
pub fn slug(text: &str) -> String {
    let plain = text.replace(['*', '`'], "");
    plain
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c.to_ascii_lowercase()),
            _ => None,
        })
        .collect()
}

/// Where a link of a rules page goes in the browser, or `None` if it cannot go anywhere
/// there (a file of the source tree).
fn href(target: &str) -> Option<String> {
    if target.starts_with('#') || target.starts_with("https://") || target.starts_with("http://") {
        return Some(target.to_string());
    }
    let (path, anchor) = target.split_once('#').map_or((target, None), |(p, a)| (p, Some(a)));
    let page = path.strip_suffix(".md")?;
    if page.contains('/') {
        return None;
    }
    let page = if page == "README" { "/rules".to_string() } else { format!("/rules/{page}") };
    Some(match anchor {
        Some(a) => format!("{page}#{a}"),
        None => page,
    })
}

/// Inline Markdown of one block's text: code spans, links, bold and emphasis; everything
/// else escaped.
fn inline(text: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    let mut bold = false;
    let mut em = false;
    let find = |from: usize, what: char| chars[from..].iter().position(|&c| c == what).map(|p| from + p);
    while i < chars.len() {
        let c = chars[i];
        match c {
            '`' => {
                if let Some(end) = find(i + 1, '`') {
                    let code: String = chars[i + 1..end].iter().collect();
                    out.push_str(&format!("<code>{}</code>", escape(&code)));
                    i = end + 1;
                    continue;
                }
                out.push('`');
            }
            '[' => {
                // [words](target)
                if let Some(close) = find(i + 1, ']')
                    && chars.get(close + 1) == Some(&'(')
                    && let Some(end) = find(close + 2, ')')
                {
                    let words: String = chars[i + 1..close].iter().collect();
                    let target: String = chars[close + 2..end].iter().collect();
                    match href(&target) {
                        Some(h) => out.push_str(&format!("<a href=\"{}\">{}</a>", escape(&h), inline(&words))),
                        None => out.push_str(&inline(&words)),
                    }
                    i = end + 1;
                    continue;
                }
                out.push('[');
            }
            '*' if chars.get(i + 1) == Some(&'*') => {
                out.push_str(if bold { "</strong>" } else { "<strong>" });
                bold = !bold;
                i += 2;
                continue;
            }
            '*' if em || chars.get(i + 1).is_some_and(|n| !n.is_whitespace()) => {
                out.push_str(if em { "</em>" } else { "<em>" });
                em = !em;
            }
            c => out.push_str(&escape(&c.to_string())),
        }
        i += 1;
    }
    // An unclosed marker closes at the end of the block, so the page stays well formed.
    if em {
        out.push_str("</em>");
    }
    if bold {
        out.push_str("</strong>");
    }
    out
}

fn list_item(line: &str) -> Option<(bool, &str)> {
    let t = line.trim_start();
    if let Some(rest) = t.strip_prefix("- ").or_else(|| t.strip_prefix("* ")) {
        return Some((false, rest));
    }
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 && t[digits..].starts_with(". ") {
        return Some((true, &t[digits + 2..]));
    }
    None
}

fn table_cells(line: &str) -> Vec<String> {
    let t = line.trim().trim_start_matches('|').trim_end_matches('|');
    t.split('|').map(|c| c.trim().to_string()).collect()
}

/// The Markdown of a rules page as HTML (see the module docs for the part understood).
pub fn render(md: &str) -> String {
    let lines: Vec<&str> = md.lines().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim();
        if trimmed.is_empty() {
            i += 1;
        } else if trimmed.starts_with("```") {
            let mut code = String::new();
            i += 1;
            while i < lines.len() && !lines[i].trim().starts_with("```") {
                code.push_str(lines[i]);
                code.push('\n');
                i += 1;
            }
            i += 1;
            out.push_str(&format!("<pre><code>{}</code></pre>\n", escape(&code)));
        } else if let Some(level) = (1..=6).find(|&n| trimmed.starts_with(&format!("{} ", "#".repeat(n)))) {
            let text = trimmed[level + 1..].trim();
            out.push_str(&format!("<h{level} id=\"{}\">{}</h{level}>\n", escape(&slug(text)), inline(text)));
            i += 1;
        } else if trimmed.starts_with('|') {
            let head = table_cells(trimmed);
            i += 1;
            if i < lines.len() && lines[i].trim().starts_with('|') && lines[i].contains("---") {
                i += 1;
            }
            out.push_str("<div class=\"table-wrap\"><table><thead><tr>");
            for c in &head {
                out.push_str(&format!("<th>{}</th>", inline(c)));
            }
            out.push_str("</tr></thead><tbody>\n");
            while i < lines.len() && lines[i].trim().starts_with('|') {
                out.push_str("<tr>");
                for c in table_cells(lines[i]) {
                    out.push_str(&format!("<td>{}</td>", inline(&c)));
                }
                out.push_str("</tr>\n");
                i += 1;
            }
            out.push_str("</tbody></table></div>\n");
        } else if let Some((ordered, _)) = list_item(line) {
            let tag = if ordered { "ol" } else { "ul" };
            out.push_str(&format!("<{tag}>\n"));
            // Items until a blank line followed by something that is not an item, or a
            // heading; a line indented under an item continues it.
            let mut item: Option<String> = None;
            while i < lines.len() {
                let l = lines[i];
                if l.trim().is_empty() {
                    if i + 1 < lines.len() && list_item(lines[i + 1]).is_some_and(|(o, _)| o == ordered) {
                        i += 1;
                        continue;
                    }
                    break;
                }
                if let Some((kind, text)) = list_item(l).filter(|_| l.len() - l.trim_start().len() < 2) {
                    if kind != ordered {
                        break;
                    }
                    if let Some(done) = item.take() {
                        out.push_str(&format!("<li>{}</li>\n", inline(&done)));
                    }
                    item = Some(text.to_string());
                } else if l.starts_with(' ') || item.is_some() && !l.trim_start().starts_with('#') {
                    let more = item.get_or_insert_with(String::new);
                    more.push(' ');
                    more.push_str(l.trim());
                } else {
                    break;
                }
                i += 1;
            }
            if let Some(done) = item {
                out.push_str(&format!("<li>{}</li>\n", inline(&done)));
            }
            out.push_str(&format!("</{tag}>\n"));
        } else {
            let mut para = String::new();
            while i < lines.len() {
                let l = lines[i].trim();
                if l.is_empty() || l.starts_with('#') || l.starts_with('|') || l.starts_with("```") {
                    break;
                }
                if !para.is_empty() {
                    if list_item(lines[i]).is_some() {
                        break;
                    }
                    para.push(' ');
                }
                para.push_str(l);
                i += 1;
            }
            out.push_str(&format!("<p>{}</p>\n", inline(&para)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_of_the_kinds_the_pages_use() {
        let md = "# Title *x*\n\nSome **bold** and `a<b>` text,\ngoing on [a page](ivanhoe.md#winning) \
                  and [code](../../crates/x).\n\n- one\n  more\n- two\n\n1. first\n2. second\n\n\
                  | a | b |\n| --- | --- |\n| 1 | <2> |\n\n```\nx < y\n```\n";
        let html = render(md);
        assert_eq!(
            html,
            "<h1 id=\"title-x\">Title <em>x</em></h1>\n\
             <p>Some <strong>bold</strong> and <code>a&lt;b&gt;</code> text, going on \
             <a href=\"/rules/ivanhoe#winning\">a page</a> and code.</p>\n\
             <ul>\n<li>one more</li>\n<li>two</li>\n</ul>\n\
             <ol>\n<li>first</li>\n<li>second</li>\n</ol>\n\
             <div class=\"table-wrap\"><table><thead><tr><th>a</th><th>b</th></tr></thead><tbody>\n\
             <tr><td>1</td><td>&lt;2&gt;</td></tr>\n</tbody></table></div>\n\
             <pre><code>x &lt; y\n</code></pre>\n"
        );
    }

    /// A page added to `docs/rules` is served too (it needs its line in `PAGES`).
    #[test]
    fn every_file_of_docs_rules_is_a_page() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/rules");
        for entry in std::fs::read_dir(dir).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            let Some(page) = name.strip_suffix(".md") else { continue };
            assert!(PAGES.iter().any(|(n, _, _)| *n == page), "docs/rules/{name} has no line in rules::PAGES");
        }
    }

    /// Every page renders, no text is left as markup, and every in-page link has its heading.
    #[test]
    fn every_rules_page_renders_with_working_anchors() {
        for (name, _, md) in PAGES {
            let html = render(md);
            assert!(!html.contains("<script"), "{name}");
            assert!(html.starts_with("<h1"), "{name}: {}", &html[..80.min(html.len())]);
            for anchor in html.split("href=\"#").skip(1) {
                let id = &anchor[..anchor.find('"').unwrap()];
                assert!(html.contains(&format!("id=\"{id}\"")), "{name}: no heading for #{id}");
            }
            for link in html.split("href=\"/rules/").skip(1) {
                let target = &link[..link.find(['"', '#']).unwrap()];
                assert!(PAGES.iter().any(|(n, _, _)| *n == target), "{name}: link to missing page {target}");
            }
        }
    }
}
