//! Project plans (`GET /get-plan`).

use crate::common::{assert_covers, assert_keys, assert_keys_across, json, roundtrip};
use specdesk_types::*;

#[test]
fn full_plan_with_every_field() {
    let r: PlanResponse = roundtrip("plans/plan-response.json");
    let v = json("plans/plan-response.json");
    assert_keys(&v, "", &["projectId", "specId", "plan", "markdown"]);
    assert_keys(
        &v,
        "/plan",
        &[
            "projectId",
            "name",
            "computedAt",
            "codeVersion",
            "intent",
            "progress",
            "features",
            "readyToLaunch",
            "appMap",
            "lastRun",
        ],
    );
    assert_keys(&v, "/plan/codeVersion", &["tree", "short"]);
    assert_keys(
        &v,
        "/plan/intent",
        &["text", "proposedBySvc", "removedSince"],
    );
    assert_keys(
        &v,
        "/plan/progress",
        &[
            "basis",
            "built",
            "provenWorking",
            "total",
            "left",
            "percent",
            "proposed",
        ],
    );
    assert_keys_across(
        &v,
        "/plan/features",
        &[
            "id",
            "name",
            "status",
            "statusText",
            "scope",
            "addedByAgent",
            "stories",
            "counted",
            "removedParts",
            "partOf",
        ],
    );
    assert_keys_across(
        &v,
        "/plan/readyToLaunch/items",
        &["id", "label", "state", "detail", "fix"],
    );
    assert_keys(
        &v,
        "/plan/appMap",
        &["codeVersion", "mappedAt", "screens", "endpoints", "storage"],
    );
    assert_keys_across(
        &v,
        "/plan/appMap/screens/items",
        &["name", "anchor", "path"],
    );
    assert_keys_across(
        &v,
        "/plan/appMap/endpoints/items",
        &["name", "anchor", "writes"],
    );
    assert_keys_across(
        &v,
        "/plan/appMap/storage/items",
        &["name", "anchor", "kind", "where"],
    );
    assert_keys(
        &v,
        "/plan/lastRun",
        &[
            "runId",
            "kind",
            "endedAt",
            "codeVersion",
            "filesChanged",
            "appMap",
        ],
    );
    assert_keys(&v, "/plan/lastRun/codeVersion", &["before", "after"]);
    assert_keys(&v, "/plan/lastRun/filesChanged", &["count", "paths"]);
    assert_keys(&v, "/plan/lastRun/appMap", &["added", "removed", "changed"]);

    assert_eq!(r.spec_id.as_deref(), Some("6650f1c2a9b3e4d5f6a7b8c9"));
    let plan = r.plan.unwrap();
    assert_eq!(plan.code_version.short.as_deref(), Some("9f2c4e1"));
    let intent = plan.intent.as_ref().unwrap();
    assert!(!intent.proposed_by_svc);
    assert_eq!(intent.removed_since, ["Nutrition facts"]);
    let p = &plan.progress;
    assert_eq!(p.basis, ProgressBasis::Features);
    assert_eq!(
        (
            p.built,
            p.proven_working,
            p.total,
            p.left,
            p.percent,
            p.proposed
        ),
        (5, 1, 8, 3, 63, 1)
    );
    assert!(p.proven_working <= p.built);
}

#[test]
fn features_in_every_status_with_parts_and_uncounted_items() {
    let plan = roundtrip::<PlanResponse>("plans/plan-response.json")
        .plan
        .unwrap();
    let statuses: Vec<String> = plan.features.iter().map(|f| f.status.to_string()).collect();
    assert_covers("feature status", FeatureStatus::KNOWN, &statuses);
    let scopes: Vec<String> = plan.features.iter().map(|f| f.scope.to_string()).collect();
    assert_covers("feature scope", FeatureScope::KNOWN, &scopes);

    // Work added to a built feature comes right after it and names it in `partOf`.
    let i = plan
        .features
        .iter()
        .position(|f| f.part_of.is_some())
        .unwrap();
    let part = &plan.features[i];
    assert_eq!(part.part_of.as_deref(), Some("Recipes"));
    assert_eq!(plan.features[i - 1].name, "Recipes");
    assert!(plan.features[i - 1].status.is_built());
    assert!(!part.status.is_built());
    assert!(part.added_by_agent);

    // Proposed, out-of-scope and removed items are listed but not counted.
    for f in &plan.features {
        let uncounted = f.scope == FeatureScope::Proposed
            || matches!(f.status, FeatureStatus::OutOfScope | FeatureStatus::Removed);
        assert_eq!(f.counted, !uncounted, "{}", f.name);
    }
    let counted = plan.features.iter().filter(|f| f.counted);
    assert_eq!(counted.clone().count() as u32, plan.progress.total);
    assert_eq!(
        counted.filter(|f| f.status.is_built()).count() as u32,
        plan.progress.built
    );
    let recipes = plan.features.iter().find(|f| f.id == "f-recipes").unwrap();
    assert_eq!(
        recipes.removed_parts,
        [serde_json::json!("Nutrition facts")]
    );
    assert_eq!(recipes.stories.done, 4);
}

