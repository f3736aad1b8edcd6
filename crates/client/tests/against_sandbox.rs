//! The client against the real sandbox (`specdesk_sandbox::Sandbox` on 127.0.0.1:0, simulated work
//! instant): the contract proven end to end over HTTP, with the sandbox's fixed rules
//! (DESIGN.md, "The sandbox"): keys, specs, plans. Browser agents and the gateway are in
//! `against_sandbox_agents.rs` and `against_sandbox_gateway.rs`.

mod common;

use common::sandbox::*;
use futures::StreamExt;
use specdesk_client::types::*;
use specdesk_client::{ErrorKind, PlanRef, SpecListQuery, SpecSubmission};
use specdesk_sandbox::keys;

#[tokio::test]
async fn each_well_known_key_has_its_balance() {
    let sb = sandbox().await;
    for (key, credits) in [
        (keys::ORG, 10000.0),
        (keys::PRO, 1000.0),
        (keys::FREE, 20.0),
        (keys::BROKE, 0.0),
    ] {
        let b = client(&sb, key).account().credits_balance().await.unwrap();
        assert_eq!((b.success, b.credits_remaining), (true, credits), "{key}");
    }
    let err = client(&sb, "sk_nobody")
        .account()
        .credits_balance()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidKey);
    assert_eq!(err.status(), Some(401));
    assert_eq!(err.api().unwrap().rest_error(), Some("Unauthorized"));
    sb.shutdown().await;
}

