//! Deterministic spec content: features found in the input become milestones, stories with
//! acceptance criteria and (deep) layered subtasks, with hours, personas, roles, tech stack,
//! graphs and markdown. Same input, same content.

use crate::util::{capitalize, slug, words};
use specdesk_types::{
    Complexity, CoreFunctionality, EnrichedTech, Graph, GraphEdge, GraphNode, HelpfulLink,
    Milestone, Persona, Priority, Role, ScopeOfWork, Story, SubTask, TechAlternative,
    TechStackItem,
};
use std::collections::BTreeMap;

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
    let n = extract_features(text).len() as f64;
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

const CUES: &[&str] = &[
    "should be able to ",
    "users can ",
    "user can ",
    "people can ",
    "lets users ",
    "allows users to ",
    "that lets ",
    " can ",
    " should ",
    " where ",
    " with ",
    " that ",
    ": ",
];

const LEAD_INS: &[&str] = &[
    "and ",
    "also ",
    "to ",
    "be able to ",
    "users ",
    "they can ",
    "can ",
    "then ",
    "or ",
];

/// The features named in a description (bullets, or clauses of sentences), at most 12.
pub fn extract_features(text: &str) -> Vec<String> {
    let text = strip_markers(text);
    let bullet = regex::Regex::new(r"^\s*(?:[-*•+]|\d+[.)])\s+(.+)$").expect("static regex");
    let mut raw: Vec<String> = text
        .lines()
        .filter_map(|l| bullet.captures(l).map(|c| c[1].to_owned()))
        .collect();
    if raw.is_empty() {
        let splitter =
            regex::Regex::new(r"(?i),|;| and | & | as well as | plus ").expect("static regex");
        for sentence in text.split(['.', '!', '?', '\n']) {
            let s = sentence.trim();
            if s.is_empty() {
                continue;
            }
            let lower = s.to_lowercase();
            let after = CUES
                .iter()
                .filter_map(|c| lower.find(c).map(|i| i + c.len()))
                .min()
                .map(|i| &s[i..])
                .unwrap_or(s);
            for part in splitter.split(after) {
                raw.push(part.to_owned());
            }
        }
    }
    let mut out: Vec<String> = Vec::new();
    for r in raw {
        let mut f = r
            .trim()
            .trim_matches(|c: char| c.is_ascii_punctuation() || c.is_whitespace())
            .to_owned();
        loop {
            let lower = f.to_lowercase();
            match LEAD_INS.iter().find(|l| lower.starts_with(*l)) {
                Some(l) => f = f[l.len()..].trim().to_owned(),
                None => break,
            }
        }
        let n = words(&f).len();
        if n == 0 || n > 12 {
            continue;
        }
        let f = capitalize(&f);
        if !out.iter().any(|o| o.eq_ignore_ascii_case(&f)) {
            out.push(f);
        }
        if out.len() == 12 {
            break;
        }
    }
    out
}

/// A short title for the project.
pub fn title_of(text: &str) -> String {
    let text = strip_markers(text);
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    let first = first.split(['.', '!', '?']).next().unwrap_or("");
    let lower = first.to_lowercase();
    let cut = CUES
        .iter()
        .filter_map(|c| lower.find(c))
        .min()
        .unwrap_or(first.len());
    let mut t = first[..cut]
        .trim()
        .trim_start_matches(['-', '*', '#'])
        .trim()
        .to_owned();
    for p in [
        "build ", "create ", "make ", "i want ", "we need ", "we want ", "design ",
    ] {
        if t.to_lowercase().starts_with(p) {
            t = t[p.len()..].to_owned();
        }
    }
    for p in ["a ", "an ", "the "] {
        if t.to_lowercase().starts_with(p) {
            t = t[p.len()..].to_owned();
        }
    }
    let t: Vec<&str> = t.split_whitespace().take(8).collect();
    if t.is_empty() {
        "Untitled project".to_owned()
    } else {
        capitalize(&t.join(" "))
    }
}

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

struct StoryPlan {
    title: String,
    description: String,
    criteria: Vec<String>,
    complexity: Complexity,
    layers: Vec<&'static str>,
    subject: String,
}

