//! The AI gateway over HTTP.

mod common;
use base64::Engine;
use common::*;
use serde_json::{Value, json};
use specdesk_types::PublicCatalog;

fn rerank_body() -> Value {
    json!({
        "model": "cohere/rerank-v3.5",
        "query": "rust web framework",
        "documents": [
            "A recipe for apple pie",
            "Axum is a web framework written in Rust",
            "Rust is a systems programming language",
            "The weather is nice"
        ]
    })
}

#[tokio::test]
async fn public_catalog_etag_and_shape() {
    let env = Env::new().await;
    let r = env.get("/v1/models/public", None).await;
    assert_eq!(r.status(), 200);
    let etag = header(&r, "etag");
    assert!(!etag.is_empty());
    let c: PublicCatalog = r.json().await.unwrap();
    assert_eq!(c.object, "list");
    assert_eq!(c.total as usize, c.data.len());
    assert_eq!(
        c.counts.text + c.counts.image + c.counts.video + c.counts.embeddings,
        c.total
    );
    assert!(c.labs.windows(2).all(|w| w[0].models >= w[1].models));
    assert!(c.data.windows(2).all(|w| w[0].created >= w[1].created));
    for m in &c.data {
        assert!(m.id.contains('/'));
        assert!(m.svc.is_none());
        assert!(!m.output.iter().any(|o| o == "audio"));
    }
    let r = env
        .http
        .get(env.url("/v1/models/public"))
        .header("if-none-match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 304);
    assert_eq!(header(&r, "etag"), etag);
    assert!(r.bytes().await.unwrap().is_empty());
}

#[tokio::test]
async fn authed_catalogs_have_audio_and_prices() {
    let env = Env::new().await;
    let e = env.get_json("/v1/models", None, 401).await;
    assert_eq!(e["error"]["code"], "missing_api_key");
    assert_eq!(e["error"]["type"], "authentication_error");
    assert_eq!(e["error"]["param"], Value::Null);
    assert_eq!(e["error"]["svc"], json!({}));
    let e = env.get_json("/v1/models", Some("sk_bad"), 401).await;
    assert_eq!(e["error"]["code"], "invalid_api_key");
    let r = env
        .http
        .get(env.url("/v1/models"))
        .header("x-api-key", PRO)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(header(&r, "x-svc-credits-charged"), "0");
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["object"], "list");
    let rows = v["data"].as_array().unwrap();
    assert!(rows.iter().all(|m| m["svc"].is_object()));
    let audio: Vec<&str> = rows
        .iter()
        .filter(|m| m["output"].as_array().unwrap().contains(&json!("audio")))
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    assert!(audio.iter().any(|id| id.ends_with("-audio-mini")));
    assert!(audio.iter().any(|id| id.ends_with("-audio")));
    assert!(audio.iter().any(|id| id.contains("3-clip-preview")));
    assert!(audio.iter().any(|id| id.contains("3-pro-preview")));
    assert!(
        rows.iter()
            .any(|m| m["id"].as_str().unwrap().contains("transcribe"))
    );
    let imgs = env.get_json("/v1/images/models", Some(PRO), 200).await;
    assert_eq!(imgs["object"], "list");
    for m in imgs["data"].as_array().unwrap() {
        assert!(m["svc"]["credits_per_image"].as_f64().unwrap() > 0.0);
    }
    let vids = env.get_json("/v1/videos/models", Some(PRO), 200).await;
    for m in vids["data"].as_array().unwrap() {
        assert!(m["svc"]["credits_per_second"].as_f64().unwrap() > 0.0);
    }
}

