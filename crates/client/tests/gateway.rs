//! The AI gateway: every endpoint's request shape, project attribution, metering headers, the
//! Messages stream accumulator and the public catalog's conditional reads.

mod common;

use std::time::Duration;

use bytes::Bytes;
use common::*;
use futures::TryStreamExt;
use pretty_assertions::assert_eq;
use serde_json::{Value, json};
use specdesk_client::types::{
    AudioFormat, ContentBlock, ImageRequest, ImageResponse, Message, MessageContent, MessageRole,
    MessagesRequest, MessagesResponse, MessagesStreamEvent, MessagesUsage, ModelList,
    PublicCatalog, RerankRequest, RerankResult, SpeechRequest, StopReason, SystemPrompt, Tool,
    VideoJob, VideoRequest, VideoStatus, Voice,
};
use specdesk_client::{AudioUpload, MessageAccumulator, Metering};
use wiremock::matchers::{body_json, header, method, path};
use wiremock::{Mock, MockServer, Request, ResponseTemplate};

const PROJECT: &str = "6650f1c2a9b3e4d5f6a7b8ca";

fn bearer() -> String {
    format!("Bearer {KEY}")
}

/// A gateway client that attributes usage to `PROJECT`.
fn attributed(server: &MockServer) -> specdesk_client::Client {
    client_with(server, |cfg| cfg.project_id = Some(PROJECT.into()))
}

fn metered(body: Value) -> ResponseTemplate {
    json(body)
        .insert_header("x-svc-request-id", "req_abc123")
        .insert_header("x-svc-credits-charged", "0.35")
        .insert_header("x-svc-credits-remaining", "99.65")
}

fn full_metering() -> Metering {
    Metering {
        request_id: Some("req_abc123".into()),
        credits_charged: Some(0.35),
        credits_remaining: Some(99.65),
    }
}

fn no_header(name: &'static str) -> impl Fn(&Request) -> bool {
    move |req: &Request| !req.headers.contains_key(name)
}

#[tokio::test]
async fn rerank_sends_exact_json_project_header_and_reads_metering() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/rerank"))
        .and(header("authorization", bearer().as_str()))
        .and(header("x-svc-project-id", PROJECT))
        .and(header("content-type", "application/json"))
        .and(body_json(json!({
            "model": "cohere/rerank-v3.5",
            "query": "espresso grinder",
            "documents": ["tea kettle", "milk frother", "burr grinder"],
            "top_n": 2
        })))
        .respond_with(metered(fixture("gateway/rerank-result")))
        .expect(1)
        .mount(&server)
        .await;

    let request = RerankRequest {
        model: "cohere/rerank-v3.5".into(),
        query: "espresso grinder".into(),
        documents: vec![
            "tea kettle".into(),
            "milk frother".into(),
            "burr grinder".into(),
        ],
        top_n: Some(2),
    };
    let out = attributed(&server)
        .gateway()
        .rerank(&request)
        .await
        .unwrap();
    assert_eq!(
        out.value,
        fixture_as::<RerankResult>("gateway/rerank-result")
    );
    assert_eq!(out.value.results[0].index, 2);
    assert_eq!(out.metering, full_metering());
}

#[tokio::test]
async fn no_project_header_when_none_is_configured_and_absent_metering_is_none() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/rerank"))
        .and(no_header("x-svc-project-id"))
        .and(body_json(
            json!({"model": "voyage/rerank-2.5", "query": "q", "documents": ["a"]}),
        ))
        .respond_with(
            json(fixture("gateway/rerank-result")).insert_header("x-svc-request-id", "req_1"),
        )
        .expect(1)
        .mount(&server)
        .await;
    let request = RerankRequest {
        model: "voyage/rerank-2.5".into(),
        query: "q".into(),
        documents: vec!["a".into()],
        top_n: None,
    };
    let out = client(&server).gateway().rerank(&request).await.unwrap();
    assert_eq!(
        out.metering,
        Metering {
            request_id: Some("req_1".into()),
            credits_charged: None,
            credits_remaining: None,
        }
    );
}

