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
            .link_rel(Some("noopener noreferrer"))
            // Images load from the web over https only (raw HTML gets no `data:`, no relative
            // source and no http, which could reach services on this computer).
            .attribute_filter(|element, attribute, value| {
                if element == "img"
                    && attribute == "src"
                    && scheme(value).as_deref() != Some("https")
                {
                    None
                } else {
                    Some(value.into())
                }
            });
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

/// Where an image may come from: the web over https, or an inline raster image (never SVG, which
/// can hold script; never a relative path, which has nothing to point at in the app; never plain
/// http, which a document could aim at services on this computer: loading an image is a request).
fn safe_image(dest: &str) -> bool {
    match scheme(dest).as_deref() {
        Some("https") => true,
        Some("data") => {
            let lower = dest.trim_start().to_ascii_lowercase();
            ["image/png", "image/jpeg", "image/gif", "image/webp"]
                .iter()
                .any(|mime| {
                    lower
                        .strip_prefix("data:")
                        .and_then(|rest| rest.strip_prefix(mime))
                        .is_some_and(|rest| rest.starts_with([';', ',']))
                })
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
    let tag = match cleaned.strip_suffix(&close) {
        Some(open) if !name.is_empty() && open.starts_with(&format!("<{name}")) => open.to_owned(),
        _ => cleaned,
    };
    mark_external_anchors(tag)
}

/// Closing tags ammonia added at the end of a cleaned fragment for elements the fragment leaves
/// open (`<details><summary>S</summary>` comes back closed), removed so the markdown between this
/// fragment and the one that closes the element stays inside it. An element counts as left open
/// when the raw fragment opens it more often than it closes it.
fn strip_added_closers(raw: &str, mut cleaned: String) -> String {
    let raw = raw.to_ascii_lowercase();
    let mut left_open: HashMap<String, usize> = HashMap::new();
    loop {
        let trimmed = cleaned.trim_end();
        let Some(start) = trimmed.rfind("</") else {
            break;
        };
        let closer = &trimmed[start..];
        let name = closer[2..].trim_end_matches('>');
        if !closer.ends_with('>')
            || name.is_empty()
            || !name.chars().all(|c| c.is_ascii_alphanumeric())
        {
            break;
        }
        let open = left_open
            .entry(name.to_owned())
            .or_insert_with(|| unclosed(&raw, name));
        if *open == 0 {
            break;
        }
        *open -= 1;
        let keep = trimmed.len() - closer.len();
        let trailing = cleaned[trimmed.len()..].to_owned();
        cleaned.truncate(keep);
        cleaned.push_str(&trailing);
    }
    cleaned
}

/// How many more times `raw` (lowercase) opens element `name` than it closes it.
fn unclosed(raw: &str, name: &str) -> usize {
    let count = |prefix: &str| {
        raw.match_indices(prefix)
            .filter(|(i, m)| {
                raw[i + m.len()..]
                    .chars()
                    .next()
                    .is_none_or(|c| !c.is_ascii_alphanumeric())
            })
            .count()
    };
    count(&format!("<{name}")).saturating_sub(count(&format!("</{name}")))
}

/// A fragment made only of closing tags (`</details>`): the allowed ones, as written; `None` when
/// the fragment holds anything else.
fn closing_tags_only(raw: &str) -> Option<String> {
    let mut rest = raw.trim();
    if !rest.starts_with("</") {
        return None;
    }
    let mut out = String::new();
    while !rest.is_empty() {
        let body = rest.strip_prefix("</")?;
        let end = body.find('>')?;
        let name = body[..end].trim().to_ascii_lowercase();
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric()) {
            return None;
        }
        if allowed_tags().contains(name.as_str()) {
            out.push_str(&format!("</{name}>"));
        }
        rest = body[end + 1..].trim_start();
    }
    if raw.ends_with('\n') {
        out.push('\n');
    }
    Some(out)
}

/// Marks the web links of ammonia's output as external, like markdown links: `data-external`
/// and `target="_blank"` (ammonia already added `rel="noopener noreferrer"`).
fn mark_external_anchors(html: String) -> String {
    if !html.contains("<a ") {
        return html;
    }
    let mut out = String::with_capacity(html.len() + 64);
    let mut rest = html.as_str();
    while let Some(i) = rest.find("<a ") {
        out.push_str(&rest[..i]);
        let tag_and_after = &rest[i..];
        // Ammonia double-quotes every attribute value; `>` may appear inside one.
        let mut in_quotes = false;
        let end = tag_and_after
            .char_indices()
            .find(|&(_, c)| {
                if c == '"' {
                    in_quotes = !in_quotes;
                }
                c == '>' && !in_quotes
            })
            .map_or(tag_and_after.len(), |(j, _)| j);
        let tag = &tag_and_after[..end];
        let external = tag
            .find(" href=\"")
            .map(|h| &tag[h + 7..])
            .and_then(|v| v.split('"').next())
            .is_some_and(is_external);
        match tag.find(" rel=\"") {
            Some(r) if external => {
                out.push_str(&tag[..r]);
                out.push_str(" data-external=\"true\" target=\"_blank\"");
                out.push_str(&tag[r..]);
            }
            _ => out.push_str(tag),
        }
        rest = &tag_and_after[end..];
    }
    out.push_str(rest);
    out
}

/// Cleans one raw HTML block.
fn clean_block(raw: &str) -> String {
    if let Some(closers) = closing_tags_only(raw) {
        return closers;
    }
    let cleaned = cleaner().clean(raw).to_string();
    mark_external_anchors(strip_added_closers(raw, cleaned))
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
            clean_block(raw)
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

    /// XSS payloads in markdown and in raw HTML, with the exact output each gives.
    const ATTACKS: &[(&str, &str)] = &[
        ("<script>alert(1)</script>", ""),
        ("<img src=x onerror=alert(1)>", "<img>"),
        ("[x](javascript:alert(1))", "<p>x</p>\n"),
        ("[x](JaVaScRiPt:alert(1))", "<p>x</p>\n"),
        ("[x](&#106;avascript:alert(1))", "<p>x</p>\n"),
        ("[a](<javascript:alert(1)>)", "<p>a</p>\n"),
        ("[x][r]\n\n[r]: javascript:alert(1)\n", "<p>x</p>\n"),
        (
            "[x](java\tscript:alert(1))",
            "<p>[x](java\tscript:alert(1))</p>\n",
        ),
        ("<javascript:alert(1)>", "<p>javascript:alert(1)</p>\n"),
        (
            "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
            "<p>x</p>\n",
        ),
        ("![x](javascript:alert(1))", "<p>x</p>\n"),
        (
            "![x](data:image/svg+xml,<svg onload=alert(1)>)",
            "<p>![x](data:image/svg+xml,)</p>\n",
        ),
        ("![x](data:image/svg+xml;base64,PHN2Zz4=)", "<p>x</p>\n"),
        ("![x](data:text/html,hi)", "<p>x</p>\n"),
        ("![rel](images/a.png)", "<p>rel</p>\n"),
        (
            "[![img](javascript:x)](https://example.com)",
            "<p><a href=\"https://example.com\" data-external=\"true\" target=\"_blank\" rel=\"noopener noreferrer\">img</a></p>\n",
        ),
        (
            "[x](https://example.com \"a\\\" onmouseover=\\\"alert(1)\")",
            "<p><a href=\"https://example.com\" data-external=\"true\" target=\"_blank\" rel=\"noopener noreferrer\" title=\"a&quot; onmouseover=&quot;alert(1)\">x</a></p>\n",
        ),
        (
            "```\"><script>alert(1)</script>\ncode\n```\n",
            "<pre><code class=\"language-&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\">code\n</code></pre>\n",
        ),
        (
            "# Title <img src=x onerror=alert(1)>",
            "<h1 id=\"title\">Title <img></h1>\n",
        ),
        (
            "<a href=\"javascript:alert(1)\">x</a>",
            "<p><a rel=\"noopener noreferrer\">x</a></p>\n",
        ),
        (
            "<a href=\"  javascript:alert(1)\">sp</a>",
            "<p><a rel=\"noopener noreferrer\">sp</a></p>\n",
        ),
        (
            "<a href=\"data:text/html,x\">d</a>",
            "<p><a rel=\"noopener noreferrer\">d</a></p>\n",
        ),
        ("<img src=\"data:image/png;base64,AAAA\">", "<img>"),
        (
            "<img src=\"https://example.com/a.png\" onerror=\"alert(1)\" alt=\"a\">",
            "<img src=\"https://example.com/a.png\" alt=\"a\">",
        ),
        ("<div onclick=\"alert(1)\">x</div>", "<div>x</div>"),
        (
            "see <a href=\"https://example.com\" onclick=\"x()\">site</a> now",
            "<p>see <a href=\"https://example.com\" data-external=\"true\" target=\"_blank\" rel=\"noopener noreferrer\">site</a> now</p>\n",
        ),
        (
            "<a href=\"https://example.com\" target=\"_self\">t</a>",
            "<p><a href=\"https://example.com\" data-external=\"true\" target=\"_blank\" rel=\"noopener noreferrer\">t</a></p>\n",
        ),
        ("<iframe src=\"https://evil.example\"></iframe>", ""),
        ("<svg><script>alert(1)</script></svg>", "<p>alert(1)</p>\n"),
        ("<style>body{display:none}</style>", ""),
        ("<form action=\"https://x\"><input name=a></form>", ""),
        (
            "<object data=\"x.swf\"></object><embed src=\"x\">",
            "<p></p>\n",
        ),
        (
            "<math><mi xlink:href=\"javascript:alert(1)\">x</mi></math>",
            "<p>x</p>\n",
        ),
        ("<!-- <script>alert(1)</script> -->", ""),
        (
            "<p>ok</p><scr<script>ipt>alert(1)</script>",
            "<p>ok</p>ipt&gt;alert(1)",
        ),
        (
            "<div>x</div><script>y</script>\n\nafter\n",
            "<div>x</div>\n<p>after</p>\n",
        ),
    ];

    #[test]
    fn xss_payloads_give_exactly_the_safe_output() {
        for (md, expected) in ATTACKS {
            assert_eq!(&html(md), expected, "for {md:?}");
        }
    }

    #[test]
    fn no_script_survives() {
        let attr = regex_lite_attrs();
        for (md, _) in ATTACKS {
            let out = html(md).to_lowercase();
            for bad in [
                "<script",
                "onerror=",
                "onclick=",
                "onload=",
                "onmouseover=\"",
                "<iframe",
                "<style",
                "<svg",
                "<form",
                "<object",
                "<embed",
                "=\"javascript",
                "=\"data:text",
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

    #[test]
    fn raw_html_keeps_its_structure_around_markdown() {
        assert_eq!(
            html("<details><summary>S</summary>\n\nBody\n\n</details>\n"),
            "<details><summary>S</summary>\n<p>Body</p>\n</details>\n"
        );
        assert_eq!(
            html("<div><div>\n\ninside\n\n</div></div>\n"),
            "<div><div>\n<p>inside</p>\n</div></div>\n"
        );
        assert_eq!(
            html(
                "<div>\n<a href=\"https://example.com/x?a=1&b=2\">ext</a> <a href=\"#top\">top</a>\n</div>\n"
            ),
            "<div>\n<a href=\"https://example.com/x?a=1&amp;b=2\" data-external=\"true\" target=\"_blank\" rel=\"noopener noreferrer\">ext</a> <a href=\"#top\" rel=\"noopener noreferrer\">top</a>\n</div>\n"
        );
        assert_eq!(
            closing_tags_only("</script></DIV >\n").as_deref(),
            Some("</div>\n"),
            "only allowed closers"
        );
        assert_eq!(closing_tags_only("</div> text"), None);
        assert_eq!(closing_tags_only("<div>"), None);
    }

    #[test]
    fn images_are_web_or_inline_raster_only() {
        assert_eq!(
            html("![ok](https://example.com/a.png \"t\")"),
            "<p><img src=\"https://example.com/a.png\" alt=\"ok\" title=\"t\" /></p>\n"
        );
        assert_eq!(
            html("![gif](data:image/gif;base64,R0lGOD==)"),
            "<p><img src=\"data:image/gif;base64,R0lGOD==\" alt=\"gif\" /></p>\n"
        );
        assert!(safe_image("data:image/webp,xyz"));
        assert!(!safe_image("data:image/pngx;base64,AA"));
        assert!(!safe_image("data:image/svg+xml,<svg/>"));
        assert!(!safe_image("/local.png"));
        assert!(!safe_image("file:///etc/passwd"));
        assert!(!safe_image("http://127.0.0.1:6379/x.png"));
        assert_eq!(
            html("![local](http://127.0.0.1:8080/x.png) <img src=\"http://localhost/y.png\">"),
            "<p>local <img></p>\n"
        );
    }

    #[test]
    fn mail_links_are_kept_and_not_external() {
        assert_eq!(
            html("[m](mailto:a@b.c) <a@b.c> <https://example.com>"),
            "<p><a href=\"mailto:a@b.c\">m</a> <a href=\"mailto:a@b.c\">a@b.c</a> <a href=\"https://example.com\" data-external=\"true\" target=\"_blank\" rel=\"noopener noreferrer\">https://example.com</a></p>\n"
        );
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
