//! The rules pages: each file of `docs/rules` (compiled into the binary) served as a plain
//! HTML page at `/rules/<name>` (`/rules` is the index), readable on a phone and without
//! JavaScript. The Markdown is read by `pulldown-cmark` (CommonMark, with tables) and
//! [`render`] writes it out with three changes: raw HTML in a page is shown as text (escaped),
//! never passed through; headings get GitHub's anchors (so `#winning` links work as they do
//! on GitHub); tables scroll sideways on their own on a narrow screen.
//!
//! Links between rules pages go to their `/rules/…` address; links to the source tree
//! (`../../crates/…`), which a browser cannot follow, stay as their words.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};

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

/// The Markdown of a rules page as HTML (see the module docs).
pub fn render(md: &str) -> String {
    let events: Vec<Event<'_>> = Parser::new_ext(md, Options::ENABLE_TABLES).collect();
    let mut out_events: Vec<Event<'_>> = Vec::with_capacity(events.len());
    // Links to the source tree lose their link (their words stay): which link ends must go.
    let mut dropped_links = Vec::new();
    for (i, event) in events.iter().enumerate() {
        match event {
            // Raw HTML is text: a page cannot add markup (nor a script) to the site.
            Event::Html(raw) | Event::InlineHtml(raw) => out_events.push(Event::Text(raw.clone())),
            // A block of raw HTML becomes a paragraph of its text.
            Event::Start(Tag::HtmlBlock) => out_events.push(Event::Start(Tag::Paragraph)),
            Event::End(TagEnd::HtmlBlock) => out_events.push(Event::End(TagEnd::Paragraph)),
            Event::Start(Tag::Heading { level, classes, attrs, .. }) => {
                // The heading's words, to make its anchor as GitHub does.
                let mut words = String::new();
                for e in &events[i + 1..] {
                    match e {
                        Event::End(TagEnd::Heading(_)) => break,
                        Event::Text(t) | Event::Code(t) => words.push_str(t),
                        _ => {}
                    }
                }
                out_events.push(Event::Start(Tag::Heading {
                    level: *level,
                    id: Some(CowStr::from(slug(&words))),
                    classes: classes.clone(),
                    attrs: attrs.clone(),
                }));
            }
            Event::Start(Tag::Link { link_type, dest_url, title, id }) => match href(dest_url) {
                Some(h) => {
                    dropped_links.push(false);
                    out_events.push(Event::Start(Tag::Link {
                        link_type: *link_type,
                        dest_url: CowStr::from(h),
                        title: title.clone(),
                        id: id.clone(),
                    }));
                }
                None => dropped_links.push(true),
            },
            Event::End(TagEnd::Link) => {
                if !dropped_links.pop().unwrap_or(false) {
                    out_events.push(Event::End(TagEnd::Link));
                }
            }
            Event::Start(Tag::Table(_)) => {
                out_events.push(Event::Html(CowStr::from("<div class=\"table-wrap\">")));
                out_events.push(event.clone());
            }
            Event::End(TagEnd::Table) => {
                out_events.push(event.clone());
                out_events.push(Event::Html(CowStr::from("</div>\n")));
            }
            e => out_events.push(e.clone()),
        }
    }
    let mut html = String::with_capacity(md.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, out_events.into_iter());
    html
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
             <p>Some <strong>bold</strong> and <code>a&lt;b&gt;</code> text,\ngoing on \
             <a href=\"/rules/ivanhoe#winning\">a page</a> and code.</p>\n\
             <ul>\n<li>one\nmore</li>\n<li>two</li>\n</ul>\n\
             <ol>\n<li>first</li>\n<li>second</li>\n</ol>\n\
             <div class=\"table-wrap\"><table><thead><tr><th>a</th><th>b</th></tr></thead><tbody>\n\
             <tr><td>1</td><td>&lt;2&gt;</td></tr>\n</tbody></table>\n</div>\n\
             <pre><code>x &lt; y\n</code></pre>\n"
        );
    }

    /// A page's raw HTML, inline or a block, is shown as text, never passed on as markup; a
    /// quote is a quote (the hand-written renderer printed its `>`).
    #[test]
    fn raw_html_is_escaped_and_quotes_are_quotes() {
        let md = "Some <b>bold?</b> and <script>alert(1)</script> here.\n\n<div onclick=\"x()\">block</div>\n\n\
                  > **Status**: quoted,\n> still quoted.\n\nAfter a > b.\n";
        let html = render(md);
        for markup in ["<b>", "<script", "<div onclick", "</div>"] {
            assert!(!html.contains(markup), "{markup} passed through: {html}");
        }
        assert!(html.contains("&lt;b&gt;bold?&lt;/b&gt;"), "{html}");
        assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "{html}");
        assert!(html.contains("<p>&lt;div onclick=\"x()\"&gt;block&lt;/div&gt;\n</p>"), "{html}");
        assert!(
            html.contains("<blockquote>\n<p><strong>Status</strong>: quoted,\nstill quoted.</p>\n</blockquote>"),
            "{html}"
        );
        assert!(html.contains("<p>After a &gt; b.</p>"), "{html}");
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
            // A header cell with no words is a column (or a table) a screen reader cannot
            // name (axe-core: `empty-table-header`).
            for cell in html.split("<th").skip(1) {
                let body = &cell[cell.find('>').map_or(0, |i| i + 1)..];
                assert!(!body.starts_with("</th>"), "{name}: an empty table header cell");
            }
            // No Markdown left over as text: a quote marker or a table row printed as words.
            for (i, line) in html.lines().enumerate() {
                let text = line.trim_start_matches("<p>").trim_start_matches("<li>");
                assert!(!text.starts_with("&gt; ") && !text.starts_with("| "), "{name}, line {i}: {line}");
            }
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