#[tokio::test]
async fn speech_in_every_format() {
    let server = MockServer::start().await;
    let cases = [
        (
            "wav",
            json!({"model": "openai/gpt-4o-audio-mini", "input": "Hello", "voice": "coral"}),
            "audio/wav",
            AudioFormat::Wav,
            b"RIFF\x24\x00\x00\x00WAVEfmt ".to_vec(),
        ),
        (
            "pcm16",
            json!({"model": "openai/gpt-4o-audio", "input": "Hello", "voice": "alloy", "response_format": "pcm16", "instructions": "Whisper."}),
            "application/octet-stream",
            AudioFormat::Pcm16,
            vec![0x00, 0x01, 0xff, 0x7f, 0x00, 0x80],
        ),
        (
            "mp3",
            json!({"model": "google/lyria-3-clip-preview", "input": "Calm piano"}),
            "audio/mpeg",
            AudioFormat::Mp3,
            b"ID3\x04\x00\x00\x00\x00\x00\x00\xff\xfb".to_vec(),
        ),
    ];
    for (format, body, mime, _, bytes) in &cases {
        Mock::given(method("POST"))
            .and(path("/v1/audio/speech"))
            .and(header("authorization", bearer().as_str()))
            .and(header("x-svc-project-id", PROJECT))
            .and(body_json(body.clone()))
            .respond_with(
                ResponseTemplate::new(200)
                    .set_body_raw(bytes.clone(), mime)
                    .insert_header("x-svc-audio-format", *format)
                    .insert_header("x-svc-credits-charged", "0.02"),
            )
            .expect(1)
            .mount(&server)
            .await;
    }

    let c = attributed(&server);
    let requests = [
        SpeechRequest {
            model: "openai/gpt-4o-audio-mini".into(),
            input: "Hello".into(),
            voice: Some(Voice::Coral),
            response_format: None,
            instructions: None,
        },
        SpeechRequest {
            model: "openai/gpt-4o-audio".into(),
            input: "Hello".into(),
            voice: Some(Voice::Alloy),
            response_format: Some("pcm16".into()),
            instructions: Some("Whisper.".into()),
        },
        SpeechRequest {
            model: "google/lyria-3-clip-preview".into(),
            input: "Calm piano".into(),
            voice: None,
            response_format: None,
            instructions: None,
        },
    ];
    for (request, (_, _, mime, format, bytes)) in requests.iter().zip(&cases) {
        let out = c.gateway().speech(request).await.unwrap();
        assert_eq!(&out.value.format, format);
        assert_eq!(out.value.bytes, Bytes::from(bytes.clone()));
        assert_eq!(out.value.content_type.as_deref(), Some(*mime));
        assert_eq!(out.metering.credits_charged, Some(0.02));
        assert_eq!(out.metering.request_id, None);
    }
}

#[tokio::test]
async fn speech_without_the_format_header_falls_back_to_the_media_type() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/audio/speech"))
        .respond_with(ResponseTemplate::new(200).set_body_raw(b"ID3".to_vec(), "audio/mpeg"))
        .mount(&server)
        .await;
    let out = client(&server)
        .gateway()
        .speech(&SpeechRequest {
            model: "google/lyria-3-pro-preview".into(),
            input: "Jazz".into(),
            voice: None,
            response_format: None,
            instructions: None,
        })
        .await
        .unwrap();
    assert_eq!(out.value.format, AudioFormat::Mp3);
}

