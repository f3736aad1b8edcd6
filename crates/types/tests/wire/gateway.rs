//! The AI gateway: catalogs, rerank, speech, transcription, Messages, images, videos.

use crate::common::{
    assert_covers, assert_keys, assert_keys_across, json, roundtrip, roundtrip_each,
};
use pretty_assertions::assert_eq;
use serde_json::json;
use specdesk_types::*;

#[test]
fn public_catalog() {
    let c: PublicCatalog = roundtrip("gateway/public-catalog.json");
    let v = json("gateway/public-catalog.json");
    assert_keys(
        &v,
        "",
        &["object", "updated_at", "total", "counts", "labs", "data"],
    );
    assert_keys(&v, "/counts", &["text", "image", "video", "embeddings"]);
    assert_keys(&v, "/labs/0", &["id", "name", "models"]);
    assert_keys_across(
        &v,
        "/data",
        &[
            "id",
            "name",
            "lab",
            "type",
            "input",
            "output",
            "context_length",
            "created",
        ],
    );
    assert_eq!(c.object, "list");
    assert_eq!(c.total as usize, c.data.len());
    let types: Vec<String> = c
        .data
        .iter()
        .filter_map(|m| m.model_type.as_ref().map(ToString::to_string))
        .collect();
    assert_covers("model type", ModelType::KNOWN, &types);
    // Labs by model count, largest first; models newest first; ids are `<lab>/<model>`.
    assert!(c.labs.windows(2).all(|w| w[0].models >= w[1].models));
    assert!(c.data.windows(2).all(|w| w[0].created >= w[1].created));
    for m in &c.data {
        assert_eq!(m.id.split_once('/').map(|(lab, _)| lab), m.lab.as_deref());
        assert_eq!(m.svc, None, "the public catalog carries no prices");
    }
    assert_eq!(c.counts.embeddings, 1);
}

#[test]
fn priced_model_lists() {
    let images: ModelList = roundtrip("gateway/image-models.json");
    assert_keys(&json("gateway/image-models.json"), "/data/0", &["svc"]);
    let price = images.data[0].svc.as_ref().unwrap();
    assert_eq!(price.credits_per_image, Some(0.4));
    assert!(price.extra.is_empty());

    let videos: ModelList = roundtrip("gateway/video-models.json");
    assert_eq!(
        videos.data[0].svc.as_ref().unwrap().credits_per_second,
        Some(4.0)
    );
    assert_eq!(videos.data[0].model_type, Some(ModelType::Video));

    // The authed catalog: audio modalities, and price keys this version does not name are kept.
    let all: ModelList = roundtrip("gateway/models-authed.json");
    assert_eq!(all.object, "list");
    let audio: Vec<&str> = all
        .data
        .iter()
        .filter(|m| m.outputs_audio())
        .map(|m| m.id.as_str())
        .collect();
    assert_eq!(
        audio,
        ["openai/gpt-4o-audio-mini", "google/lyria-3-clip-preview"]
    );
    assert_eq!(all.data[3].input, ["audio"]);
    assert_eq!(
        all.data[0].svc.as_ref().unwrap().extra["credits_per_1m_output_tokens"],
        json!(150)
    );
}

#[test]
fn rerank() {
    let req: RerankRequest = roundtrip("gateway/rerank-request.json");
    assert_keys(
        &json("gateway/rerank-request.json"),
        "",
        &["model", "query", "documents", "top_n"],
    );
    assert_eq!(req.top_n, Some(2));
    assert_eq!(req.documents.len(), 3);

    let res: RerankResult = roundtrip("gateway/rerank-result.json");
    assert_keys(
        &json("gateway/rerank-result.json"),
        "",
        &["model", "results", "usage"],
    );
    assert_eq!(res.results[0].index, 1);
    assert!(
        res.results
            .windows(2)
            .all(|w| w[0].relevance_score >= w[1].relevance_score)
    );
    assert_eq!(res.usage.unwrap().total_tokens, 57);
}

