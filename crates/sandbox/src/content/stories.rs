//! Milestones and stories: a feature's complexity and hours, its stories, the fixed opening and
//! closing milestones, deep subtasks by layer, and the numbered human and agent milestones.

use super::prose::Lines;
use crate::util::words;
use specdesk_types::{Complexity, Milestone, Story, SubTask};

const HEAVY: &[&str] = &[
    "real",
    "realtime",
    "sync",
    "payment",
    "payments",
    "billing",
    "ai",
    "ml",
    "integrate",
    "integration",
    "search",
    "analytics",
    "video",
    "chat",
    "notifications",
    "offline",
    "security",
    "encryption",
    "import",
    "export",
    "reports",
    "dashboard",
    "map",
    "calendar",
];

fn complexity_of(feature: &str) -> Complexity {
    let w = words(feature);
    let score = w.len() + 3 * w.iter().filter(|x| HEAVY.contains(&x.as_str())).count();
    match score {
        0..=2 => Complexity::Xs,
        3..=4 => Complexity::S,
        5..=6 => Complexity::M,
        7..=9 => Complexity::L,
        _ => Complexity::Xl,
    }
}

fn story_hours(c: &Complexity) -> f64 {
    match c {
        Complexity::Xs => 2.0,
        Complexity::S => 4.0,
        Complexity::M => 8.0,
        Complexity::L => 16.0,
        _ => 24.0,
    }
}

fn subtask_hours(c: &Complexity) -> f64 {
    match c {
        Complexity::Xs | Complexity::S => 2.0,
        Complexity::M => 4.0,
        Complexity::L => 8.0,
        _ => 12.0,
    }
}

fn rank(c: &Complexity) -> u8 {
    match c {
        Complexity::Xs => 0,
        Complexity::S => 1,
        Complexity::M => 2,
        Complexity::L => 3,
        _ => 4,
    }
}

fn from_rank(r: u8) -> Complexity {
    match r {
        0 => Complexity::Xs,
        1 => Complexity::S,
        2 => Complexity::M,
        3 => Complexity::L,
        _ => Complexity::Xl,
    }
}

/// Layers of deep subtasks and who does them.
const LAYERS: &[(&str, &str, &str)] = &[
    (
        "DB",
        "Design the data model and migration for",
        "Backend Developer",
    ),
    (
        "Infra",
        "Provision configuration and secrets for",
        "DevOps Engineer",
    ),
    (
        "API",
        "Define the endpoints and request validation for",
        "Backend Developer",
    ),
    (
        "Backend",
        "Implement the business logic of",
        "Backend Developer",
    ),
    (
        "FE",
        "Build the screens, states and errors of",
        "Frontend Developer",
    ),
    ("QA", "Write automated tests covering", "QA Engineer"),
    (
        "Docs",
        "Document for users and developers:",
        "Technical Writer",
    ),
];

/// A story before it is numbered: what the human and agent stories are built from.
pub(super) struct StoryPlan {
    title: String,
    description: String,
    criteria: Vec<String>,
    complexity: Complexity,
    layers: Vec<&'static str>,
    subject: String,
}

/// The stories of one feature: the feature itself, then (heavier features) its permissions and
/// edge cases, then its performance and observability. `l` is what the spec says about it.
fn feature_stories(feature: &str, l: &Lines) -> Vec<StoryPlan> {
    let c = complexity_of(feature);
    let mut v = vec![StoryPlan {
        title: feature.to_owned(),
        description: l.story.clone(),
        criteria: l.criteria.to_vec(),
        complexity: c.clone(),
        layers: if rank(&c) >= 3 {
            vec!["DB", "Infra", "API", "Backend", "FE", "QA", "Docs"]
        } else {
            vec!["DB", "API", "Backend", "FE", "QA", "Docs"]
        },
        subject: l.subject.clone(),
    }];
    if rank(&c) >= 2 {
        v.push(StoryPlan {
            title: format!("{feature}: permissions and edge cases"),
            description: l.perm_story.clone(),
            criteria: vec![
                l.perm_criterion.clone(),
                "Two people changing the same item at once never lose either change silently."
                    .to_owned(),
                "Empty states explain what to do first.".to_owned(),
            ],
            complexity: from_rank(rank(&c) - 1),
            layers: vec!["API", "Backend", "FE", "QA"],
            subject: format!("the permissions and edge cases of {}", l.subject),
        });
    }
    if rank(&c) >= 4 {
        v.push(StoryPlan {
            title: format!("{feature}: performance and observability"),
            description: l.perf_story.clone(),
            criteria: vec![
                "The main screen answers within 300 ms with 10,000 records.".to_owned(),
                "Errors are logged with enough context to reproduce them.".to_owned(),
            ],
            complexity: Complexity::M,
            layers: vec!["Infra", "Backend", "QA"],
            subject: format!("the performance of {}", l.subject),
        });
    }
    v
}

