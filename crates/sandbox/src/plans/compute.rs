//! The plan of a project after its runs: feature states by run, progress, the app map, the last
//! run's changes and the launch checklist.

use crate::state::{ProjectRec, RunRec};
use crate::util::{self, iso, slug};
use specdesk_types::{
    AppMap, AppMapDiff, AppMapDiffEntry, AppMapList, CodeVersion, CodeVersionChange, EndpointItem,
    Feature, FeatureScope, FeatureStatus, FilesChanged, Intent, LastRun, LaunchFix, LaunchItem,
    LaunchState, Plan, Progress, ProgressBasis, ReadyToLaunch, ScreenItem, StorageItem, StoryCount,
};
use std::collections::BTreeSet;

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

pub(super) fn tree_hash(p: &ProjectRec, r: usize) -> String {
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
        Some(run) => (
            Some(app_map(p, r, run)),
            Some(last_run(p, r, run)),
            Some(ready_to_launch(r, built, proven)),
        ),
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

/// The app map after run `r` (its latest run is `run`).
fn app_map(p: &ProjectRec, r: usize, run: &RunRec) -> AppMap {
    let (s, e, st) = app_map_items(p, r);
    AppMap {
        code_version: Some(run.tree.clone()),
        mapped_at: Some(iso(run.ended)),
        screens: list(&s),
        endpoints: list(&e),
        storage: list(&st),
    }
}

/// Run `r` (`run`): its code versions, the files it changed, and how it changed the app map.
fn last_run(p: &ProjectRec, r: usize, run: &RunRec) -> LastRun {
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
    let added: Vec<AppMapDiffEntry> = after_names.difference(&before_names).map(entry).collect();
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
    LastRun {
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
    }
}

/// The launch checklist after run `r`: HTTPS, secrets (set from run 5), checks (every built
/// feature works).
fn ready_to_launch(r: usize, built: u32, proven: u32) -> ReadyToLaunch {
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
    ReadyToLaunch {
        ready: items.iter().all(|i| i.state == LaunchState::Ok),
        items,
    }
}