#[test]
fn speech_and_music_requests() {
    let speech: SpeechRequest = roundtrip("gateway/speech-request.json");
    assert_keys(
        &json("gateway/speech-request.json"),
        "",
        &["model", "input", "voice", "response_format", "instructions"],
    );
    assert_eq!(speech.voice, Some(Voice::Coral));
    assert_eq!(speech.response_format.as_deref(), Some("pcm16"));
    let music: SpeechRequest = roundtrip("gateway/music-request.json");
    assert_eq!((music.voice, music.instructions), (None, None));
    for v in Voice::KNOWN {
        assert!(Voice::from(*v).is_known());
    }
    assert_eq!(AudioFormat::from("mp3").mime_type(), "audio/mpeg");
    assert_eq!(AudioFormat::from("wav").mime_type(), "audio/wav");
}

#[test]
fn transcription() {
    let t: Transcription = roundtrip("gateway/transcription.json");
    assert_eq!(t.text, "Your spec is ready.");
    assert_eq!(t.usage.unwrap().cost, Some(0.0006));
}

#[test]
fn messages_request_with_system_tools_and_images() {
    let req: MessagesRequest = roundtrip("gateway/messages-request.json");
    assert_keys(
        &json("gateway/messages-request.json"),
        "",
        &[
            "model",
            "max_tokens",
            "messages",
            "system",
            "tools",
            "stream",
        ],
    );
    assert_eq!(
        req.system,
        Some(SystemPrompt::Text(
            "You are a concise assistant for a recipe app.".into()
        ))
    );
    let tool = &req.tools.as_ref().unwrap()[0];
    assert_eq!(tool.name, "get_recipe");
    assert_eq!(tool.input_schema["required"], json!(["name"]));

    let MessageContent::Blocks(first) = &req.messages[0].content else {
        panic!("blocks expected")
    };
    assert_eq!(
        first[0],
        ContentBlock::Image {
            source: ImageSource::Base64 {
                media_type: "image/png".into(),
                data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==".into(),
            }
        }
    );
    assert!(matches!(
        &first[1],
        ContentBlock::Image { source: ImageSource::Url { url } } if url.ends_with("pancakes.jpg")
    ));
    let MessageContent::Blocks(second) = &req.messages[1].content else {
        panic!("blocks expected")
    };
    assert_eq!(req.messages[1].role, MessageRole::Assistant);
    assert!(matches!(
        &second[0],
        ContentBlock::Thinking {
            signature: Some(_),
            ..
        }
    ));
    assert!(matches!(&second[1], ContentBlock::ToolUse { name, .. } if name == "get_recipe"));
    let MessageContent::Blocks(third) = &req.messages[2].content else {
        panic!("blocks expected")
    };
    assert!(matches!(
        &third[0],
        ContentBlock::ToolResult {
            is_error: Some(false),
            content: Some(_),
            ..
        }
    ));
    assert_eq!(
        req.messages[4].content,
        MessageContent::Text("Thanks! Scale it for four.".into())
    );

    let blocks: MessagesRequest = roundtrip("gateway/messages-request-system-blocks.json");
    assert!(matches!(blocks.system, Some(SystemPrompt::Blocks(ref b)) if b.len() == 1));
    assert_eq!(blocks.stream, Some(true));
    assert_eq!(blocks.tools, None);
}

#[test]
fn messages_response_with_tool_use() {
    let r: MessagesResponse = roundtrip("gateway/messages-response-tool-use.json");
    assert_keys(
        &json("gateway/messages-response-tool-use.json"),
        "",
        &[
            "id",
            "type",
            "role",
            "model",
            "content",
            "stop_reason",
            "stop_sequence",
            "usage",
        ],
    );
    assert_eq!(r.stop_reason, Some(StopReason::ToolUse));
    assert_eq!(r.stop_sequence, None);
    assert_eq!(
        r.content[1],
        ContentBlock::ToolUse {
            id: "toolu_01A09q90qw90lq917835lq9".into(),
            name: "get_recipe".into(),
            input: json!({"name": "pancakes", "servings": 4}),
        }
    );
    assert_eq!(r.usage.cache_read_input_tokens, Some(128));
    assert_eq!(r.usage.cost, Some(0.002106));

    let text: MessagesResponse = roundtrip("gateway/messages-response-text.json");
    assert_eq!(text.stop_reason, Some(StopReason::EndTurn));
}

