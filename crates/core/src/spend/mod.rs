//! What a gateway call will likely cost, worked out before it is sent from the prices of the
//! service's priced model lists (in credits), so the daily spend cap can refuse a call that would
//! take today's spending past it rather than only stop calls once the cap is reached.
//!
//! Prices are the `svc` object of a row of `GET /v1/images/models` (`credits_per_image`, named by
//! the contract), `GET /v1/videos/models` (`credits_per_second`) and `GET /v1/models` (the
//! other keys, which the contract does not name: `credits_per_mtok_input` and
//! `credits_per_mtok_output` for chat, `credits_per_1k_chars` for speech, `credits_per_clip`
//! for music, as the UI reads them too). A call whose model or price is not listed is estimated
//! at 0 credits: nothing is known of its cost before it runs, so only a cap already reached stops
//! it.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use specdesk_client::Client;
use specdesk_types::{
    ContentBlock, ImageRequest, MessageContent, MessagesRequest, ModelList, ModelPrice,
    RerankRequest, SpeechRequest, SystemPrompt, VideoRequest,
};

use crate::ipc_error::IpcError;
use crate::library::Library;

mod under_way;
pub use under_way::{Counted, UnderWay, check_call};

/// How long a list of prices read from the service is used before it is read again.
const FRESH_FOR: Duration = Duration::from_secs(15 * 60);

