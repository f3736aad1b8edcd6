//! Model catalogs: the public list (no key, ETag, 304), the authenticated list (audio models and
//! `svc` prices), and the image and video model lists.

use super::{Gate, begin};
use crate::errors::Resp;
use crate::state::App;
use crate::util;
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{Value, json};
use specdesk_types::{
    CatalogCounts, CatalogLab, CatalogModel, ModelList, ModelPrice, ModelType, PublicCatalog,
};
use std::collections::BTreeMap;

/// What a model does and costs. Prices are raw USD (credits = USD × 10) except where named.
pub struct ModelDef {
    pub id: &'static str,
    pub name: &'static str,
    /// `text`, `image`, `video`, `embeddings`, `speech`, `music`, `transcription`.
    pub kind: &'static str,
    pub input: &'static [&'static str],
    pub output: &'static [&'static str],
    pub context: u64,
    pub created: i64,
    /// Text: USD per million input tokens; speech: USD per character; transcription: USD per
    /// minute; music: USD per clip; image: USD per image; video: USD per second.
    pub price_in: f64,
    /// Text: USD per million output tokens.
    pub price_out: f64,
}

const T: &[&str] = &["text"];
const TI: &[&str] = &["text", "image"];
const TIF: &[&str] = &["text", "image", "file"];

/// Every model the sandbox knows, newest first within each kind.
pub const MODELS: &[ModelDef] = &[
    ModelDef {
        id: "anthropic/claude-sonnet-4.5",
        name: "Claude Sonnet 4.5",
        kind: "text",
        input: TIF,
        output: T,
        context: 200_000,
        created: 1_759_104_000,
        price_in: 3.0,
        price_out: 15.0,
    },
    ModelDef {
        id: "anthropic/claude-haiku-4.5",
        name: "Claude Haiku 4.5",
        kind: "text",
        input: TIF,
        output: T,
        context: 200_000,
        created: 1_760_486_400,
        price_in: 1.0,
        price_out: 5.0,
    },
    ModelDef {
        id: "openai/gpt-5",
        name: "GPT-5",
        kind: "text",
        input: TIF,
        output: T,
        context: 400_000,
        created: 1_754_524_800,
        price_in: 1.25,
        price_out: 10.0,
    },
    ModelDef {
        id: "openai/gpt-5-mini",
        name: "GPT-5 mini",
        kind: "text",
        input: TIF,
        output: T,
        context: 400_000,
        created: 1_754_524_801,
        price_in: 0.25,
        price_out: 2.0,
    },
    ModelDef {
        id: "google/gemini-2.5-pro",
        name: "Gemini 2.5 Pro",
        kind: "text",
        input: TIF,
        output: T,
        context: 1_048_576,
        created: 1_750_118_400,
        price_in: 1.25,
        price_out: 10.0,
    },
    ModelDef {
        id: "google/gemini-2.5-flash",
        name: "Gemini 2.5 Flash",
        kind: "text",
        input: TIF,
        output: T,
        context: 1_048_576,
        created: 1_750_118_401,
        price_in: 0.3,
        price_out: 2.5,
    },
    ModelDef {
        id: "meta/llama-4-maverick",
        name: "Llama 4 Maverick",
        kind: "text",
        input: TI,
        output: T,
        context: 1_048_576,
        created: 1_743_897_600,
        price_in: 0.15,
        price_out: 0.6,
    },
    ModelDef {
        id: "mistral/mistral-large",
        name: "Mistral Large",
        kind: "text",
        input: T,
        output: T,
        context: 131_072,
        created: 1_731_024_000,
        price_in: 2.0,
        price_out: 6.0,
    },
    ModelDef {
        id: "openai/gpt-image-1",
        name: "GPT Image 1",
        kind: "image",
        input: TI,
        output: &["image"],
        context: 0,
        created: 1_745_366_400,
        price_in: 0.04,
        price_out: 0.0,
    },
    ModelDef {
        id: "google/imagen-4",
        name: "Imagen 4",
        kind: "image",
        input: T,
        output: &["image"],
        context: 0,
        created: 1_747_785_600,
        price_in: 0.03,
        price_out: 0.0,
    },
    ModelDef {
        id: "black-forest-labs/flux-1.1-pro",
        name: "FLUX1.1 [pro]",
        kind: "image",
        input: T,
        output: &["image"],
        context: 0,
        created: 1_727_827_200,
        price_in: 0.04,
        price_out: 0.0,
    },
    ModelDef {
        id: "openai/sora-2",
        name: "Sora 2",
        kind: "video",
        input: TI,
        output: &["video"],
        context: 0,
        created: 1_759_363_200,
        price_in: 0.1,
        price_out: 0.0,
    },
    ModelDef {
        id: "google/veo-3",
        name: "Veo 3",
        kind: "video",
        input: TI,
        output: &["video"],
        context: 0,
        created: 1_747_785_601,
        price_in: 0.2,
        price_out: 0.0,
    },
    ModelDef {
        id: "openai/text-embedding-3-small",
        name: "Text Embedding 3 Small",
        kind: "embeddings",
        input: T,
        output: &["embeddings"],
        context: 8_191,
        created: 1_706_054_400,
        price_in: 0.02,
        price_out: 0.0,
    },
    ModelDef {
        id: "voyage/voyage-3.5",
        name: "Voyage 3.5",
        kind: "embeddings",
        input: T,
        output: &["embeddings"],
        context: 32_000,
        created: 1_747_699_200,
        price_in: 0.06,
        price_out: 0.0,
    },
    ModelDef {
        id: "openai/speech-audio-mini",
        name: "Speech (fast)",
        kind: "speech",
        input: T,
        output: &["audio"],
        context: 2_000,
        created: 1_742_169_600,
        price_in: 0.000_006,
        price_out: 0.0,
    },
    ModelDef {
        id: "openai/speech-audio",
        name: "Speech (high quality)",
        kind: "speech",
        input: T,
        output: &["audio"],
        context: 4_096,
        created: 1_742_169_601,
        price_in: 0.000_015,
        price_out: 0.0,
    },
    ModelDef {
        id: "google/lyria-3-clip-preview",
        name: "Lyria 3 clip (preview)",
        kind: "music",
        input: T,
        output: &["audio"],
        context: 0,
        created: 1_761_955_200,
        price_in: 0.04,
        price_out: 0.0,
    },
    ModelDef {
        id: "google/lyria-3-pro-preview",
        name: "Lyria 3 Pro (preview)",
        kind: "music",
        input: T,
        output: &["audio"],
        context: 0,
        created: 1_761_955_201,
        price_in: 0.12,
        price_out: 0.0,
    },
    ModelDef {
        id: "openai/gpt-4o-transcribe",
        name: "GPT-4o Transcribe",
        kind: "transcription",
        input: &["audio"],
        output: T,
        context: 0,
        created: 1_742_169_602,
        price_in: 0.006,
        price_out: 0.0,
    },
    ModelDef {
        id: "openai/gpt-4o-mini-transcribe",
        name: "GPT-4o mini Transcribe",
        kind: "transcription",
        input: &["audio"],
        output: T,
        context: 0,
        created: 1_742_169_603,
        price_in: 0.003,
        price_out: 0.0,
    },
];