#[test]
fn every_messages_stream_event() {
    let events: Vec<MessagesStreamEvent> =
        roundtrip_each("gateway/messages-stream-events.json", None);
    let names: Vec<String> = json("gateway/messages-stream-events.json")
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap().to_owned())
        .collect();
    assert_covers(
        "messages stream event",
        &[
            "message_start",
            "content_block_start",
            "content_block_delta",
            "content_block_stop",
            "message_delta",
            "message_stop",
            "ping",
            "error",
        ],
        &names,
    );
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, MessagesStreamEvent::Unknown))
    );
    let deltas: Vec<&ContentDelta> = events
        .iter()
        .filter_map(|e| match e {
            MessagesStreamEvent::ContentBlockDelta { delta, .. } => Some(delta),
            _ => None,
        })
        .collect();
    assert!(
        deltas
            .iter()
            .any(|d| matches!(d, ContentDelta::TextDelta { .. }))
    );
    assert!(
        deltas
            .iter()
            .any(|d| matches!(d, ContentDelta::ThinkingDelta { .. }))
    );
    assert!(
        deltas
            .iter()
            .any(|d| matches!(d, ContentDelta::SignatureDelta { .. }))
    );
    // The tool input arrives as JSON text in pieces; joined, it is the tool's input.
    let json_text: String = deltas
        .iter()
        .filter_map(|d| match d {
            ContentDelta::InputJsonDelta { partial_json } => Some(partial_json.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&json_text).unwrap(),
        json!({"name": "pancakes", "servings": 4})
    );
    match &events[0] {
        MessagesStreamEvent::MessageStart { message } => {
            assert!(message.content.is_empty());
            assert_eq!(message.stop_reason, None);
        }
        other => panic!("{other:?}"),
    }
    match &events[15] {
        MessagesStreamEvent::MessageDelta { delta, usage } => {
            assert_eq!(delta.stop_reason, Some(StopReason::ToolUse));
            assert_eq!(usage.as_ref().unwrap().output_tokens, Some(58));
        }
        other => panic!("{other:?}"),
    }
    match &events[17] {
        MessagesStreamEvent::Error { error } => {
            assert_eq!(error.error_type.as_deref(), Some("overloaded_error"));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn images() {
    let req: ImageRequest = roundtrip("gateway/image-request.json");
    assert_eq!((req.n, req.size.as_deref()), (Some(2), Some("1024x768")));
    let res: ImageResponse = roundtrip("gateway/image-response.json");
    assert_keys(
        &json("gateway/image-response.json"),
        "",
        &["created", "data", "usage"],
    );
    assert_eq!(res.data.len(), 2);
    assert!(
        res.data
            .iter()
            .all(|d| d.b64_json.as_deref().unwrap().starts_with("iVBOR"))
    );
    assert_eq!(res.usage.unwrap().cost, Some(0.08));
}

#[test]
fn video_request_and_job_in_every_status() {
    let req: VideoRequest = roundtrip("gateway/video-request.json");
    assert_eq!(req.seconds.as_deref(), Some("8"));
    let jobs: Vec<VideoJob> = [
        "gateway/video-job-queued.json",
        "gateway/video-job-in-progress.json",
        "gateway/video-job-completed.json",
        "gateway/video-job-failed.json",
    ]
    .into_iter()
    .map(roundtrip)
    .collect();
    let statuses: Vec<String> = jobs.iter().map(|j| j.status.to_string()).collect();
    assert_covers("video status", VideoStatus::KNOWN, &statuses);
    assert_eq!(jobs[0].object.as_deref(), Some("video"));
    assert_eq!(jobs[0].progress, Some(0.0));
    assert!(!jobs[1].status.is_terminal());
    assert!(jobs[2].status.is_terminal());
    assert_eq!(jobs[2].usage.as_ref().unwrap().cost, Some(3.2));
    assert_eq!(jobs[3].error.as_ref().unwrap()["code"], "generation_failed");
}