#[tokio::test]
async fn rerank_bm25_metering_and_top_n() {
    let env = Env::new().await;
    let r = env.post("/v1/rerank", Some(PRO), rerank_body()).await;
    assert_eq!(r.status(), 200);
    assert!(header(&r, "x-svc-request-id").starts_with("req_"));
    let charged = num(&r, "x-svc-credits-charged");
    let remaining = num(&r, "x-svc-credits-remaining");
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["model"], "cohere/rerank-v3.5");
    let idx: Vec<u64> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["index"].as_u64().unwrap())
        .collect();
    assert_eq!(idx[0], 1);
    assert_eq!(idx[1], 2);
    assert_eq!(idx.len(), 4);
    let scores: Vec<f64> = v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["relevance_score"].as_f64().unwrap())
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]));
    assert_eq!(scores[3], 0.0);
    assert!(v["usage"]["total_tokens"].as_u64().unwrap() > 0);
    assert!((charged - v["usage"]["cost"].as_f64().unwrap() * 10.0).abs() < 1e-9);
    assert!((remaining - (1000.0 - charged)).abs() < 1e-9);
    assert!((env.credits(PRO).await - remaining).abs() < 1e-9);
    let mut top = rerank_body();
    top["top_n"] = json!(2);
    let v = env.post_json("/v1/rerank", Some(PRO), top, 200).await;
    assert_eq!(v["results"].as_array().unwrap().len(), 2);
    let mut bad = rerank_body();
    bad["documents"] = json!([]);
    let r = env.post("/v1/rerank", Some(PRO), bad).await;
    assert_eq!(r.status(), 400);
    assert_eq!(header(&r, "x-svc-credits-charged"), "0");
    let mut bad = rerank_body();
    bad["model"] = json!("cohere/nope");
    let e = env.post_json("/v1/rerank", Some(PRO), bad, 404).await;
    assert_eq!(e["error"]["code"], "model_not_found");
    for id in [
        "cohere/rerank-4-fast",
        "cohere/rerank-4-pro",
        "voyage/rerank-2.5",
        "voyage/rerank-2.5-lite",
        "qwen/qwen3-reranker-8b",
    ] {
        let mut b = rerank_body();
        b["model"] = json!(id);
        env.post_json("/v1/rerank", Some(PRO), b, 200).await;
    }
    // The project header attributes usage when the project is the workspace's; others are ignored.
    let r = env
        .http
        .post(env.url("/v1/rerank"))
        .bearer_auth(PRO)
        .header("x-svc-project-id", "0123456789abcdef01234567")
        .json(&rerank_body())
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
}

#[tokio::test]
async fn trial_allowance_then_subscription_required() {
    let env = Env::new().await;
    let body = json!({"model": "openai/gpt-image-1", "prompt": "a cat", "size": "16x16"});
    let mut used = 0.0;
    let mut calls = 0;
    loop {
        let r = env.post("/v1/images", Some(FREE), body.clone()).await;
        if r.status() == 402 {
            let v: Value = r.json().await.unwrap();
            assert_eq!(v["error"]["code"], "subscription_required");
            assert!(
                (v["error"]["svc"]["trial_credits_used"].as_f64().unwrap() - used).abs() < 1e-9
            );
            assert!(v["error"]["svc"]["topup_url"].is_string());
            break;
        }
        assert_eq!(r.status(), 200);
        let charged = num(&r, "x-svc-credits-charged");
        assert_eq!(charged, 0.4);
        used += charged;
        assert!((num(&r, "x-svc-credits-remaining") - (5.0f64 - used).max(0.0)).abs() < 1e-9);
        calls += 1;
        assert!(calls < 20);
    }
    assert!(used > 5.0, "the call that crosses 5 is charged in full");
    assert_eq!(calls, 13);
    // The prototype credits are separate.
    assert_eq!(env.credits(FREE).await, 20.0);
}

#[tokio::test]
async fn zero_balance_is_insufficient_credits() {
    let env = Env::new().await;
    let e = env
        .post_json("/v1/rerank", Some(BROKE), rerank_body(), 402)
        .await;
    assert_eq!(e["error"]["code"], "insufficient_credits");
    let svc = &e["error"]["svc"];
    assert_eq!(svc["credits_remaining"], 0);
    assert!(svc["estimated_credits"].is_number() && svc["topup_url"].is_string());
    // Catalog reads stay free.
    env.get_json("/v1/models", Some(BROKE), 200).await;
}

#[tokio::test]
async fn trial_rate_limit_sliding_window() {
    let env = Env::new().await;
    for _ in 0..30 {
        env.post_json("/v1/rerank", Some(FREE), rerank_body(), 200)
            .await;
    }
    let r = env.post("/v1/rerank", Some(FREE), rerank_body()).await;
    assert_eq!(r.status(), 429);
    let retry: u64 = header(&r, "retry-after").parse().unwrap();
    assert!((1..=60).contains(&retry));
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["error"]["code"], "rate_limit_exceeded");
    assert_eq!(v["error"]["type"], "rate_limit_error");
    // Catalog reads are exempt, and other users are not affected.
    env.get_json("/v1/models", Some(FREE), 200).await;
    env.get_json("/v1/models/public", None, 200).await;
    env.post_json("/v1/rerank", Some(PRO), rerank_body(), 200)
        .await;
    env.control("/_sandbox/clock/advance", json!({"ms": 60_000}))
        .await;
    env.post_json("/v1/rerank", Some(FREE), rerank_body(), 200)
        .await;
}

