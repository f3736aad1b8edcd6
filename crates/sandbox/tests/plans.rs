//! get-plan: every error row, project creation, simulated runs, markdown.

mod common;
use common::*;
use serde_json::{Value, json};
use std::collections::BTreeSet;

const INPUT: &str = "A team wiki where people can write pages, edit pages together, search pages, comment on pages and export pages.";

async fn project(env: &Env, key: &str) -> (String, String) {
    let v = env
        .post_json(
            "/fast-spec",
            Some(key),
            json!({"input": INPUT, "async": true}),
            200,
        )
        .await;
    let spec_id = v["specId"].as_str().unwrap().to_owned();
    let s = env
        .get_json(&format!("/spec-status/{spec_id}"), Some(key), 200)
        .await;
    (spec_id, s["projectId"].as_str().unwrap().to_owned())
}

#[tokio::test]
async fn completed_spec_has_an_all_planned_plan() {
    let env = Env::new().await;
    let (spec_id, project_id) = project(&env, PRO).await;
    assert_eq!(project_id.len(), 24);
    let by_spec = env
        .get_json(&format!("/get-plan?specId={spec_id}"), Some(PRO), 200)
        .await;
    let by_project = env
        .get_json(&format!("/get-plan?projectId={project_id}"), Some(PRO), 200)
        .await;
    assert_eq!(by_spec["projectId"], project_id);
    assert_eq!(by_spec["specId"], spec_id);
    assert_eq!(by_spec["plan"]["features"], by_project["plan"]["features"]);
    let plan = &by_spec["plan"];
    assert!(plan["features"].as_array().unwrap().len() >= 3);
    for f in plan["features"].as_array().unwrap() {
        assert_eq!(f["status"], "planned");
        assert_eq!(f["scope"], "confirmed");
        assert_eq!(f["counted"], true);
        assert_eq!(f["partOf"], Value::Null);
    }
    assert_eq!(plan["progress"]["built"], 0);
    assert_eq!(plan["progress"]["provenWorking"], 0);
    assert_eq!(plan["progress"]["percent"], 0);
    assert_eq!(plan["codeVersion"], json!({"tree": null, "short": null}));
    assert!(plan.get("appMap").is_none_or(Value::is_null));
    assert!(plan.get("lastRun").is_none_or(Value::is_null));
    assert!(by_spec["markdown"].as_str().unwrap().starts_with("# Plan"));
    // x-api-key works on plans.
    let r = env
        .http
        .get(env.url(&format!("/get-plan?projectId={project_id}")))
        .header("x-api-key", PRO)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
}

#[tokio::test]
async fn every_error_row() {
    let env = Env::new().await;
    let (spec_id, project_id) = project(&env, PRO).await;
    let e = env.get_json("/get-plan", Some(PRO), 400).await;
    assert_eq!(e["error"], "Invalid request");
    let e = env
        .get_json(
            &format!("/get-plan?specId={spec_id}&projectId={project_id}"),
            Some(PRO),
            400,
        )
        .await;
    assert_eq!(e["error"], "Invalid request");
    let e = env
        .get_json("/get-plan?projectId=xyz", Some(PRO), 400)
        .await;
    assert_eq!(e["error"], "Invalid ID");
    let e = env
        .get_json(&format!("/get-plan?projectId={project_id}"), None, 401)
        .await;
    assert_eq!(e["error"], "Missing API key");
    let e = env
        .get_json(
            &format!("/get-plan?projectId={project_id}"),
            Some("sk_bad"),
            401,
        )
        .await;
    assert_eq!(e["error"], "Authentication failed");
    assert_eq!(e["message"], "Invalid API key.");
    let e = env
        .get_json(
            &format!("/get-plan?projectId={project_id}"),
            Some(FREE),
            401,
        )
        .await;
    assert_eq!(e["error"], "Authentication failed");
    // Another user's id reads as nonexistent.
    let e = env
        .get_json(&format!("/get-plan?projectId={project_id}"), Some(ORG), 404)
        .await;
    assert_eq!(e["error"], "Project not found");
    let e = env
        .get_json(&format!("/get-plan?specId={spec_id}"), Some(ORG), 404)
        .await;
    assert_eq!(e["error"], "Project not found");
    let e = env
        .get_json(
            "/get-plan?projectId=0123456789abcdef01234567",
            Some(PRO),
            404,
        )
        .await;
    assert_eq!(e["error"], "Project not found");
    // No project yet: a failed spec.
    let f = env
        .post_json(
            "/fast-spec",
            Some(PRO),
            json!({"input": "x [sandbox:fail]", "async": true}),
            200,
        )
        .await;
    let e = env
        .get_json(
            &format!("/get-plan?specId={}", f["specId"].as_str().unwrap()),
            Some(PRO),
            404,
        )
        .await;
    assert_eq!(e["error"], "No project yet");
    // Plans turned off, and unexpected errors, by fault.
    env.control("/_sandbox/faults", json!({"match": {"path": "/get-plan"}, "respond": {"status": 404, "code": "Not available"}})).await;
    let e = env
        .get_json(&format!("/get-plan?projectId={project_id}"), Some(PRO), 404)
        .await;
    assert_eq!(e["error"], "Not available");
    env.control(
        "/_sandbox/faults",
        json!({"match": {"path": "/get-plan"}, "respond": {"status": 500}}),
    )
    .await;
    let e = env
        .get_json(&format!("/get-plan?projectId={project_id}"), Some(PRO), 500)
        .await;
    assert_eq!(e["error"], "Failed to fetch plan");
}

