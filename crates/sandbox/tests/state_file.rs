//! The state file never holds a browser task's input values (credentials, form values): only
//! their names. The emulator keeps the values in memory while it runs.

mod common;

use std::time::Duration;

use common::*;
use serde_json::json;
use specdesk_sandbox::SandboxConfig;

#[tokio::test]
async fn task_input_values_are_never_written_to_the_state_file() {
    let dir = std::env::temp_dir().join(format!("specdesk-sandbox-values-{}", std::process::id()));
    let path = dir.join("state.json");
    let _ = std::fs::remove_file(&path);
    let env = Env::with(SandboxConfig {
        state_file: Some(path.clone()),
        ..SandboxConfig::ephemeral()
    })
    .await;
    let page = format!("{}/_sandbox/health", env.sb.base_url);
    let batch = env
        .post_json(
            "/api/v1/browser-agents",
            Some(PRO),
            json!({"tasks": [{"url": page, "instruction": "Sign in",
                "input": {"email": "ada@example.com", "password": "hunter2-Secret"}}]}),
            200,
        )
        .await;
    let id = batch["id"].as_str().unwrap().to_owned();
    // Finished, with its timeline (the fill actions carry the values).
    let mut done = json!(null);
    for _ in 0..200 {
        done = env
            .get_json(
                &format!("/api/v1/browser-agents/{id}?includeEvents=true"),
                Some(PRO),
                200,
            )
            .await;
        if done["status"] == "completed" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(done["status"], "completed");
    assert!(
        done.to_string().contains("hunter2-Secret"),
        "the service itself still has the values while it runs"
    );
    env.sb.shutdown().await;

    let file = std::fs::read_to_string(&path).unwrap();
    for secret in ["hunter2-Secret", "ada@example.com"] {
        assert!(!file.contains(secret), "the state file holds {secret}");
    }
    assert!(file.contains("\"password\":\"\""), "the names are kept");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn an_unreadable_state_file_is_set_aside_not_overwritten() {
    let dir = std::env::temp_dir().join(format!("specdesk-sandbox-damaged-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("state.json");
    let damaged = b"{\"users\": [truncated";
    std::fs::write(&path, damaged).unwrap();
    let env = Env::with(SandboxConfig {
        state_file: Some(path.clone()),
        ..SandboxConfig::ephemeral()
    })
    .await;
    // A change, so the fresh state is saved.
    env.post_json(
        "/fast-spec",
        Some(PRO),
        json!({"input": "A habit tracker"}),
        200,
    )
    .await;
    let kept: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("state.json.damaged-"))
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(std::fs::read(dir.join(&kept[0])).unwrap(), damaged);
    for _ in 0..200 {
        if std::fs::read(&path)
            .is_ok_and(|b| serde_json::from_slice::<serde_json::Value>(&b).is_ok())
        {
            let _ = std::fs::remove_dir_all(&dir);
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the fresh state was never saved beside the kept file");
}