#[tokio::test]
async fn rotated_gateway_key_grace() {
    let env = Env::new().await;
    let new_key = env
        .control("/_sandbox/keys/rotate", json!({"key": ORG}))
        .await["key"]
        .as_str()
        .unwrap()
        .to_owned();
    env.post_json("/v1/rerank", Some(ORG), rerank_body(), 200)
        .await;
    env.control("/_sandbox/clock/advance", json!({"ms": 15 * 60 * 1000}))
        .await;
    let e = env
        .post_json("/v1/rerank", Some(ORG), rerank_body(), 401)
        .await;
    assert_eq!(e["error"]["code"], "invalid_api_key");
    env.post_json("/v1/rerank", Some(&new_key), rerank_body(), 200)
        .await;
}

#[tokio::test]
async fn speech_music_and_transcription_round_trip() {
    let env = Env::new().await;
    let body = json!({"model": "openai/speech-audio-mini", "input": "Hello from the sandbox, café!", "voice": "coral"});
    let r = env.post("/v1/audio/speech", Some(PRO), body.clone()).await;
    assert_eq!(r.status(), 200);
    assert_eq!(header(&r, "content-type"), "audio/wav");
    assert_eq!(header(&r, "x-svc-audio-format"), "wav");
    assert!(num(&r, "x-svc-credits-charged") > 0.0);
    let wav = r.bytes().await.unwrap();
    assert_eq!(&wav[0..4], b"RIFF");
    assert_eq!(&wav[8..12], b"WAVE");
    assert_eq!(u16::from_le_bytes([wav[22], wav[23]]), 1, "mono");
    assert_eq!(
        u32::from_le_bytes([wav[24], wav[25], wav[26], wav[27]]),
        24_000
    );
    let again = env
        .post("/v1/audio/speech", Some(PRO), body.clone())
        .await
        .bytes()
        .await
        .unwrap();
    assert_eq!(wav, again, "identical requests give identical bytes");

    let form = reqwest::multipart::Form::new()
        .text("model", "openai/gpt-4o-transcribe")
        .part(
            "file",
            reqwest::multipart::Part::bytes(wav.to_vec())
                .file_name("speech.wav")
                .mime_str("audio/wav")
                .unwrap(),
        );
    let r = env
        .http
        .post(env.url("/v1/audio/transcriptions"))
        .bearer_auth(PRO)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert!(num(&r, "x-svc-credits-charged") > 0.0);
    let t: Value = r.json().await.unwrap();
    assert_eq!(t["text"], "Hello from the sandbox, café!");
    assert!(t["usage"]["cost"].as_f64().unwrap() > 0.0);

    let mut pcm = body.clone();
    pcm["response_format"] = json!("pcm16");
    let r = env.post("/v1/audio/speech", Some(PRO), pcm).await;
    assert_eq!(header(&r, "x-svc-audio-format"), "pcm16");
    let raw = r.bytes().await.unwrap();
    assert_eq!(raw.len() % 2, 0);
    assert!(wav.ends_with(&raw));

    for (model, secs) in [
        ("google/lyria-3-clip-preview", 10.0),
        ("google/lyria-3-pro-preview", 30.0),
    ] {
        let r = env
            .post(
                "/v1/audio/speech",
                Some(PRO),
                json!({"model": model, "input": "calm piano", "voice": "nonsense"}),
            )
            .await;
        assert_eq!(r.status(), 200);
        assert_eq!(header(&r, "content-type"), "audio/mpeg");
        assert_eq!(header(&r, "x-svc-audio-format"), "mp3");
        let mp3 = r.bytes().await.unwrap();
        assert!(mp3.starts_with(b"ID3"));
        let first = mp3.windows(2).position(|w| w == [0xFF, 0xFB]).unwrap();
        let frames = (mp3.len() - first) / 144;
        assert!((frames as f64 * 1152.0 / 32_000.0 - secs).abs() < 0.1);
    }
    let e = env
        .post_json(
            "/v1/audio/speech",
            Some(PRO),
            json!({"model": "openai/gpt-5", "input": "hi"}),
            400,
        )
        .await;
    let msg = e["error"]["message"].as_str().unwrap();
    assert!(
        msg.contains("openai/speech-audio-mini") && msg.contains("google/lyria-3-clip-preview")
    );
}