fn setup_stories() -> Vec<StoryPlan> {
    vec![
        StoryPlan {
            title: "Repository, environments and coding standards".to_owned(),
            description: "Set up the repository, local environment, linting and formatting so every contributor starts the same way.".to_owned(),
            criteria: vec![
                "A new developer runs the app locally with one documented command.".to_owned(),
                "Lint and format checks run on every change.".to_owned(),
            ],
            complexity: Complexity::S,
            layers: vec!["Infra", "Docs"],
            subject: "the project setup".to_owned(),
        },
        StoryPlan {
            title: "User accounts and sign-in".to_owned(),
            description: "People create an account, sign in and out, and reset a forgotten password.".to_owned(),
            criteria: vec![
                "A person signs up with email and password and is signed in.".to_owned(),
                "A wrong password is refused without saying which part was wrong.".to_owned(),
                "A password reset link expires after one hour.".to_owned(),
            ],
            complexity: Complexity::M,
            layers: vec!["DB", "API", "Backend", "FE", "QA"],
            subject: "user accounts and sign-in".to_owned(),
        },
    ]
}

fn closing_milestones(incremental: bool) -> Vec<(String, Vec<StoryPlan>)> {
    if incremental {
        return vec![(
            "Migration considerations and rollout".to_owned(),
            vec![
                StoryPlan {
                    title: "Data migration for the new features".to_owned(),
                    description: "Existing records gain the new fields without downtime and can be rolled back.".to_owned(),
                    criteria: vec![
                        "The migration runs on a copy of production data without errors.".to_owned(),
                        "A rollback script restores the previous schema.".to_owned(),
                    ],
                    complexity: Complexity::M,
                    layers: vec!["DB", "Backend", "QA"],
                    subject: "the data migration".to_owned(),
                },
                StoryPlan {
                    title: "Backward compatibility and feature flags".to_owned(),
                    description: "The new features ship behind flags and old clients keep working.".to_owned(),
                    criteria: vec![
                        "Turning a flag off hides the feature without errors.".to_owned(),
                        "Existing API consumers see no breaking change.".to_owned(),
                    ],
                    complexity: Complexity::S,
                    layers: vec!["API", "Backend", "QA", "Docs"],
                    subject: "backward compatibility".to_owned(),
                },
            ],
        )];
    }
    vec![
        (
            "Testing, documentation and maintenance".to_owned(),
            vec![
                StoryPlan {
                    title: "End-to-end test suite".to_owned(),
                    description: "The main journeys are covered by automated end-to-end tests."
                        .to_owned(),
                    criteria: vec![
                        "Every core feature has at least one end-to-end test.".to_owned(),
                    ],
                    complexity: Complexity::M,
                    layers: vec!["QA"],
                    subject: "the end-to-end tests".to_owned(),
                },
                StoryPlan {
                    title: "User guide and maintenance runbook".to_owned(),
                    description: "Users and maintainers have the documentation they need."
                        .to_owned(),
                    criteria: vec![
                        "The user guide covers every core feature.".to_owned(),
                        "The runbook explains backups, upgrades and common incidents.".to_owned(),
                    ],
                    complexity: Complexity::S,
                    layers: vec!["Docs"],
                    subject: "the documentation".to_owned(),
                },
            ],
        ),
        (
            "Deployment, CI/CD and monitoring".to_owned(),
            vec![
                StoryPlan {
                    title: "CI/CD pipeline".to_owned(),
                    description: "Every change is built, tested and deployed by the pipeline."
                        .to_owned(),
                    criteria: vec![
                        "A failing test blocks the deployment.".to_owned(),
                        "A merge to main deploys to staging automatically.".to_owned(),
                    ],
                    complexity: Complexity::M,
                    layers: vec!["Infra", "QA"],
                    subject: "the CI/CD pipeline".to_owned(),
                },
                StoryPlan {
                    title: "Production deployment and monitoring".to_owned(),
                    description: "The app runs in production with health checks, logs and alerts."
                        .to_owned(),
                    criteria: vec![
                        "An outage pages the on-call person within five minutes.".to_owned(),
                        "Logs and metrics are kept for 30 days.".to_owned(),
                    ],
                    complexity: Complexity::M,
                    layers: vec!["Infra", "Docs"],
                    subject: "production deployment and monitoring".to_owned(),
                },
            ],
        ),
    ]
}

/// A milestone before it is numbered: its description and stories.
pub(super) type PlannedMilestone = (String, Vec<StoryPlan>);

