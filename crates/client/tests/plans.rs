//! `GET /get-plan` by spec or project id, as JSON or Markdown.

mod common;

use common::*;
use pretty_assertions::assert_eq;
use serde_json::json;
use specdesk_client::PlanRef;
use specdesk_client::types::{FeatureStatus, LaunchState, PlanResponse, ProgressBasis};
use wiremock::matchers::{header, method, path, query_param};
use wiremock::{Mock, MockServer, ResponseTemplate};

#[tokio::test]
async fn plan_by_spec_id_as_json() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/get-plan"))
        .and(header("authorization", format!("Bearer {KEY}").as_str()))
        .and(query_param("specId", SPEC_ID))
        .and(query_param("format", "json"))
        .respond_with(json(fixture("plans/plan-response")))
        .expect(1)
        .mount(&server)
        .await;

    let plan = client(&server)
        .plans()
        .get(&PlanRef::Spec(SPEC_ID.into()))
        .await
        .unwrap();
    assert_eq!(plan, fixture_as::<PlanResponse>("plans/plan-response"));
    let p = plan.plan.as_ref().unwrap();
    assert_eq!(p.progress.basis, ProgressBasis::Features);
    assert_eq!(p.features[0].status, FeatureStatus::Works);
    assert_eq!(
        p.ready_to_launch.as_ref().unwrap().items[0].state,
        LaunchState::NeedsFix
    );
    assert_eq!(
        p.app_map.as_ref().unwrap().storage.items[0].location,
        "postgres"
    );

    let reqs = received(&server).await;
    assert_eq!(raw_query(&reqs[0]), format!("specId={SPEC_ID}&format=json"));
}

#[tokio::test]
async fn plan_by_project_id_with_no_plan_yet() {
    let server = MockServer::start().await;
    let body = json!({"projectId": PROJECT_ID, "specId": null, "plan": null, "markdown": ""});
    Mock::given(method("GET"))
        .and(path("/get-plan"))
        .and(header("authorization", format!("Bearer {KEY}").as_str()))
        .respond_with(json(body))
        .expect(1)
        .mount(&server)
        .await;

    let plan = client(&server)
        .plans()
        .get(&PlanRef::from_ids(None, Some(PROJECT_ID)).unwrap())
        .await
        .unwrap();
    assert_eq!(
        plan,
        PlanResponse {
            project_id: PROJECT_ID.into(),
            spec_id: None,
            plan: None,
            markdown: String::new(),
        }
    );
    let reqs = received(&server).await;
    assert_eq!(
        raw_query(&reqs[0]),
        format!("projectId={PROJECT_ID}&format=json")
    );
}

#[tokio::test]
async fn plan_as_markdown() {
    let server = MockServer::start().await;
    let markdown = "# Habit tracker\n\n| Feature | Status |\n|---|---|\n| Streaks | works ✓ |\n";
    Mock::given(method("GET"))
        .and(path("/get-plan"))
        .and(query_param("projectId", PROJECT_ID))
        .and(query_param("format", "markdown"))
        .and(header("authorization", format!("Bearer {KEY}").as_str()))
        .respond_with(
            ResponseTemplate::new(200).set_body_raw(markdown.as_bytes().to_vec(), "text/markdown"),
        )
        .expect(1)
        .mount(&server)
        .await;

    let text = client(&server)
        .plans()
        .markdown(&PlanRef::Project(PROJECT_ID.into()))
        .await
        .unwrap();
    assert_eq!(text, markdown);
}

#[test]
fn plan_ref_from_form_fields() {
    assert_eq!(
        PlanRef::from_ids(Some(SPEC_ID), None).unwrap(),
        PlanRef::Spec(SPEC_ID.into())
    );
    assert_eq!(
        PlanRef::from_ids(Some("  "), Some(&format!(" {PROJECT_ID} "))).unwrap(),
        PlanRef::Project(PROJECT_ID.into()),
        "blank fields count as absent, and ids are trimmed"
    );
}
