//! What following a 1000-task batch costs (DESIGN.md: "polling reads the status only (bytes a
//! minute recorded)", "memory flat as the batch grows"): the sandbox runs the batch at demo pace
//! (one screenshot a task), the follower reads it through a counting proxy, and the process's
//! resident memory is sampled as the batch grows. Three followers, each in its own process:
//!
//! - `every-poll`: the batch read with its timelines at every poll into a feed, as every batch was
//!   followed before (`follow_batch` into a feed writer);
//! - `unwatched`: the runner's follower today while nobody has the batch's view open (status
//!   reads, the timeline once at the end: `agents::follow_into`);
//! - `watched`: the same with a reader of the feed (a view open): timelines at one poll in three.
//!
//! `cargo bench -p specdesk-core --bench batch_follow` (a few minutes). Not a test.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use futures::StreamExt;
use specdesk_client::{BatchOptions, Client, ClientConfig};
use specdesk_core::agents::{feed::Feed, follow_into};
use specdesk_core::events::BatchEvent;
use specdesk_sandbox::{Sandbox, SandboxConfig, keys};
use specdesk_types::BrowserTask;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

const TASKS: usize = 1000;
/// Slower than demo pace, so the batch runs for a minute or more and is polled many times.
const TIME_SCALE: f64 = 4.0;
const MODES: [&str; 3] = ["every-poll", "unwatched", "watched"];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rt = tokio::runtime::Runtime::new().unwrap();
    match args.iter().position(|a| MODES.contains(&a.as_str())) {
        // A follower's process: `<mode> <sandbox url> <batch id>`.
        Some(at) => rt.block_on(follow(&args[at], &args[at + 1], &args[at + 2])),
        None => rt.block_on(orchestrate()),
    }
}

/// Runs the sandbox here and each follower in a process of its own, so the memory figures are the
/// follower's alone and do not mix.
async fn orchestrate() {
    let sandbox = Sandbox::start(SandboxConfig {
        addr: "127.0.0.1:0".parse().unwrap(),
        time_scale: TIME_SCALE,
        ..SandboxConfig::default()
    })
    .await
    .unwrap();
    let base = sandbox.base_url().trim_end_matches('/').to_owned();
    let direct = client_for(&base);
    println!(
        "following a {TASKS}-task batch (one screenshot a task; sandbox time scale {TIME_SCALE}, polls every 2 s)"
    );
    println!(
        "mode        minutes  MB read  MB/min  follower's RSS MB at 0% / 25% / 50% / 75% / end"
    );
    for mode in MODES {
        let tasks: Vec<BrowserTask> = (0..TASKS)
            .map(|i| {
                serde_json::from_value(serde_json::json!({
                    "url": format!("{base}/_sandbox/health"),
                    "instruction": format!("Read the page ({i})"),
                }))
                .unwrap()
            })
            .collect();
        let options = BatchOptions {
            concurrency: Some(20),
            idempotency_key: None,
        };
        let prepared = direct.agents().prepare(tasks, options).unwrap();
        let batch = direct.agents().start(&prepared).await.unwrap();
        let args = [mode.to_owned(), base.clone(), batch.id.clone()];
        let out = tokio::task::spawn_blocking(move || {
            std::process::Command::new(std::env::current_exe().unwrap())
                .args(args)
                .output()
        })
        .await
        .unwrap()
        .unwrap();
        print!("{}", String::from_utf8_lossy(&out.stdout));
        if !out.status.success() {
            eprint!("{}", String::from_utf8_lossy(&out.stderr));
        }
    }
}

fn client_for(url: &str) -> Client {
    Client::new(
        ClientConfig::new(url)
            .unwrap()
            .with_api_key(keys::ORG.to_owned()),
    )
    .unwrap()
}

/// Forwards 127.0.0.1 connections to `upstream`, counting the bytes that come back.
async fn counting_proxy(upstream: String, read: Arc<AtomicU64>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((client, _)) = listener.accept().await {
            let upstream = upstream.clone();
            let read = read.clone();
            tokio::spawn(async move {
                let Ok(server) = TcpStream::connect(&upstream).await else {
                    return;
                };
                let (mut cr, mut cw) = client.into_split();
                let (mut sr, mut sw) = server.into_split();
                tokio::spawn(async move { tokio::io::copy(&mut cr, &mut sw).await });
                let mut buf = vec![0u8; 64 * 1024];
                while let Ok(n) = sr.read(&mut buf).await {
                    if n == 0 || cw.write_all(&buf[..n]).await.is_err() {
                        break;
                    }
                    read.fetch_add(n as u64, Ordering::Relaxed);
                }
            });
        }
    });
    format!("http://{addr}")
}

/// The process's resident memory, in MB.
fn rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

async fn follow(mode: &str, base: &str, batch_id: &str) {
    let direct = client_for(base);
    let read = Arc::new(AtomicU64::new(0));
    let upstream = base.trim_start_matches("http://").to_owned();
    let proxied = client_for(&counting_proxy(upstream, read.clone()).await);
    let batch = direct.agents().get(batch_id, false).await.unwrap();
    let feed = Arc::new(Feed::default());
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
    let base_rss = rss_mb();
    let mut samples = vec![(0u32, base_rss)];
    let reader = (mode == "watched").then(|| feed.reader());
    let follower = {
        let (feed, id, dir, mode) = (
            feed.clone(),
            batch.id.clone(),
            dir.path().to_owned(),
            mode.to_owned(),
        );
        tokio::spawn(async move {
            if mode == "every-poll" {
                let mut writer = feed.writer();
                let mut updates = std::pin::pin!(proxied.agents().follow_batch(&id));
                while let Some(Ok(update)) = updates.next().await {
                    if let Some(event) = BatchEvent::of(update) {
                        writer.publish(event);
                    }
                }
            } else {
                follow_into(&proxied, &dir, &id, &feed).await;
            }
        })
    };
    // A view open drains the feed as the web view would.
    let draining = reader
        .map(|mut reader| tokio::spawn(async move { while reader.next().await.is_some() {} }));
    let mut next_quarter = 1;
    while !follower.is_finished() {
        tokio::time::sleep(Duration::from_millis(500)).await;
        let done = direct
            .agents()
            .get(&batch.id, false)
            .await
            .map(|b| b.completed)
            .unwrap_or(0);
        while next_quarter < 4 && done as usize >= TASKS * next_quarter / 4 {
            samples.push((next_quarter as u32 * 25, rss_mb()));
            next_quarter += 1;
        }
    }
    follower.await.unwrap();
    if let Some(d) = draining {
        d.abort();
    }
    samples.push((100, rss_mb()));
    let minutes = started.elapsed().as_secs_f64() / 60.0;
    let mb = read.load(Ordering::Relaxed) as f64 / 1e6;
    let rss: Vec<String> = samples.iter().map(|(_, m)| format!("{m:.0}")).collect();
    println!(
        "{mode:<11} {minutes:>7.2} {mb:>8.1} {:>7.1}  {}",
        mb / minutes,
        rss.join(" / ")
    );
}