/// The milestones in order (`lines`: what the spec says about each feature; `context` is the
/// existing project of an incremental spec), and how many stories each feature has (for the
/// plan).
pub(super) fn plan(
    features: &[String],
    lines: &[Lines],
    context: Option<&str>,
) -> (Vec<PlannedMilestone>, Vec<u32>) {
    let mut plan: Vec<PlannedMilestone> = Vec::new();
    if let Some(ctx) = context {
        let excerpt: String = ctx.trim().chars().take(120).collect();
        plan.push((
            "Integration analysis of the existing project".to_owned(),
            vec![StoryPlan {
                title: "Map integration points with the existing code".to_owned(),
                description: format!(
                    "Identify where the new features attach to the current project ({excerpt})."
                ),
                criteria: vec![
                    "Every new feature names the modules and data it touches.".to_owned(),
                    "Risky changes to existing behaviour are listed before work starts.".to_owned(),
                ],
                complexity: Complexity::S,
                layers: vec!["Backend", "Docs"],
                subject: "the integration points".to_owned(),
            }],
        ));
    } else {
        plan.push(("Project setup and foundations".to_owned(), setup_stories()));
    }
    let mut feature_stories_count = Vec::new();
    for (chunk, chunk_lines) in features.chunks(2).zip(lines.chunks(2)) {
        let mut stories = Vec::new();
        for (f, l) in chunk.iter().zip(chunk_lines) {
            let s = feature_stories(f, l);
            feature_stories_count.push(s.len() as u32);
            stories.extend(s);
        }
        plan.push((format!("Core features: {}", chunk.join(", ")), stories));
    }
    plan.extend(closing_milestones(context.is_some()));
    (plan, feature_stories_count)
}

/// The human milestones (with hours, and roles on deep subtasks), the agent milestones (without),
/// and the total hours.
pub(super) fn milestones(
    plan: &[PlannedMilestone],
    deep: bool,
) -> (Vec<Milestone>, Vec<Milestone>, f64) {
    let mut milestones_h = Vec::new();
    let mut milestones_a = Vec::new();
    let mut total = 0.0;
    for (mi, (desc, stories)) in plan.iter().enumerate() {
        let mnum = mi + 1;
        let mut sh = Vec::new();
        let mut sa = Vec::new();
        let mut mhours = 0.0;
        for (si, sp) in stories.iter().enumerate() {
            let (human, agent, shours) = story_pair(format!("{mnum}.{}", si + 1), sp, deep);
            mhours += shours;
            sh.push(human);
            sa.push(agent);
        }
        total += mhours;
        milestones_h.push(Milestone {
            milestone_number: mnum as f64,
            description: desc.clone(),
            hours: Some(mhours),
            stories: sh,
        });
        milestones_a.push(Milestone {
            milestone_number: mnum as f64,
            description: desc.clone(),
            hours: None,
            stories: sa,
        });
    }
    (milestones_h, milestones_a, total)
}

/// A story as the human spec and the agent spec carry it, and its hours (deep: the sum of its
/// subtasks).
fn story_pair(sid: String, sp: &StoryPlan, deep: bool) -> (Story, Story, f64) {
    let (subs_h, subs_a, shours) = if deep {
        subtasks(&sid, sp)
    } else {
        (Vec::new(), Vec::new(), story_hours(&sp.complexity))
    };
    let human = Story {
        id: Some(sid.clone()),
        title: sp.title.clone(),
        description: Some(sp.description.clone()),
        acceptance_criteria: Some(sp.criteria.clone()),
        complexity: Some(sp.complexity.clone()),
        hours: Some(shours),
        sub_tasks: subs_h,
    };
    let agent = Story {
        id: Some(sid),
        title: sp.title.clone(),
        description: Some(sp.description.clone()),
        acceptance_criteria: Some(sp.criteria.clone()),
        complexity: Some(sp.complexity.clone()),
        hours: None,
        sub_tasks: subs_a,
    };
    (human, agent, shours)
}

/// Deep subtasks of a story, one per layer: human ones (hours, role), agent ones, total hours.
fn subtasks(sid: &str, sp: &StoryPlan) -> (Vec<SubTask>, Vec<SubTask>, f64) {
    let mut subs_h = Vec::new();
    let mut subs_a = Vec::new();
    let mut hours = 0.0;
    for (ti, layer) in sp.layers.iter().enumerate() {
        let (label, verb, role) = LAYERS
            .iter()
            .find(|l| l.0 == *layer)
            .copied()
            .unwrap_or(LAYERS[3]);
        let base = rank(&sp.complexity).max(1);
        let r = if matches!(label, "QA" | "Docs") {
            (base - 1).max(1)
        } else {
            base
        };
        let c = from_rank(r);
        let h = subtask_hours(&c);
        hours += h;
        let description = format!("{label}: {verb} {}", sp.subject);
        let id = Some(format!("{sid}.{}", ti + 1));
        subs_h.push(SubTask {
            id: id.clone(),
            description: description.clone(),
            complexity: Some(c.clone()),
            hours: Some(h),
            roles: Some(vec![role.to_owned()]),
        });
        subs_a.push(SubTask {
            id,
            description,
            complexity: Some(c),
            hours: None,
            roles: None,
        });
    }
    (subs_h, subs_a, hours)
}
