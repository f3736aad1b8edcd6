//! Sandbox throughput over loopback: rerank calls and public catalog reads per second.
//! `cargo bench -p specdesk-sandbox --bench throughput`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use serde_json::json;
use specdesk_sandbox::{Sandbox, SandboxConfig};
use std::sync::atomic::{AtomicU64, Ordering};

fn throughput(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let sb = rt
        .block_on(Sandbox::start(SandboxConfig::ephemeral()))
        .expect("sandbox");
    specdesk_sandbox::install_tls_provider();
    let http = reqwest::Client::new();
    let base = sb.base_url.clone();
    let calls = AtomicU64::new(0);
    let body = json!({
        "model": "cohere/rerank-v3.5",
        "query": "rust web framework",
        "documents": (0..20).map(|i| format!("document {i} about rust and the web framework axum number {i}")).collect::<Vec<_>>(),
    });

    let mut g = c.benchmark_group("sandbox");
    g.throughput(Throughput::Elements(1));
    g.bench_function("catalog_public", |b| {
        b.to_async(&rt).iter(|| async {
            let r = http
                .get(format!("{base}/v1/models/public"))
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 200);
            r.bytes().await.unwrap();
        })
    });
    g.bench_function("rerank_20_docs", |b| {
        b.to_async(&rt).iter(|| async {
            // Every 500 calls, move the sandbox clock a minute on so the 600/min window never fills.
            if calls.fetch_add(1, Ordering::Relaxed).is_multiple_of(500) {
                http.post(format!("{base}/_sandbox/clock/advance"))
                    .json(&json!({"ms": 60_000}))
                    .send()
                    .await
                    .unwrap();
            }
            let r = http
                .post(format!("{base}/v1/rerank"))
                .bearer_auth("sk_sandbox_org")
                .json(&body)
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 200);
            r.bytes().await.unwrap();
        })
    });
    g.finish();
    rt.block_on(sb.shutdown());
}

criterion_group!(benches, throughput);
criterion_main!(benches);
