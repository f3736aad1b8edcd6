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
mod tests;