#[tokio::test]
async fn images_are_real_pngs() {
    let env = Env::new().await;
    let v = env
        .post_json(
            "/v1/images",
            Some(PRO),
            json!({"model": "google/imagen-4", "prompt": "a lighthouse", "n": 2, "size": "64x32"}),
            200,
        )
        .await;
    let data = v["data"].as_array().unwrap();
    assert_eq!(data.len(), 2);
    for d in data {
        let png = base64::engine::general_purpose::STANDARD
            .decode(d["b64_json"].as_str().unwrap())
            .unwrap();
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
        assert_eq!(u32::from_be_bytes(png[16..20].try_into().unwrap()), 64);
        assert_eq!(u32::from_be_bytes(png[20..24].try_into().unwrap()), 32);
    }
    assert!(v["usage"]["cost"].as_f64().unwrap() > 0.0);
    env.post_json(
        "/v1/images",
        Some(PRO),
        json!({"model": "google/imagen-4", "prompt": "x", "n": 5}),
        400,
    )
    .await;
    env.post_json(
        "/v1/images",
        Some(PRO),
        json!({"model": "openai/gpt-5", "prompt": "x"}),
        400,
    )
    .await;
}

#[tokio::test]
async fn video_jobs_charged_on_the_completing_poll() {
    let env = Env::new().await;
    let v = env
        .post_json(
            "/v1/videos",
            Some(PRO),
            json!({"model": "openai/sora-2", "prompt": "waves", "seconds": "2"}),
            200,
        )
        .await;
    assert_eq!(v["status"], "queued");
    assert_eq!(v["object"], "video");
    let id = v["id"].as_str().unwrap().to_owned();
    let r = env.get(&format!("/v1/videos/{id}"), Some(PRO)).await;
    let charged = num(&r, "x-svc-credits-charged");
    let job: Value = r.json().await.unwrap();
    assert_eq!(job["status"], "completed");
    assert!((charged - job["usage"]["cost"].as_f64().unwrap() * 10.0).abs() < 1e-9);
    assert!(charged > 0.0);
    let r = env.get(&format!("/v1/videos/{id}"), Some(PRO)).await;
    assert_eq!(num(&r, "x-svc-credits-charged"), 0.0);
    let r = env
        .get(&format!("/v1/videos/{id}/content"), Some(PRO))
        .await;
    assert_eq!(r.status(), 200);
    assert_eq!(header(&r, "content-type"), "video/mp4");
    let mp4 = r.bytes().await.unwrap();
    assert_eq!(&mp4[4..8], b"ftyp");
    let e = env
        .get_json(&format!("/v1/videos/{id}"), Some(ORG), 404)
        .await;
    assert_eq!(e["error"]["code"], "not_found");
    env.get_json(&format!("/v1/videos/{id}/content"), Some(ORG), 404)
        .await;

    let f = env
        .post_json(
            "/v1/videos",
            Some(PRO),
            json!({"model": "google/veo-3", "prompt": "boom [sandbox:fail]"}),
            200,
        )
        .await;
    let fid = f["id"].as_str().unwrap();
    let r = env.get(&format!("/v1/videos/{fid}"), Some(PRO)).await;
    assert_eq!(num(&r, "x-svc-credits-charged"), 0.0);
    let job: Value = r.json().await.unwrap();
    assert_eq!(job["status"], "failed");
    let e = env
        .get_json(&format!("/v1/videos/{fid}/content"), Some(PRO), 404)
        .await;
    assert_eq!(e["error"]["code"], "not_found");
}

#[tokio::test]
async fn every_gateway_error_code_is_reachable_by_fault() {
    let env = Env::new().await;
    for (code, status, ty) in [
        ("balance_unavailable", 503, "api_error"),
        ("upstream_unavailable", 502, "api_error"),
        ("internal_error", 500, "server_error"),
        ("catalog_unavailable", 503, "server_error"),
    ] {
        let path = if code == "catalog_unavailable" {
            "/v1/models"
        } else {
            "/v1/rerank"
        };
        env.control("/_sandbox/faults", json!({"match": {"path": path}, "times": 1, "respond": {"code": code, "retryAfter": 2}})).await;
        let r = if path == "/v1/models" {
            env.get(path, Some(PRO)).await
        } else {
            env.post(path, Some(PRO), rerank_body()).await
        };
        assert_eq!(r.status().as_u16(), status, "{code}");
        assert_eq!(header(&r, "retry-after"), "2");
        let v: Value = r.json().await.unwrap();
        assert_eq!(v["error"]["code"], code);
        assert_eq!(v["error"]["type"], ty);
        assert_eq!(v["error"]["svc"], json!({}));
    }
    env.post_json("/v1/rerank", Some(PRO), rerank_body(), 200)
        .await;
    let e = env.get_json("/v1/chat/nothing", Some(PRO), 404).await;
    assert_eq!(e["error"]["code"], "not_found");
}
