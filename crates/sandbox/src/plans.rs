//! Project plans: `GET /get-plan`, the project page (`svcUrl`), and simulated coding runs
//! (`POST /_sandbox/projects/{id}/advance`).

use crate::auth;
use crate::errors::{self, Resp};
use crate::state::{App, ProjectRec, RunRec};
use crate::util::{self, iso, slug};
use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use specdesk_types::{
    AppMap, AppMapDiff, AppMapDiffEntry, AppMapList, CodeVersion, CodeVersionChange, EndpointItem,
    Feature, FeatureScope, FeatureStatus, FilesChanged, Intent, LastRun, LaunchFix, LaunchItem,
    LaunchState, Plan, PlanResponse, Progress, ProgressBasis, ReadyToLaunch, ScreenItem,
    StorageItem, StoryCount,
};
use std::collections::BTreeSet;

pub fn routes() -> Router<App> {
    Router::new()
        .route("/get-plan", get(get_plan))
        .route("/projects/{id}", get(project_page))
}

fn status_text(s: &FeatureStatus) -> &'static str {
    match s {
        FeatureStatus::Works => "Works",
        FeatureStatus::BuiltNotChecked => "Built, not checked yet",
        FeatureStatus::ChangedSinceCheck => "Changed since its last check",
        FeatureStatus::NeedsALook => "Needs a look: its check failed",
        FeatureStatus::NotWorking => "Not working: its check keeps failing",
        FeatureStatus::InProgress => "In progress",
        FeatureStatus::Planned => "Planned",
        FeatureStatus::OutOfScope => "Out of scope",
        FeatureStatus::Removed => "Removed at your request",
        FeatureStatus::Unknown(_) => "Unknown",
    }
}

/// Status of confirmed feature `i` after `r` runs.
fn feature_status(i: usize, r: usize) -> FeatureStatus {
    let p = r as i64 - (i / 2) as i64;
    let base = match p {
        i64::MIN..=0 => FeatureStatus::Planned,
        1 => FeatureStatus::InProgress,
        2 => FeatureStatus::BuiltNotChecked,
        _ => FeatureStatus::Works,
    };
    match (i, r) {
        (0, 4) => FeatureStatus::ChangedSinceCheck,
        (1, 3) => FeatureStatus::NeedsALook,
        (1, 4) => FeatureStatus::NotWorking,
        _ => base,
    }
}

fn feature(
    id: String,
    name: String,
    status: FeatureStatus,
    scope: FeatureScope,
    added_by_agent: bool,
    stories: (u32, u32),
    part_of: Option<String>,
) -> Feature {
    let counted = scope == FeatureScope::Confirmed
        && !matches!(status, FeatureStatus::OutOfScope | FeatureStatus::Removed);
    Feature {
        id,
        name,
        status_text: status_text(&status).to_owned(),
        status,
        scope,
        added_by_agent,
        stories: StoryCount {
            done: stories.0,
            total: stories.1,
        },
        counted,
        removed_parts: Vec::new(),
        part_of,
    }
}

fn done_stories(status: &FeatureStatus, total: u32) -> u32 {
    if status.is_built() {
        total
    } else if *status == FeatureStatus::InProgress {
        total / 2
    } else {
        0
    }
}

fn features(p: &ProjectRec, r: usize) -> (Vec<Feature>, Vec<String>) {
    let mut out = Vec::new();
    let mut removed = Vec::new();
    let n = p.features.len();
    for (i, f) in p.features.iter().enumerate() {
        let mut status = feature_status(i, r);
        if n >= 3 && i == n - 1 && r >= 3 {
            status = FeatureStatus::Removed;
            removed.push(f.name.clone());
        }
        let extra = if i == 0 && r >= 3 { 1 } else { 0 };
        let total = f.stories + extra;
        let done = done_stories(&status, total);
        out.push(feature(
            format!("feat_{:02}", i + 1),
            f.name.clone(),
            status,
            FeatureScope::Confirmed,
            false,
            (done, total),
            None,
        ));
        // Work added to the first built feature, listed right after it until it is built.
        if i == 0 && r == 2 {
            out.push(feature(
                "feat_01_ext".to_owned(),
                format!("{}: export to CSV", f.name),
                FeatureStatus::InProgress,
                FeatureScope::Confirmed,
                true,
                (0, 1),
                Some(f.name.clone()),
            ));
        }
    }
    if r >= 2 {
        out.push(feature(
            "feat_sugg_01".to_owned(),
            "Dark mode".to_owned(),
            FeatureStatus::Planned,
            FeatureScope::Proposed,
            true,
            (0, 1),
            None,
        ));
    }
    if r >= 3 {
        out.push(feature(
            "feat_oos_01".to_owned(),
            "Native mobile apps".to_owned(),
            FeatureStatus::OutOfScope,
            FeatureScope::Confirmed,
            false,
            (0, 2),
            None,
        ));
    }
    (out, removed)
}