/// A gateway call about to be sent, with what its cost depends on.
#[derive(Debug, Clone, Copy)]
pub enum GatewayCall<'a> {
    Rerank(&'a RerankRequest),
    Speech(&'a SpeechRequest),
    /// The recording's length is not read before sending, so its cost is not known (0).
    Transcription {
        model: &'a str,
    },
    Chat(&'a MessagesRequest),
    Images(&'a ImageRequest),
    Video(&'a VideoRequest),
}

/// Which priced list a model's price is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PriceList {
    /// `GET /v1/models`: every model.
    Models,
    /// `GET /v1/images/models`.
    Images,
    /// `GET /v1/videos/models`.
    Videos,
}

impl GatewayCall<'_> {
    /// The model called and the list its price is on; `None` when no list prices it.
    fn priced_on(&self) -> Option<(&str, PriceList)> {
        match self {
            // Rerank models are absent from the catalogs (the contract says so).
            Self::Rerank(_) => None,
            // Billed by the minute of audio, and the length is not known before sending.
            Self::Transcription { .. } => None,
            Self::Speech(r) => Some((&r.model, PriceList::Models)),
            Self::Chat(r) => Some((&r.model, PriceList::Models)),
            Self::Images(r) => Some((&r.model, PriceList::Images)),
            Self::Video(r) => Some((&r.model, PriceList::Videos)),
        }
    }

    /// This call's estimated cost in credits at `price` (the `svc` of its model's row), 0 when
    /// the price is not known. Chat is estimated high on purpose: every token `max_tokens` allows
    /// at the output price, plus the input at about four characters a token.
    pub fn estimate(&self, price: Option<&ModelPrice>) -> f64 {
        let Some(price) = price else { return 0.0 };
        let credits = match self {
            Self::Rerank(_) | Self::Transcription { .. } => 0.0,
            Self::Images(r) => {
                // The service makes one image when `n` is not given.
                let n = r.n.unwrap_or(1).max(1);
                of(price.credits_per_image) * f64::from(n)
            }
            Self::Video(r) => {
                // Without `seconds` the length is the service's default, which the contract does
                // not give: one second is counted, the least a video can be.
                let seconds = r
                    .seconds
                    .as_deref()
                    .and_then(|s| s.trim().parse::<f64>().ok())
                    .filter(|s| s.is_finite() && *s >= 1.0)
                    .unwrap_or(1.0);
                of(price.credits_per_second) * seconds
            }
            Self::Speech(r) => match named(price, "credits_per_clip") {
                Some(per_clip) => per_clip,
                None => {
                    of(named(price, "credits_per_1k_chars")) * r.input.chars().count() as f64
                        / 1000.0
                }
            },
            Self::Chat(r) => {
                let input_tokens = input_chars(r).div_ceil(4) as f64;
                let output_tokens = f64::from(r.max_tokens);
                (of(named(price, "credits_per_mtok_input")) * input_tokens
                    + of(named(price, "credits_per_mtok_output")) * output_tokens)
                    / 1_000_000.0
            }
        };
        if credits.is_finite() { credits } else { 0.0 }
    }
}

/// A price, 0 when it is not listed.
fn of(price: Option<f64>) -> f64 {
    price.unwrap_or(0.0)
}

/// A price key the bindings do not name, when it is a number of credits.
fn named(price: &ModelPrice, key: &str) -> Option<f64> {
    price
        .extra
        .get(key)
        .and_then(serde_json::Value::as_f64)
        .filter(|v| v.is_finite() && *v >= 0.0)
}

/// Characters of what a chat request sends: the system prompt, the messages' text, tool calls
/// and results, and the tools' definitions. An image's tokens depend on its size, which is not
/// read here, so images count for nothing.
fn input_chars(r: &MessagesRequest) -> usize {
    let blocks = |blocks: &[ContentBlock]| -> usize {
        blocks
            .iter()
            .map(|b| match b {
                ContentBlock::Text { text } => text.chars().count(),
                ContentBlock::Thinking { thinking, .. } => thinking.chars().count(),
                ContentBlock::ToolUse { name, input, .. } => {
                    name.chars().count() + input.to_string().chars().count()
                }
                ContentBlock::ToolResult { content, .. } => content
                    .as_ref()
                    .map_or(0, |c| c.to_string().chars().count()),
                ContentBlock::Image { .. } | ContentBlock::Unknown => 0,
            })
            .sum()
    };
    let system = match &r.system {
        Some(SystemPrompt::Text(t)) => t.chars().count(),
        Some(SystemPrompt::Blocks(b)) => blocks(b),
        None => 0,
    };
    let messages: usize = r
        .messages
        .iter()
        .map(|m| match &m.content {
            MessageContent::Text(t) => t.chars().count(),
            MessageContent::Blocks(b) => blocks(b),
        })
        .sum();
    let tools: usize = r
        .tools
        .iter()
        .flatten()
        .map(|t| {
            t.name.chars().count()
                + t.description.as_deref().map_or(0, |d| d.chars().count())
                + t.input_schema.to_string().chars().count()
        })
        .sum();
    system + messages + tools
}

/// One list's prices as last read, by model id.
struct Sheet {
    read: Instant,
    prices: HashMap<String, ModelPrice>,
}

/// The prices of each connection's priced lists, kept from the lists the app reads (the model
/// pickers read them) and read again when older than 15 minutes. Reading a list is free and not
/// rate-limited (the contract says so), and never costs credits.
#[derive(Default)]
pub struct Prices {
    /// By connection, the address its lists came from (a connection may be moved) and list.
    sheets: Mutex<HashMap<(String, String, PriceList), Sheet>>,
}

impl Prices {
    /// Keeps the prices of `models`, list `list` of connection `profile_id` read with `client`.
    pub fn remember(&self, profile_id: &str, client: &Client, list: PriceList, models: &ModelList) {
        self.keep(profile_id, client, list, models, Instant::now());
    }

    /// Keeps the prices of a copy of `models` kept from before (the service could not be
    /// reached): used for estimates, and read again at the next estimate.
    pub fn remember_stale(
        &self,
        profile_id: &str,
        client: &Client,
        list: PriceList,
        models: &ModelList,
    ) {
        let now = Instant::now();
        let read = now.checked_sub(FRESH_FOR).unwrap_or(now);
        self.keep(profile_id, client, list, models, read);
    }

    fn keep(
        &self,
        profile_id: &str,
        client: &Client,
        list: PriceList,
        models: &ModelList,
        read: Instant,
    ) {
        let prices = models
            .data
            .iter()
            .filter_map(|m| Some((m.id.clone(), m.svc.clone()?)))
            .collect();
        let sheet = Sheet { read, prices };
        self.lock().insert(key(profile_id, client, list), sheet);
    }

    /// Reads list `list` of connection `profile_id` with `client` through the library's copy
    /// (`catalogs::model_list`: kept there, and shown from there offline), keeping its prices.
    pub async fn read(
        &self,
        library: &Library,
        profile_id: &str,
        client: &Client,
        list: PriceList,
    ) -> Result<ModelList, IpcError> {
        Ok(
            crate::catalogs::model_list(library, self, profile_id, client, list)
                .await?
                .list,
        )
    }

    /// What `call` of connection `profile_id` will likely cost, in credits (0 when its price is
    /// not known). The list of its model's price is read when it is not kept or is old; when it
    /// cannot be read, a list kept from before (here or in `library`) is used, else the estimate
    /// is 0.
    pub async fn estimate(
        &self,
        library: &Library,
        profile_id: &str,
        client: &Client,
        call: &GatewayCall<'_>,
    ) -> f64 {
        self.refresh_for(library, profile_id, client, call).await;
        self.kept_estimate(profile_id, client, call)
    }

    /// Reads the list of `call`'s model's price again when it is not kept or is old (a list that
    /// cannot be read leaves what was kept).
    async fn refresh_for(
        &self,
        library: &Library,
        profile_id: &str,
        client: &Client,
        call: &GatewayCall<'_>,
    ) {
        let Some((_, list)) = call.priced_on() else {
            return;
        };
        let fresh = self
            .lock()
            .get(&key(profile_id, client, list))
            .is_some_and(|s| s.read.elapsed() < FRESH_FOR);
        if !fresh && let Err(e) = self.read(library, profile_id, client, list).await {
            tracing::warn!(
                connection = profile_id,
                "prices could not be read, so a call's estimate may be 0: {}",
                e.message
            );
        }
    }

    /// What `call` will likely cost at the prices kept now (nothing is read): 0 when its price is
    /// not kept.
    fn kept_estimate(&self, profile_id: &str, client: &Client, call: &GatewayCall<'_>) -> f64 {
        let Some((model, list)) = call.priced_on() else {
            return 0.0;
        };
        let price = self
            .lock()
            .get(&key(profile_id, client, list))
            .and_then(|s| s.prices.get(model).cloned());
        call.estimate(price.as_ref())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(String, String, PriceList), Sheet>> {
        self.sheets.lock().unwrap_or_else(|p| p.into_inner())
    }
}

fn key(profile_id: &str, client: &Client, list: PriceList) -> (String, String, PriceList) {
    (
        profile_id.to_owned(),
        client.config().base_url().to_string(),
        list,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn price(v: serde_json::Value) -> ModelPrice {
        serde_json::from_value(v).unwrap()
    }

    fn request<T: serde::de::DeserializeOwned>(v: serde_json::Value) -> T {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn images_and_videos_cost_their_count_and_length_at_the_listed_price() {
        let per_image = price(json!({"credits_per_image": 0.4}));
        let three: ImageRequest = request(json!({"model": "m", "prompt": "p", "n": 3}));
        assert!((GatewayCall::Images(&three).estimate(Some(&per_image)) - 1.2).abs() < 1e-9);
        let one: ImageRequest = request(json!({"model": "m", "prompt": "p"}));
        assert_eq!(GatewayCall::Images(&one).estimate(Some(&per_image)), 0.4);

        let per_second = price(json!({"credits_per_second": 1.5}));
        let four: VideoRequest = request(json!({"model": "m", "prompt": "p", "seconds": "4"}));
        assert_eq!(GatewayCall::Video(&four).estimate(Some(&per_second)), 6.0);
        let unsaid: VideoRequest = request(json!({"model": "m", "prompt": "p"}));
        assert_eq!(GatewayCall::Video(&unsaid).estimate(Some(&per_second)), 1.5);
        // A video model's row does not price images.
        assert_eq!(GatewayCall::Images(&one).estimate(Some(&per_second)), 0.0);
    }

    #[test]
    fn chat_counts_every_allowed_output_token_and_the_input_at_four_characters_a_token() {
        let p = price(json!({"credits_per_mtok_input": 10.0, "credits_per_mtok_output": 50.0}));
        let chat: MessagesRequest = request(json!({
            "model": "m",
            "max_tokens": 1000,
            "system": "Be brief.",
            "messages": [
                {"role": "user", "content": "Name three pasta shapes"},
                {"role": "assistant", "content": [{"type": "text", "text": "Penne."}]}
            ]
        }));
        // 9 + 23 + 6 = 38 characters: 10 tokens.
        let want = (10.0 * 10.0 + 1000.0 * 50.0) / 1e6;
        assert!((GatewayCall::Chat(&chat).estimate(Some(&p)) - want).abs() < 1e-12);
    }

    #[test]
    fn speech_is_by_character_and_music_by_clip() {
        let speech: SpeechRequest = request(json!({"model": "m", "input": "a".repeat(2000)}));
        let per_k = price(json!({"credits_per_1k_chars": 0.15}));
        assert!((GatewayCall::Speech(&speech).estimate(Some(&per_k)) - 0.3).abs() < 1e-12);
        let per_clip = price(json!({"credits_per_clip": 0.4}));
        assert_eq!(GatewayCall::Speech(&speech).estimate(Some(&per_clip)), 0.4);
    }

    #[test]
    fn a_call_of_unknown_price_is_estimated_at_nothing() {
        let p = price(json!({"credits_per_image": 0.4, "credits_per_minute": 0.06}));
        let images: ImageRequest = request(json!({"model": "m", "prompt": "p", "n": 2}));
        assert_eq!(GatewayCall::Images(&images).estimate(None), 0.0);
        let rerank: RerankRequest =
            request(json!({"model": "m", "query": "q", "documents": ["d"]}));
        assert_eq!(GatewayCall::Rerank(&rerank).estimate(Some(&p)), 0.0);
        assert_eq!(
            GatewayCall::Transcription { model: "m" }.estimate(Some(&p)),
            0.0
        );
        let odd = price(json!({"credits_per_mtok_output": "lots"}));
        let chat: MessagesRequest =
            request(json!({"model": "m", "max_tokens": 10, "messages": []}));
        assert_eq!(GatewayCall::Chat(&chat).estimate(Some(&odd)), 0.0);
    }
}