#[tokio::test]
async fn a_fast_spec_is_generated_charged_listed_and_found() {
    let sb = sandbox().await;
    let c = client(&sb, keys::PRO);
    let result = c
        .specs()
        .generate(&SpecSubmission::fast(
            "A recipe sharing app where cooks publish recipes, follow each other and save favourites.",
        ))
        .await
        .unwrap();
    assert_eq!(result.status, SpecStatus::Completed);
    assert!(result.success);
    assert_eq!(result.endpoint, SpecEndpoint::Fast);
    let used = result.credits_used.expect("creditsUsed");
    assert!((5.0..=10.0).contains(&used), "fast spec cost {used}");
    let human = result.human_spec_json.as_ref().expect("humanSpecJson");
    assert!(!human.milestones.is_empty());
    assert!(
        human
            .milestones
            .iter()
            .any(|m| m.description.to_lowercase().contains("deploy")),
        "a full spec has a deployment milestone"
    );
    assert!(
        human
            .milestones
            .iter()
            .flat_map(|m| &m.stories)
            .all(|s| s.sub_tasks.is_empty()),
        "fast stories carry no subtasks"
    );
    assert!(
        !result
            .human_spec_markdown
            .clone()
            .unwrap_or_default()
            .is_empty()
    );

    let balance = c.account().credits_balance().await.unwrap();
    assert_eq!(balance.credits_remaining, 1000.0 - used);

    let all = c.specs().list(&SpecListQuery::default()).await.unwrap();
    assert_eq!((all.total, all.has_more, all.specs.len()), (1, false, 1));
    let found = c
        .specs()
        .list(&SpecListQuery {
            search: Some("RECIPE (sharing|swapping)".into()),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(found.total, 1);
    let none = c
        .specs()
        .list(&SpecListQuery {
            search: Some("kanban".into()),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!((none.total, none.specs.len()), (0, 0));
    // Another user never sees it.
    let other = client(&sb, keys::ORG)
        .specs()
        .list(&SpecListQuery::default())
        .await
        .unwrap();
    assert_eq!(other.total, 0);
    sb.shutdown().await;
}

#[tokio::test]
async fn an_async_spec_is_polled_to_completion_and_its_plan_moves() {
    let sb = sandbox().await;
    let c = client(&sb, keys::PRO);
    let accepted = c
        .specs()
        .submit(&SpecSubmission::fast(
            "A team task board with projects, due dates and comments.",
        ))
        .await
        .unwrap();
    assert_eq!(accepted.status, SpecStatus::Pending);
    let statuses: Vec<SpecStatusResponse> = c
        .specs()
        .wait_for_spec(&accepted.spec_id)
        .map(|s| s.unwrap())
        .collect()
        .await;
    let last = statuses.last().unwrap();
    assert_eq!(last.status, SpecStatus::Completed);
    assert!(
        statuses[..statuses.len() - 1]
            .iter()
            .all(|s| !s.status.is_terminal())
    );
    let via_api = c.specs().status_api(&accepted.spec_id).await.unwrap();
    assert_eq!(via_api.status, SpecStatus::Completed);

    let plan_ref = PlanRef::Spec(accepted.spec_id.clone());
    let plan = c.plans().get(&plan_ref).await.unwrap();
    assert_eq!(plan.spec_id.as_deref(), Some(accepted.spec_id.as_str()));
    let p = plan.plan.expect("a completed spec has a plan");
    assert_eq!(
        (
            p.progress.built,
            p.progress.proven_working,
            p.progress.percent
        ),
        (0, 0, 0)
    );
    assert!(
        p.features
            .iter()
            .all(|f| f.status == FeatureStatus::Planned)
    );
    assert!(p.app_map.is_none() && p.last_run.is_none());

    let advance = format!("/_sandbox/projects/{}/advance", plan.project_id);
    let by_project = PlanRef::Project(plan.project_id.clone());
    control(&sb, &advance, serde_json::json!({})).await;
    let first = c.plans().get(&by_project).await.unwrap().plan.unwrap();
    assert!(
        first
            .features
            .iter()
            .any(|f| f.status == FeatureStatus::InProgress),
        "a first coding run starts work"
    );
    let first_run = first.last_run.expect("code exists: a last run");
    control(&sb, &advance, serde_json::json!({})).await;
    let moved = c.plans().get(&by_project).await.unwrap().plan.unwrap();
    assert!(moved.progress.built > 0, "a second run has built something");
    assert!(moved.progress.proven_working <= moved.progress.built);
    let map = moved.app_map.expect("code exists: an app map");
    for list in [
        map.screens.items.len(),
        map.endpoints.items.len(),
        map.storage.items.len(),
    ] {
        assert!(list <= 25);
    }
    let second_run = moved.last_run.expect("a last run");
    assert_eq!(
        second_run.code_version.before, first_run.code_version.after,
        "consecutive runs chain their code versions"
    );
    assert!(
        moved
            .features
            .iter()
            .filter(|f| !f.counted)
            .all(
                |f| matches!(f.status, FeatureStatus::OutOfScope | FeatureStatus::Removed)
                    || f.scope == FeatureScope::Proposed
            )
    );

    let md = c.plans().markdown(&plan_ref).await.unwrap();
    assert!(md.starts_with('#'), "{md}");
    sb.shutdown().await;
}

#[tokio::test]
async fn paid_only_features_are_refused_with_an_upgrade_action() {
    let sb = sandbox().await;
    let free = client(&sb, keys::FREE);
    let err = free
        .specs()
        .generate(&SpecSubmission::deep("An invoicing app"))
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::SubscriptionRequired);
    assert_eq!(err.status(), Some(402));
    assert!(err.action_url().is_some_and(|u| u.starts_with("http")));

    let err = free
        .plans()
        .get(&PlanRef::Project("0123456789abcdef01234567".into()))
        .await
        .unwrap_err();
    assert_eq!(err.status(), Some(401));
    assert_eq!(
        err.api().unwrap().rest_error(),
        Some("Authentication failed")
    );
    sb.shutdown().await;
}

#[tokio::test]
async fn a_rotated_key_keeps_working_fifteen_sandbox_minutes() {
    let sb = sandbox().await;
    let rotated = control(
        &sb,
        "/_sandbox/keys/rotate",
        serde_json::json!({"key": keys::PRO}),
    )
    .await;
    let new_key = rotated["key"].as_str().expect("new key").to_owned();
    assert_ne!(new_key, keys::PRO);
    let old = client(&sb, keys::PRO);
    let new = client(&sb, &new_key);
    assert_eq!(
        old.account()
            .credits_balance()
            .await
            .unwrap()
            .credits_remaining,
        1000.0
    );
    control(
        &sb,
        "/_sandbox/clock/advance",
        serde_json::json!({"ms": 14 * 60 * 1000}),
    )
    .await;
    assert!(
        old.account().credits_balance().await.is_ok(),
        "still in grace"
    );
    control(
        &sb,
        "/_sandbox/clock/advance",
        serde_json::json!({"ms": 2 * 60 * 1000}),
    )
    .await;
    let err = old.account().credits_balance().await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidKey);
    assert_eq!(
        new.account()
            .credits_balance()
            .await
            .unwrap()
            .credits_remaining,
        1000.0
    );
    sb.shutdown().await;
}