fn tree_hash(p: &ProjectRec, r: usize) -> String {
    util::sha256_hex(format!("{}:{r}", p.id).as_bytes())[..40].to_owned()
}

fn app_map_items(
    p: &ProjectRec,
    r: usize,
) -> (Vec<ScreenItem>, Vec<EndpointItem>, Vec<StorageItem>) {
    let built: Vec<&str> = p
        .features
        .iter()
        .enumerate()
        .filter(|(i, _)| {
            feature_status(*i, r).is_built() || feature_status(*i, r) == FeatureStatus::InProgress
        })
        .map(|(_, f)| f.name.as_str())
        .collect();
    let mut screens = vec![ScreenItem {
        name: "Home".to_owned(),
        anchor: Some("src/pages/index.tsx:1".to_owned()),
        path: Some("/".to_owned()),
    }];
    let mut endpoints = vec![EndpointItem {
        name: "GET /api/health".to_owned(),
        anchor: Some("src/api/health.ts:3".to_owned()),
        writes: false,
    }];
    let mut storage = vec![StorageItem {
        name: "users".to_owned(),
        anchor: Some("db/migrations/001_users.sql:1".to_owned()),
        kind: "table".to_owned(),
        location: "PostgreSQL".to_owned(),
    }];
    for (k, name) in built.iter().enumerate() {
        let s = slug(name);
        for v in 0..(r.min(4)) {
            let suffix = if v == 0 {
                String::new()
            } else {
                format!("-{v}")
            };
            screens.push(ScreenItem {
                name: format!(
                    "{name}{}",
                    if v == 0 {
                        String::new()
                    } else {
                        format!(" ({})", v + 1)
                    }
                ),
                anchor: Some(format!("src/pages/{s}{suffix}.tsx:{}", 10 + k)),
                path: Some(format!("/{s}{suffix}")),
            });
        }
        for (m, write) in [
            ("GET", false),
            ("POST", true),
            ("PUT", true),
            ("DELETE", true),
        ]
        .into_iter()
        .take(1 + r.min(3))
        {
            endpoints.push(EndpointItem {
                name: format!("{m} /api/{s}"),
                anchor: Some(format!("src/api/{s}.ts:{}", 5 + k)),
                writes: write,
            });
            endpoints.push(EndpointItem {
                name: format!("{m} /api/{s}/:id"),
                anchor: Some(format!("src/api/{s}.ts:{}", 40 + k)),
                writes: write,
            });
        }
        storage.push(StorageItem {
            name: s.replace('-', "_"),
            anchor: Some(format!(
                "db/migrations/{:03}_{}.sql:1",
                k + 2,
                s.replace('-', "_")
            )),
            kind: "table".to_owned(),
            location: "PostgreSQL".to_owned(),
        });
    }
    (screens, endpoints, storage)
}

fn list<T: Clone>(items: &[T]) -> AppMapList<T> {
    AppMapList {
        count: items.len() as u32,
        items: items.iter().take(25).cloned().collect(),
    }
}

fn names(r: usize, p: &ProjectRec) -> BTreeSet<(String, String)> {
    let (s, e, st) = app_map_items(p, r);
    let mut out = BTreeSet::new();
    out.extend(s.into_iter().map(|x| ("screen".to_owned(), x.name)));
    out.extend(e.into_iter().map(|x| ("endpoint".to_owned(), x.name)));
    out.extend(st.into_iter().map(|x| ("storage".to_owned(), x.name)));
    out
}

