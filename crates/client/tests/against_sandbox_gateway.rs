//! The AI gateway against the real sandbox: catalogs, rerank, speech and transcription, messages
//! (streamed and whole), images and videos, with the sandbox's rules for them.

mod common;

use common::sandbox::*;
use futures::StreamExt;
use specdesk_client::types::*;
use specdesk_client::{AudioUpload, MessageAccumulator};
use specdesk_client::{Client, ErrorKind};
use specdesk_sandbox::keys;

async fn model_where(c: &Client, f: impl Fn(&CatalogModel) -> bool) -> String {
    c.gateway()
        .models()
        .await
        .unwrap()
        .value
        .data
        .into_iter()
        .find(|m| f(m))
        .expect("a matching model in the catalog")
        .id
}

#[tokio::test]
async fn speech_round_trips_through_transcription_and_every_call_is_metered() {
    let sb = sandbox().await;
    let c = client(&sb, keys::PRO);
    let speech_model = model_where(&c, |m| m.id.ends_with("-audio-mini")).await;
    let transcriber = model_where(&c, |m| m.id.contains("transcribe")).await;
    let text = "Welcome to Specdesk. Your plan is ready.";
    let request = SpeechRequest {
        model: speech_model,
        input: text.to_owned(),
        voice: Some(Voice::Coral),
        response_format: None,
        instructions: None,
    };
    let audio = c.gateway().speech(&request).await.unwrap();
    assert_eq!(audio.value.format, AudioFormat::Wav);
    assert_eq!(&audio.value.bytes[..4], b"RIFF");
    assert_eq!(&audio.value.bytes[8..12], b"WAVE");
    let charged = audio.metering.credits_charged.expect("charged header");
    let left = audio.metering.credits_remaining.expect("remaining header");
    assert!(audio.metering.request_id.is_some());
    assert_eq!(left, 1000.0 - charged);

    let heard = c
        .gateway()
        .transcribe(
            &transcriber,
            &AudioUpload {
                file_name: "welcome.wav".into(),
                mime: "audio/wav".into(),
                bytes: audio.value.bytes.clone(),
            },
        )
        .await
        .unwrap();
    assert_eq!(heard.value.text, text);

    // Identical requests give identical bytes.
    let again = c.gateway().speech(&request).await.unwrap();
    assert_eq!(again.value.bytes, audio.value.bytes);
    sb.shutdown().await;
}

#[tokio::test]
async fn a_streamed_reply_names_the_tool_the_user_asked_for() {
    let sb = sandbox().await;
    let c = client(&sb, keys::PRO);
    let catalog = c.gateway().public_catalog().await.unwrap();
    let chat = catalog
        .data
        .iter()
        .find(|m| m.model_type == Some(ModelType::Text))
        .expect("a text model")
        .id
        .clone();
    let request = MessagesRequest {
        model: chat,
        max_tokens: 256,
        messages: vec![Message {
            role: MessageRole::User,
            content: MessageContent::Text("Please call get_weather for Paris".into()),
        }],
        system: Some(SystemPrompt::Text("You are terse.".into())),
        tools: Some(vec![Tool {
            name: "get_weather".into(),
            description: Some("Weather of a city".into()),
            input_schema: serde_json::json!({
                "type": "object",
                "required": ["city"],
                "properties": {"city": {"type": "string"}}
            }),
        }]),
        tool_choice: None,
        stream: None,
        temperature: None,
        top_p: None,
        top_k: None,
        stop_sequences: None,
        metadata: None,
    };
    let whole = c.gateway().messages(&request).await.unwrap().value;
    assert_eq!(whole.stop_reason, Some(StopReason::ToolUse));
    let mut stream = c.gateway().messages_stream(&request).await.unwrap();
    let mut acc = MessageAccumulator::default();
    while let Some(ev) = stream.next().await {
        acc.push(&ev.unwrap()).unwrap();
    }
    let streamed = acc.finish().unwrap();
    let without_ids = |blocks: &[ContentBlock]| -> Vec<ContentBlock> {
        blocks
            .iter()
            .cloned()
            .map(|b| match b {
                ContentBlock::ToolUse { name, input, .. } => ContentBlock::ToolUse {
                    id: String::new(),
                    name,
                    input,
                },
                other => other,
            })
            .collect()
    };
    assert_eq!(
        without_ids(&streamed.content),
        without_ids(&whole.content),
        "stream and JSON agree (ids aside)"
    );
    match &streamed.content[..] {
        [ContentBlock::ToolUse { name, input, .. }] => {
            assert_eq!(name, "get_weather");
            assert!(input.get("city").is_some_and(|v| v.is_string()), "{input}");
        }
        other => panic!("one tool_use block expected: {other:?}"),
    }
    sb.shutdown().await;
}

