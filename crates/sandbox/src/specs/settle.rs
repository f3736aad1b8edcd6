//! Simulated work: specs settle lazily (whenever anything reads them) once their due time has
//! passed, which charges them and creates their project; and the phase of a spec at a time.

use super::submit::combined_text;
use crate::content::{self, Generated, SpecInput};
use crate::state::{App, Data, PlannedFeature, ProjectRec, SpecRec};
use crate::util;
use specdesk_types::SpecStatus;

/// Settles every spec whose work has ended by now.
pub fn settle(app: &App) {
    let changed = {
        let mut d = app.data();
        let now = d.now();
        settle_data(&mut d, now)
    };
    if changed {
        app.touch();
    }
}

pub(super) fn settle_until(app: &App, at: i64) {
    let changed = {
        let mut d = app.data();
        let now = d.now().max(at);
        settle_data(&mut d, now)
    };
    if changed {
        app.touch();
    }
}

fn settle_data(d: &mut Data, now: i64) -> bool {
    let mut changed = false;
    let mut new_projects = Vec::new();
    let mut charges: Vec<(String, f64)> = Vec::new();
    for s in d.specs.iter_mut() {
        if s.settled.is_some() || now < s.due {
            continue;
        }
        changed = true;
        if s.fail {
            s.settled = Some("failed".into());
            continue;
        }
        let g = generate(s);
        let pid = util::object_id();
        s.project_id = Some(pid.clone());
        s.settled = Some("completed".into());
        charges.push((s.owner.clone(), s.cost));
        new_projects.push(ProjectRec {
            id: pid,
            owner: s.owner.clone(),
            owner_org: s.owner_org.clone(),
            spec_id: s.id.clone(),
            name: g.title.clone(),
            intent: g.human.executive_summary.clone(),
            created: s.due,
            features: g
                .features
                .iter()
                .zip(g.feature_stories.iter())
                .map(|(n, c)| PlannedFeature {
                    name: n.clone(),
                    stories: *c,
                })
                .collect(),
            runs: Vec::new(),
        });
    }
    for (owner, cost) in charges {
        if let Some(u) = d.user_mut(&owner) {
            u.charge(cost);
        }
    }
    for p in new_projects {
        d.projects.insert(p.id.clone(), p);
    }
    changed
}

/// Generates a spec's content from its stored inputs.
pub fn generate(s: &SpecRec) -> Generated {
    let text = combined_text(&s.input, s.file_text.as_deref());
    let mut platforms: Vec<String> = s.docs.iter().map(|d| d.platform.clone()).collect();
    platforms.dedup();
    content::generate(&SpecInput {
        text: &text,
        context: s.context.as_deref(),
        deep: s.deep,
        doc_platforms: platforms,
    })
}

/// Status, progress and live credits of a spec at `now`.
pub(super) fn phase(s: &SpecRec, now: i64) -> (SpecStatus, Option<String>, f64) {
    match s.settled.as_deref() {
        Some("completed") => return (SpecStatus::Completed, None, s.cost),
        Some("failed") => return (SpecStatus::Failed, None, 0.0),
        _ => {}
    }
    if now < s.processing_from {
        return (SpecStatus::Pending, None, 0.0);
    }
    let span = (s.due - s.processing_from).max(1) as f64;
    let frac = ((now - s.processing_from) as f64 / span).clamp(0.0, 0.99);
    let progress = if frac < 0.3 {
        "Analyzing the input and extracting features"
    } else if frac < 0.7 {
        "Drafting milestones, stories and acceptance criteria"
    } else {
        "Estimating hours and writing the markdown"
    };
    (
        SpecStatus::Processing,
        Some(progress.to_owned()),
        util::round2(s.cost * frac),
    )
}

pub(super) const ERROR_MESSAGE: &str =
    "Generation failed: the input asked the sandbox to fail ([sandbox:fail]).";
