//! The `specdesk-sandbox` binary: exact first line, serves, stops cleanly on SIGTERM (a Unix
//! signal: the file is Unix only).
#![cfg(unix)]

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[tokio::test]
async fn prints_first_line_serves_and_stops_on_sigterm() {
    let dir = std::env::temp_dir().join(format!("specdesk-sandbox-bin-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let state = dir.join("state.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_specdesk-sandbox"))
        .args([
            "--addr",
            "127.0.0.1:0",
            "--time-scale",
            "0",
            "--keepalive-ms",
            "500",
            "--state",
        ])
        .arg(&state)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("binary starts");
    let stdout = child.stdout.take().unwrap();
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).unwrap();
    let re =
        regex::Regex::new(r"^specdesk-sandbox listening on http://127\.0\.0\.1:(\d+)\n$").unwrap();
    let caps = re
        .captures(&line)
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"));
    let port: u16 = caps[1].parse().unwrap();
    assert_ne!(port, 0);

    specdesk_sandbox::install_tls_provider();
    let body: serde_json::Value = reqwest::Client::new()
        .get(format!("http://127.0.0.1:{port}/credits-balance"))
        .bearer_auth("sk_sandbox_pro")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(body["creditsRemaining"], 1000.0);

    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let deadline = Instant::now() + Duration::from_secs(20);
    let exit = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("sandbox did not stop on SIGTERM");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(exit.success(), "exit status {exit:?}");
    assert!(state.exists(), "state saved on shutdown");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn rejects_bad_flags() {
    let out = Command::new(env!("CARGO_BIN_EXE_specdesk-sandbox"))
        .args(["--time-scale", "fast"])
        .output()
        .unwrap();
    assert!(!out.status.success());
}
