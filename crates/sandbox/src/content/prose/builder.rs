//! Items become features: each item of a region is a verb phrase (a person's or the product's),
//! an object that carries on the verb before it, or a thing.

use super::clauses::{
    Region, clean_word, is_product_subject, split_items, strip_lead, subject_and_rest, trim_item,
};
use super::grammar::{base_of_third, cap_first, is_verb, lc, lower_first};
use super::lexicon::{ADVERBS, PREPS, SHARES_OBJECT, TECH_LEADS};
use super::{Feature, Kind, normalize_actor};

/// A raw item becomes a feature (or nothing), given the one before it.
pub(super) struct Builder {
    pub(super) out: Vec<Feature>,
    pub(super) groups: usize,
    pub(super) lower_words: Vec<String>,
}

/// One item of a region, cleaned: its words, who it names and whether the product does it.
struct Item {
    text: String,
    subj: Option<String>,
    by_product: bool,
}

/// What an item reads as.
enum Read {
    /// Not a feature.
    Skip,
    /// Technology ("built with React"): nouns after it are not features.
    Tech,
    Feature(Feature),
}

/// Trims an item's lead-ins, the subject it names ("owners can rate walkers") and its "too".
fn clean_item(raw: &str, region_by_product: bool) -> Item {
    let mut item = trim_item(raw).to_owned();
    item = strip_lead(
        &item,
        &[
            "and",
            "also",
            "then",
            "or",
            "to",
            "be able to",
            "easily",
            "quickly",
            "even",
            "optionally",
            "maybe",
            "perhaps",
            "etc",
        ],
    );
    // "owners can rate walkers" inside a list.
    let (subj, rest) = subject_and_rest(&item);
    let mut by_product = region_by_product;
    if let Some(sj) = &subj {
        if is_product_subject(sj) {
            by_product = true;
        } else if sj.split_whitespace().count() <= 3 {
            by_product = false;
        }
        item = rest;
    }
    let mut item = trim_item(&item).to_owned();
    // "Weekly reports too."
    while let Some(cut) = [" too", " as well", " also", " etc"]
        .iter()
        .find_map(|t| lc(&item).strip_suffix(t).map(str::len))
    {
        item = trim_item(&item[..cut]).to_owned();
    }
    Item {
        text: item,
        subj,
        by_product,
    }
}

fn blank(kind: Kind, verb: String, rest: String, group: usize, actor: Option<String>) -> Feature {
    Feature {
        name: String::new(),
        kind,
        verb,
        rest,
        group,
        actor,
    }
}

impl Builder {
    fn push(&mut self, f: Feature) {
        let key = lc(&f.name);
        if f.name.split_whitespace().count() > 12 || self.out.len() >= 12 {
            return;
        }
        if self.out.iter().any(|o| lc(&o.name) == key) {
            return;
        }
        self.out.push(f);
    }

    /// Reads the items of one region.
    pub(super) fn region(&mut self, region: &Region, initial_capital: bool) {
        let items = split_items(&region.text);
        let mut prev: Option<Feature> = None;
        let mut tech = false;
        let mut pending_bare: Vec<Feature> = Vec::new();
        for (idx, (raw, _)) in items.iter().enumerate() {
            let item = clean_item(raw, region.by_product);
            let initial = initial_capital && idx == 0;
            let mut f = match self.read_item(&item, region, initial, prev.as_ref(), tech) {
                Read::Skip => continue,
                Read::Tech => {
                    tech = true;
                    prev = None;
                    continue;
                }
                Read::Feature(f) => {
                    tech = false;
                    f
                }
            };
            self.complete(&mut f, &item, region, prev.as_ref());
            // "create and share lists": the bare verb takes the next object.
            if f.kind != Kind::Thing
                && f.rest.is_empty()
                && SHARES_OBJECT.contains(&lc(&f.verb).as_str())
            {
                pending_bare.push(f.clone());
                prev = Some(f);
                continue;
            }
            let shared = (f.kind != Kind::Thing && !f.rest.is_empty()).then(|| f.rest.clone());
            for mut b in pending_bare.drain(..) {
                if let Some(rest) = &shared {
                    b.rest = rest.clone();
                }
                b.name = name_of(&b);
                self.push(b);
            }
            f.name = name_of(&f);
            self.push(f.clone());
            prev = Some(f);
        }
        for mut b in pending_bare.drain(..) {
            b.name = name_of(&b);
            self.push(b);
        }
    }

