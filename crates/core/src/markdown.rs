//! Markdown → safe HTML for specs and plans: pulldown-cmark (tables, task lists, strikethrough,
//! footnotes, heading ids), sanitized at the event level (DESIGN.md): link and image destinations
//! are checked, raw HTML goes through ammonia one fragment at a time, everything else is
//! escaped by pulldown-cmark itself. Much cheaper than sanitizing the whole output.

use std::collections::HashMap;
use std::sync::OnceLock;

use pulldown_cmark::{CowStr, Event, HeadingLevel, LinkType, Options, Parser, Tag, TagEnd};
use serde::{Deserialize, Serialize};

/// A heading, for the table of contents.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct TocEntry {
    /// 1 to 6.
    pub level: u8,
    pub text: String,
    /// The heading's `id` (anchor).
    pub id: String,
}

/// A rendered document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Rendered {
    /// Safe HTML: no script, no event handler, no `javascript:` or `data:` link. External links
    /// carry `data-external` (the UI opens them in the system browser).
    pub html: String,
    pub toc: Vec<TocEntry>,
}

fn options() -> Options {
    Options::ENABLE_TABLES
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_HEADING_ATTRIBUTES
}

fn cleaner() -> &'static ammonia::Builder<'static> {
    static CLEANER: OnceLock<ammonia::Builder<'static>> = OnceLock::new();
    CLEANER.get_or_init(|| {
        let mut b = ammonia::Builder::default();
        b.url_schemes(["http", "https", "mailto"].into_iter().collect())
            .link_rel(Some("noopener noreferrer"));
        b
    })
}

/// Where a link may point: web, mail, or inside the document / relative.
fn safe_link(dest: &str) -> bool {
    match scheme(dest) {
        None => true,
        Some(s) => matches!(s.as_str(), "http" | "https" | "mailto"),
    }
}

fn is_external(dest: &str) -> bool {
    matches!(scheme(dest).as_deref(), Some("http" | "https"))
}

/// Where an image may come from: web, or an inline raster image.
fn safe_image(dest: &str) -> bool {
    match scheme(dest).as_deref() {
        None | Some("http" | "https") => true,
        Some("data") => {
            let lower = dest.to_ascii_lowercase();
            [
                "data:image/png",
                "data:image/jpeg",
                "data:image/gif",
                "data:image/webp",
            ]
            .iter()
            .any(|p| lower.starts_with(p))
        }
        _ => false,
    }
}

/// The URL scheme, lowercased, ignoring the whitespace and control characters browsers ignore.
fn scheme(dest: &str) -> Option<String> {
    let cleaned: String = dest
        .chars()
        .filter(|c| !c.is_whitespace() && !c.is_control())
        .collect();
    let colon = cleaned.find(':')?;
    let head = &cleaned[..colon];
    if head.is_empty()
        || !head.starts_with(|c: char| c.is_ascii_alphabetic())
        || !head
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    {
        // `./a:b`, `#x:y`, `?q=a:b` are paths, not schemes.
        return None;
    }
    Some(head.to_ascii_lowercase())
}

fn allowed_tags() -> &'static std::collections::HashSet<&'static str> {
    static TAGS: OnceLock<std::collections::HashSet<&'static str>> = OnceLock::new();
    TAGS.get_or_init(|| cleaner().clone_tags())
}

/// Sanitizes one inline HTML tag (pulldown-cmark gives `<kbd>`, `Ctrl` and `</kbd>` as separate
/// events). An opening tag goes through ammonia, which closes what it keeps, so only the opening
/// part is taken back; a closing tag stays when its element is allowed.
fn clean_inline_tag(raw: &str) -> String {
    let trimmed = raw.trim();
    if let Some(rest) = trimmed.strip_prefix("</") {
        let name = rest.trim_end_matches('>').trim().to_ascii_lowercase();
        let valid = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric());
        return if valid && allowed_tags().contains(name.as_str()) {
            format!("</{name}>")
        } else {
            String::new()
        };
    }
    let cleaned = cleaner().clean(raw).to_string();
    let name: String = trimmed
        .trim_start_matches('<')
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    let close = format!("</{name}>");
    match cleaned.strip_suffix(&close) {
        Some(open) if !name.is_empty() && open.starts_with(&format!("<{name}")) => open.to_owned(),
        _ => cleaned,
    }
}

