//! Personas (the end user plus actors named in the input) and the fixed roles.

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

pub(super) fn personas(text: &str, features: &[String]) -> Vec<Persona> {
    let w = words(text);
    let mut titles: Vec<&str> = vec!["End user"];
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
            let tasks: Vec<String> = features
                .iter()
                .skip(i % features.len().max(1))
                .take(3)
                .cloned()
                .collect();
            Persona {
                title: t.to_owned(),
                description: format!(
                    "{t} who relies on the product day to day and expects it to be quick and predictable."
                ),
                primary_goals: Some(tasks.iter().map(|f| format!("{f} quickly")).collect()),
                pain_points: Some(vec![
                    "Scattered tools and manual copy-paste".to_owned(),
                    "Not knowing whether a change was saved".to_owned(),
                ]),
                key_tasks: Some(tasks),
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
