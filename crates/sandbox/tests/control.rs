//! Keys, the clock, credits, faults and persistence.

mod common;
use common::*;
use serde_json::json;
use specdesk_sandbox::{Sandbox, SandboxConfig};

#[tokio::test]
async fn credits_balance_for_each_well_known_key() {
    let env = Env::new().await;
    assert_eq!(env.credits(ORG).await, 10000.0);
    assert_eq!(env.credits(PRO).await, 1000.0);
    assert_eq!(env.credits(FREE).await, 20.0);
    assert_eq!(env.credits(BROKE).await, 0.0);
    let v = env.get_json("/credits-balance", Some(PRO), 200).await;
    assert_eq!(v, json!({"success": true, "creditsRemaining": 1000.0}));
}

#[tokio::test]
async fn credits_balance_auth_errors() {
    let env = Env::new().await;
    let v = env.get_json("/credits-balance", None, 401).await;
    assert_eq!(
        v,
        json!({"error": "Unauthorized", "message": "Missing API key."})
    );
    let v = env.get_json("/credits-balance", Some("sk_nope"), 401).await;
    assert_eq!(
        v,
        json!({"error": "Unauthorized", "message": "Invalid API key."})
    );
}

#[tokio::test]
async fn rest_auth_errors() {
    let env = Env::new().await;
    let v = env.get_json("/list-specs", None, 401).await;
    assert_eq!(v["error"], "Missing API key");
    assert!(v["message"].is_string());
    let v = env.get_json("/list-specs", Some("sk_nope"), 401).await;
    assert_eq!(v["error"], "Authentication failed");
    // x-api-key alone is not accepted by spec endpoints.
    let r = env
        .http
        .get(env.url("/list-specs"))
        .header("x-api-key", PRO)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 401);
}

#[tokio::test]
async fn set_credits_and_reset() {
    let env = Env::new().await;
    env.control("/_sandbox/credits", json!({"key": PRO, "credits": 12.5}))
        .await;
    assert_eq!(env.credits(PRO).await, 12.5);
    env.control("/_sandbox/reset", json!({})).await;
    assert_eq!(env.credits(PRO).await, 1000.0);
}

#[tokio::test]
async fn rotated_key_works_for_fifteen_sandbox_minutes() {
    let env = Env::new().await;
    let v = env
        .control("/_sandbox/keys/rotate", json!({"key": PRO}))
        .await;
    let new_key = v["key"].as_str().unwrap().to_owned();
    assert_ne!(new_key, PRO);
    assert_eq!(env.credits(&new_key).await, 1000.0);
    assert_eq!(env.credits(PRO).await, 1000.0);
    env.control("/_sandbox/clock/advance", json!({"ms": 14 * 60 * 1000}))
        .await;
    assert_eq!(env.credits(PRO).await, 1000.0);
    env.control("/_sandbox/clock/advance", json!({"ms": 60 * 1000}))
        .await;
    env.get_json("/credits-balance", Some(PRO), 401).await;
    assert_eq!(env.credits(&new_key).await, 1000.0);
}

#[tokio::test]
async fn clock_advance_moves_created_timestamps() {
    let env = Env::new().await;
    let before = env.get_json("/_sandbox/health", None, 200).await["nowMs"]
        .as_i64()
        .unwrap();
    let v = env
        .control("/_sandbox/clock/advance", json!({"ms": 86_400_000}))
        .await;
    assert!(v["nowMs"].as_i64().unwrap() >= before + 86_400_000);
    env.post_json("/_sandbox/clock/advance", None, json!({"ms": -1}), 400)
        .await;
}

#[tokio::test]
async fn fault_responds_then_clears() {
    let env = Env::new().await;
    env.control(
        "/_sandbox/faults",
        json!({"match": {"method": "GET", "path": "/credits-balance"}, "times": 1, "respond": {"status": 500}}),
    )
    .await;
    let v = env.get_json("/credits-balance", Some(PRO), 500).await;
    assert_eq!(v["error"], "Failed to retrieve credits balance");
    env.get_json("/credits-balance", Some(PRO), 200).await;
}

#[tokio::test]
async fn unknown_paths_are_404() {
    let env = Env::new().await;
    let v = env.get_json("/nope", Some(PRO), 404).await;
    assert_eq!(v["error"], "Not found");
    let v = env.get_json("/v1/nope", Some(PRO), 404).await;
    assert_eq!(v["error"]["code"], "not_found");
    assert_eq!(v["error"]["svc"], json!({}));
}

#[tokio::test]
async fn state_file_survives_restart() {
    let dir = std::env::temp_dir().join(format!("specdesk-sandbox-test-{}", std::process::id()));
    let path = dir.join("state.json");
    let _ = std::fs::remove_file(&path);
    let config = SandboxConfig {
        state_file: Some(path.clone()),
        ..SandboxConfig::ephemeral()
    };
    let env = Env::with(config.clone()).await;
    env.control("/_sandbox/credits", json!({"key": PRO, "credits": 42}))
        .await;
    let spec = env
        .post_json(
            "/fast-spec",
            Some(PRO),
            json!({"input": "A notes app with tags and search"}),
            200,
        )
        .await;
    assert_eq!(spec["status"], "completed");
    env.sb.shutdown().await;
    assert!(path.exists());
    // No temp files are left beside it.
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty());

    let sb = Sandbox::start(config).await.unwrap();
    specdesk_sandbox::install_tls_provider();
    let http = reqwest::Client::new();
    let v: serde_json::Value = http
        .get(format!("{}/list-specs", sb.base_url))
        .bearer_auth(PRO)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(v["total"], 1);
    let c: serde_json::Value = http
        .get(format!("{}/credits-balance", sb.base_url))
        .bearer_auth(PRO)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let remaining = c["creditsRemaining"].as_f64().unwrap();
    assert!((32.0..42.0).contains(&remaining), "{remaining}");
    sb.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn delay_fault_still_answers_and_is_consumed() {
    let env = Env::new().await;
    let v = env
        .control(
            "/_sandbox/faults",
            json!({"match": {"method": "GET", "path": "/credits-*"}, "times": 2, "delayMs": 1}),
        )
        .await;
    assert_eq!(v["faults"], 1);
    assert_eq!(
        env.get_json("/_sandbox/faults", None, 200).await["faults"][0]["times"],
        2
    );
    env.credits(PRO).await;
    // The times it has left; used up, it is gone.
    assert_eq!(
        env.get_json("/_sandbox/faults", None, 200).await["faults"][0]["times"],
        1
    );
    for _ in 0..2 {
        assert_eq!(env.credits(PRO).await, 1000.0);
    }
    assert_eq!(
        env.get_json("/_sandbox/faults", None, 200).await,
        json!({"faults": []})
    );
    env.post_json(
        "/_sandbox/faults",
        None,
        json!({"match": {"path": "/x"}}),
        400,
    )
    .await;
    let r = env
        .http
        .delete(env.url("/_sandbox/faults"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
}
