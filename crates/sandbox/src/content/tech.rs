//! The tech stack: technologies named in the input (else a default per category), each enriched
//! with its official site, a reason and alternatives (each with its own site and description).

use crate::util::words;
use specdesk_types::{EnrichedTech, HelpfulLink, TechAlternative, TechStackItem};
use std::collections::BTreeMap;

/// A technology the sandbox can name, in the stack or as an alternative.
struct Technology {
    name: &'static str,
    /// Its official site (https).
    link: &'static str,
    /// What it is, as one sentence.
    about: &'static str,
}

const fn t(name: &'static str, link: &'static str, about: &'static str) -> Technology {
    Technology { name, link, about }
}

/// Every technology named by [`TECH`], as a choice or as an alternative.
const KNOWN: &[Technology] = &[
    // Frontend
    t(
        "React",
        "https://react.dev",
        "React is a JavaScript library for building user interfaces out of components.",
    ),
    t(
        "Vue",
        "https://vuejs.org",
        "Vue is a progressive JavaScript framework for building user interfaces, with single-file components and built-in reactivity.",
    ),
    t(
        "Svelte",
        "https://svelte.dev",
        "Svelte is a UI framework whose compiler turns components into small, fast JavaScript.",
    ),
    t(
        "Angular",
        "https://angular.dev",
        "Angular is a TypeScript framework for web applications with routing, forms and dependency injection built in.",
    ),
    t(
        "Next.js",
        "https://nextjs.org",
        "Next.js is a React framework with server rendering, file-based routing and API routes.",
    ),
    t(
        "Remix",
        "https://remix.run",
        "Remix is a React framework built on web standards, with nested routes and server-side data loading.",
    ),
    t(
        "Nuxt",
        "https://nuxt.com",
        "Nuxt is a Vue framework with server rendering, file-based routing and API routes.",
    ),
    t(
        "Tauri",
        "https://tauri.app",
        "Tauri builds small, secure desktop and mobile apps from a web front end and a Rust core.",
    ),
    t(
        "Electron",
        "https://www.electronjs.org",
        "Electron builds cross-platform desktop apps with JavaScript, HTML and CSS on top of Chromium and Node.js.",
    ),
    t(
        "Flutter",
        "https://flutter.dev",
        "Flutter is a UI toolkit for building mobile, web and desktop apps from one Dart codebase.",
    ),
    t(
        "React Native",
        "https://reactnative.dev",
        "React Native builds native iOS and Android apps with React.",
    ),
    // Backend
    t(
        "Node.js",
        "https://nodejs.org",
        "Node.js is a JavaScript runtime for building servers and command-line tools.",
    ),
    t(
        "Deno",
        "https://deno.com",
        "Deno is a secure JavaScript and TypeScript runtime with built-in formatting, linting and testing.",
    ),
    t(
        "Bun",
        "https://bun.sh",
        "Bun is a fast JavaScript runtime that is also a bundler, test runner and package manager.",
    ),
    t(
        "Express",
        "https://expressjs.com",
        "Express is a minimal and flexible web framework for Node.js.",
    ),
    t(
        "Fastify",
        "https://fastify.dev",
        "Fastify is a fast, low-overhead web framework for Node.js with schema-based validation.",
    ),
    t(
        "Koa",
        "https://koajs.com",
        "Koa is a small web framework for Node.js built around async middleware.",
    ),
    t(
        "Rust",
        "https://www.rust-lang.org",
        "Rust is a systems programming language focused on speed, memory safety and safe concurrency.",
    ),
    t(
        "Go",
        "https://go.dev",
        "Go is a simple compiled language with built-in concurrency, well suited to network services.",
    ),
    t(
        "Axum",
        "https://docs.rs/axum",
        "Axum is a Rust web framework built on Tokio, Tower and Hyper.",
    ),
    t(
        "Actix Web",
        "https://actix.rs",
        "Actix Web is a fast, pragmatic web framework for Rust.",
    ),
    t(
        "Rocket",
        "https://rocket.rs",
        "Rocket is a Rust web framework focused on usability, security and type safety.",
    ),
    t(
        "Python",
        "https://www.python.org",
        "Python is a readable general-purpose language with a large ecosystem for web services and data work.",
    ),
    t(
        "Django",
        "https://www.djangoproject.com",
        "Django is a batteries-included Python web framework with an ORM, an admin site and authentication.",
    ),
    t(
        "FastAPI",
        "https://fastapi.tiangolo.com",
        "FastAPI is a Python framework for building APIs from type hints, with automatic OpenAPI documentation.",
    ),
    t(
        "Flask",
        "https://flask.palletsprojects.com",
        "Flask is a lightweight Python web framework that leaves the choice of components to you.",
    ),
    t(
        "Ruby on Rails",
        "https://rubyonrails.org",
        "Ruby on Rails is a full-stack Ruby web framework that favours convention over configuration.",
    ),
    t(
        "Laravel",
        "https://laravel.com",
        "Laravel is a PHP web framework with an expressive ORM, queues and authentication.",
    ),
    // Database
    t(
        "PostgreSQL",
        "https://www.postgresql.org",
        "PostgreSQL is a reliable open-source relational database with rich SQL and extensions.",
    ),
    t(
        "MySQL",
        "https://www.mysql.com",
        "MySQL is a widely used open-source relational database.",
    ),
    t(
        "MariaDB",
        "https://mariadb.org",
        "MariaDB is a community-developed relational database that began as a fork of MySQL.",
    ),
    t(
        "SQLite",
        "https://sqlite.org",
        "SQLite is a small, self-contained SQL database engine that keeps a whole database in one file.",
    ),
    t(
        "DuckDB",
        "https://duckdb.org",
        "DuckDB is an in-process SQL database built for fast analytical queries.",
    ),
    t(
        "MongoDB",
        "https://www.mongodb.com",
        "MongoDB is a document database that stores flexible JSON-like records.",
    ),
    t(
        "CouchDB",
        "https://couchdb.apache.org",
        "CouchDB is a document database with an HTTP API and replication between servers and devices.",
    ),
    t(
        "Redis",
        "https://redis.io",
        "Redis is an in-memory data store used as a cache, a message broker and a fast database.",
    ),
    t(
        "Memcached",
        "https://memcached.org",
        "Memcached is a simple, high-performance in-memory cache for key-value data.",
    ),
    t(
        "Valkey",
        "https://valkey.io",
        "Valkey is an open-source in-memory data store that continues Redis under the Linux Foundation.",
    ),
    // Infrastructure
    t(
        "Docker",
        "https://www.docker.com",
        "Docker packages an application and its dependencies into containers that run the same everywhere.",
    ),
    t(
        "Podman",
        "https://podman.io",
        "Podman is a daemonless container engine that can run containers without root.",
    ),
    t(
        "Kubernetes",
        "https://kubernetes.io",
        "Kubernetes runs containers across a cluster and handles deployment, scaling and recovery.",
    ),
    t(
        "Nomad",
        "https://www.nomadproject.io",
        "Nomad is a simple scheduler that deploys containers and other workloads across a cluster.",
    ),
    t(
        "Docker Swarm",
        "https://docs.docker.com/engine/swarm/",
        "Docker Swarm is the mode of Docker Engine that runs containers across a cluster of machines.",
    ),
    // Payments
    t(
        "Stripe",
        "https://stripe.com/docs",
        "Stripe is a payments platform with APIs for card payments, subscriptions and invoices.",
    ),
    t(
        "Paddle",
        "https://www.paddle.com",
        "Paddle is a merchant of record that handles payments, subscriptions and sales tax for software companies.",
    ),
    t(
        "Adyen",
        "https://www.adyen.com",
        "Adyen is a global payments platform for online and in-person payments.",
    ),
    // Testing
    t(
        "Playwright",
        "https://playwright.dev",
        "Playwright drives Chromium, Firefox and WebKit for reliable end-to-end tests.",
    ),
    t(
        "Cypress",
        "https://www.cypress.io",
        "Cypress is an end-to-end testing tool for web apps that runs tests inside the browser.",
    ),
    t(
        "Selenium",
        "https://www.selenium.dev",
        "Selenium automates browsers through the WebDriver standard from many programming languages.",
    ),
];

