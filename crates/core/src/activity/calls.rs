//! What a gateway call is as an activity entry (its kind, title and place, from its request) and
//! what its answer adds when it ends (its charge, the library item it made).

use specdesk_types::Transcription;

use crate::charged::{Charged, ChatReply};
use crate::library::MediaItem;
use crate::spend::GatewayCall;

use super::{ActivityKind, ActivityPlace, title_of};

/// A Speech and music model that makes music (the others speak).
pub fn is_music_model(model: &str) -> bool {
    model.contains("3-clip-preview") || model.contains("3-pro-preview")
}

fn studio(name: &str) -> ActivityPlace {
    ActivityPlace::Studio {
        studio: name.to_owned(),
        item: None,
    }
}

/// The kind, title and place of `call` as it starts.
pub fn call_entry(call: &GatewayCall<'_>) -> (ActivityKind, String, ActivityPlace) {
    match call {
        GatewayCall::Chat(request) => {
            let asked = request
                .messages
                .last()
                .map(|m| crate::studio::text_of(&m.content))
                .unwrap_or_default();
            (ActivityKind::Chat, title_of(&asked), studio("chat"))
        }
        GatewayCall::Images(request) => (
            ActivityKind::Image,
            title_of(&request.prompt),
            studio("images"),
        ),
        GatewayCall::Speech(request) if is_music_model(&request.model) => (
            ActivityKind::Music,
            title_of(&request.input),
            studio("speech"),
        ),
        GatewayCall::Speech(request) => (
            ActivityKind::Speech,
            title_of(&request.input),
            studio("speech"),
        ),
        GatewayCall::Transcription { model } => (
            ActivityKind::Transcription,
            format!("Transcription with {model}"),
            studio("transcribe"),
        ),
        GatewayCall::Rerank(request) => (
            ActivityKind::Rerank,
            title_of(&request.query),
            studio("rerank"),
        ),
        GatewayCall::Video(request) => (
            ActivityKind::Video,
            title_of(&request.prompt),
            studio("video"),
        ),
    }
}

/// What an answer adds to its entry: the credits charged and where the item it made is shown.
pub trait CallOutcome {
    fn credits(&self) -> Option<f64>;
    fn place(&self) -> Option<ActivityPlace> {
        None
    }
}

impl CallOutcome for ChatReply {
    fn credits(&self) -> Option<f64> {
        self.credits_charged
    }
    fn place(&self) -> Option<ActivityPlace> {
        Some(ActivityPlace::Conversation {
            id: self.conversation_id,
        })
    }
}

fn media_place(item: &MediaItem) -> ActivityPlace {
    let studio = if item.kind == crate::library::MediaKind::Image {
        "images"
    } else {
        "speech"
    };
    ActivityPlace::Studio {
        studio: studio.to_owned(),
        item: Some(item.id),
    }
}

impl CallOutcome for Charged<MediaItem> {
    fn credits(&self) -> Option<f64> {
        self.charge.as_ref().and_then(|c| c.credits_charged)
    }
    fn place(&self) -> Option<ActivityPlace> {
        Some(media_place(&self.value))
    }
}

impl CallOutcome for Charged<Vec<MediaItem>> {
    fn credits(&self) -> Option<f64> {
        self.charge.as_ref().and_then(|c| c.credits_charged)
    }
    fn place(&self) -> Option<ActivityPlace> {
        self.value.first().map(media_place)
    }
}

impl CallOutcome for Charged<Transcription> {
    fn credits(&self) -> Option<f64> {
        self.charge.as_ref().and_then(|c| c.credits_charged)
    }
}

impl CallOutcome for Charged<specdesk_types::RerankResult> {
    fn credits(&self) -> Option<f64> {
        self.charge.as_ref().and_then(|c| c.credits_charged)
    }
}
