//! What the spec says: the summary's opening and the sentences about each feature.

use super::grammar::{cap_first, gerund_of, join_and, lc, the, third_of, voiced, with_article};
use super::{Feature, Kind, Reading, Voice};

impl Feature {
    fn rest_in(&self, voice: Voice) -> String {
        voiced(&self.rest, voice)
    }

    /// "book walkers".
    pub(super) fn vp(&self, voice: Voice) -> String {
        let r = self.rest_in(voice);
        if r.is_empty() {
            self.verb.clone()
        } else {
            format!("{} {r}", self.verb)
        }
    }

    /// "sends reminders".
    pub(super) fn vp3(&self, voice: Voice) -> String {
        let v = third_of(&self.verb);
        let r = self.rest_in(voice);
        if r.is_empty() { v } else { format!("{v} {r}") }
    }

    /// "booking walkers", "sending reminders", "the weekly meal plan".
    pub(super) fn np(&self, voice: Voice) -> String {
        match self.kind {
            Kind::Thing => the(&self.rest_in(voice)),
            _ => {
                let g = gerund_of(&self.verb);
                let r = self.rest_in(voice);
                if r.is_empty() { g } else { format!("{g} {r}") }
            }
        }
    }
}

impl Reading {
    /// The summary's opening sentences: "The dog walker booking app lets dog owners book
    /// walkers, pay in the app and rate each walk."
    pub(crate) fn summary_lead(&self, incremental: bool) -> String {
        let voice = if self.actor.as_deref() == Some("you") {
            Voice::Second
        } else {
            Voice::Third
        };
        let main_actor = self.actor.clone().or_else(|| {
            self.features
                .iter()
                .find(|f| f.kind == Kind::Act)
                .and_then(|f| f.actor.clone())
        });
        let actor = main_actor.clone().unwrap_or_else(|| "people".to_owned());
        // Features sharing a verb read as one phrase: "track cases, deadlines and billable hours".
        let mut acts: Vec<String> = Vec::new();
        let mut things: Vec<String> = Vec::new();
        let mut autos: Vec<String> = Vec::new();
        let mut i = 0;
        let fs = &self.features;
        while i < fs.len() {
            let f = &fs[i];
            let mut j = i + 1;
            while j < fs.len()
                && fs[j].kind == f.kind
                && f.kind != Kind::Thing
                && fs[j].group == f.group
                && fs[j].actor == f.actor
            {
                j += 1;
            }
            match f.kind {
                Kind::Thing => things.push(f.np(voice)),
                k => {
                    let objs: Vec<String> = fs[i..j].iter().map(|g| g.rest_in(voice)).collect();
                    let who = match (&f.actor, &main_actor) {
                        (Some(a), main) if main.as_ref() != Some(a) && k == Kind::Act => {
                            format!("{a} ")
                        }
                        _ => String::new(),
                    };
                    let phrase = if j - i > 1 {
                        let v = if k == Kind::Auto {
                            third_of(&f.verb)
                        } else {
                            f.verb.clone()
                        };
                        format!("{v} {}", join_and(&objs))
                    } else if k == Kind::Auto {
                        f.vp3(voice)
                    } else {
                        f.vp(voice)
                    };
                    if k == Kind::Auto {
                        autos.push(phrase);
                    } else {
                        acts.push(format!("{who}{phrase}"));
                    }
                }
            }
            i = j;
        }
        if !things.is_empty() {
            acts.push(format!("use {}", join_and(&things)));
        }
        let product_title = self.title_in_sentence();
        let (subject, lets, also) = if incremental {
            (
                "These additions to an existing project".to_owned(),
                "let",
                "They also make the product",
            )
        } else {
            (
                if self.product == "the product" && !self.title_keeps_case {
                    "This project".to_owned()
                } else {
                    cap_first(&product_title)
                },
                "lets",
                "It also",
            )
        };
        let mut out = String::new();
        if !acts.is_empty() {
            out.push_str(&format!("{subject} {lets} {actor} {}.", join_and(&acts)));
        }
        if !autos.is_empty() {
            if out.is_empty() {
                if incremental {
                    out.push_str(&format!(
                        "With these additions, {} {}.",
                        self.product,
                        join_and(&autos)
                    ));
                } else {
                    out.push_str(&format!("{subject} {}.", join_and(&autos)));
                }
            } else if incremental {
                let bases: Vec<String> = fs
                    .iter()
                    .filter(|f| f.kind == Kind::Auto)
                    .map(|f| f.vp(voice))
                    .collect();
                out.push_str(&format!(" {also} {}.", join_and(&bases)));
            } else {
                out.push_str(&format!(" {also} {}.", join_and(&autos)));
            }
        }
        out
    }