fn feature_stories(feature: &str, persona: &str) -> Vec<StoryPlan> {
    let c = complexity_of(feature);
    let lower = feature.to_lowercase();
    let mut v = vec![StoryPlan {
        title: feature.to_owned(),
        description: format!(
            "As a {persona}, I want to {lower} so that I can get my work done without workarounds."
        ),
        criteria: vec![
            format!(
                "Given a signed-in {persona}, when they {lower}, then the result is saved and shown at once."
            ),
            format!("Invalid input to {lower} is refused with a message that says how to fix it."),
            format!("{feature} works on desktop and mobile screen sizes."),
        ],
        complexity: c.clone(),
        layers: if rank(&c) >= 3 {
            vec!["DB", "Infra", "API", "Backend", "FE", "QA", "Docs"]
        } else {
            vec!["DB", "API", "Backend", "FE", "QA", "Docs"]
        },
        subject: lower.clone(),
    }];
    if rank(&c) >= 2 {
        v.push(StoryPlan {
            title: format!("{feature}: permissions and edge cases"),
            description: format!(
                "Only allowed people can {lower}; empty, duplicate and concurrent cases behave predictably."
            ),
            criteria: vec![
                format!("A {persona} without access cannot {lower} and is told why."),
                "Two people changing the same item at once never lose either change silently.".to_owned(),
                "Empty states explain what to do first.".to_owned(),
            ],
            complexity: from_rank(rank(&c) - 1),
            layers: vec!["API", "Backend", "FE", "QA"],
            subject: format!("permissions and edge cases of {lower}"),
        });
    }
    if rank(&c) >= 4 {
        v.push(StoryPlan {
            title: format!("{feature}: performance and observability"),
            description: format!(
                "{feature} stays fast with realistic data and its failures are visible."
            ),
            criteria: vec![
                "The main screen answers within 300 ms with 10,000 records.".to_owned(),
                "Errors are logged with enough context to reproduce them.".to_owned(),
            ],
            complexity: Complexity::M,
            layers: vec!["Infra", "Backend", "QA"],
            subject: format!("performance of {lower}"),
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

fn personas(text: &str, features: &[String]) -> Vec<Persona> {
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

fn roles() -> Vec<Role> {
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

/// Known technologies: (keyword, name, category, link, alternatives).
const TECH: &[(&str, &str, &str, &str, &[&str])] = &[
    (
        "react",
        "React",
        "Frontend",
        "https://react.dev",
        &["Vue", "Svelte"],
    ),
    (
        "vue",
        "Vue",
        "Frontend",
        "https://vuejs.org",
        &["React", "Svelte"],
    ),
    (
        "svelte",
        "Svelte",
        "Frontend",
        "https://svelte.dev",
        &["React", "Vue"],
    ),
    (
        "angular",
        "Angular",
        "Frontend",
        "https://angular.dev",
        &["React", "Vue"],
    ),
    (
        "nextjs",
        "Next.js",
        "Frontend",
        "https://nextjs.org",
        &["Remix", "Nuxt"],
    ),
    (
        "tauri",
        "Tauri",
        "Frontend",
        "https://tauri.app",
        &["Electron"],
    ),
    (
        "flutter",
        "Flutter",
        "Frontend",
        "https://flutter.dev",
        &["React Native"],
    ),
    (
        "node",
        "Node.js",
        "Backend",
        "https://nodejs.org",
        &["Deno", "Bun"],
    ),
    (
        "express",
        "Express",
        "Backend",
        "https://expressjs.com",
        &["Fastify", "Koa"],
    ),
    (
        "rust",
        "Rust",
        "Backend",
        "https://www.rust-lang.org",
        &["Go", "Node.js"],
    ),
    (
        "axum",
        "Axum",
        "Backend",
        "https://docs.rs/axum",
        &["Actix Web", "Rocket"],
    ),
    (
        "python",
        "Python",
        "Backend",
        "https://www.python.org",
        &["Node.js", "Go"],
    ),
    (
        "django",
        "Django",
        "Backend",
        "https://www.djangoproject.com",
        &["Flask", "FastAPI"],
    ),
    (
        "fastapi",
        "FastAPI",
        "Backend",
        "https://fastapi.tiangolo.com",
        &["Flask", "Django"],
    ),
    (
        "go",
        "Go",
        "Backend",
        "https://go.dev",
        &["Rust", "Node.js"],
    ),
    (
        "rails",
        "Ruby on Rails",
        "Backend",
        "https://rubyonrails.org",
        &["Django", "Laravel"],
    ),
    (
        "postgres",
        "PostgreSQL",
        "Database",
        "https://www.postgresql.org",
        &["MySQL", "SQLite"],
    ),
    (
        "postgresql",
        "PostgreSQL",
        "Database",
        "https://www.postgresql.org",
        &["MySQL", "SQLite"],
    ),
    (
        "mysql",
        "MySQL",
        "Database",
        "https://www.mysql.com",
        &["PostgreSQL", "MariaDB"],
    ),
    (
        "sqlite",
        "SQLite",
        "Database",
        "https://sqlite.org",
        &["PostgreSQL", "DuckDB"],
    ),
    (
        "mongodb",
        "MongoDB",
        "Database",
        "https://www.mongodb.com",
        &["PostgreSQL", "CouchDB"],
    ),
    (
        "redis",
        "Redis",
        "Database",
        "https://redis.io",
        &["Memcached", "Valkey"],
    ),
    (
        "docker",
        "Docker",
        "Infrastructure",
        "https://www.docker.com",
        &["Podman"],
    ),
    (
        "kubernetes",
        "Kubernetes",
        "Infrastructure",
        "https://kubernetes.io",
        &["Nomad", "Docker Swarm"],
    ),
    (
        "stripe",
        "Stripe",
        "Payments",
        "https://stripe.com/docs",
        &["Paddle", "Adyen"],
    ),
    (
        "playwright",
        "Playwright",
        "Testing",
        "https://playwright.dev",
        &["Cypress", "Selenium"],
    ),
];

const DEFAULT_TECH: &[(&str, &str)] = &[
    ("Frontend", "react"),
    ("Backend", "node"),
    ("Database", "postgres"),
    ("Infrastructure", "docker"),
    ("Testing", "playwright"),
];

fn tech_rows(
    text: &str,
) -> Vec<&'static (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static [&'static str],
)> {
    let w = words(
        &text
            .replace("next.js", "nextjs")
            .replace("Next.js", "nextjs"),
    );
    let mut picked: Vec<&(&str, &str, &str, &str, &[&str])> = Vec::new();
    for row in TECH {
        if w.iter().any(|x| x == row.0) && !picked.iter().any(|p| p.1 == row.1) {
            picked.push(row);
        }
    }
    for (cat, key) in DEFAULT_TECH {
        if !picked.iter().any(|p| p.2 == *cat)
            && let Some(row) = TECH.iter().find(|r| r.0 == *key)
        {
            picked.push(row);
        }
    }
    picked
}

fn use_for(category: &str) -> &'static str {
    match category {
        "Frontend" => "User interface",
        "Backend" => "API and business logic",
        "Database" => "Persistent storage",
        "Infrastructure" => "Packaging and deployment",
        "Payments" => "Charging customers",
        _ => "Automated testing",
    }
}

fn level_name(deep: bool) -> &'static str {
    if deep { "deep" } else { "fast" }
}

/// Generates the whole scope of work.
pub fn generate(input: &SpecInput<'_>) -> Generated {
    let text = strip_markers(input.text);
    let mut features = extract_features(&text);
    if features.is_empty() {
        features = vec![
            "Core workflow".to_owned(),
            "Settings and preferences".to_owned(),
        ];
    }
    let title = title_of(&text);
    let incremental = input.context.is_some_and(|c| !c.trim().is_empty());
    let personas = personas(&text, &features);
    let main_persona = personas
        .first()
        .map(|p| p.title.to_lowercase())
        .unwrap_or_else(|| "user".to_owned());

    // Milestones: (description, stories) in order.
    let mut plan: Vec<(String, Vec<StoryPlan>)> = Vec::new();
    if incremental {
        let ctx = input.context.unwrap_or("").trim();
        let excerpt: String = ctx.chars().take(120).collect();
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
    for chunk in features.chunks(2) {
        let mut stories = Vec::new();
        for f in chunk {
            let s = feature_stories(f, &main_persona);
            feature_stories_count.push(s.len() as u32);
            stories.extend(s);
        }
        plan.push((format!("Core features: {}", chunk.join(", ")), stories));
    }
    plan.extend(closing_milestones(incremental));

    // Scope of work.
    let mut milestones_h = Vec::new();
    let mut milestones_a = Vec::new();
    let mut total = 0.0;
    for (mi, (desc, stories)) in plan.iter().enumerate() {
        let mnum = mi + 1;
        let mut sh = Vec::new();
        let mut sa = Vec::new();
        let mut mhours = 0.0;
        for (si, sp) in stories.iter().enumerate() {
            let sid = format!("{mnum}.{}", si + 1);
            let mut subs_h = Vec::new();
            let mut subs_a = Vec::new();
            let mut shours = story_hours(&sp.complexity);
            if input.deep {
                shours = 0.0;
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
                    shours += h;
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
            }
            mhours += shours;
            sh.push(Story {
                id: Some(sid.clone()),
                title: sp.title.clone(),
                description: Some(sp.description.clone()),
                acceptance_criteria: Some(sp.criteria.clone()),
                complexity: Some(sp.complexity.clone()),
                hours: Some(shours),
                sub_tasks: subs_h,
            });
            sa.push(Story {
                id: Some(sid),
                title: sp.title.clone(),
                description: Some(sp.description.clone()),
                acceptance_criteria: Some(sp.criteria.clone()),
                complexity: Some(sp.complexity.clone()),
                hours: None,
                sub_tasks: subs_a,
            });
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

    let tech = tech_rows(&text);
    let tech_stack: Vec<TechStackItem> = tech
        .iter()
        .map(|r| TechStackItem {
            name: r.1.to_owned(),
            category: r.2.to_owned(),
        })
        .collect();
    let mut grouped: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for t in &tech_stack {
        grouped
            .entry(t.category.clone())
            .or_default()
            .push(t.name.clone());
    }
    let enriched: Vec<EnrichedTech> = tech
        .iter()
        .map(|r| EnrichedTech {
            name: r.1.to_owned(),
            use_for: Some(use_for(r.2).to_owned()),
            reason: Some(format!(
                "{} is a well-supported choice for {} in a project like {title}.",
                r.1,
                use_for(r.2).to_lowercase()
            )),
            description: Some(format!("{} ({})", r.1, r.2)),
            link: Some(r.3.to_owned()),
            helpful_links: vec![HelpfulLink {
                url: r.3.to_owned(),
                description: Some(format!("Official {} documentation", r.1)),
            }],
            alternatives: r
                .4
                .iter()
                .map(|a| TechAlternative {
                    name: (*a).to_owned(),
                    link: TECH.iter().find(|t| t.1 == *a).map(|t| t.3.to_owned()),
                    description: Some(format!(
                        "Alternative to {} for {}",
                        r.1,
                        use_for(r.2).to_lowercase()
                    )),
                })
                .collect(),
        })
        .collect();

    let core: Vec<CoreFunctionality> = features
        .iter()
        .enumerate()
        .map(|(i, f)| CoreFunctionality {
            name: f.clone(),
            description: format!("Lets a {main_persona} {}.", f.to_lowercase()),
            priority: Some(if i * 3 < features.len() {
                Priority::High
            } else if i * 3 < features.len() * 2 {
                Priority::Medium
            } else {
                Priority::Low
            }),
        })
        .collect();

    let story_total: usize = milestones_a.iter().map(|m| m.stories.len()).sum();
    let sub_total: usize = milestones_a
        .iter()
        .flat_map(|m| &m.stories)
        .map(|s| s.sub_tasks.len())
        .sum();
    let mut summary = format!(
        "{title} is {} that lets people {}. This {} spec breaks the work into {} milestones and {} stories",
        if incremental {
            "a set of additions to an existing project"
        } else {
            "a new application"
        },
        join_and(
            &features
                .iter()
                .map(|f| f.to_lowercase())
                .collect::<Vec<_>>()
        ),
        level_name(input.deep),
        milestones_a.len(),
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

    let agent = ScopeOfWork {
        title: Some(title.clone()),
        executive_summary: summary.clone(),
        core_functionalities: core.clone(),
        tech_stack: tech_stack.clone(),
        tech_stack_grouped: grouped.clone(),
        milestones: milestones_a,
        personas: None,
        roles: None,
        total_hours: None,
    };
    let human = ScopeOfWork {
        title: Some(title.clone()),
        executive_summary: summary,
        core_functionalities: core,
        tech_stack,
        tech_stack_grouped: grouped,
        milestones: milestones_h,
        personas: Some(personas),
        roles: Some(roles()),
        total_hours: Some(total),
    };

    let (user_flow, architecture) = graphs(&human, &enriched);
    let human_md = human_markdown(&human, input.deep);
    let agent_md = agent_markdown(&agent, input.deep, incremental);
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
        enriched,
        feature_stories: feature_stories_count,
    }
}

fn join_and(items: &[String]) -> String {
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        n => format!("{} and {}", items[..n - 1].join(", "), items[n - 1]),
    }
}

fn graphs(human: &ScopeOfWork, tech: &[EnrichedTech]) -> (Graph, Graph) {
    let mut flow = Graph {
        nodes: Vec::new(),
        edges: Vec::new(),
    };
    let mut prev: Option<String> = None;
    for m in &human.milestones {
        for s in &m.stories {
            let id = s.id.clone().unwrap_or_default();
            flow.nodes.push(GraphNode {
                id: id.clone(),
                label: Some(s.title.clone()),
                node_type: Some("story".to_owned()),
                description: s.description.clone(),
                level: Some(format!("milestone-{}", m.milestone_number)),
                hours: s.hours,
            });
            if let Some(p) = prev.replace(id.clone()) {
                flow.edges.push(GraphEdge {
                    source: p,
                    target: id,
                    description: Some("then".to_owned()),
                    edge_type: Some("flow".to_owned()),
                });
            }
        }
    }
    let mut arch = Graph {
        nodes: Vec::new(),
        edges: Vec::new(),
    };
    for t in tech {
        arch.nodes.push(GraphNode {
            id: format!("tech-{}", slug(&t.name)),
            label: Some(t.name.clone()),
            node_type: Some("component".to_owned()),
            description: t.use_for.clone(),
            level: Some("platform".to_owned()),
            hours: Some(0.0),
        });
    }
    let front = tech
        .iter()
        .find(|t| t.use_for.as_deref() == Some("User interface"))
        .map(|t| format!("tech-{}", slug(&t.name)));
    let db = tech
        .iter()
        .find(|t| t.use_for.as_deref() == Some("Persistent storage"))
        .map(|t| format!("tech-{}", slug(&t.name)));
    for m in &human.milestones {
        for s in &m.stories {
            let id = format!("module-{}", s.id.clone().unwrap_or_default());
            arch.nodes.push(GraphNode {
                id: id.clone(),
                label: Some(s.title.clone()),
                node_type: Some("module".to_owned()),
                description: s.description.clone(),
                level: Some(format!("milestone-{}", m.milestone_number)),
                hours: s.hours,
            });
            if let Some(f) = &front {
                arch.edges.push(GraphEdge {
                    source: f.clone(),
                    target: id.clone(),
                    description: Some("calls".to_owned()),
                    edge_type: Some("http".to_owned()),
                });
            }
            if let Some(d) = &db {
                arch.edges.push(GraphEdge {
                    source: id,
                    target: d.clone(),
                    description: Some("reads and writes".to_owned()),
                    edge_type: Some("data".to_owned()),
                });
            }
        }
    }
    (flow, arch)
}

fn complexity_str(c: &Option<Complexity>) -> &str {
    c.as_ref().map(|c| c.as_str()).unwrap_or("M")
}

fn human_markdown(s: &ScopeOfWork, deep: bool) -> String {
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

fn agent_markdown(s: &ScopeOfWork, deep: bool, incremental: bool) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_from_sentences() {
        let f = extract_features(
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
        assert_eq!(title_of("A todo app where users can sign up."), "Todo app");
    }

    #[test]
    fn features_from_bullets() {
        let f = extract_features(
            "Recipe site\n- Browse recipes\n- Save favourites\n* Weekly meal plan",
        );
        assert_eq!(
            f,
            vec!["Browse recipes", "Save favourites", "Weekly meal plan"]
        );
        assert_eq!(title_of("Recipe site\n- Browse recipes"), "Recipe site");
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