/// When the sandbox catalog was last refreshed (Unix seconds).
const UPDATED_AT: i64 = 1_763_769_600;

/// The model with this id.
pub fn find_model(id: &str) -> Option<&'static ModelDef> {
    MODELS.iter().find(|m| m.id == id)
}

fn lab_of(id: &str) -> &str {
    id.split('/').next().unwrap_or(id)
}

fn lab_name(lab: &str) -> String {
    match lab {
        "openai" => "OpenAI".into(),
        "anthropic" => "Anthropic".into(),
        "google" => "Google".into(),
        "meta" => "Meta".into(),
        "mistral" => "Mistral AI".into(),
        "black-forest-labs" => "Black Forest Labs".into(),
        "voyage" => "Voyage AI".into(),
        other => util::capitalize(other),
    }
}

fn is_public(m: &ModelDef) -> bool {
    matches!(m.kind, "text" | "image" | "video" | "embeddings")
}

fn price(m: &ModelDef) -> ModelPrice {
    let mut extra = serde_json::Map::new();
    let (mut per_image, mut per_second) = (None, None);
    match m.kind {
        "text" => {
            extra.insert(
                "credits_per_mtok_input".into(),
                json!(util::round6(m.price_in * 10.0)),
            );
            extra.insert(
                "credits_per_mtok_output".into(),
                json!(util::round6(m.price_out * 10.0)),
            );
        }
        "embeddings" => {
            extra.insert(
                "credits_per_mtok_input".into(),
                json!(util::round6(m.price_in * 10.0)),
            );
        }
        "image" => per_image = Some(util::round6(m.price_in * 10.0)),
        "video" => per_second = Some(util::round6(m.price_in * 10.0)),
        "speech" => {
            extra.insert(
                "credits_per_1k_chars".into(),
                json!(util::round6(m.price_in * 10_000.0)),
            );
        }
        "music" => {
            extra.insert(
                "credits_per_clip".into(),
                json!(util::round6(m.price_in * 10.0)),
            );
        }
        _ => {
            extra.insert(
                "credits_per_minute".into(),
                json!(util::round6(m.price_in * 10.0)),
            );
        }
    }
    ModelPrice {
        credits_per_image: per_image,
        credits_per_second: per_second,
        extra,
    }
}