#[tokio::test]
async fn transcription_is_multipart_with_file_and_model() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/audio/transcriptions"))
        .and(header("authorization", bearer().as_str()))
        .and(header("x-svc-project-id", PROJECT))
        .respond_with(metered(
            json!({"text": "Hello there.", "usage": {"cost": 0.003}}),
        ))
        .expect(1)
        .mount(&server)
        .await;

    let wav = Bytes::from_static(b"RIFF\x10\x00\x00\x00WAVEdata\r\n--x\r\n\x00\x01");
    let out = attributed(&server)
        .gateway()
        .transcribe(
            "openai/gpt-4o-transcribe",
            &AudioUpload {
                file_name: "hello.wav".into(),
                mime: "audio/wav".into(),
                bytes: wav.clone(),
            },
        )
        .await
        .unwrap();
    assert_eq!(out.value.text, "Hello there.");
    assert_eq!(out.value.usage.as_ref().unwrap().cost, Some(0.003));
    assert_eq!(out.metering, full_metering());

    let reqs = received(&server).await;
    assert_eq!(
        multipart(&reqs[0]),
        vec![
            Part {
                name: "file".into(),
                file_name: Some("hello.wav".into()),
                content_type: Some("audio/wav".into()),
                body: wav.to_vec(),
            },
            Part {
                name: "model".into(),
                file_name: None,
                content_type: None,
                body: b"openai/gpt-4o-transcribe".to_vec(),
            },
        ]
    );
}

fn chat_request() -> MessagesRequest {
    MessagesRequest {
        model: "anthropic/claude-sonnet-4.5".into(),
        max_tokens: 256,
        messages: vec![
            Message {
                role: MessageRole::User,
                content: MessageContent::Text("What is the weather in Paris?".into()),
            },
            Message {
                role: MessageRole::Assistant,
                content: MessageContent::Blocks(vec![ContentBlock::Text {
                    text: "Let me see.".into(),
                }]),
            },
        ],
        system: Some(SystemPrompt::Text("Be brief.".into())),
        tools: Some(vec![Tool {
            name: "get_weather".into(),
            description: Some("Weather by city".into()),
            input_schema: json!({"type": "object", "required": ["city"], "properties": {"city": {"type": "string"}}}),
        }]),
        tool_choice: None,
        stream: Some(true),
        temperature: Some(0.5),
        top_p: None,
        top_k: None,
        stop_sequences: None,
        metadata: None,
    }
}

fn chat_json(stream: Option<bool>) -> Value {
    let mut v = json!({
        "model": "anthropic/claude-sonnet-4.5",
        "max_tokens": 256,
        "messages": [
            {"role": "user", "content": "What is the weather in Paris?"},
            {"role": "assistant", "content": [{"type": "text", "text": "Let me see."}]}
        ],
        "system": "Be brief.",
        "tools": [{
            "name": "get_weather",
            "description": "Weather by city",
            "input_schema": {"type": "object", "required": ["city"], "properties": {"city": {"type": "string"}}}
        }],
        "temperature": 0.5
    });
    if let Some(s) = stream {
        v["stream"] = json!(s);
    }
    v
}

#[tokio::test]
async fn messages_json_never_asks_for_a_stream() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/messages"))
        .and(header("authorization", bearer().as_str()))
        .and(header("x-svc-project-id", PROJECT))
        .and(body_json(chat_json(None)))
        .respond_with(metered(fixture("gateway/messages-response")))
        .expect(1)
        .mount(&server)
        .await;
    let out = attributed(&server)
        .gateway()
        .messages(&chat_request())
        .await
        .unwrap();
    assert_eq!(
        out.value,
        fixture_as::<MessagesResponse>("gateway/messages-response")
    );
    assert_eq!(out.metering, full_metering());
}