    /// The feature an item names, if any.
    fn read_item(
        &self,
        item: &Item,
        region: &Region,
        initial: bool,
        prev: Option<&Feature>,
        tech: bool,
    ) -> Read {
        let l = lc(&item.text);
        if item.text.is_empty()
            || [
                "etc",
                "more",
                "and more",
                "much more",
                "so on",
                "everything",
                "stuff",
                "things",
            ]
            .contains(&l.as_str())
        {
            return Read::Skip;
        }
        if TECH_LEADS.iter().any(|t| l.starts_with(t)) {
            return Read::Tech;
        }
        let words: Vec<&str> = item.text.split_whitespace().collect();
        let w0 = clean_word(words[0]);
        // "Must support timers": with nobody named, some verbs are the product's.
        let product_verb = item.subj.is_none()
            && region.actor.is_none()
            && [
                "support",
                "integrate",
                "sync",
                "notify",
                "remind",
                "handle",
                "store",
                "work",
            ]
            .contains(&w0.as_str());
        if is_verb(&w0) {
            let kind = if item.by_product || product_verb {
                Kind::Auto
            } else {
                Kind::Act
            };
            let verb = if initial || words[0].chars().skip(1).all(char::is_lowercase) {
                if words[0].chars().all(|c| c.is_uppercase()) && words[0].len() > 1 {
                    words[0].to_owned()
                } else {
                    lc(words[0])
                }
            } else {
                words[0].to_owned()
            };
            return Read::Feature(blank(kind, verb, words[1..].join(" "), 0, None));
        }
        if let (Some(base), true) = (base_of_third(&w0), words.len() >= 2) {
            return Read::Feature(blank(Kind::Auto, base, words[1..].join(" "), 0, None));
        }
        if tech {
            return Read::Skip;
        }
        self.noun_item(&item.text, &words, initial, prev)
    }

    /// A noun phrase: it carries on the verb before it ("track cases, deadlines, billable
    /// hours"), or it is a thing.
    fn noun_item(&self, item: &str, words: &[&str], initial: bool, prev: Option<&Feature>) -> Read {
        if words.iter().any(|w| {
            ["is", "are", "was", "were", "has", "have", "i", "we"].contains(&clean_word(w).as_str())
        }) {
            return Read::Skip;
        }
        let np = strip_lead(item, &["a", "an", "the", "some"]);
        if np.is_empty() {
            return Read::Skip;
        }
        let np = if initial {
            lower_first(&np, &self.lower_words)
        } else {
            np
        };
        Read::Feature(match prev {
            Some(p) if p.kind != Kind::Thing && !p.rest.is_empty() => {
                let preps: Vec<&str> = p
                    .rest
                    .split_whitespace()
                    .take_while(|w| PREPS.contains(&lc(w).as_str()))
                    .collect();
                let rest = if preps.is_empty() {
                    np
                } else {
                    format!("{} {np}", preps.join(" "))
                };
                blank(p.kind, p.verb.clone(), rest, p.group, p.actor.clone())
            }
            _ => blank(Kind::Thing, String::new(), np, usize::MAX, None),
        })
    }

    /// Who does a feature, "them" as the previous object ("OCR them"), and its group.
    fn complete(&mut self, f: &mut Feature, item: &Item, region: &Region, prev: Option<&Feature>) {
        if f.actor.is_none() {
            f.actor = match &item.subj {
                Some(sj) if !item.by_product => normalize_actor(sj),
                _ => region.actor.as_deref().and_then(normalize_actor),
            };
        }
        if f.kind != Kind::Thing
            && let Some(p) = prev
        {
            let obj = object_of(p);
            if !obj.is_empty() {
                let replaced: Vec<String> = f
                    .rest
                    .split_whitespace()
                    .map(|w| match lc(w).as_str() {
                        "them" | "it" => obj.clone(),
                        _ => w.to_owned(),
                    })
                    .collect();
                f.rest = replaced.join(" ");
            }
        }
        if f.group == 0 {
            self.groups += 1;
            f.group = self.groups;
        }
    }
}

pub(super) fn object_of(f: &Feature) -> String {
    let words: Vec<&str> = f
        .rest
        .split_whitespace()
        .skip_while(|w| PREPS.contains(&lc(w).as_str()))
        .take_while(|w| !PREPS.contains(&lc(w).as_str()))
        .filter(|w| !ADVERBS.contains(&lc(w).as_str()))
        .collect();
    words.join(" ")
}

pub(super) fn name_of(f: &Feature) -> String {
    let s = match f.kind {
        Kind::Thing => f.rest.clone(),
        _ if f.rest.is_empty() => f.verb.clone(),
        _ => format!("{} {}", f.verb, f.rest),
    };
    cap_first(s.trim())
}
