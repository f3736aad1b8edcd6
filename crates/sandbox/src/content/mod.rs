//! Deterministic spec content: the input is read as English (`prose`: title, features and the
//! sentences about them), and the features become milestones, stories with acceptance criteria
//! and (deep) layered subtasks, with hours, personas, roles, tech stack, graphs and markdown.
//! Same input, same content.

mod graphs;
mod markdown;
mod people;
mod prose;
mod stories;
mod tech;

use prose::Lines;
use specdesk_types::{CoreFunctionality, EnrichedTech, Graph, Milestone, Priority, ScopeOfWork};

/// What generation needs.
pub struct SpecInput<'a> {
    /// The request's `input` plus the text of an uploaded file.
    pub text: &'a str,
    pub context: Option<&'a str>,
    pub deep: bool,
    /// Hostnames of fetched documentation.
    pub doc_platforms: Vec<String>,
}

/// Everything a completed spec carries.
pub struct Generated {
    pub title: String,
    pub features: Vec<String>,
    pub human: ScopeOfWork,
    pub agent: ScopeOfWork,
    pub human_md: String,
    pub agent_md: String,
    pub total_hours: f64,
    pub user_flow: Graph,
    pub architecture: Graph,
    pub enriched: Vec<EnrichedTech>,
    /// Stories per feature (for the plan).
    pub feature_stories: Vec<u32>,
}

/// Credits a spec costs: fast 5-10, deep 10-50, growing with the features found.
pub fn cost(text: &str, deep: bool) -> f64 {
    let n = prose::read(text).features.len() as f64;
    if deep {
        (10.0 + 4.0 * n).min(50.0)
    } else {
        (5.0 + n).min(10.0)
    }
}

/// Removes `[sandbox:...]` markers.
pub fn strip_markers(text: &str) -> String {
    let re = regex::Regex::new(r"\[sandbox:[a-z]+\]").expect("static regex");
    re.replace_all(text, "").into_owned()
}

/// Generates the whole scope of work.
pub fn generate(input: &SpecInput<'_>) -> Generated {
    let text = strip_markers(input.text);
    let reading = prose::read(&text);
    let title = reading.title.clone();
    let features: Vec<String> = reading.features.iter().map(|f| f.name.clone()).collect();
    let context = input.context.filter(|c| !c.trim().is_empty());
    let incremental = context.is_some();
    // People and technologies are found in what the input says and in how it reads.
    let said = format!("{title}\n{}\n{text}", features.join("\n"));
    let main_persona = people::MAIN_PERSONA.to_lowercase();
    let lines: Vec<Lines> = reading
        .features
        .iter()
        .map(|f| prose::lines(f, &main_persona, reading.product()))
        .collect();
    let goals: Vec<String> = lines.iter().map(|l| l.goal.clone()).collect();
    let personas = people::personas(&said, &features, &goals);

    let (plan, feature_stories) = stories::plan(&features, &lines, context);
    let (milestones_h, milestones_a, total) = stories::milestones(&plan, input.deep);
    let stack = tech::stack(&said, &reading.example_name());
    let core = core_functionalities(&features, &lines);
    let lead = reading.summary_lead(incremental);
    let summary = summary(input, &lead, &milestones_a);

    let agent = ScopeOfWork {
        title: Some(title.clone()),
        executive_summary: summary.clone(),
        core_functionalities: core.clone(),
        tech_stack: stack.tech_stack.clone(),
        tech_stack_grouped: stack.grouped.clone(),
        milestones: milestones_a,
        personas: None,
        roles: None,
        total_hours: None,
    };
    let human = ScopeOfWork {
        title: Some(title.clone()),
        executive_summary: summary,
        core_functionalities: core,
        tech_stack: stack.tech_stack,
        tech_stack_grouped: stack.grouped,
        milestones: milestones_h,
        personas: Some(personas),
        roles: Some(people::roles()),
        total_hours: Some(total),
    };

    let (user_flow, architecture) = graphs::graphs(&human, &stack.enriched);
    let human_md = markdown::human_markdown(&human, input.deep);
    let agent_md = markdown::agent_markdown(&agent, input.deep, incremental);
    Generated {
        title,
        features,
        human,
        agent,
        human_md,
        agent_md,
        total_hours: total,
        user_flow,
        architecture,
        enriched: stack.enriched,
        feature_stories,
    }
}