/// A full Messages stream: thinking, text and tool_use blocks, pings, usage, an unknown event.
fn message_events() -> Vec<Value> {
    vec![
        json!({"type": "message_start", "message": {
            "id": "msg_02", "type": "message", "role": "assistant", "model": "anthropic/claude-sonnet-4.5",
            "content": [], "stop_reason": null, "stop_sequence": null,
            "usage": {"input_tokens": 25, "output_tokens": 1}
        }}),
        json!({"type": "ping"}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "thinking", "thinking": ""}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "Weather needs "}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta", "thinking": "a tool."}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta", "signature": "sig=="}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "content_block_start", "index": 1, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "Let me check "}}),
        json!({"type": "future_event_type", "index": 1, "whatever": [1, 2, 3]}),
        json!({"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "the weather ☀."}}),
        json!({"type": "content_block_stop", "index": 1}),
        json!({"type": "content_block_start", "index": 2, "content_block": {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {}}}),
        json!({"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta", "partial_json": ""}}),
        json!({"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta", "partial_json": "{\"city\": \"Pa"}}),
        json!({"type": "ping"}),
        json!({"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta", "partial_json": "ris\", \"days\": 3, \"units\": {\"t\": \"C\"}}"}}),
        json!({"type": "content_block_stop", "index": 2}),
        json!({"type": "message_delta", "delta": {"stop_reason": "tool_use", "stop_sequence": null}, "usage": {"output_tokens": 48, "cost": 0.0021}}),
        json!({"type": "message_stop"}),
    ]
}

fn expected_message() -> MessagesResponse {
    MessagesResponse {
        id: "msg_02".into(),
        object_type: "message".into(),
        role: MessageRole::Assistant,
        model: "anthropic/claude-sonnet-4.5".into(),
        content: vec![
            ContentBlock::Thinking {
                thinking: "Weather needs a tool.".into(),
                signature: Some("sig==".into()),
            },
            ContentBlock::Text {
                text: "Let me check the weather ☀.".into(),
            },
            ContentBlock::ToolUse {
                id: "toolu_1".into(),
                name: "get_weather".into(),
                input: json!({"city": "Paris", "days": 3, "units": {"t": "C"}}),
            },
        ],
        stop_reason: Some(StopReason::ToolUse),
        stop_sequence: None,
        usage: MessagesUsage {
            input_tokens: Some(25),
            output_tokens: Some(48),
            cache_creation_input_tokens: None,
            cache_read_input_tokens: None,
            cost: Some(0.0021),
        },
    }
}

fn message_sse() -> String {
    let mut body = String::new();
    for e in message_events() {
        body.push_str(&frame(e["type"].as_str().unwrap(), &e));
    }
    body
}

#[tokio::test]
async fn messages_stream_builds_the_final_message() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/messages"))
        .and(header("authorization", bearer().as_str()))
        .and(header("accept", "text/event-stream"))
        .and(header("x-svc-project-id", PROJECT))
        .and(body_json(chat_json(Some(true))))
        .respond_with(sse(message_sse()).insert_header("x-svc-request-id", "req_stream"))
        .expect(1)
        .mount(&server)
        .await;

    let mut request = chat_request();
    request.stream = None; // the client sets it
    let stream = attributed(&server)
        .gateway()
        .messages_stream(&request)
        .await
        .unwrap();
    assert_eq!(
        stream.metering(),
        &Metering {
            request_id: Some("req_stream".into()),
            credits_charged: None,
            credits_remaining: None,
        }
    );
    assert_eq!(stream.collect_message().await.unwrap(), expected_message());
}

#[tokio::test]
async fn messages_stream_events_feed_an_accumulator_one_by_one() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/messages"))
        .respond_with(sse(message_sse()))
        .mount(&server)
        .await;
    let events: Vec<MessagesStreamEvent> = client(&server)
        .gateway()
        .messages_stream(&chat_request())
        .await
        .unwrap()
        .try_collect()
        .await
        .unwrap();
    assert_eq!(events.len(), message_events().len());
    assert_eq!(events[9], MessagesStreamEvent::Unknown);
    let mut acc = MessageAccumulator::default();
    for (i, event) in events.iter().enumerate() {
        acc.push(event).unwrap();
        if i == 10 {
            assert_eq!(acc.text(), "Let me check the weather ☀.");
            assert!(!acc.is_complete());
        }
    }
    assert!(acc.is_complete());
    assert_eq!(acc.finish().unwrap(), expected_message());
}

