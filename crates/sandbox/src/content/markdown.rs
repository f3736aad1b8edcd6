//! The human and coding-agent specs as markdown.

use super::level_name;
use specdesk_types::{Complexity, ScopeOfWork};

fn complexity_str(c: &Option<Complexity>) -> &str {
    c.as_ref().map(|c| c.as_str()).unwrap_or("M")
}

/// The human spec as markdown.
pub(super) fn human_markdown(s: &ScopeOfWork, deep: bool) -> String {
    let title = s.title.clone().unwrap_or_default();
    let mut md = format!(
        "# {title}\n\n_Human spec ({} spec), {} hours in total._\n\n## Executive summary\n\n{}\n\n## Core functionalities\n\n",
        level_name(deep),
        s.total_hours.unwrap_or(0.0),
        s.executive_summary
    );
    for c in &s.core_functionalities {
        md.push_str(&format!(
            "- **{}** ({}): {}\n",
            c.name,
            c.priority.as_ref().map(|p| p.as_str()).unwrap_or("Medium"),
            c.description
        ));
    }
    md.push_str("\n## Personas\n\n");
    for p in s.personas.iter().flatten() {
        md.push_str(&format!("### {}\n\n{}\n\n", p.title, p.description));
        if let Some(g) = &p.primary_goals {
            md.push_str(&format!("- Goals: {}\n", g.join("; ")));
        }
        if let Some(g) = &p.pain_points {
            md.push_str(&format!("- Pain points: {}\n", g.join("; ")));
        }
        if let Some(g) = &p.key_tasks {
            md.push_str(&format!("- Key tasks: {}\n", g.join("; ")));
        }
        md.push('\n');
    }
    md.push_str("## Roles\n\n| Role | Short |\n|---|---|\n");
    for r in s.roles.iter().flatten() {
        md.push_str(&format!("| {} | {} |\n", r.name, r.short_hand));
    }
    md.push_str("\n## Tech stack\n\n");
    for (cat, names) in &s.tech_stack_grouped {
        md.push_str(&format!("- **{cat}**: {}\n", names.join(", ")));
    }
    md.push_str("\n## Milestones\n\n");
    for m in &s.milestones {
        md.push_str(&format!(
            "### Milestone {}: {} ({} h)\n\n",
            m.milestone_number,
            m.description,
            m.hours.unwrap_or(0.0)
        ));
        for st in &m.stories {
            md.push_str(&format!(
                "#### {} {} ({}, {} h)\n\n{}\n\n**Acceptance criteria**\n\n",
                st.id.clone().unwrap_or_default(),
                st.title,
                complexity_str(&st.complexity),
                st.hours.unwrap_or(0.0),
                st.description.clone().unwrap_or_default()
            ));
            for a in st.acceptance_criteria.iter().flatten() {
                md.push_str(&format!("- [ ] {a}\n"));
            }
            if deep && !st.sub_tasks.is_empty() {
                md.push_str("\n**Subtasks**\n\n");
                for t in &st.sub_tasks {
                    md.push_str(&format!(
                        "- {} {} ({}, {} h; {})\n",
                        t.id.clone().unwrap_or_default(),
                        t.description,
                        complexity_str(&t.complexity),
                        t.hours.unwrap_or(0.0),
                        t.roles.clone().unwrap_or_default().join(", ")
                    ));
                }
            }
            md.push('\n');
        }
    }
    md.push_str(&format!(
        "## Total\n\n{} hours.\n",
        s.total_hours.unwrap_or(0.0)
    ));
    md
}

/// The coding-agent spec as markdown.
pub(super) fn agent_markdown(s: &ScopeOfWork, deep: bool, incremental: bool) -> String {
    let title = s.title.clone().unwrap_or_default();
    let mut md = format!(
        "# {title}: implementation spec for a coding agent\n\n{}\n\n## Instructions\n\n- Work milestone by milestone, story by story, in order.\n- A story is done when every acceptance criterion holds and its tests pass.\n",
        s.executive_summary
    );
    if incremental {
        md.push_str("- This is an addition to an existing codebase: change only what the stories need and keep existing behaviour.\n");
    }
    md.push_str("\n## Tech stack\n\n");
    for t in &s.tech_stack {
        md.push_str(&format!("- {} ({})\n", t.name, t.category));
    }
    md.push_str("\n## Core functionalities\n\n");
    for c in &s.core_functionalities {
        md.push_str(&format!("- {}: {}\n", c.name, c.description));
    }
    md.push_str("\n## Milestones\n\n");
    for m in &s.milestones {
        md.push_str(&format!(
            "### Milestone {}: {}\n\n",
            m.milestone_number, m.description
        ));
        for st in &m.stories {
            md.push_str(&format!(
                "#### Story {}: {} [{}]\n\n{}\n\nAcceptance criteria:\n",
                st.id.clone().unwrap_or_default(),
                st.title,
                complexity_str(&st.complexity),
                st.description.clone().unwrap_or_default()
            ));
            for a in st.acceptance_criteria.iter().flatten() {
                md.push_str(&format!("- {a}\n"));
            }
            if deep && !st.sub_tasks.is_empty() {
                md.push_str("\nSubtasks:\n");
                for t in &st.sub_tasks {
                    md.push_str(&format!(
                        "- [ ] {} {} [{}]\n",
                        t.id.clone().unwrap_or_default(),
                        t.description,
                        complexity_str(&t.complexity)
                    ));
                }
            }
            md.push('\n');
        }
    }
    md
}
