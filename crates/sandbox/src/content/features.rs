//! Reading the input: the features it names (bullets, or the clauses after a cue) and a short
//! title for the project.

use super::strip_markers;
use crate::util::{capitalize, words};

const CUES: &[&str] = &[
    "should be able to ",
    "users can ",
    "user can ",
    "people can ",
    "lets users ",
    "allows users to ",
    "that lets ",
    " can ",
    " should ",
    " where ",
    " with ",
    " that ",
    ": ",
];

const LEAD_INS: &[&str] = &[
    "and ",
    "also ",
    "to ",
    "be able to ",
    "users ",
    "they can ",
    "can ",
    "then ",
    "or ",
];

/// The features named in a description (bullets, or clauses of sentences), at most 12.
pub fn extract_features(text: &str) -> Vec<String> {
    let text = strip_markers(text);
    let bullet = regex::Regex::new(r"^\s*(?:[-*•+]|\d+[.)])\s+(.+)$").expect("static regex");
    let mut raw: Vec<String> = text
        .lines()
        .filter_map(|l| bullet.captures(l).map(|c| c[1].to_owned()))
        .collect();
    if raw.is_empty() {
        let splitter =
            regex::Regex::new(r"(?i),|;| and | & | as well as | plus ").expect("static regex");
        for sentence in text.split(['.', '!', '?', '\n']) {
            let s = sentence.trim();
            if s.is_empty() {
                continue;
            }
            let lower = s.to_lowercase();
            let after = CUES
                .iter()
                .filter_map(|c| lower.find(c).map(|i| i + c.len()))
                .min()
                .map(|i| &s[i..])
                .unwrap_or(s);
            for part in splitter.split(after) {
                raw.push(part.to_owned());
            }
        }
    }
    let mut out: Vec<String> = Vec::new();
    for r in raw {
        let mut f = r
            .trim()
            .trim_matches(|c: char| c.is_ascii_punctuation() || c.is_whitespace())
            .to_owned();
        loop {
            let lower = f.to_lowercase();
            match LEAD_INS.iter().find(|l| lower.starts_with(*l)) {
                Some(l) => f = f[l.len()..].trim().to_owned(),
                None => break,
            }
        }
        let n = words(&f).len();
        if n == 0 || n > 12 {
            continue;
        }
        let f = capitalize(&f);
        if !out.iter().any(|o| o.eq_ignore_ascii_case(&f)) {
            out.push(f);
        }
        if out.len() == 12 {
            break;
        }
    }
    out
}

/// A short title for the project.
pub fn title_of(text: &str) -> String {
    let text = strip_markers(text);
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    let first = first.split(['.', '!', '?']).next().unwrap_or("");
    let lower = first.to_lowercase();
    let cut = CUES
        .iter()
        .filter_map(|c| lower.find(c))
        .min()
        .unwrap_or(first.len());
    let mut t = first[..cut]
        .trim()
        .trim_start_matches(['-', '*', '#'])
        .trim()
        .to_owned();
    for p in [
        "build ", "create ", "make ", "i want ", "we need ", "we want ", "design ",
    ] {
        if t.to_lowercase().starts_with(p) {
            t = t[p.len()..].to_owned();
        }
    }
    for p in ["a ", "an ", "the "] {
        if t.to_lowercase().starts_with(p) {
            t = t[p.len()..].to_owned();
        }
    }
    let t: Vec<&str> = t.split_whitespace().take(8).collect();
    if t.is_empty() {
        "Untitled project".to_owned()
    } else {
        capitalize(&t.join(" "))
    }
}