#[tokio::test]
async fn a_message_stream_cut_before_message_stop_is_an_error() {
    let server = MockServer::start().await;
    let events = message_events();
    let mut body = String::new();
    for e in &events[..12] {
        body.push_str(&frame(e["type"].as_str().unwrap(), e));
    }
    Mock::given(method("POST"))
        .and(path("/v1/messages"))
        .respond_with(sse(body))
        .mount(&server)
        .await;
    let err = client(&server)
        .gateway()
        .messages_stream(&chat_request())
        .await
        .unwrap()
        .collect_message()
        .await
        .unwrap_err();
    assert_eq!(err.kind(), specdesk_client::ErrorKind::Stream);
    assert_eq!(
        err.to_string(),
        "The reply stopped before it was complete. Try again."
    );
}

#[tokio::test]
async fn images_sends_exact_json() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/images"))
        .and(header("authorization", bearer().as_str()))
        .and(header("x-svc-project-id", PROJECT))
        .and(body_json(json!({"model": "openai/gpt-image-1", "prompt": "A red fox", "n": 2, "size": "256x256"})))
        .respond_with(metered(fixture("gateway/image-response")))
        .expect(1)
        .mount(&server)
        .await;
    let out = attributed(&server)
        .gateway()
        .images(&ImageRequest {
            model: "openai/gpt-image-1".into(),
            prompt: "A red fox".into(),
            n: Some(2),
            size: Some("256x256".into()),
        })
        .await
        .unwrap();
    assert_eq!(
        out.value,
        fixture_as::<ImageResponse>("gateway/image-response")
    );
    assert_eq!(out.metering, full_metering());
}

#[tokio::test]
async fn videos_create_status_and_content() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/videos"))
        .and(header("authorization", bearer().as_str()))
        .and(header("x-svc-project-id", PROJECT))
        .and(body_json(
            json!({"model": "openai/sora-2", "prompt": "A cat surfing", "seconds": "4"}),
        ))
        .respond_with(
            json(fixture("gateway/video-job-queued")).insert_header("x-svc-credits-charged", "0"),
        )
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/videos/video_123"))
        .and(header("authorization", bearer().as_str()))
        .and(header("x-svc-project-id", PROJECT))
        .respond_with(json(fixture("gateway/video-job-in-progress")))
        .expect(1)
        .mount(&server)
        .await;
    let mp4 = b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00".to_vec();
    Mock::given(method("GET"))
        .and(path("/v1/videos/video_123/content"))
        .and(header("authorization", bearer().as_str()))
        .respond_with(
            ResponseTemplate::new(200)
                .set_body_raw(mp4.clone(), "video/mp4")
                .insert_header("x-svc-request-id", "req_v"),
        )
        .expect(1)
        .mount(&server)
        .await;

    let c = attributed(&server);
    let job = c
        .gateway()
        .create_video(&VideoRequest {
            model: "openai/sora-2".into(),
            prompt: "A cat surfing".into(),
            seconds: Some("4".into()),
            size: None,
        })
        .await
        .unwrap();
    assert_eq!(
        job.value,
        fixture_as::<VideoJob>("gateway/video-job-queued")
    );
    assert_eq!(job.metering.credits_charged, Some(0.0));
    let status = c.gateway().video("video_123").await.unwrap();
    assert_eq!(status.value.status, VideoStatus::InProgress);
    assert_eq!(status.value.progress, Some(40.0));
    let content = c.gateway().video_content("video_123").await.unwrap();
    assert_eq!(content.value.bytes, Bytes::from(mp4));
    assert_eq!(content.value.content_type.as_deref(), Some("video/mp4"));
    assert_eq!(content.metering.request_id.as_deref(), Some("req_v"));
}

