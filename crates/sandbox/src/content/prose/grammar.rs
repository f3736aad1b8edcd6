//! English word forms: verb forms, plurals, articles, capitals, names, voice.

use super::Voice;
use super::lexicon::{COMMON, DETERMINERS, GENERIC_HEADS, HEAD_NOUNS, VERBS};

pub(super) fn lc(s: &str) -> String {
    s.to_lowercase()
}

pub(super) fn is_verb(w: &str) -> bool {
    VERBS.contains(&lc(w).as_str())
}

/// The base of a third-person verb ("sends" → "send"), when it is a known verb.
pub(super) fn base_of_third(w: &str) -> Option<String> {
    let l = lc(w);
    let cands = [
        l.strip_suffix("ies").map(|s| format!("{s}y")),
        l.strip_suffix("es").map(str::to_owned),
        l.strip_suffix('s').map(str::to_owned),
    ];
    cands.into_iter().flatten().find(|c| is_verb(c))
}

pub(super) fn third_of(verb: &str) -> String {
    let l = lc(verb);
    if l == "have" {
        return "has".into();
    }
    if l == "be" {
        return "is".into();
    }
    let cons_y = l.ends_with('y') && !l.ends_with("ay") && !l.ends_with("ey") && !l.ends_with("oy");
    if cons_y {
        format!("{}ies", &verb[..verb.len() - 1])
    } else if ["s", "sh", "ch", "x", "z", "o"]
        .iter()
        .any(|e| l.ends_with(e))
    {
        format!("{verb}es")
    } else {
        format!("{verb}s")
    }
}

pub(super) fn gerund_of(verb: &str) -> String {
    let l = lc(verb);
    if l == "be" || l == "see" || l == "ski" {
        return format!("{verb}ing");
    }
    if let Some(s) = l.strip_suffix("ie") {
        return format!("{}ying", &verb[..s.len()]);
    }
    let chars: Vec<char> = l.chars().collect();
    if l.ends_with('e') && !l.ends_with("ee") && !l.ends_with("ye") && !l.ends_with("oe") {
        return format!("{}ing", &verb[..verb.len() - 1]);
    }
    let vowel = |c: char| "aeiou".contains(c);
    let groups = chars
        .iter()
        .enumerate()
        .filter(|(i, c)| vowel(**c) && (*i == 0 || !vowel(chars[i - 1])))
        .count();
    let n = chars.len();
    if (3..=4).contains(&n)
        && groups == 1
        && !vowel(chars[n - 1])
        && !"wxy".contains(chars[n - 1])
        && vowel(chars[n - 2])
        && !vowel(chars[n - 3])
    {
        return format!("{verb}{}ing", chars[n - 1]);
    }
    format!("{verb}ing")
}

pub(super) fn singular(w: &str) -> String {
    let l = lc(w);
    if l.ends_with("ss") || l.ends_with("us") || l.ends_with("is") || !l.ends_with('s') {
        return w.to_owned();
    }
    if l.ends_with("ies") && l.len() > 4 {
        return format!("{}y", &w[..w.len() - 3]);
    }
    for e in ["sses", "shes", "ches", "xes", "zes"] {
        if l.ends_with(e) {
            return w[..w.len() - 2].to_owned();
        }
    }
    w[..w.len() - 1].to_owned()
}

/// "a" or "an" before `phrase`, by how its first word sounds.
pub(super) fn article(phrase: &str) -> &'static str {
    let w = phrase.split_whitespace().next().unwrap_or("");
    let l = lc(w);
    let first = l.chars().next().unwrap_or('x');
    let is_acronym = w.len() >= 2 && w.chars().all(|c| c.is_uppercase() || c.is_ascii_digit());
    if is_acronym {
        return if "aefhilmnorsx".contains(first) {
            "an"
        } else {
            "a"
        };
    }
    if ["hour", "honest", "honou", "honor", "heir"]
        .iter()
        .any(|p| l.starts_with(p))
    {
        return "an";
    }
    if [
        "uni", "use", "usa", "usu", "ute", "uti", "euro", "eu", "one", "once", "ubi",
    ]
    .iter()
    .any(|p| l.starts_with(p))
    {
        return "a";
    }
    if "aeiou".contains(first) { "an" } else { "a" }
}

/// `phrase` with its article: "an end user".
pub(crate) fn with_article(phrase: &str) -> String {
    format!("{} {phrase}", article(phrase))
}