#[tokio::test]
async fn images_are_png_and_videos_are_charged_when_a_poll_reports_completion() {
    let sb = sandbox().await;
    let c = client(&sb, keys::PRO);
    let image_model = c.gateway().image_models().await.unwrap().value.data[0]
        .id
        .clone();
    let images = c
        .gateway()
        .images(&ImageRequest {
            model: image_model,
            prompt: "A lighthouse at dusk".into(),
            n: Some(2),
            size: Some("64x32".into()),
        })
        .await
        .unwrap();
    assert_eq!(images.value.data.len(), 2);
    assert!(images.metering.credits_charged.unwrap_or(0.0) > 0.0);

    let video_model = c.gateway().video_models().await.unwrap().value.data[0]
        .id
        .clone();
    let job = c
        .gateway()
        .create_video(&VideoRequest {
            model: video_model,
            prompt: "Waves on a beach".into(),
            seconds: Some("2".into()),
            size: None,
        })
        .await
        .unwrap();
    assert_eq!(
        job.metering.credits_charged.unwrap_or(0.0),
        0.0,
        "not charged at submission"
    );
    let polls: Vec<_> = c
        .gateway()
        .wait_for_video(&job.value.id)
        .map(|p| p.unwrap())
        .collect()
        .await;
    let last = polls.last().unwrap();
    assert_eq!(last.value.status, VideoStatus::Completed);
    let charged: Vec<f64> = polls
        .iter()
        .map(|p| p.metering.credits_charged.unwrap_or(0.0))
        .collect();
    assert_eq!(
        charged.iter().filter(|c| **c > 0.0).count(),
        1,
        "charged exactly once: {charged:?}"
    );
    assert!(
        *charged.last().unwrap() > 0.0,
        "on the poll that reports completion"
    );
    let video = c.gateway().video_content(&job.value.id).await.unwrap();
    assert_eq!(video.value.content_type.as_deref(), Some("video/mp4"));
    assert_eq!(&video.value.bytes[4..8], b"ftyp");

    // Another workspace's job is not found.
    let err = client(&sb, keys::ORG)
        .gateway()
        .video(&job.value.id)
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotFound);
    sb.shutdown().await;
}

#[tokio::test]
async fn the_trial_ends_with_subscription_required_and_broke_keys_are_refused() {
    let sb = sandbox().await;
    let broke = client(&sb, keys::BROKE);
    let rerank = RerankRequest {
        model: "cohere/rerank-v3.5".into(),
        query: "plan progress".into(),
        documents: vec!["progress of the plan".into(), "a recipe".into()],
        top_n: Some(1),
    };
    let err = broke.gateway().rerank(&rerank).await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InsufficientCredits);
    assert!(err.action_url().is_some(), "a top-up link");

    let free = client(&sb, keys::FREE);
    let ranked = free.gateway().rerank(&rerank).await.unwrap();
    assert_eq!(ranked.value.results.len(), 1);
    assert_eq!(ranked.value.results[0].index, 0);
    // Spend the 5-credit trial on images, then the next call is refused.
    let image_model = free.gateway().image_models().await.unwrap().value.data[0]
        .id
        .clone();
    let mut spent = ranked.metering.credits_charged.unwrap_or(0.0);
    let err = loop {
        match free
            .gateway()
            .images(&ImageRequest {
                model: image_model.clone(),
                prompt: "x".into(),
                n: Some(4),
                size: Some("16x16".into()),
            })
            .await
        {
            Ok(m) => spent += m.metering.credits_charged.unwrap_or(0.0),
            Err(e) => break e,
        }
        assert!(spent < 100.0, "the trial never ended");
    };
    assert_eq!(err.kind(), ErrorKind::SubscriptionRequired, "{err}");
    let svc = match &err.api().unwrap().body {
        specdesk_client::ErrorBody::Gateway(g) => g.svc.clone().unwrap(),
        other => panic!("gateway error expected: {other:?}"),
    };
    assert!(spent >= 5.0);
    assert!((svc.trial_credits_used.unwrap() - spent).abs() < 1e-9);
    sb.shutdown().await;
}

#[tokio::test]
async fn an_unknown_model_id_says_to_check_it() {
    let sb = sandbox().await;
    let c = client(&sb, keys::PRO);
    let err = c
        .gateway()
        .images(&ImageRequest {
            model: "lab/no-such-model".into(),
            prompt: "A lighthouse at dusk".into(),
            n: Some(1),
            size: None,
        })
        .await
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotFound);
    assert_eq!(
        err.to_string(),
        "The gateway does not know that model. Check the model id, or pick one from the model list, then try again. (The service said: Unknown model `lab/no-such-model`: use an id from GET /v1/models.)"
    );
}