#[tokio::test(start_paused = true)]
async fn wait_for_video_polls_until_terminal_and_carries_the_charge() {
    let server = MockServer::start().await;
    for name in ["queued", "in-progress"] {
        Mock::given(method("GET"))
            .and(path("/v1/videos/video_123"))
            .respond_with(
                json(fixture(&format!("gateway/video-job-{name}")))
                    .insert_header("x-svc-credits-charged", "0"),
            )
            .up_to_n_times(1)
            .expect(1)
            .mount(&server)
            .await;
    }
    Mock::given(method("GET"))
        .and(path("/v1/videos/video_123"))
        .respond_with(
            json(fixture("gateway/video-job-completed"))
                .insert_header("x-svc-credits-charged", "4"),
        )
        .expect(1)
        .mount(&server)
        .await;

    let c = client_with(&server, |cfg| {
        cfg.job_poll_interval = Duration::from_secs(3)
    });
    let started = tokio::time::Instant::now();
    let polls: Vec<(VideoStatus, Option<f64>)> = c
        .gateway()
        .wait_for_video("video_123")
        .map_ok(|m| (m.value.status, m.metering.credits_charged))
        .try_collect()
        .await
        .unwrap();
    assert_eq!(
        polls,
        [
            (VideoStatus::Queued, Some(0.0)),
            (VideoStatus::InProgress, Some(0.0)),
            (VideoStatus::Completed, Some(4.0)),
        ]
    );
    assert_eq!(started.elapsed(), Duration::from_secs(6));
}

#[tokio::test]
async fn public_catalog_needs_no_key_and_reuses_its_cache_on_304() {
    let server = MockServer::start().await;
    let first = fixture("gateway/public-catalog");
    let mut changed = first.clone();
    changed["total"] = json!(3);
    Mock::given(method("GET"))
        .and(path("/v1/models/public"))
        .and(no_header("authorization"))
        .and(no_header("x-svc-project-id"))
        .and(no_header("if-none-match"))
        .respond_with(json(first.clone()).insert_header("etag", "\"v1\""))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/models/public"))
        .and(no_header("authorization"))
        .and(header("if-none-match", "\"v1\""))
        .respond_with(ResponseTemplate::new(304).insert_header("etag", "\"v1\""))
        .up_to_n_times(1)
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/models/public"))
        .and(header("if-none-match", "\"v1\""))
        .respond_with(json(changed.clone()).insert_header("etag", "\"v2\""))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/models/public"))
        .and(header("if-none-match", "\"v2\""))
        .respond_with(ResponseTemplate::new(304))
        .expect(1)
        .mount(&server)
        .await;

    let c = attributed(&server);
    let expected: PublicCatalog = serde_json::from_value(first).unwrap();
    assert_eq!(c.gateway().public_catalog().await.unwrap(), expected);
    // 304: the cached body.
    assert_eq!(c.gateway().public_catalog().await.unwrap(), expected);
    // A new version replaces the cache and its ETag...
    let v2: PublicCatalog = serde_json::from_value(changed).unwrap();
    assert_eq!(c.gateway().public_catalog().await.unwrap(), v2);
    // ...which the next read sends, and a clone of the client shares.
    assert_eq!(c.clone().gateway().public_catalog().await.unwrap(), v2);
}

#[tokio::test]
async fn public_catalog_since_sends_the_callers_etag_and_keeps_nothing() {
    let server = MockServer::start().await;
    let first = fixture("gateway/public-catalog");
    Mock::given(method("GET"))
        .and(path("/v1/models/public"))
        .and(header("if-none-match", "\"kept\""))
        .respond_with(ResponseTemplate::new(304))
        .expect(1)
        .mount(&server)
        .await;
    Mock::given(method("GET"))
        .and(path("/v1/models/public"))
        .and(no_header("if-none-match"))
        .respond_with(json(first.clone()).insert_header("etag", "\"v1\""))
        .expect(2)
        .mount(&server)
        .await;
    let c = attributed(&server);
    // An ETag kept elsewhere (the library) is sent as it is: 304 says the copy is current.
    assert_eq!(
        c.gateway()
            .public_catalog_since(Some("\"kept\""))
            .await
            .unwrap(),
        specdesk_client::Conditional::NotModified
    );
    let expected: PublicCatalog = serde_json::from_value(first).unwrap();
    assert_eq!(
        c.gateway().public_catalog_since(None).await.unwrap(),
        specdesk_client::Conditional::Changed {
            value: expected,
            etag: Some("\"v1\"".into())
        }
    );
    // Nothing was cached in memory: the next plain read is not conditional.
    c.gateway().public_catalog().await.unwrap();
}