/// Technologies a spec can pick: (keyword in the input, name, category, alternatives). Every name
/// and alternative is in [`KNOWN`].
const TECH: &[(&str, &str, &str, &[&str])] = &[
    ("react", "React", "Frontend", &["Vue", "Svelte"]),
    ("vue", "Vue", "Frontend", &["React", "Svelte"]),
    ("svelte", "Svelte", "Frontend", &["React", "Vue"]),
    ("angular", "Angular", "Frontend", &["React", "Vue"]),
    ("nextjs", "Next.js", "Frontend", &["Remix", "Nuxt"]),
    ("tauri", "Tauri", "Frontend", &["Electron"]),
    ("flutter", "Flutter", "Frontend", &["React Native"]),
    ("node", "Node.js", "Backend", &["Deno", "Bun"]),
    ("express", "Express", "Backend", &["Fastify", "Koa"]),
    ("rust", "Rust", "Backend", &["Go", "Node.js"]),
    ("axum", "Axum", "Backend", &["Actix Web", "Rocket"]),
    ("python", "Python", "Backend", &["Node.js", "Go"]),
    ("django", "Django", "Backend", &["Flask", "FastAPI"]),
    ("fastapi", "FastAPI", "Backend", &["Flask", "Django"]),
    ("go", "Go", "Backend", &["Rust", "Node.js"]),
    ("rails", "Ruby on Rails", "Backend", &["Django", "Laravel"]),
    ("postgres", "PostgreSQL", "Database", &["MySQL", "SQLite"]),
    ("postgresql", "PostgreSQL", "Database", &["MySQL", "SQLite"]),
    ("mysql", "MySQL", "Database", &["PostgreSQL", "MariaDB"]),
    ("sqlite", "SQLite", "Database", &["PostgreSQL", "DuckDB"]),
    ("mongodb", "MongoDB", "Database", &["PostgreSQL", "CouchDB"]),
    ("redis", "Redis", "Database", &["Memcached", "Valkey"]),
    ("docker", "Docker", "Infrastructure", &["Podman"]),
    (
        "kubernetes",
        "Kubernetes",
        "Infrastructure",
        &["Nomad", "Docker Swarm"],
    ),
    ("stripe", "Stripe", "Payments", &["Paddle", "Adyen"]),
    (
        "playwright",
        "Playwright",
        "Testing",
        &["Cypress", "Selenium"],
    ),
];

