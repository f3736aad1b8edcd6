//! Personas (the end user plus actors named in the input) and the fixed roles.

use super::prose::{cap_first, with_article};
use crate::util::words;
use specdesk_types::{Persona, Role};

const PERSONAS: &[(&str, &str)] = &[
    ("admin", "Administrator"),
    ("administrator", "Administrator"),
    ("customer", "Customer"),
    ("customers", "Customer"),
    ("team", "Team lead"),
    ("teams", "Team lead"),
    ("manager", "Team lead"),
    ("student", "Student"),
    ("students", "Student"),
    ("teacher", "Teacher"),
    ("teachers", "Teacher"),
    ("developer", "Developer"),
    ("developers", "Developer"),
    ("seller", "Seller"),
    ("sellers", "Seller"),
    ("buyer", "Buyer"),
    ("buyers", "Buyer"),
    ("patient", "Patient"),
    ("patients", "Patient"),
    ("doctor", "Doctor"),
    ("doctors", "Doctor"),
    ("guest", "Guest"),
    ("guests", "Guest"),
];

/// The persona every spec has first (the one stories and criteria speak of).
pub(super) const MAIN_PERSONA: &str = "End user";

/// The main persona plus actors named in `text`; each has up to three of the features as key
/// tasks, with `goals` (one per feature) as its primary goals.
pub(super) fn personas(text: &str, features: &[String], goals: &[String]) -> Vec<Persona> {
    let w = words(text);
    let mut titles: Vec<&str> = vec![MAIN_PERSONA];
    for (k, t) in PERSONAS {
        if w.iter().any(|x| x == k) && !titles.contains(t) {
            titles.push(t);
        }
    }
    if titles.len() == 1 {
        titles.push("Administrator");
    }
    titles.truncate(4);
    titles
        .into_iter()
        .enumerate()
        .map(|(i, t)| {
            let from = i % features.len().max(1);
            Persona {
                title: t.to_owned(),
                description: format!(
                    "{} relies on the product day to day and expects it to be quick and predictable.",
                    cap_first(&with_article(&t.to_lowercase()))
                ),
                primary_goals: Some(goals.iter().skip(from).take(3).cloned().collect()),
                pain_points: Some(vec![
                    "Scattered tools and manual copy-paste".to_owned(),
                    "Not knowing whether a change was saved".to_owned(),
                ]),
                key_tasks: Some(features.iter().skip(from).take(3).cloned().collect()),
            }
        })
        .collect()
}

pub(super) fn roles() -> Vec<Role> {
    [
        ("Frontend Developer", "FE"),
        ("Backend Developer", "BE"),
        ("DevOps Engineer", "DO"),
        ("QA Engineer", "QA"),
        ("Technical Writer", "TW"),
    ]
    .into_iter()
    .map(|(n, s)| Role {
        name: n.to_owned(),
        short_hand: s.to_owned(),
    })
    .collect()
}