/// The plan of a project at `now`; `None` while nothing is planned or built.
pub fn compute(p: &ProjectRec, now: i64) -> Option<Plan> {
    let r = p.runs.len();
    let (features, removed) = features(p, r);
    if features.is_empty() {
        return None;
    }
    let counted: Vec<&Feature> = features.iter().filter(|f| f.counted).collect();
    let total = counted.len() as u32;
    let built = counted.iter().filter(|f| f.status.is_built()).count() as u32;
    let proven = counted
        .iter()
        .filter(|f| f.status == FeatureStatus::Works)
        .count() as u32;
    let proposed = features
        .iter()
        .filter(|f| f.scope == FeatureScope::Proposed)
        .count() as u32;
    let last = p.runs.last();
    let code_version = CodeVersion {
        tree: last.map(|l| l.tree.clone()),
        short: last.map(|l| l.tree[..7].to_owned()),
    };
    let (app_map, last_run, ready) = match last {
        None => (None, None, None),
        Some(run) => {
            let (s, e, st) = app_map_items(p, r);
            let map = AppMap {
                code_version: Some(run.tree.clone()),
                mapped_at: Some(iso(run.ended)),
                screens: list(&s),
                endpoints: list(&e),
                storage: list(&st),
            };
            let before_names = if r >= 2 {
                names(r - 1, p)
            } else {
                BTreeSet::new()
            };
            let after_names = names(r, p);
            let entry = |(k, n): &(String, String)| AppMapDiffEntry {
                kind: k.clone(),
                name: n.clone(),
            };
            let added: Vec<AppMapDiffEntry> =
                after_names.difference(&before_names).map(entry).collect();
            let removed_e: Vec<AppMapDiffEntry> =
                before_names.difference(&after_names).map(entry).collect();
            let changed: Vec<AppMapDiffEntry> = after_names
                .intersection(&before_names)
                .filter(|(k, _)| k == "endpoint")
                .take(3)
                .map(entry)
                .collect();
            let paths: Vec<String> = added
                .iter()
                .map(|a| format!("src/{}/{}.ts", a.kind, slug(&a.name)))
                .chain(
                    changed
                        .iter()
                        .map(|c| format!("src/{}/{}.ts", c.kind, slug(&c.name))),
                )
                .collect();
            let last_run = LastRun {
                run_id: run.run_id.clone(),
                kind: "coding".to_owned(),
                ended_at: iso(run.ended),
                code_version: CodeVersionChange {
                    before: if r >= 2 {
                        Some(p.runs[r - 2].tree.clone())
                    } else {
                        None
                    },
                    after: Some(run.tree.clone()),
                },
                files_changed: FilesChanged {
                    count: paths.len() as u32,
                    paths,
                },
                app_map: AppMapDiff {
                    added,
                    removed: removed_e,
                    changed,
                },
            };
            let items = vec![
                LaunchItem {
                    id: "https".to_owned(),
                    label: "Served over HTTPS".to_owned(),
                    state: LaunchState::Ok,
                    detail: None,
                    fix: None,
                },
                LaunchItem {
                    id: "secrets".to_owned(),
                    label: "Required secrets are set".to_owned(),
                    state: if r >= 5 {
                        LaunchState::Ok
                    } else {
                        LaunchState::NeedsFix
                    },
                    detail: (r < 5).then(|| "PAYMENT_API_KEY is not set.".to_owned()),
                    fix: (r < 5).then(|| LaunchFix {
                        action: "Add a secret".to_owned(),
                        how: "Add PAYMENT_API_KEY in the project's secrets settings.".to_owned(),
                    }),
                },
                LaunchItem {
                    id: "checks".to_owned(),
                    label: "Every built feature has a passing check".to_owned(),
                    state: if proven == built && built > 0 {
                        LaunchState::Ok
                    } else {
                        LaunchState::NeedsFix
                    },
                    detail: (proven != built || built == 0)
                        .then(|| format!("{proven} of {built} built features are proven working.")),
                    fix: (proven != built || built == 0).then(|| LaunchFix {
                        action: "Run the checks".to_owned(),
                        how: "Ask the coding agent to add and run a check for each built feature."
                            .to_owned(),
                    }),
                },
            ];
            let ready = ReadyToLaunch {
                ready: items.iter().all(|i| i.state == LaunchState::Ok),
                items,
            };
            (Some(map), Some(last_run), Some(ready))
        }
    };
    Some(Plan {
        project_id: p.id.clone(),
        name: Some(p.name.clone()),
        computed_at: iso(now),
        code_version,
        intent: Some(Intent {
            text: p.intent.clone(),
            proposed_by_svc: true,
            removed_since: removed,
        }),
        progress: Progress {
            basis: ProgressBasis::Features,
            built,
            proven_working: proven,
            total,
            left: total - built,
            percent: (built * 100).checked_div(total).unwrap_or(0),
            proposed,
        },
        features,
        ready_to_launch: ready,
        app_map,
        last_run,
    })
}

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