#[test]
fn launch_items_and_app_map() {
    let plan = roundtrip::<PlanResponse>("plans/plan-response.json")
        .plan
        .unwrap();
    let launch = plan.ready_to_launch.unwrap();
    assert!(!launch.ready);
    let states: Vec<String> = launch.items.iter().map(|i| i.state.to_string()).collect();
    assert_covers("launch state", LaunchState::KNOWN, &states);
    let ok = &launch.items[0];
    assert_eq!(
        (ok.state.clone(), &ok.detail, &ok.fix),
        (LaunchState::Ok, &None, &None)
    );
    let fix = launch.items[1].fix.as_ref().unwrap();
    assert_eq!(fix.action, "Set SMTP_PASSWORD");
    assert!(fix.how.starts_with("Add it"));

    let map = plan.app_map.unwrap();
    assert_eq!(map.code_version.as_deref(), Some("9f2c4e1"));
    assert_eq!(map.screens.count as usize, map.screens.items.len());
    assert_eq!(
        map.screens.items[0].anchor.as_deref(),
        Some("app/recipes/page.tsx:12")
    );
    assert_eq!(map.screens.items[1].path, None);
    assert!(map.endpoints.items[1].writes);
    assert_eq!(map.storage.items[0].location, "PostgreSQL");
    assert_eq!(map.storage.items[1].kind, "cookie");

    let run = plan.last_run.unwrap();
    assert_eq!(run.code_version.after.as_deref(), Some("9f2c4e1"));
    assert_eq!(
        run.files_changed.count as usize,
        run.files_changed.paths.len()
    );
    assert_eq!(run.app_map.added[0].kind, "endpoint");
    assert_eq!(run.app_map.removed[0].name, "Old recipe editor");
    assert_eq!(run.app_map.changed.len(), 1);
}

#[test]
fn just_completed_plan_has_nulls_and_no_map_or_run() {
    let r: PlanResponse = roundtrip("plans/plan-response-just-completed.json");
    let plan = r.plan.unwrap();
    assert_eq!(plan.name, None);
    assert_eq!(
        plan.code_version,
        CodeVersion {
            tree: None,
            short: None
        }
    );
    assert!(plan.intent.unwrap().proposed_by_svc);
    assert_eq!(plan.ready_to_launch, None);
    assert_eq!(plan.app_map, None);
    assert_eq!(plan.last_run, None);
    assert_eq!((plan.progress.built, plan.progress.percent), (0, 0));
    assert!(
        plan.features
            .iter()
            .all(|f| f.status == FeatureStatus::Planned)
    );
}

#[test]
fn plan_is_null_while_nothing_is_planned() {
    let r: PlanResponse = roundtrip("plans/plan-response-no-plan.json");
    assert_eq!(r.plan, None);
    assert_eq!(r.spec_id, None);
    assert_eq!(r.markdown, "");
}

#[test]
fn stories_basis_and_empty_map() {
    let plan = roundtrip::<PlanResponse>("plans/plan-response-stories-basis.json")
        .plan
        .unwrap();
    assert_eq!(plan.progress.basis, ProgressBasis::Stories);
    assert_eq!(plan.intent, None);
    assert!(plan.ready_to_launch.unwrap().ready);
    let map = plan.app_map.unwrap();
    assert_eq!((map.code_version, map.mapped_at), (None, None));
    assert_eq!(plan.last_run.unwrap().code_version.before, None);
}