/// Upper-cases the first letter, unless the word is written like "iOS" or "eBay".
pub(crate) fn cap_first(s: &str) -> String {
    let first_word = s.split_whitespace().next().unwrap_or("");
    if first_word.chars().skip(1).any(char::is_uppercase)
        && first_word.chars().next().is_some_and(char::is_lowercase)
    {
        return s.to_owned();
    }
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// Whether a word written with a capital is a name (kept as typed inside a sentence).
pub(super) fn is_name(word: &str, text_lower_words: &[String]) -> bool {
    let mut chars = word.chars();
    let Some(f) = chars.next() else { return false };
    if !f.is_uppercase() {
        return false;
    }
    let rest: String = chars.collect();
    if rest.chars().any(char::is_uppercase) || word.chars().any(|c| c.is_ascii_digit()) {
        return true;
    }
    let l = lc(word);
    if is_verb(&l)
        || COMMON.contains(&l.as_str())
        || DETERMINERS.contains(&l.as_str())
        || GENERIC_HEADS.contains(&l.as_str())
        || HEAD_NOUNS.contains(&l.as_str())
    {
        return false;
    }
    if [
        "ly", "ing", "ed", "tion", "tions", "ment", "ments", "ness", "able", "ous", "ive", "ful",
        "less", "ity",
    ]
    .iter()
    .any(|s| l.ends_with(s))
    {
        return false;
    }
    // Written in lower case somewhere else in the input: a common word.
    let plural = format!("{l}s");
    let single = lc(&singular(&l));
    !text_lower_words
        .iter()
        .any(|w| *w == l || *w == plural || *w == single || lc(&singular(w)) == l)
}

/// Lower-cases the first word of a phrase unless it is a name or an acronym.
pub(super) fn lower_first(s: &str, lower_words: &[String]) -> String {
    let mut it = s.splitn(2, ' ');
    let first = it.next().unwrap_or("");
    let rest = it.next();
    let first = if is_name(first, lower_words) {
        first.to_owned()
    } else {
        lc(first)
    };
    match rest {
        Some(r) => format!("{first} {r}"),
        None => first,
    }
}

pub(super) fn words_lowercase_typed(text: &str) -> Vec<String> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '\''))
        .filter(|w| w.chars().next().is_some_and(char::is_lowercase))
        .map(str::to_owned)
        .collect()
}

pub(super) fn voiced(s: &str, voice: Voice) -> String {
    if voice == Voice::First {
        return s.to_owned();
    }
    s.split(' ')
        .map(|w| {
            let core = w.trim_end_matches(|c: char| !c.is_alphanumeric());
            let tail = &w[core.len()..];
            let rep = match (voice, core) {
                (Voice::Second, "my" | "our") => "your",
                (Voice::Second, "me" | "us") => "you",
                (Voice::Second, "myself") => "yourself",
                (Voice::Third, "my" | "our") => "their",
                (Voice::Third, "me" | "us") => "them",
                (Voice::Third, "myself") => "themselves",
                (Voice::Third, "mine") => "theirs",
                _ => return w.to_owned(),
            };
            format!("{rep}{tail}")
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// "the weekly meal plan"; a phrase with its own determiner or a name keeps it.
pub(super) fn the(np: &str) -> String {
    let first = lc(np.split_whitespace().next().unwrap_or(""));
    if DETERMINERS.contains(&first.as_str())
        && !["a", "an", "some", "new"].contains(&first.as_str())
    {
        np.to_owned()
    } else {
        format!("the {np}")
    }
}

pub(super) fn join_and(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => {
            let oxford = items[..n - 1].iter().any(|i| i.contains(" and "));
            format!(
                "{}{} and {}",
                items[..n - 1].join(", "),
                if oxford { "," } else { "" },
                items[n - 1]
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words() {
        assert_eq!(gerund_of("book"), "booking");
        assert_eq!(gerund_of("rate"), "rating");
        assert_eq!(gerund_of("plan"), "planning");
        assert_eq!(gerund_of("edit"), "editing");
        assert_eq!(gerund_of("see"), "seeing");
        assert_eq!(gerund_of("pay"), "paying");
        assert_eq!(third_of("send"), "sends");
        assert_eq!(third_of("sync"), "syncs");
        assert_eq!(third_of("notify"), "notifies");
        assert_eq!(third_of("match"), "matches");
        assert_eq!(singular("walkers"), "walker");
        assert_eq!(singular("cases"), "case");
        assert_eq!(singular("boxes"), "box");
        assert_eq!(article("end user"), "an");
        assert_eq!(article("user"), "a");
        assert_eq!(article("SMS"), "an");
        assert_eq!(article("CRM"), "a");
        assert_eq!(article("hour"), "an");
        assert_eq!(cap_first("iOS app"), "iOS app");
        assert_eq!(cap_first("élan"), "Élan");
    }
}