async fn get_plan(State(app): State<App>, headers: HeaderMap, RawQuery(raw): RawQuery) -> Resp {
    let user = auth::plan_user(&app, &headers)?;
    let params: std::collections::BTreeMap<String, String> =
        url::form_urlencoded::parse(raw.unwrap_or_default().as_bytes())
            .into_owned()
            .collect();
    let spec_id = params.get("specId").filter(|s| !s.is_empty());
    let project_id = params.get("projectId").filter(|s| !s.is_empty());
    let format = params.get("format").map(String::as_str).unwrap_or("json");
    if !matches!(format, "json" | "markdown") {
        return Err(errors::invalid("`format` must be `json` or `markdown`."));
    }
    let id = match (spec_id, project_id) {
        (Some(s), None) => s,
        (None, Some(p)) => p,
        _ => {
            return Err(errors::invalid(
                "Give exactly one of `specId` and `projectId`.",
            ));
        }
    };
    if !util::is_object_id(id) {
        return Err(errors::rest(
            StatusCode::BAD_REQUEST,
            "Invalid ID",
            "IDs are 24 hexadecimal characters.",
        ));
    }
    crate::specs::settle(&app);
    let d = app.data();
    let now = d.now();
    let project = if spec_id.is_some() {
        let Some(spec) = d
            .specs
            .iter()
            .find(|s| s.id == *id && user.can_read(&s.owner, s.owner_org.as_deref()))
        else {
            return Err(project_not_found());
        };
        match spec.project_id.as_ref().and_then(|p| d.projects.get(p)) {
            Some(p) => p.clone(),
            None => {
                return Err(errors::rest(
                    StatusCode::NOT_FOUND,
                    "No project yet",
                    "This spec has not created a project (yet): it is still generating, or it failed.",
                ));
            }
        }
    } else {
        match d.projects.get(id.as_str()) {
            Some(p) if user.can_read(&p.owner, p.owner_org.as_deref()) => p.clone(),
            _ => return Err(project_not_found()),
        }
    };
    drop(d);
    let plan = compute(&project, now);
    let md = markdown(&project, plan.as_ref());
    if format == "markdown" {
        return Ok(([(header::CONTENT_TYPE, "text/markdown; charset=utf-8")], md).into_response());
    }
    Ok(Json(PlanResponse {
        project_id: project.id.clone(),
        spec_id: Some(project.spec_id.clone()),
        plan,
        markdown: md,
    })
    .into_response())
}

fn project_not_found() -> Response {
    errors::rest(
        StatusCode::NOT_FOUND,
        "Project not found",
        "No project with this id belongs to this key.",
    )
}

/// `POST /_sandbox/projects/{id}/advance`: one simulated coding run.
pub fn advance(app: &App, id: &str) -> Resp {
    crate::specs::settle(app);
    let (project, now) = {
        let mut d = app.data();
        let now = d.now();
        let Some(p) = d.projects.get_mut(id) else {
            return Err(project_not_found());
        };
        let r = p.runs.len() + 1;
        let tree = tree_hash(p, r);
        p.runs.push(RunRec {
            run_id: format!("run_{r:03}_{}", &tree[..8]),
            ended: now,
            tree,
        });
        (p.clone(), now)
    };
    app.touch();
    let plan = compute(&project, now);
    let md = markdown(&project, plan.as_ref());
    Ok(Json(PlanResponse {
        project_id: project.id.clone(),
        spec_id: Some(project.spec_id.clone()),
        plan,
        markdown: md,
    })
    .into_response())
}

async fn project_page(State(app): State<App>, Path(id): Path<String>) -> Response {
    let Some(p) = app.data().projects.get(&id).cloned() else {
        return errors::rest(StatusCode::NOT_FOUND, "Not found", "No such project.");
    };
    let plan = compute(&p, app.now());
    let mut html = format!(
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>{0}</title></head><body><h1>{0}</h1><p>{1}</p><ul>",
        escape(&p.name),
        escape(&p.intent)
    );
    for f in plan.iter().flat_map(|p| &p.features) {
        html.push_str(&format!(
            "<li>{} — {}</li>",
            escape(&f.name),
            escape(&f.status_text)
        ));
    }
    html.push_str("</ul></body></html>");
    Html(html).into_response()
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
