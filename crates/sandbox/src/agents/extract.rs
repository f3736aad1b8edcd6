//! Reading a fetched page: quoted targets of an instruction, and the data an `output` schema
//! asks for.

use super::run::Page;
use crate::util;
use serde_json::{Map, Value, json};

/// Text in straight or curly double quotes.
pub(super) fn quoted_targets(instruction: &str) -> Vec<String> {
    let re = regex::Regex::new(r#""([^"]+)"|“([^”]+)”"#).expect("static regex");
    re.captures_iter(instruction)
        .filter_map(|c| c.get(1).or_else(|| c.get(2)).map(|m| m.as_str().to_owned()))
        .collect()
}

/// Text lines of a page (tags become line breaks).
fn page_lines(html: &str) -> Vec<String> {
    let re = regex::Regex::new(r"(?s)<[^>]*>").expect("static regex");
    re.replace_all(html, "\n")
        .lines()
        .map(util::html_text)
        .filter(|l| !l.is_empty())
        .collect()
}

/// Inner HTML of every element whose id, name, itemprop or data-field is `name`, or whose class
/// list holds `name` (the element ends at the next closing tag of its name).
fn elements(html: &str, name: &str) -> Vec<String> {
    let open = regex::Regex::new(r"(?is)<([a-z][a-z0-9]*)\b([^>]*)>").expect("static regex");
    let attr =
        regex::Regex::new(r#"(?is)\b(id|name|itemprop|data-field|class)\s*=\s*["']([^"']*)["']"#)
            .expect("static regex");
    let lower = html.to_lowercase();
    let mut out = Vec::new();
    for c in open.captures_iter(html) {
        let hit = attr.captures_iter(&c[2]).any(|a| {
            if a[1].eq_ignore_ascii_case("class") {
                a[2].split_whitespace().any(|w| w == name)
            } else {
                &a[2] == name
            }
        });
        if !hit {
            continue;
        }
        let tag = c[1].to_lowercase();
        let start = c.get(0).map_or(0, |m| m.end());
        let end = lower[start..]
            .find(&format!("</{tag}"))
            .map_or(html.len(), |p| start + p);
        out.push(html[start..end].to_owned());
    }
    out
}

/// Text of every element named `name` (see [`elements`]), or the content of a `<meta>` of that name.
fn element_texts(html: &str, name: &str) -> Vec<String> {
    let mut out: Vec<String> = elements(html, name)
        .iter()
        .map(|inner| util::html_text(inner))
        .filter(|t| !t.is_empty())
        .collect();
    if out.is_empty() {
        let n = regex::escape(name);
        let meta = format!(
            r#"(?is)<meta\b[^>]*\b(?:name|property)\s*=\s*["']{n}["'][^>]*\bcontent\s*=\s*["']([^"']*)["']"#
        );
        if let Ok(re) = regex::Regex::new(&meta) {
            out.extend(re.captures_iter(html).map(|c| c[1].to_owned()));
        }
    }
    out
}

fn labelled(lines: &[String], name: &str) -> Option<String> {
    let re = regex::Regex::new(&format!(r"(?i)^\s*{}\s*[:=]\s*(.+)$", regex::escape(name))).ok()?;
    lines
        .iter()
        .find_map(|l| re.captures(l).map(|c| c[1].trim().to_owned()))
}

fn typed(raw: &str, ty: &str) -> Option<Value> {
    match ty {
        "number" | "integer" => {
            let re = regex::Regex::new(r"-?\d[\d,]*(?:\.\d+)?").expect("static regex");
            let m = re.find(raw)?.as_str().replace(',', "");
            if ty == "integer" {
                m.parse::<f64>().ok().map(|f| json!(f.trunc() as i64))
            } else {
                m.parse::<f64>().ok().map(|f| json!(f))
            }
        }
        "boolean" => match raw.trim().to_lowercase().as_str() {
            "true" | "yes" | "on" | "1" => Some(json!(true)),
            "false" | "no" | "off" | "0" => Some(json!(false)),
            _ => None,
        },
        _ => Some(json!(raw)),
    }
}

/// Extracts one property from the page by its schema type; `None` when not found.
fn extract_prop(
    name: &str,
    schema: &Value,
    page: &Page,
    title: &str,
    lines: &[String],
) -> Option<Value> {
    let ty = schema
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("string");
    let lower = name.to_lowercase();
    if ty == "array" {
        let item_ty = schema
            .pointer("/items/type")
            .and_then(Value::as_str)
            .unwrap_or("string");
        let mut items = element_texts(&page.html, name);
        if items.len() == 1 {
            // A container: its list items.
            let li = regex::Regex::new(r"(?is)<li\b[^>]*>(.*?)</li>").ok()?;
            let lis: Vec<String> = elements(&page.html, name)
                .iter()
                .flat_map(|inner| {
                    li.captures_iter(inner)
                        .map(|m| util::html_text(&m[1]))
                        .collect::<Vec<_>>()
                })
                .collect();
            if !lis.is_empty() {
                items = lis;
            }
        }
        if items.is_empty() && lower == "links" {
            let a = regex::Regex::new(r#"(?is)<a\b[^>]*href\s*=\s*["']([^"']+)["']"#).ok()?;
            items = a
                .captures_iter(&page.html)
                .map(|c| c[1].to_owned())
                .collect();
        }
        if items.is_empty() {
            return None;
        }
        return Some(Value::Array(
            items.iter().filter_map(|i| typed(i, item_ty)).collect(),
        ));
    }
    if ty == "object" {
        let props = schema.get("properties").and_then(Value::as_object)?;
        let mut obj = Map::new();
        for (k, s) in props {
            if let Some(v) = extract_prop(k, s, page, title, lines) {
                obj.insert(k.clone(), v);
            }
        }
        return (!obj.is_empty()).then_some(Value::Object(obj));
    }
    let raw = if matches!(lower.as_str(), "title" | "pagetitle" | "page_title") && !title.is_empty()
    {
        Some(title.to_owned())
    } else if lower == "url" {
        Some(page.url.clone())
    } else {
        element_texts(&page.html, name)
            .into_iter()
            .next()
            .or_else(|| labelled(lines, name))
            .or_else(|| {
                (matches!(lower.as_str(), "heading" | "h1"))
                    .then(|| element_texts_tag(&page.html, "h1"))
                    .flatten()
            })
    }?;
    typed(&raw, ty)
}

fn element_texts_tag(html: &str, tag: &str) -> Option<String> {
    let re = regex::Regex::new(&format!(r"(?is)<{tag}\b[^>]*>(.*?)</{tag}>")).ok()?;
    re.captures(html).map(|c| util::html_text(&c[1]))
}

/// Data for an `output` schema: (data, missing required properties).
pub(super) fn extract(
    schema: &Value,
    page: &Page,
    title: &str,
    instruction: &str,
) -> (Value, Vec<String>) {
    let lines = page_lines(&page.html);
    let mut obj = Map::new();
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (k, s) in props {
            if let Some(v) = extract_prop(k, s, page, title, &lines) {
                obj.insert(k.clone(), v);
            }
        }
        // A yes/no check with its evidence (an acceptance criterion), not fields of the page.
        let asks = |k: &str, t: &str| props.get(k).and_then(|p| p.get("type")) == Some(&json!(t));
        if asks("passed", "boolean") && !obj.contains_key("passed") {
            let (passed, evidence) = check_claim(instruction, title, &lines);
            obj.insert("passed".into(), Value::Bool(passed));
            if asks("evidence", "string") && !obj.contains_key("evidence") {
                obj.insert("evidence".into(), Value::String(evidence));
            }
        }
    }
    let missing: Vec<String> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| {
            r.iter()
                .filter_map(Value::as_str)
                .filter(|k| !obj.contains_key(*k))
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default();
    (Value::Object(obj), missing)
}

/// Words too common to tell one claim from another.
const COMMON_WORDS: &[&str] = &[
    "able", "also", "been", "check", "each", "from", "have", "into", "must", "only", "page",
    "should", "that", "their", "them", "then", "there", "they", "this", "user", "users", "were",
    "what", "when", "which", "will", "with", "your",
];

/// Judges an instruction's claim against a page: its quoted phrases, which must all be on the
/// page, else its words of four letters or more (before any "(story: …)", after a leading
/// "Check this on the page:"), of which at least three in five must be (plain words rarely
/// match a page word for word). Title and text are searched; the evidence names what was found
/// and what is missing.
pub(super) fn check_claim(instruction: &str, title: &str, lines: &[String]) -> (bool, String) {
    let claim = instruction.split("(story:").next().unwrap_or(instruction);
    let claim = match claim.split_once(':') {
        Some((head, rest)) if head.to_lowercase().starts_with("check") => rest,
        _ => claim,
    };
    let quoted = quoted_targets(claim);
    let exact = !quoted.is_empty();
    let terms: Vec<String> = if !exact {
        let mut words: Vec<String> = claim
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.chars().count() >= 4)
            .map(str::to_lowercase)
            .filter(|w| !COMMON_WORDS.contains(&w.as_str()))
            .collect();
        words.dedup();
        words
    } else {
        quoted
    };
    let text = format!("{title}\n{}", lines.join("\n")).to_lowercase();
    let missing: Vec<&String> = terms
        .iter()
        .filter(|t| !text.contains(&t.to_lowercase()))
        .collect();
    let list = |items: &mut dyn Iterator<Item = &String>| {
        items
            .map(|t| format!("“{t}”"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if terms.is_empty() {
        return (
            false,
            "The instruction names nothing to look for on the page.".into(),
        );
    }
    let found: Vec<&String> = terms.iter().filter(|t| !missing.contains(t)).collect();
    let passed = if exact {
        missing.is_empty()
    } else {
        found.len() * 5 >= terms.len() * 3
    };
    let mut evidence = if found.is_empty() {
        format!("Nothing of it is on the page “{title}”")
    } else {
        format!("The page “{title}” shows {}", list(&mut found.into_iter()))
    };
    if !missing.is_empty() {
        evidence.push_str(&format!("; not there: {}", list(&mut missing.into_iter())));
    }
    evidence.push('.');
    (passed, evidence)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(html: &str) -> Vec<String> {
        page_lines(html)
    }

    #[test]
    fn a_claim_passes_when_everything_it_names_is_on_the_page() {
        let page =
            lines("<h1>Your basket</h1><p>2 items · Total 49.00 EUR</p><button>Checkout</button>");
        assert_eq!(
            check_claim(
                "Check this on the page: The basket shows the total and a checkout button (story: Pay for the basket)",
                "Basket",
                &page,
            ),
            (true, "The page “Basket” shows “basket”, “total”, “checkout”; not there: “shows”, “button”.".into())
        );
        assert_eq!(
            check_claim(
                "Check this on the page: A coupon field is offered (story: Discounts)",
                "Basket",
                &page
            ),
            (
                false,
                "Nothing of it is on the page “Basket”; not there: “coupon”, “field”, “offered”."
                    .into()
            )
        );
        assert_eq!(
            check_claim(
                r#"Check that "Total" and "Pay now" appear"#,
                "Basket",
                &page
            ),
            (
                false,
                "The page “Basket” shows “Total”; not there: “Pay now”.".into()
            )
        );
    }
}