fn escape_attr(s: &str) -> String {
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

/// A URL-safe anchor from heading text: lowercase words joined by `-`.
fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if (c.is_whitespace() || c == '-' || c == '_')
            && !out.ends_with('-')
            && !out.is_empty()
        {
            out.push('-');
        }
    }
    let out = out.trim_end_matches('-').to_owned();
    if out.is_empty() {
        "section".to_owned()
    } else {
        out
    }
}

fn level_number(level: HeadingLevel) -> u8 {
    match level {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

/// A heading being collected: level, explicit id, its inner events.
type Pending<'e> = (HeadingLevel, Option<String>, Vec<Event<'e>>);

enum OpenLink {
    /// Written by pulldown-cmark.
    Plain,
    /// Written as raw HTML (external links, with their extra attributes).
    Raw,
    /// Dropped: its destination was not safe; only its text stays.
    Refused,
}

/// The filter between pulldown-cmark's events and its HTML writer. Events stream through; only
/// a heading's own events are held until its end (its id comes from its text).
#[derive(Default)]
struct Filter<'a> {
    queue: std::collections::VecDeque<Event<'a>>,
    toc: Vec<TocEntry>,
    used: HashMap<String, usize>,
    heading: Option<Pending<'a>>,
    html_block: Option<String>,
    link_stack: Vec<OpenLink>,
    refused_images: usize,
    cleaned: HashMap<String, String>,
}

impl<'a> Filter<'a> {
    fn emit(&mut self, ev: Event<'a>) {
        match &mut self.heading {
            Some((_, _, buf)) => buf.push(ev),
            None => self.queue.push_back(ev),
        }
    }

    /// Raw HTML repeats (the same few tags all over a spec): each distinct fragment is cleaned once.
    fn clean(&mut self, raw: &str, inline: bool) -> String {
        if let Some(done) = self.cleaned.get(raw) {
            return done.clone();
        }
        let done = if inline {
            clean_inline_tag(raw)
        } else {
            cleaner().clean(raw).to_string()
        };
        self.cleaned.insert(raw.to_owned(), done.clone());
        done
    }

