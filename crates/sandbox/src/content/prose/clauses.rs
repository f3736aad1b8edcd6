//! Sentences, the region of each that names requirements, and its items.

use super::grammar::{base_of_third, is_verb, lc};
use super::lexicon::{DETERMINERS, HEAD_NOUNS, MODALS, PRODUCT_SUBJECTS};

pub(super) fn trim_item(s: &str) -> &str {
    let mut t = s.trim_matches(|c: char| {
        c.is_whitespace() || ".,;:!?\"'`*_~…。、！？¿¡-–—[]{}<>|/\\".contains(c)
    });
    // Keep a closing parenthesis only when it closes one.
    while t.ends_with(')') && t.matches('(').count() < t.matches(')').count() {
        t = t[..t.len() - 1].trim_end();
    }
    while t.starts_with('(') && t.matches('(').count() > t.matches(')').count() {
        t = t[1..].trim_start();
    }
    t
}

/// Splits a region into items at commas, semicolons, "and", "plus"…, keeping pairs such as
/// "drag and drop".
pub(super) fn split_items(region: &str) -> Vec<(String, bool)> {
    let protected = [
        "drag and drop",
        "terms and conditions",
        "pros and cons",
        "black and white",
        "q and a",
        "question and answer",
        "sign in and out",
        "in and out",
        "back and forth",
        "rock and roll",
        "salt and pepper",
        "bed and breakfast",
    ];
    let mut text = region.to_owned();
    for p in protected {
        let l = lc(&text);
        if let Some(i) = l.find(p) {
            let seg = &text[i..i + p.len()];
            let joined = seg.replace(" and ", "\u{1}");
            text = format!("{}{}{}", &text[..i], joined, &text[i + p.len()..]);
        }
    }
    let re = regex::Regex::new(
        r"(?i)\s*(?:[,;]|\band\b|\s&\s|\bas well as\b|\bplus\b|\balong with\b)\s*",
    )
    .expect("static regex");
    let mut out = Vec::new();
    let mut last = 0;
    for m in re.find_iter(&text) {
        out.push((text[last..m.start()].replace('\u{1}', " and "), true));
        last = m.end();
    }
    out.push((text[last..].replace('\u{1}', " and "), true));
    out
}

/// The cue in a sentence after which its requirements start, and who is doing them.
pub(super) struct Region {
    pub(super) text: String,
    pub(super) actor: Option<String>,
    pub(super) by_product: bool,
}

