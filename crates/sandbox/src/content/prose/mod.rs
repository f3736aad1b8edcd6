//! Reading a description as English: the product's title, who uses it, and every requirement it
//! names (a feature in the input's own words), plus the sentences the spec says about them.
//! Pure and deterministic: the same text always reads the same way.

mod builder;
mod clauses;
mod grammar;
mod lexicon;
mod lines;
mod title;

pub(crate) use grammar::{cap_first, with_article};
pub(crate) use lines::{Lines, lines};

use super::strip_markers;
use builder::Builder;
use clauses::{
    Region, bullet_re, clean_word, is_product_subject, region_of, sentences_of, strip_lead,
};
use grammar::{is_verb, lc, words_lowercase_typed};
use lexicon::{GENERIC_HEADS, HEAD_NOUNS, TITLE_LEAD_INS};

/// How a feature reads: something a person does, something the product does, or a thing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// "Book walkers": a person does it.
    Act,
    /// "Sends reminders": the product does it.
    Auto,
    /// "Weekly meal plan": a part of the product.
    Thing,
}

/// One feature, named in the input's own words.
#[derive(Clone, Debug)]
pub(crate) struct Feature {
    pub(crate) name: String,
    kind: Kind,
    /// Base verb as typed (`Act`, `Auto`).
    verb: String,
    /// What follows the verb, or the noun phrase of a `Thing`, as typed.
    rest: String,
    /// Features sharing a verb read as one phrase in the summary.
    group: usize,
    /// Who does it, when the input says ("buyers can make offers").
    actor: Option<String>,
}

/// Whose words a sentence speaks in, for "my" in the input.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Voice {
    /// "As an end user, I want to track my runs".
    First,
    /// "This app lets you track your runs".
    Second,
    /// "Lets an end user track their runs".
    Third,
}

/// What the input says.
pub(crate) struct Reading {
    pub(crate) title: String,
    pub(crate) features: Vec<Feature>,
    /// Who the summary says the product is for ("dog owners"); `None`: people.
    actor: Option<String>,
    /// "the app", "the CRM", "Pawfect": how sentences name the product.
    product: String,
    /// The title starts with a name ("Münchner Biergarten-Finder"), kept capitalised.
    title_keeps_case: bool,
}

/// Sentences that say who writes, or label what follows: "We are a small nonprofit…",
/// "Requirements:".
fn is_preamble(lower: &str) -> bool {
    [
        "we are ",
        "we're ",
        "i am ",
        "i'm ",
        "our company ",
        "my name ",
    ]
    .iter()
    .any(|p| lower.starts_with(p))
        || [
            "requirements",
            "features",
            "spec",
            "idea",
            "overview",
            "project",
            "summary",
            "brief",
            "description",
            "goal",
            "goals",
        ]
        .contains(&lower.trim_end_matches(':'))
}

/// A description read line by line: the features so far, the sentence that names the product
/// (empty once it cannot be one), and who the requirements are for.
struct Reader {
    b: Builder,
    title_sentence: Option<String>,
    actor: Option<String>,
}

impl Reader {
    /// A bullet is a requirement; a cue inside it still starts its list.
    fn bullet(&mut self, item: &str) {
        let item = item.trim().to_owned();
        if self.title_sentence.is_none() {
            self.title_sentence = Some(String::new());
        }
        let region = match region_of(&item, false) {
            Some(r) if r.text.len() < item.len() => r,
            _ => Region {
                text: item,
                actor: None,
                by_product: false,
            },
        };
        self.b.region(&region, true);
    }

    fn sentence(&mut self, s: String) {
        let mut s = s;
        let mut first = self.title_sentence.is_none();
        if first && is_preamble(&lc(&s)) {
            return;
        }
        if first {
            self.title_sentence = Some(s.clone());
        }
        if first && let Some((head, tail)) = s.split_once(';') {
            // "A time tracking tool for agencies; must support timers…".
            self.title_sentence = Some(head.trim().to_owned());
            if let Some(region) = region_of(tail.trim(), false) {
                if self.actor.is_none() {
                    self.actor = region.actor.clone();
                }
                let initial = region.text.len() == tail.trim().len();
                self.b.region(&region, initial);
            }
            return;
        }
        if first {
            // "Can you build an app that…": the request is not a requirement.
            let rem = strip_lead(&s, TITLE_LEAD_INS);
            let w0 = rem
                .split_whitespace()
                .next()
                .map(clean_word)
                .unwrap_or_default();
            if lc(&rem).starts_with("and ") {
                first = false;
                self.title_sentence = Some(String::new());
            } else if is_verb(&w0)
                && !rem.split_whitespace().any(|w| {
                    let w = clean_word(w);
                    HEAD_NOUNS.contains(&w.as_str()) || GENERIC_HEADS.contains(&w.as_str())
                })
            {
                first = false;
                self.title_sentence = Some(String::new());
                s = rem;
            } else {
                s = rem;
            }
        }
        if let Some(region) = region_of(&s, first) {
            if self.actor.is_none()
                && let Some(a) = &region.actor
            {
                self.actor = Some(a.clone());
            }
            let initial = region.text.len() == s.len();
            self.b.region(&region, initial);
        }
    }
}

/// Reads a description.
pub(crate) fn read(text: &str) -> Reading {
    let text = strip_markers(text);
    let lower_words = words_lowercase_typed(&text);
    let bullet = bullet_re();
    let mut r = Reader {
        b: Builder {
            out: Vec::new(),
            groups: 0,
            lower_words: lower_words.clone(),
        },
        title_sentence: None,
        actor: None,
    };
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(c) = bullet.captures(line) {
            r.bullet(&c[1]);
            continue;
        }
        // A markdown heading names a section (a file's "# Notes from the meeting"): no feature.
        if line.starts_with('#') {
            continue;
        }
        for s in sentences_of(line) {
            r.sentence(s);
        }
    }
    let actor = r.actor.and_then(|a| normalize_actor(&a));
    let (title, product, title_keeps_case) = title::title_of(
        r.title_sentence.as_deref().unwrap_or(""),
        &r.b.out,
        actor.as_deref(),
        &lower_words,
    );
    let mut features = r.b.out;
    if features.is_empty() {
        for n in ["Core workflow", "Settings and preferences"] {
            features.push(Feature {
                name: n.to_owned(),
                kind: Kind::Thing,
                verb: String::new(),
                rest: lc(n),
                group: usize::MAX,
                actor: None,
            });
        }
    }
    Reading {
        title,
        features,
        actor,
        product,
        title_keeps_case,
    }
}

/// "dog owners", "you" (for "I"), or `None` for people in general and the product itself.
fn normalize_actor(a: &str) -> Option<String> {
    let a = strip_lead(a, &["and", "where", "so", "so that", "that", "the"]);
    let l = lc(&a);
    if a.is_empty() || a.split_whitespace().count() > 5 || is_product_subject(&a) {
        None
    } else if ["i", "we", "you", "me", "us"].contains(&l.as_str()) {
        Some("you".to_owned())
    } else if [
        "they",
        "he",
        "she",
        "one",
        "anyone",
        "someone",
        "people",
        "everyone",
        "everybody",
    ]
    .contains(&l.as_str())
    {
        None
    } else {
        let first = a.split_whitespace().next().unwrap_or("");
        let keep = first.chars().skip(1).any(char::is_uppercase);
        Some(if keep {
            a.clone()
        } else {
            let mut it = a.splitn(2, ' ');
            let f = lc(it.next().unwrap_or(""));
            match it.next() {
                Some(r) => format!("{f} {r}"),
                None => f,
            }
        })
    }
}