    fn process(&mut self, event: Event<'a>) {
        match event {
            Event::Start(Tag::Heading { level, id, .. }) => {
                self.heading = Some((level, id.map(|i| slug(&i)), Vec::new()));
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((level, id, buf)) = self.heading.take() {
                    let text: String = buf
                        .iter()
                        .filter_map(|e| match e {
                            Event::Text(t) | Event::Code(t) => Some(t.as_ref()),
                            _ => None,
                        })
                        .collect();
                    let base = id.unwrap_or_else(|| slug(&text));
                    let n = self.used.entry(base.clone()).or_insert(0);
                    let id = if *n == 0 {
                        base.clone()
                    } else {
                        format!("{base}-{n}")
                    };
                    *n += 1;
                    self.toc.push(TocEntry {
                        level: level_number(level),
                        text: text.trim().to_owned(),
                        id: id.clone(),
                    });
                    self.queue.push_back(Event::Start(Tag::Heading {
                        level,
                        id: Some(CowStr::from(id)),
                        classes: Vec::new(),
                        attrs: Vec::new(),
                    }));
                    self.queue.extend(buf);
                    self.queue.push_back(Event::End(TagEnd::Heading(level)));
                }
            }
            Event::Start(Tag::HtmlBlock) => self.html_block = Some(String::new()),
            Event::End(TagEnd::HtmlBlock) => {
                if let Some(raw) = self.html_block.take() {
                    let clean = self.clean(&raw, false);
                    self.emit(Event::Html(CowStr::from(clean)));
                }
            }
            Event::Html(raw) => match &mut self.html_block {
                Some(block) => block.push_str(&raw),
                None => {
                    let clean = self.clean(&raw, false);
                    self.emit(Event::Html(CowStr::from(clean)));
                }
            },
            Event::InlineHtml(raw) => {
                let clean = self.clean(&raw, true);
                self.emit(Event::InlineHtml(CowStr::from(clean)));
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => {
                if !safe_link(&dest_url) {
                    self.link_stack.push(OpenLink::Refused);
                } else if is_external(&dest_url) && link_type != LinkType::Email {
                    self.link_stack.push(OpenLink::Raw);
                    let mut tag = format!(
                        "<a href=\"{}\" data-external=\"true\" target=\"_blank\" rel=\"noopener noreferrer\"",
                        escape_attr(&dest_url)
                    );
                    if !title.is_empty() {
                        tag.push_str(&format!(" title=\"{}\"", escape_attr(&title)));
                    }
                    tag.push('>');
                    self.emit(Event::InlineHtml(CowStr::from(tag)));
                } else {
                    self.link_stack.push(OpenLink::Plain);
                    self.emit(Event::Start(Tag::Link {
                        link_type,
                        dest_url,
                        title,
                        id,
                    }));
                }
            }
            Event::End(TagEnd::Link) => match self.link_stack.pop() {
                Some(OpenLink::Plain) => self.emit(Event::End(TagEnd::Link)),
                Some(OpenLink::Raw) => self.emit(Event::InlineHtml(CowStr::from("</a>"))),
                Some(OpenLink::Refused) | None => {}
            },
            Event::Start(Tag::Image {
                link_type,
                dest_url,
                title,
                id,
            }) => {
                if safe_image(&dest_url) && self.refused_images == 0 {
                    self.emit(Event::Start(Tag::Image {
                        link_type,
                        dest_url,
                        title,
                        id,
                    }));
                } else {
                    self.refused_images += 1;
                }
            }
            Event::End(TagEnd::Image) => {
                if self.refused_images > 0 {
                    self.refused_images -= 1;
                } else {
                    self.emit(Event::End(TagEnd::Image));
                }
            }
            other => self.emit(other),
        }
    }
}

/// Renders `markdown` to safe HTML with a table of contents.
pub fn render(markdown: &str) -> Rendered {
    let mut parser = Parser::new_ext(markdown, options());
    let mut filter = Filter::default();
    let mut html = String::with_capacity(markdown.len() * 3 / 2);
    let events = std::iter::from_fn(|| {
        loop {
            if let Some(ev) = filter.queue.pop_front() {
                return Some(ev);
            }
            match parser.next() {
                Some(ev) => filter.process(ev),
                // A heading left open at the end (not possible from pulldown-cmark) is dropped.
                None => return None,
            }
        }
    });
    pulldown_cmark::html::push_html(&mut html, events);
    Rendered {
        html,
        toc: filter.toc,
    }
}

/// pulldown-cmark alone on the same options (the benchmark's baseline).
pub fn render_unsanitized(markdown: &str) -> String {
    let mut html = String::with_capacity(markdown.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, Parser::new_ext(markdown, options()));
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    fn html(md: &str) -> String {
        render(md).html
    }

    #[test]
    fn renders_the_spec_features() {
        let out = html(
            "| a | b |\n|---|---|\n| 1 | 2 |\n\n- [x] done\n- [ ] open\n\n~~old~~ text[^1]\n\n[^1]: note\n",
        );
        assert!(out.contains("<table>"), "{out}");
        assert!(
            out.contains("<input disabled=\"\" type=\"checkbox\" checked=\"\"/>"),
            "{out}"
        );
        assert!(out.contains("<del>old</del>"), "{out}");
        assert!(out.contains("class=\"footnote-definition\""), "{out}");
    }

    #[test]
    fn headings_get_unique_ids_and_a_table_of_contents() {
        let r = render(
            "# Overview\n\n## Milestone 1: Setup & CI\n\n## Overview\n\n### Custom {#my-id}\n",
        );
        assert_eq!(
            r.toc,
            vec![
                TocEntry {
                    level: 1,
                    text: "Overview".into(),
                    id: "overview".into()
                },
                TocEntry {
                    level: 2,
                    text: "Milestone 1: Setup & CI".into(),
                    id: "milestone-1-setup-ci".into()
                },
                TocEntry {
                    level: 2,
                    text: "Overview".into(),
                    id: "overview-1".into()
                },
                TocEntry {
                    level: 3,
                    text: "Custom".into(),
                    id: "my-id".into()
                },
            ]
        );
        assert!(
            r.html
                .contains("<h2 id=\"milestone-1-setup-ci\">Milestone 1: Setup &amp; CI</h2>"),
            "{}",
            r.html
        );
    }

    #[test]
    fn code_keeps_its_language_class() {
        assert!(
            html("```rust\nfn main() {}\n```\n")
                .contains("<pre><code class=\"language-rust\">fn main() {}\n</code></pre>")
        );
    }

    #[test]
    fn external_links_are_marked_and_internal_ones_are_not() {
        assert_eq!(
            html("[docs](https://example.com/a?b=\"c\") and [top](#overview)"),
            "<p><a href=\"https://example.com/a?b=&quot;c&quot;\" data-external=\"true\" target=\"_blank\" rel=\"noopener noreferrer\">docs</a> and <a href=\"#overview\">top</a></p>\n"
        );
    }

    #[test]
    fn no_script_survives() {
        let attacks = [
            "<script>alert(1)</script>",
            "<img src=x onerror=alert(1)>",
            "[x](javascript:alert(1))",
            "[x](JaVaScRiPt:alert(1))",
            "[x](java\tscript:alert(1))",
            "[x](&#106;avascript:alert(1))",
            "<javascript:alert(1)>",
            "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
            "![x](javascript:alert(1))",
            "![x](data:image/svg+xml,<svg onload=alert(1)>)",
            "<a href=\"javascript:alert(1)\">x</a>",
            "<div onclick=\"alert(1)\">x</div>",
            "<iframe src=\"https://evil.example\"></iframe>",
            "<svg><script>alert(1)</script></svg>",
            "<style>body{display:none}</style>",
            "<p>ok</p><scr<script>ipt>alert(1)</script>",
            "# Title <img src=x onerror=alert(1)>",
            "[a](<javascript:alert(1)>)",
        ];
        let attr = regex_lite_attrs();
        for md in attacks {
            let out = html(md).to_lowercase();
            for bad in [
                "<script", "onerror=", "onclick=", "onload=", "<iframe", "<style", "<svg",
            ] {
                assert!(!out.contains(bad), "{md:?} -> {out}");
            }
            // Every URL that made it into an attribute is one the rules allow.
            for (name, value) in attr(&out) {
                let ok = if name == "src" {
                    safe_image(&value)
                } else {
                    safe_link(&value)
                };
                assert!(ok, "{md:?} -> {name}={value:?} in {out}");
            }
        }
    }

    /// (attribute, value) of every href/src in `html`, entities decoded as a browser would.
    fn regex_lite_attrs() -> impl Fn(&str) -> Vec<(String, String)> {
        |html: &str| {
            let mut out = Vec::new();
            for name in ["href", "src"] {
                let needle = format!("{name}=\"");
                let mut rest = html;
                while let Some(i) = rest.find(&needle) {
                    let after = &rest[i + needle.len()..];
                    let end = after.find('"').unwrap_or(after.len());
                    let value = after[..end]
                        .replace("&amp;", "&")
                        .replace("&#106;", "j")
                        .replace("&quot;", "\"");
                    out.push((name.to_owned(), value));
                    rest = &after[end..];
                }
            }
            out
        }
    }

    #[test]
    fn refused_links_keep_their_text_and_safe_html_is_kept() {
        assert_eq!(html("[click me](javascript:alert(1))"), "<p>click me</p>\n");
        assert_eq!(html("![logo](javascript:x)"), "<p>logo</p>\n");
        assert_eq!(html("<kbd>Ctrl</kbd>"), "<p><kbd>Ctrl</kbd></p>\n");
        assert_eq!(
            html("<div class=\"note\">\n<b>Hi</b>\n</div>\n"),
            "<div>\n<b>Hi</b>\n</div>\n",
            "a raw HTML block keeps its safe elements (ammonia drops attributes it does not allow)"
        );
        assert!(
            html("![png](data:image/png;base64,iVBORw0KGgo=)")
                .contains("<img src=\"data:image/png;base64,iVBORw0KGgo=\"")
        );
    }

    #[test]
    fn schemes_are_read_as_browsers_read_them() {
        assert_eq!(scheme(" JAVASCRIPT:x").as_deref(), Some("javascript"));
        assert_eq!(scheme("./a:b"), None);
        assert_eq!(scheme("#x:y"), None);
        assert_eq!(scheme("mailto:a@b.c").as_deref(), Some("mailto"));
    }
}