#[tokio::test]
async fn org_key_reads_org_projects() {
    let env = Env::new().await;
    let (_, project_id) = project(&env, ORG).await;
    env.get_json(&format!("/get-plan?projectId={project_id}"), Some(ORG), 200)
        .await;
    env.get_json(&format!("/get-plan?projectId={project_id}"), Some(PRO), 404)
        .await;
}

#[tokio::test]
async fn markdown_format() {
    let env = Env::new().await;
    let (_, project_id) = project(&env, PRO).await;
    let r = env
        .get(
            &format!("/get-plan?projectId={project_id}&format=markdown"),
            Some(PRO),
        )
        .await;
    assert_eq!(r.status(), 200);
    assert!(
        r.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/markdown")
    );
    assert!(r.text().await.unwrap().contains("## Features"));
}

#[tokio::test]
async fn runs_move_features_through_every_status() {
    let env = Env::new().await;
    let (_, project_id) = project(&env, PRO).await;
    let mut statuses = BTreeSet::new();
    let mut scopes = BTreeSet::new();
    let mut saw_part_of = false;
    let mut saw_missing_key_fix = false;
    let mut prev_after: Option<String> = None;
    for run in 1..=5 {
        let v = env
            .control(
                &format!("/_sandbox/projects/{project_id}/advance"),
                json!({}),
            )
            .await;
        let get = env
            .get_json(&format!("/get-plan?projectId={project_id}"), Some(PRO), 200)
            .await;
        assert_eq!(get["plan"]["features"], v["plan"]["features"]);
        let plan = &v["plan"];
        for f in plan["features"].as_array().unwrap() {
            statuses.insert(f["status"].as_str().unwrap().to_owned());
            scopes.insert(f["scope"].as_str().unwrap().to_owned());
            let s = f["status"].as_str().unwrap();
            if f["scope"] == "proposed" || s == "out_of_scope" || s == "removed" {
                assert_eq!(f["counted"], false, "{f}");
            }
            if let Some(p) = f["partOf"].as_str() {
                saw_part_of = true;
                assert!(
                    plan["features"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .any(|g| g["name"] == p)
                );
            }
        }
        let p = &plan["progress"];
        assert!(p["provenWorking"].as_u64() <= p["built"].as_u64());
        assert_eq!(
            p["left"].as_u64().unwrap(),
            p["total"].as_u64().unwrap() - p["built"].as_u64().unwrap()
        );
        let after = plan["lastRun"]["codeVersion"]["after"]
            .as_str()
            .unwrap()
            .to_owned();
        assert_eq!(plan["codeVersion"]["tree"], after.as_str());
        assert_eq!(plan["codeVersion"]["short"], &after[..7]);
        assert_eq!(
            plan["lastRun"]["codeVersion"]["before"].as_str(),
            prev_after.as_deref(),
            "run {run}"
        );
        prev_after = Some(after);
        for list in ["screens", "endpoints", "storage"] {
            let l = &plan["appMap"][list];
            let count = l["count"].as_u64().unwrap();
            assert_eq!(l["items"].as_array().unwrap().len() as u64, count.min(25));
        }
        assert_eq!(
            plan["lastRun"]["filesChanged"]["count"].as_u64().unwrap() as usize,
            plan["lastRun"]["filesChanged"]["paths"]
                .as_array()
                .unwrap()
                .len()
        );
        for item in plan["readyToLaunch"]["items"].as_array().unwrap() {
            assert!(item["state"] == "ok" || item["state"] == "needs_fix");
            if item["state"] == "needs_fix" {
                assert!(item["fix"]["action"].is_string() && item["fix"]["how"].is_string());
                if item["fix"]["how"]
                    .as_str()
                    .unwrap()
                    .contains("PAYMENT_API_KEY")
                {
                    saw_missing_key_fix = true;
                }
            }
        }
    }
    for s in [
        "works",
        "built_not_checked",
        "changed_since_check",
        "needs_a_look",
        "not_working",
        "in_progress",
        "out_of_scope",
        "removed",
    ] {
        assert!(statuses.contains(s), "{s} in {statuses:?}");
    }
    assert!(scopes.contains("proposed"));
    assert!(saw_part_of);
    assert!(saw_missing_key_fix);
    let big = env
        .get_json(&format!("/get-plan?projectId={project_id}"), Some(PRO), 200)
        .await;
    assert!(
        big["plan"]["appMap"]["endpoints"]["count"]
            .as_u64()
            .unwrap()
            > 25
    );
    let e = env
        .post_json(
            "/_sandbox/projects/0123456789abcdef01234567/advance",
            None,
            json!({}),
            404,
        )
        .await;
    assert_eq!(e["error"], "Project not found");
}
