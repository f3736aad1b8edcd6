//! `POST /v1/audio/speech` (WAV 24 kHz mono with the text in ICMT, raw PCM16, or music as MP3)
//! and `POST /v1/audio/transcriptions` (reads the sandbox's own WAVs back).

use super::catalog::MODELS;
use super::{Gate, begin, credits_for, find_model, invalid};
use crate::errors::Resp;
use crate::media;
use crate::state::App;
use crate::util;
use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::{HeaderValue, header};
use axum::response::IntoResponse;
use axum::routing::post;
use axum::{Json, Router};
use serde_json::{Value, json};
use specdesk_types::Voice;

pub fn routes() -> Router<App> {
    Router::new()
        .route("/v1/audio/speech", post(speech))
        .route("/v1/audio/transcriptions", post(transcription))
}

fn audio_ids() -> Vec<&'static str> {
    MODELS
        .iter()
        .filter(|m| m.output.contains(&"audio"))
        .map(|m| m.id)
        .collect()
}

async fn speech(
    State(app): State<App>,
    headers: axum::http::HeaderMap,
    body: axum::body::Bytes,
) -> Resp {
    let meter = begin(&app, &headers, Gate::Full, 0.1)?;
    let fail = |r| Err(meter.fail(&app, r));
    let Ok(v) = serde_json::from_slice::<Value>(&body) else {
        return fail(invalid(
            "Body must be JSON {model, input, voice, response_format?, instructions?}.",
        ));
    };
    let model = v.get("model").and_then(Value::as_str).unwrap_or("");
    let def = match find_model(model) {
        Some(d) if d.output.contains(&"audio") => d,
        _ => {
            return fail(invalid(&format!(
                "`{model}` does not produce audio. Models that do: {}.",
                audio_ids().join(", ")
            )));
        }
    };
    let Some(input) = v
        .get("input")
        .and_then(Value::as_str)
        .filter(|s| !s.trim().is_empty())
    else {
        return fail(invalid("`input` must be a non-empty string."));
    };
    let (bytes, format, ctype, cost) = if def.kind == "music" {
        let secs = if def.id.contains("3-pro-preview") {
            30.0
        } else {
            10.0
        };
        (
            media::silent_mp3(secs, input),
            "mp3",
            "audio/mpeg",
            def.price_in,
        )
    } else {
        let voice = match v.get("voice") {
            None | Some(Value::Null) => "alloy".to_owned(),
            Some(Value::String(s)) if Voice::from(s.as_str()).is_known() => s.clone(),
            Some(other) => {
                return fail(invalid(&format!(
                    "`voice` {other} is not one of {}.",
                    Voice::KNOWN.join(", ")
                )));
            }
        };
        let samples = media::speech_samples(input, &voice);
        let cost = util::round6((input.chars().count() as f64 * def.price_in).max(0.0001));
        match v.get("response_format").and_then(Value::as_str) {
            None | Some("wav") => (
                media::wav(&samples, media::SPEECH_RATE, input),
                "wav",
                "audio/wav",
                cost,
            ),
            Some("pcm16") | Some("pcm") => {
                (media::pcm16_bytes(&samples), "pcm16", "audio/L16", cost)
            }
            Some(other) => {
                return fail(invalid(&format!(
                    "`response_format` `{other}` is not available: use `wav` (default) or `pcm16`."
                )));
            }
        }
    };
    let mut resp = ([(header::CONTENT_TYPE, ctype)], bytes).into_response();
    resp.headers_mut()
        .insert("x-svc-audio-format", HeaderValue::from_static(format));
    if format == "pcm16" {
        resp.headers_mut()
            .insert("x-svc-sample-rate", HeaderValue::from_static("24000"));
    }
    Ok(meter.done(&app, resp, credits_for(cost)))
}

async fn transcription(State(app): State<App>, req: Request) -> Resp {
    let headers = req.headers().clone();
    let meter = begin(&app, &headers, Gate::Full, 0.1)?;
    let fail = |r| Err(meter.fail(&app, r));
    let Ok(mut mp) = Multipart::from_request(req, &()).await else {
        return fail(invalid("Send multipart/form-data with `file` and `model`."));
    };
    let mut model = String::new();
    let mut file: Option<Vec<u8>> = None;
    loop {
        match mp.next_field().await {
            Ok(Some(f)) => {
                let name = f.name().unwrap_or("").to_owned();
                let Ok(bytes) = f.bytes().await else {
                    return fail(invalid("Unreadable multipart field."));
                };
                match name.as_str() {
                    "model" => model = String::from_utf8_lossy(&bytes).trim().to_owned(),
                    "file" => file = Some(bytes.to_vec()),
                    _ => {}
                }
            }
            Ok(None) => break,
            Err(_) => return fail(invalid("Unreadable multipart body.")),
        }
    }
    let def = match find_model(&model) {
        Some(d) if d.kind == "transcription" => d,
        _ => {
            let ids: Vec<&str> = MODELS
                .iter()
                .filter(|m| m.kind == "transcription")
                .map(|m| m.id)
                .collect();
            return fail(invalid(&format!(
                "`{model}` is not a transcription model. Use one of: {}.",
                ids.join(", ")
            )));
        }
    };
    let Some(file) = file else {
        return fail(invalid("`file` (the audio) is required."));
    };
    let (text, secs) = match media::read_wav(&file) {
        Some((comment, secs)) => (comment.unwrap_or_default(), secs),
        None => (String::new(), (file.len() as f64 / 48_000.0).max(1.0)),
    };
    let cost = util::round6((secs / 60.0 * def.price_in).max(0.0001));
    let body = json!({"text": text, "usage": {"cost": cost, "seconds": util::round6(secs)}});
    Ok(meter.done(&app, Json(body).into_response(), credits_for(cost)))
}