pub(super) fn word_spans(s: &str) -> Vec<(usize, usize)> {
    let mut v = Vec::new();
    let mut start = None;
    for (i, c) in s.char_indices() {
        if c.is_whitespace() {
            if let Some(st) = start.take() {
                v.push((st, i));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(st) = start {
        v.push((st, s.len()));
    }
    v
}

pub(super) fn clean_word(w: &str) -> String {
    lc(w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\''))
}

/// After a cue: "dog owners can book…" → actor "dog owners", text "book…".
pub(super) fn subject_and_rest(s: &str) -> (Option<String>, String) {
    let spans = word_spans(s);
    let words: Vec<String> = spans.iter().map(|(a, b)| clean_word(&s[*a..*b])).collect();
    for i in 0..spans.len().min(6) {
        let w = words[i].as_str();
        if MODALS.contains(&w) {
            let mut end = spans[i].1;
            let mut j = i + 1;
            while j < words.len()
                && ["also", "easily", "quickly", "then"].contains(&words[j].as_str())
            {
                end = spans[j].1;
                j += 1;
            }
            if j + 2 < words.len() + 1
                && words.get(j).map(String::as_str) == Some("be")
                && words.get(j + 1).map(String::as_str) == Some("able")
                && words.get(j + 2).map(String::as_str) == Some("to")
            {
                end = spans[j + 2].1;
            }
            let subject = s[..spans[i].0].trim();
            if subject.contains(',') || words[..i].iter().any(|w| is_verb(w)) {
                break;
            }
            return (
                (!subject.is_empty()).then(|| subject.to_owned()),
                s[end..].trim().to_owned(),
            );
        }
        if [
            "lets", "let", "allows", "allow", "helps", "help", "enables", "enable",
        ]
        .contains(&w)
        {
            // "lets dog owners book…": the actor runs to the next verb.
            for k in i + 1..(i + 6).min(words.len()) {
                if words[k] == "to" && k + 1 < words.len() && is_verb(&words[k + 1]) {
                    let actor = s[spans[i].1..spans[k].0].trim();
                    return (
                        (!actor.is_empty()).then(|| actor.to_owned()),
                        s[spans[k].1..].trim().to_owned(),
                    );
                }
                if is_verb(&words[k]) && k > i + 1 {
                    let actor = s[spans[i].1..spans[k].0].trim();
                    return (Some(actor.to_owned()), s[spans[k].0..].trim().to_owned());
                }
            }
        }
        if (w == "want" || w == "wants" || w == "need" || w == "needs" || w == "has" || w == "have")
            && words.get(i + 1).map(String::as_str) == Some("to")
        {
            let subject = s[..spans[i].0].trim();
            return (
                (!subject.is_empty()).then(|| subject.to_owned()),
                s[spans[i + 1].1..].trim().to_owned(),
            );
        }
        // "teachers post homework": a plural subject, then the verb and its object.
        if i > 0
            && i <= 2
            && is_verb(w)
            && i + 1 < words.len()
            && words[i - 1].ends_with('s')
            && !words[..i]
                .iter()
                .any(|x| is_verb(x) || DETERMINERS.contains(&x.as_str()))
        {
            let subject = s[..spans[i].0].trim();
            return (Some(subject.to_owned()), s[spans[i].0..].trim().to_owned());
        }
        if is_verb(w) || base_of_third(w).is_some() && i == 0 {
            break;
        }
    }
    (None, s.to_owned())
}

pub(super) fn is_product_subject(subject: &str) -> bool {
    let l = lc(subject.trim());
    PRODUCT_SUBJECTS.contains(&l.as_str())
        || l.split_whitespace()
            .last()
            .is_some_and(|w| HEAD_NOUNS.contains(&w) && l.split_whitespace().count() <= 3)
            && (l.starts_with("the ") || l.starts_with("this ") || l.starts_with("our "))
}

/// The requirements part of one sentence (`first`: the sentence that names the product).
pub(super) fn region_of(sentence: &str, first: bool) -> Option<Region> {
    let l = lc(sentence);
    let spans = word_spans(sentence);
    let first_word = spans
        .first()
        .map(|(a, b)| clean_word(&sentence[*a..*b]))
        .unwrap_or_default();
    if !first && (is_verb(&first_word) || MODALS.contains(&first_word.as_str())) {
        let (actor, rest) = subject_and_rest(sentence);
        return Some(Region {
            text: rest,
            actor,
            by_product: false,
        });
    }
    let cues: &[&str] = &[
        " where ",
        " in which ",
        " that ",
        " which ",
        " so that ",
        " so ",
        " with ",
        ": ",
        " lets ",
        " let ",
        " allows ",
        " allow ",
        " helps ",
        " help ",
        " enables ",
        " to ",
    ];
    let mut best: Option<(usize, &str)> = None;
    for c in cues {
        let mut from = 0;
        while let Some(i) = l[from..].find(c) {
            let at = from + i;
            from = at + c.len();
            if *c == " to " {
                // Purpose only after a product noun: "an app to track runs".
                let before = l[..at].split_whitespace().last().unwrap_or("");
                let next = l[at + c.len()..].split_whitespace().next().unwrap_or("");
                if !(HEAD_NOUNS.contains(&before) || first && is_verb(&clean_word(next))) {
                    continue;
                }
            }
            if best.is_none_or(|(b, _)| at < b) {
                best = Some((at, c));
            }
            break;
        }
    }
    // A subject and a modal before any cue: "Users can …", "The app should …".
    let (modal_actor, modal_rest) = subject_and_rest(sentence);
    if modal_rest.len() != sentence.len() {
        let modal_at = sentence.len() - modal_rest.len();
        if best.is_none_or(|(b, _)| modal_at <= b + 1) {
            let by_product = modal_actor.as_deref().is_some_and(is_product_subject);
            return Some(Region {
                text: modal_rest,
                actor: if by_product { None } else { modal_actor },
                by_product,
            });
        }
    }
    if let Some((at, cue)) = best {
        let after = sentence[at + cue.len()..].trim();
        let head_before = l[..at].split_whitespace().last().unwrap_or("");
        if matches!(
            cue.trim(),
            "lets" | "let" | "allows" | "allow" | "helps" | "help" | "enables"
        ) {
            let (actor, rest) = subject_and_rest(&format!("{} {after}", cue.trim()));
            return Some(Region {
                text: rest,
                actor,
                by_product: false,
            });
        }
        let (actor, rest) = subject_and_rest(after);
        let that_product = matches!(cue.trim(), "that" | "which")
            && actor.is_none()
            && (first || HEAD_NOUNS.contains(&head_before));
        let by_product = actor.as_deref().is_some_and(is_product_subject) || that_product;
        return Some(Region {
            text: rest,
            actor: if by_product { None } else { actor },
            by_product,
        });
    }
    if first {
        return None;
    }
    // A subject doing something: "The app sends reminders", "It syncs with Google Drive".
    if spans.len() >= 2 {
        for k in 1..spans.len().min(4) {
            let w = clean_word(&sentence[spans[k].0..spans[k].1]);
            if base_of_third(&w).is_some() && k + 1 < spans.len() {
                let subject = sentence[..spans[k].0].trim();
                if is_product_subject(subject) {
                    return Some(Region {
                        text: sentence[spans[k].0..].to_owned(),
                        actor: None,
                        by_product: true,
                    });
                }
            }
        }
    }
    // A short noun sentence: "Dark mode too."
    if spans.len() <= 8 {
        return Some(Region {
            text: sentence.to_owned(),
            actor: None,
            by_product: false,
        });
    }
    None
}

pub(super) fn sentences_of(line: &str) -> Vec<String> {
    let re = regex::Regex::new(r"[.!?。！？]+(?:\s+|$)").expect("static regex");
    re.split(line)
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .collect()
}

pub(super) fn bullet_re() -> regex::Regex {
    regex::Regex::new(r"^\s*(?:[-*•+]|\d+[.)])\s+(.+)$").expect("static regex")
}

pub(super) fn strip_lead(s: &str, leads: &[&str]) -> String {
    let mut t = s.trim().to_owned();
    loop {
        let l = lc(&t);
        let hit = leads.iter().find(|p| {
            l.starts_with(*p)
                && l[p.len()..]
                    .chars()
                    .next()
                    .is_none_or(|c| c.is_whitespace() || c == ',' || c == ':')
        });
        match hit {
            Some(p) => {
                t = t[p.len()..]
                    .trim_start_matches(|c: char| c.is_whitespace() || c == ',' || c == ':')
                    .to_owned()
            }
            None => return t,
        }
    }
}