fn row(m: &ModelDef, priced: bool) -> CatalogModel {
    let model_type = match m.kind {
        "text" | "transcription" => ModelType::Text,
        "image" => ModelType::Image,
        "video" => ModelType::Video,
        "embeddings" => ModelType::Embeddings,
        _ => ModelType::Unknown("audio".into()),
    };
    CatalogModel {
        id: m.id.to_owned(),
        name: Some(m.name.to_owned()),
        lab: Some(lab_of(m.id).to_owned()),
        model_type: Some(model_type),
        input: m.input.iter().map(|s| (*s).to_owned()).collect(),
        output: m.output.iter().map(|s| (*s).to_owned()).collect(),
        context_length: Some(m.context),
        created: Some(m.created),
        svc: priced.then(|| price(m)),
    }
}

fn newest_first<'a>(filter: impl Fn(&ModelDef) -> bool) -> Vec<&'a ModelDef> {
    let mut v: Vec<&ModelDef> = MODELS.iter().filter(|m| filter(m)).collect();
    v.sort_by(|a, b| b.created.cmp(&a.created).then(a.id.cmp(b.id)));
    v
}

/// The public catalog body and its ETag.
fn public_body() -> (Vec<u8>, String) {
    let models = newest_first(is_public);
    let count = |k: &str| models.iter().filter(|m| m.kind == k).count() as u32;
    let mut labs: BTreeMap<&str, u32> = BTreeMap::new();
    for m in &models {
        *labs.entry(lab_of(m.id)).or_default() += 1;
    }
    let mut labs: Vec<CatalogLab> = labs
        .into_iter()
        .map(|(id, n)| CatalogLab {
            id: id.to_owned(),
            name: lab_name(id),
            models: n,
        })
        .collect();
    labs.sort_by(|a, b| b.models.cmp(&a.models).then(a.id.cmp(&b.id)));
    let body = PublicCatalog {
        object: "list".into(),
        updated_at: Some(Value::from(UPDATED_AT)),
        total: models.len() as u32,
        counts: CatalogCounts {
            text: count("text"),
            image: count("image"),
            video: count("video"),
            embeddings: count("embeddings"),
        },
        labs,
        data: models.iter().map(|m| row(m, false)).collect(),
    };
    let bytes = serde_json::to_vec(&body).unwrap_or_default();
    let etag = format!("\"{}\"", &util::sha256_hex(&bytes)[..32]);
    (bytes, etag)
}

pub fn routes() -> Router<App> {
    Router::new()
        .route("/v1/models/public", get(public))
        .route("/v1/models", get(authed))
        .route("/v1/images/models", get(image_models))
        .route("/v1/videos/models", get(video_models))
}

async fn public(headers: HeaderMap) -> Response {
    let (bytes, etag) = public_body();
    let matches = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"));
    let mut resp = if matches {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        ([(header::CONTENT_TYPE, "application/json")], bytes).into_response()
    };
    if let Ok(v) = HeaderValue::from_str(&etag) {
        resp.headers_mut().insert(header::ETAG, v);
    }
    resp.headers_mut().insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("public, max-age=60"),
    );
    resp
}

fn list(app: &App, headers: &HeaderMap, filter: impl Fn(&ModelDef) -> bool) -> Resp {
    let meter = begin(app, headers, Gate::Free, 0.0)?;
    let data = newest_first(filter)
        .into_iter()
        .map(|m| row(m, true))
        .collect();
    let body = ModelList {
        object: "list".into(),
        data,
    };
    Ok(meter.done(app, Json(body).into_response(), 0.0))
}

async fn authed(State(app): State<App>, headers: HeaderMap) -> Resp {
    list(&app, &headers, |_| true)
}

async fn image_models(State(app): State<App>, headers: HeaderMap) -> Resp {
    list(&app, &headers, |m| m.kind == "image")
}

async fn video_models(State(app): State<App>, headers: HeaderMap) -> Resp {
    list(&app, &headers, |m| m.kind == "video")
}