#[tokio::test]
async fn public_catalog_works_without_any_key() {
    let server = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v1/models/public"))
        .and(no_header("authorization"))
        .respond_with(json(fixture("gateway/public-catalog")))
        .expect(2)
        .mount(&server)
        .await;
    let mut cfg = specdesk_client::ClientConfig::new(&server.uri()).unwrap();
    cfg.connect_timeout = None;
    let c = specdesk_client::Client::new(cfg).unwrap();
    c.gateway().public_catalog().await.unwrap();
    // No ETag was sent, so nothing is cached and no conditional header follows.
    c.gateway().public_catalog().await.unwrap();
    for req in received(&server).await {
        assert_eq!(common::header(&req, "if-none-match"), None);
    }
}

#[tokio::test]
async fn authenticated_catalogs() {
    let server = MockServer::start().await;
    for (route, name) in [
        ("/v1/models", "gateway/models"),
        ("/v1/images/models", "gateway/image-models"),
        ("/v1/videos/models", "gateway/video-models"),
    ] {
        Mock::given(method("GET"))
            .and(path(route))
            .and(header("authorization", bearer().as_str()))
            .respond_with(json(fixture(name)).insert_header("x-svc-request-id", "req_cat"))
            .expect(1)
            .mount(&server)
            .await;
    }
    let c = attributed(&server);
    let models = c.gateway().models().await.unwrap();
    assert_eq!(models.value, fixture_as::<ModelList>("gateway/models"));
    assert!(models.value.data[1].outputs_audio());
    assert_eq!(models.metering.request_id.as_deref(), Some("req_cat"));
    let images = c.gateway().image_models().await.unwrap().value;
    assert_eq!(images, fixture_as::<ModelList>("gateway/image-models"));
    assert_eq!(
        images.data[0].svc.as_ref().unwrap().credits_per_image,
        Some(0.4)
    );
    let videos = c.gateway().video_models().await.unwrap().value;
    assert_eq!(
        videos.data[0].svc.as_ref().unwrap().credits_per_second,
        Some(1.0)
    );
    let reqs = received(&server).await;
    let paths: Vec<&str> = reqs.iter().map(|r| r.url.path()).collect();
    assert_eq!(
        paths,
        ["/v1/models", "/v1/images/models", "/v1/videos/models"]
    );
    for req in &reqs {
        assert_eq!(req.method.as_str(), "GET");
        assert_eq!(req.url.query(), None);
    }
}

#[tokio::test]
async fn metering_headers_that_are_not_numbers_are_none() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/rerank"))
        .respond_with(
            json(fixture("gateway/rerank-result"))
                .insert_header("x-svc-request-id", "  ")
                .insert_header("x-svc-credits-charged", "n/a")
                .insert_header("x-svc-credits-remaining", "12"),
        )
        .mount(&server)
        .await;
    let out = client(&server)
        .gateway()
        .rerank(&RerankRequest {
            model: "cohere/rerank-4-fast".into(),
            query: "q".into(),
            documents: vec!["d".into()],
            top_n: None,
        })
        .await
        .unwrap();
    assert_eq!(
        out.metering,
        Metering {
            request_id: None,
            credits_charged: None,
            credits_remaining: Some(12.0),
        }
    );
}