type TechRow = (
    &'static str,
    &'static str,
    &'static str,
    &'static [&'static str],
);

const DEFAULT_TECH: &[(&str, &str)] = &[
    ("Frontend", "react"),
    ("Backend", "node"),
    ("Database", "postgres"),
    ("Infrastructure", "docker"),
    ("Testing", "playwright"),
];

/// The entry of `name` in [`KNOWN`] (a unit test checks that every name has one).
fn known(name: &str) -> Option<&'static Technology> {
    KNOWN.iter().find(|k| k.name == name)
}

fn tech_rows(text: &str) -> Vec<&'static TechRow> {
    let w = words(
        &text
            .replace("next.js", "nextjs")
            .replace("Next.js", "nextjs"),
    );
    let mut picked: Vec<&TechRow> = Vec::new();
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

/// What a category is for, inside a sentence.
fn purpose(category: &str) -> &'static str {
    match category {
        "Frontend" => "the user interface",
        "Backend" => "the API and business logic",
        "Database" => "persistent storage",
        "Infrastructure" => "packaging and deployment",
        "Payments" => "charging customers",
        _ => "automated testing",
    }
}

/// The stack of a spec: its items, grouped by category, and enriched.
pub(super) struct Stack {
    pub tech_stack: Vec<TechStackItem>,
    pub grouped: BTreeMap<String, Vec<String>>,
    pub enriched: Vec<EnrichedTech>,
}

/// Technologies named in `text`, then a default per missing category.
pub(super) fn stack(text: &str, title: &str) -> Stack {
    let tech = tech_rows(text);
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
    let enriched = tech.iter().map(|r| enrich(r, title)).collect();
    Stack {
        tech_stack,
        grouped,
        enriched,
    }
}

fn enrich(&(_, name, category, alternatives): &TechRow, title: &str) -> EnrichedTech {
    let this = known(name);
    let link = this.map(|k| k.link.to_owned());
    EnrichedTech {
        name: name.to_owned(),
        use_for: Some(use_for(category).to_owned()),
        reason: Some(format!(
            "{name} is a well-supported choice for {} in a project like {title}.",
            purpose(category)
        )),
        description: this.map(|k| k.about.to_owned()),
        link: link.clone(),
        helpful_links: link
            .map(|url| HelpfulLink {
                url,
                description: Some(format!("Official {name} documentation")),
            })
            .into_iter()
            .collect(),
        alternatives: alternatives
            .iter()
            .map(|a| {
                let alt = known(a);
                TechAlternative {
                    name: (*a).to_owned(),
                    link: alt.map(|k| k.link.to_owned()),
                    description: alt.map(|k| k.about.to_owned()),
                }
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_named_technology_has_a_site_and_a_sentence() {
        for (_, name, _, alternatives) in TECH {
            for n in std::iter::once(name).chain(alternatives.iter()) {
                let k = known(n).unwrap_or_else(|| panic!("{n} is not in KNOWN"));
                assert!(k.link.starts_with("https://"), "{n}: {}", k.link);
                assert!(k.about.starts_with(n) && k.about.ends_with('.'), "{n}");
            }
        }
        for (i, k) in KNOWN.iter().enumerate() {
            assert!(
                !KNOWN[..i].iter().any(|o| o.name == k.name),
                "{} twice",
                k.name
            );
        }
    }

    #[test]
    fn alternatives_carry_name_link_and_description() {
        let s = stack("A notes app", "Notes app");
        let react = &s.enriched[0];
        assert_eq!(react.name, "React");
        let vue = &react.alternatives[0];
        assert_eq!(vue.name, "Vue");
        assert_eq!(vue.link.as_deref(), Some("https://vuejs.org"));
        assert!(vue.description.as_deref().unwrap().starts_with("Vue is "));
        assert_eq!(
            react.reason.as_deref(),
            Some(
                "React is a well-supported choice for the user interface in a project like Notes app."
            )
        );
    }
}
