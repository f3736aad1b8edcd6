//! The plan as Markdown for a coding agent.

use crate::state::ProjectRec;
use specdesk_types::{FeatureScope, FeatureStatus, Plan};

/// The plan as Markdown for a coding agent.
pub fn markdown(p: &ProjectRec, plan: Option<&Plan>) -> String {
    let Some(plan) = plan else {
        return format!("# {}\n\nNothing is planned or built yet.\n", p.name);
    };
    let mut md = format!(
        "# Plan: {}\n\n{}\n\n## Progress\n\n{} of {} features built ({}%), {} proven working, {} left.\n\n## Features\n\n",
        p.name,
        plan.intent.as_ref().map(|i| i.text.as_str()).unwrap_or(""),
        plan.progress.built,
        plan.progress.total,
        plan.progress.percent,
        plan.progress.proven_working,
        plan.progress.left
    );
    for f in &plan.features {
        let mark = if f.status == FeatureStatus::Works {
            "x"
        } else {
            " "
        };
        md.push_str(&format!(
            "- [{mark}] {}: {} ({}/{} stories){}{}\n",
            f.name,
            f.status_text,
            f.stories.done,
            f.stories.total,
            if f.scope == FeatureScope::Proposed {
                ", proposed"
            } else {
                ""
            },
            f.part_of
                .as_ref()
                .map(|p| format!(", part of {p}"))
                .unwrap_or_default()
        ));
    }
    if let Some(r) = &plan.ready_to_launch {
        md.push_str("\n## Ready to launch\n\n");
        for i in &r.items {
            md.push_str(&format!(
                "- {} — {}{}\n",
                i.label,
                i.state,
                i.fix
                    .as_ref()
                    .map(|f| format!(": {} ({})", f.action, f.how))
                    .unwrap_or_default()
            ));
        }
    }
    if let Some(m) = &plan.app_map {
        md.push_str(&format!(
            "\n## App map\n\n{} screens, {} API routes, {} stores of data.\n",
            m.screens.count, m.endpoints.count, m.storage.count
        ));
    }
    if let Some(l) = &plan.last_run {
        md.push_str(&format!(
            "\n## Last run\n\n{} ended {}: {} files changed.\n",
            l.run_id, l.ended_at, l.files_changed.count
        ));
    }
    md
}