/// One core functionality per feature, the first third high priority, the last third low.
fn core_functionalities(features: &[String], lines: &[Lines]) -> Vec<CoreFunctionality> {
    features
        .iter()
        .zip(lines)
        .enumerate()
        .map(|(i, (f, l))| CoreFunctionality {
            name: f.clone(),
            description: l.description.clone(),
            priority: Some(if i * 3 < features.len() {
                Priority::High
            } else if i * 3 < features.len() * 2 {
                Priority::Medium
            } else {
                Priority::Low
            }),
        })
        .collect()
}

/// The executive summary: what the product does (`lead`), then the shape of the spec.
fn summary(input: &SpecInput<'_>, lead: &str, milestones: &[Milestone]) -> String {
    let story_total: usize = milestones.iter().map(|m| m.stories.len()).sum();
    let sub_total: usize = milestones
        .iter()
        .flat_map(|m| &m.stories)
        .map(|s| s.sub_tasks.len())
        .sum();
    let mut summary = format!(
        "{lead} This {} spec breaks the work into {} milestones and {} stories",
        level_name(input.deep),
        milestones.len(),
        story_total
    );
    if input.deep {
        summary.push_str(&format!(" with {sub_total} subtasks"));
    }
    summary.push('.');
    if !input.doc_platforms.is_empty() {
        summary.push_str(&format!(
            " It references the documentation of {}.",
            input.doc_platforms.join(", ")
        ));
    }
    summary
}

fn level_name(deep: bool) -> &'static str {
    if deep { "deep" } else { "fast" }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<String> {
        prose::read(text)
            .features
            .into_iter()
            .map(|f| f.name)
            .collect()
    }

    #[test]
    fn features_from_sentences() {
        let f = names(
            "A todo app where users can sign up, create lists, share lists with friends and get reminders.",
        );
        assert_eq!(
            f,
            vec![
                "Sign up",
                "Create lists",
                "Share lists with friends",
                "Get reminders"
            ]
        );
        assert_eq!(
            prose::read("A todo app where users can sign up.").title,
            "Todo app"
        );
    }

    #[test]
    fn features_from_bullets() {
        let f = names("Recipe site\n- Browse recipes\n- Save favourites\n* Weekly meal plan");
        assert_eq!(
            f,
            vec!["Browse recipes", "Save favourites", "Weekly meal plan"]
        );
        assert_eq!(
            prose::read("Recipe site\n- Browse recipes").title,
            "Recipe site"
        );
    }

    #[test]
    fn deterministic_and_shaped() {
        let input = SpecInput {
            text: "A todo app where users can sign up, create lists and get reminders.",
            context: None,
            deep: true,
            doc_platforms: vec![],
        };
        let a = generate(&input);
        let b = generate(&input);
        assert_eq!(a.human_md, b.human_md);
        assert!(
            a.human
                .milestones
                .iter()
                .any(|m| m.description.contains("CI/CD"))
        );
        let labels: Vec<&str> = a
            .human
            .milestones
            .iter()
            .flat_map(|m| &m.stories)
            .flat_map(|s| &s.sub_tasks)
            .map(|t| t.description.split(':').next().unwrap_or(""))
            .collect();
        for l in ["DB", "Infra", "FE", "API", "Backend", "QA", "Docs"] {
            assert!(labels.contains(&l), "{l} missing");
        }
        let inc = generate(&SpecInput {
            context: Some("An existing Rails app"),
            ..input
        });
        assert!(!inc.human.milestones.iter().any(|m| {
            let d = m.description.to_lowercase();
            d.contains("deploy") || d.contains("ci/cd") || d.contains("setup")
        }));
    }
}
