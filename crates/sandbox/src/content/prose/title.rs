//! The title of the project and how sentences name the product.

use super::builder::object_of;
use super::clauses::{strip_lead, trim_item};
use super::grammar::{cap_first, gerund_of, is_name, join_and, lc, lower_first, singular};
use super::lexicon::{
    ADVERBS, DETERMINERS, GENERIC_HEADS, HEAD_NOUNS, PREPS, TITLE_LEAD_INS, TITLE_STOPS,
};
use super::{Feature, Kind};

pub(super) fn title_of(
    sentence: &str,
    features: &[Feature],
    actor: Option<&str>,
    lower_words: &[String],
) -> (String, String, bool) {
    let mut t = strip_lead(sentence, TITLE_LEAD_INS);
    t = strip_lead(&t, &["a", "an", "the", "some", "new", "simple", "small"]);
    let l = lc(&t);
    let mut cut = t.len();
    for s in TITLE_STOPS {
        if let Some(i) = l.find(s)
            && i < cut
        {
            cut = i;
        }
    }
    // "CRM for a small law firm", "Spotify clone"; at most eight words, never ending on a little word.
    let mut words: Vec<&str> = t[..cut].split_whitespace().take(8).collect();
    while words.last().is_some_and(|w| {
        let w = lc(w);
        PREPS.contains(&w.as_str())
            || DETERMINERS.contains(&w.as_str())
            || ["and", "or", "but", "like", "look", "be", "that", "is"].contains(&w.as_str())
    }) {
        words.pop();
    }
    let mut title = trim_item(&words.join(" ")).to_owned();
    let generic = title.is_empty() || GENERIC_HEADS.contains(&lc(&title).as_str());
    if generic {
        let head = if title.is_empty() {
            "app".to_owned()
        } else {
            lower_first(title.split(" for ").next().unwrap_or("app"), lower_words)
        };
        let weak = [
            "create", "add", "edit", "delete", "get", "use", "see", "view", "sign", "log", "make",
            "set", "update", "go", "have", "keep", "take", "give", "pay", "login", "invite",
            "support", "work",
        ];
        let compound = features
            .iter()
            .filter(|f| f.kind == Kind::Act && !weak.contains(&lc(&f.verb).as_str()))
            .find_map(|f| compound_of(f, f.actor.as_deref().or(actor)));
        title = match (compound, actor) {
            (Some(c), _) => format!("{c} {head}"),
            (None, Some(a)) if a != "you" => format!("{head} for {a}"),
            _ => match features.first() {
                Some(f) if f.kind == Kind::Thing && f.rest.split_whitespace().count() <= 3 => {
                    format!("{} {head}", f.rest)
                }
                // "Add dark mode and two-factor login": what is added names the work.
                Some(f)
                    if f.kind == Kind::Act
                        && ["add", "build", "implement", "fix", "improve"]
                            .contains(&lc(&f.verb).as_str()) =>
                {
                    let objects: Vec<String> = features
                        .iter()
                        .filter(|g| g.group == f.group && g.kind == Kind::Act)
                        .map(object_of)
                        .filter(|o| !o.is_empty())
                        .collect();
                    if objects.is_empty() {
                        format!("untitled {head}")
                    } else {
                        join_and(&objects)
                    }
                }
                _ => match features.iter().find_map(|f| f.actor.as_deref()) {
                    Some(a) if a != "you" => format!("{head} for {a}"),
                    _ => format!("untitled {head}"),
                },
            },
        };
    }
    let title = cap_first(trim_item(&title));
    let title = if title.is_empty() {
        "Untitled project".to_owned()
    } else {
        title
    };
    // How sentences name it: "the CRM", "the app", "Pawfect".
    let first = title.split_whitespace().next().unwrap_or("");
    let is_single_name = title.split_whitespace().count() == 1
        && !HEAD_NOUNS.contains(&lc(first).as_str())
        && sentence.split_whitespace().any(|w| trim_item(w) == first)
        && is_name(first, lower_words);
    let product = if is_single_name {
        title.clone()
    } else {
        let head = title.split(" for ").next().unwrap_or(&title);
        let last = head.split_whitespace().last().unwrap_or("app");
        if last.chars().all(|c| c.is_uppercase() || c.is_ascii_digit()) && last.len() > 1 {
            format!("the {last}")
        } else if HEAD_NOUNS.contains(&lc(last).as_str())
            || GENERIC_HEADS.contains(&lc(last).as_str())
        {
            format!("the {}", lc(last))
        } else {
            "the product".to_owned()
        }
    };
    let keeps_case = is_name(first, lower_words);
    (title, product, keeps_case)
}

/// "book walkers" by "dog owners" → "Dog walker booking".
pub(super) fn compound_of(f: &Feature, actor: Option<&str>) -> Option<String> {
    let obj: Vec<&str> = f
        .rest
        .split_whitespace()
        .filter(|w| !DETERMINERS.contains(&lc(w).as_str()) && !ADVERBS.contains(&lc(w).as_str()))
        .collect();
    if obj.is_empty()
        || obj.len() > 2
        || obj.iter().any(|w| {
            PREPS.contains(&lc(w).as_str()) || !w.chars().all(|c| c.is_alphabetic() || c == '-')
        })
        || f.rest.split_whitespace().count() > 3
    {
        return None;
    }
    let mut parts: Vec<String> = Vec::new();
    if let Some(a) = actor {
        let aw: Vec<&str> = a.split_whitespace().collect();
        if aw.len() >= 2 && !DETERMINERS.contains(&lc(aw[0]).as_str()) {
            parts.extend(aw[..aw.len() - 1].iter().map(|w| (*w).to_owned()));
        }
    }
    let n = obj.len();
    parts.extend(obj[..n - 1].iter().map(|w| (*w).to_owned()));
    parts.push(singular(obj[n - 1]));
    parts.push(lc(&gerund_of(&f.verb)));
    Some(parts.join(" "))
}