    /// "the dog walker booking app", "the CRM for a small law firm", "Pawfect".
    fn title_in_sentence(&self) -> String {
        let first = self.title.split_whitespace().next().unwrap_or("");
        let foreign_article = [
            "une", "un", "la", "le", "les", "el", "los", "las", "die", "der", "das", "ein", "eine",
            "il", "lo", "een", "het", "o", "os", "uma", "um",
        ];
        if self.product == self.title || foreign_article.contains(&lc(first).as_str()) {
            return self.title.clone();
        }
        let acronym = first.len() > 1
            && first
                .chars()
                .all(|c| c.is_uppercase() || c.is_ascii_digit());
        if acronym || self.title_keeps_case || first.chars().skip(1).any(char::is_uppercase) {
            return format!("the {}", self.title);
        }
        let mut it = self.title.splitn(2, ' ');
        let f = lc(it.next().unwrap_or(""));
        match it.next() {
            Some(r) => format!("the {f} {r}"),
            None => format!("the {f}"),
        }
    }

    /// How a sentence names the product ("the app", "the CRM").
    pub(crate) fn product(&self) -> &str {
        &self.product
    }

    /// How "a project like …" names the product: "Pawfect", "the iOS app for kanji", "the crm
    /// for a small law firm".
    pub(crate) fn example_name(&self) -> String {
        let first = self.title.split_whitespace().next().unwrap_or("");
        if self.product == self.title {
            self.title.clone()
        } else if first.chars().skip(1).any(char::is_uppercase) {
            format!("the {}", self.title)
        } else {
            format!("the {}", lc(&self.title))
        }
    }
}

/// The sentences said about one feature, for a persona ("end user").
pub(crate) struct Lines {
    pub(crate) description: String,
    pub(crate) story: String,
    pub(crate) criteria: [String; 3],
    pub(crate) perm_story: String,
    pub(crate) perm_criterion: String,
    pub(crate) perf_story: String,
    pub(crate) goal: String,
    /// What subtasks are about: "booking walkers".
    pub(crate) subject: String,
}

pub(crate) fn lines(f: &Feature, persona: &str, product: &str) -> Lines {
    let a_p = with_article(persona);
    let t = Voice::Third;
    let np = f.np(t);
    let product_cap = cap_first(product);
    match f.kind {
        Kind::Act => Lines {
            description: format!("Lets {a_p} {}.", f.vp(t)),
            story: format!(
                "As {a_p}, I want to {} so that I can get my work done without workarounds.",
                f.vp(Voice::First)
            ),
            criteria: [
                format!(
                    "Given a signed-in {persona}, when they {}, then the result is saved and shown at once.",
                    f.vp(t)
                ),
                format!(
                    "An attempt to {} with invalid input is refused with a message that says how to fix it.",
                    f.vp(t)
                ),
                format!("Everything about {np} works on desktop and mobile screen sizes."),
            ],
            perm_story: format!(
                "Only allowed people can {}; empty, duplicate and concurrent cases behave predictably.",
                f.vp(t)
            ),
            perm_criterion: format!(
                "{} without access cannot {} and is told why.",
                cap_first(&a_p),
                f.vp(t)
            ),
            perf_story: format!(
                "Everything about {np} stays fast with realistic data, and its failures are visible."
            ),
            goal: cap_first(&format!("{} quickly", f.vp(Voice::First))),
            subject: np,
        },
        Kind::Auto => Lines {
            description: format!("{product_cap} {}.", f.vp3(t)),
            story: format!(
                "As {a_p}, I want {product} to {} so that I can get my work done without workarounds.",
                f.vp(Voice::First)
            ),
            criteria: [
                format!(
                    "Given a signed-in {persona}, when {product} {}, then the result is saved and shown at once.",
                    f.vp3(t)
                ),
                format!(
                    "When {product} cannot {}, it says why and how to fix it.",
                    f.vp(t)
                ),
                format!("Everything about {np} works on desktop and mobile screen sizes."),
            ],
            perm_story: format!(
                "Only allowed people see the results when {product} {}; empty, duplicate and concurrent cases behave predictably.",
                f.vp3(t)
            ),
            perm_criterion: format!(
                "{} without access does not see the results of {np} and is told why.",
                cap_first(&a_p)
            ),
            perf_story: format!(
                "Everything about {np} stays fast with realistic data, and its failures are visible."
            ),
            goal: format!("Have {product} {}", f.vp(Voice::First)),
            subject: np,
        },
        Kind::Thing => Lines {
            description: format!("Gives {a_p} access to {np}."),
            story: format!(
                "As {a_p}, I want {} so that I can get my work done without workarounds.",
                f.np(Voice::First)
            ),
            criteria: [
                format!(
                    "Given a signed-in {persona}, when they open {np}, then it is shown at once with their latest data."
                ),
                format!("Invalid input to {np} is refused with a message that says how to fix it."),
                format!("Everything about {np} works on desktop and mobile screen sizes."),
            ],
            perm_story: format!(
                "Only allowed people can use {np}; empty, duplicate and concurrent cases behave predictably."
            ),
            perm_criterion: format!(
                "{} without access cannot use {np} and is told why.",
                cap_first(&a_p)
            ),
            perf_story: format!(
                "Everything about {np} stays fast with realistic data, and its failures are visible."
            ),
            goal: format!("Get to {} quickly", f.np(Voice::First)),
            subject: np,
        },
    }
}
