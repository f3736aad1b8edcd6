//! The Messages stream and an accumulator that rebuilds the final message from its events.

use std::collections::BTreeMap;
use std::pin::Pin;
use std::task::{Context, Poll};

use futures::{Stream, StreamExt};
use specdesk_types::{ContentBlock, ContentDelta, MessagesResponse, MessagesStreamEvent};

use crate::error::{Error, Result};
use crate::http::SseStream;
use crate::metering::Metering;

/// The events of a streamed `POST /v1/messages`. Dropping it closes the connection (the service
/// still charges what the model generated).
pub struct MessagesStream {
    events: futures::stream::BoxStream<'static, Result<MessagesStreamEvent>>,
    metering: Metering,
}

impl MessagesStream {
    pub(crate) fn new(sse: SseStream, metering: Metering) -> Self {
        let events = sse
            .filter_map(|item| async move {
                match item {
                    Err(e) => Some(Err(e)),
                    Ok(ev) if ev.data.trim().is_empty() => None,
                    Ok(ev) => Some(
                        serde_json::from_str::<MessagesStreamEvent>(&ev.data).map_err(|e| {
                            Error::Stream {
                                message: format!(
                                    "The reply stream sent an event Specdesk could not read ({e})."
                                ),
                            }
                        }),
                    ),
                }
            })
            .boxed();
        MessagesStream { events, metering }
    }

    /// Metering headers of the response (a streamed call may carry only its request id: the
    /// charge settles when the stream ends).
    pub fn metering(&self) -> &Metering {
        &self.metering
    }

    /// Reads the whole stream and returns the final message.
    pub async fn collect_message(mut self) -> Result<MessagesResponse> {
        let mut acc = MessageAccumulator::default();
        while let Some(event) = self.next().await {
            acc.push(&event?)?;
        }
        acc.finish()
    }
}

impl Stream for MessagesStream {
    type Item = Result<MessagesStreamEvent>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        self.events.poll_next_unpin(cx)
    }
}

/// Builds the final message from stream events: text deltas appended, tool-use input JSON
/// assembled from its partial pieces, stop reason and usage merged.
#[derive(Debug, Default)]
pub struct MessageAccumulator {
    message: Option<MessagesResponse>,
    blocks: BTreeMap<u32, ContentBlock>,
    partial_json: BTreeMap<u32, String>,
    stopped: bool,
}

impl MessageAccumulator {
    /// Applies one event. A stream `error` event becomes an error.
    pub fn push(&mut self, event: &MessagesStreamEvent) -> Result<()> {
        match event {
            MessagesStreamEvent::MessageStart { message } => {
                let mut message = message.clone();
                for (i, block) in message.content.drain(..).enumerate() {
                    self.blocks.insert(i as u32, block);
                }
                self.message = Some(message);
            }
            MessagesStreamEvent::ContentBlockStart {
                index,
                content_block,
            } => {
                self.blocks.insert(*index, content_block.clone());
            }
            MessagesStreamEvent::ContentBlockDelta { index, delta } => {
                let block = self.blocks.entry(*index).or_insert_with(|| match delta {
                    ContentDelta::InputJsonDelta { .. } => ContentBlock::ToolUse {
                        id: String::new(),
                        name: String::new(),
                        input: serde_json::Value::Null,
                    },
                    _ => ContentBlock::Text {
                        text: String::new(),
                    },
                });
                match (block, delta) {
                    (ContentBlock::Text { text }, ContentDelta::TextDelta { text: more }) => {
                        text.push_str(more);
                    }
                    (
                        ContentBlock::ToolUse { .. },
                        ContentDelta::InputJsonDelta { partial_json },
                    ) => {
                        self.partial_json
                            .entry(*index)
                            .or_default()
                            .push_str(partial_json);
                    }
                    (
                        ContentBlock::Thinking { thinking, .. },
                        ContentDelta::ThinkingDelta { thinking: more },
                    ) => thinking.push_str(more),
                    (
                        ContentBlock::Thinking { signature, .. },
                        ContentDelta::SignatureDelta { signature: more },
                    ) => signature.get_or_insert_with(String::new).push_str(more),
                    _ => {}
                }
            }
            MessagesStreamEvent::ContentBlockStop { index } => self.close_block(*index)?,
            MessagesStreamEvent::MessageDelta { delta, usage } => {
                let message = self.message.get_or_insert_with(empty_message);
                if delta.stop_reason.is_some() {
                    message.stop_reason = delta.stop_reason.clone();
                }
                if delta.stop_sequence.is_some() {
                    message.stop_sequence = delta.stop_sequence.clone();
                }
                if let Some(u) = usage {
                    let m = &mut message.usage;
                    m.input_tokens = u.input_tokens.or(m.input_tokens);
                    m.output_tokens = u.output_tokens.or(m.output_tokens);
                    m.cache_creation_input_tokens = u
                        .cache_creation_input_tokens
                        .or(m.cache_creation_input_tokens);
                    m.cache_read_input_tokens =
                        u.cache_read_input_tokens.or(m.cache_read_input_tokens);
                    m.cost = u.cost.or(m.cost);
                }
            }
            MessagesStreamEvent::MessageStop => self.stopped = true,
            MessagesStreamEvent::Error { error } => {
                return Err(Error::Stream {
                    message: format!("The model stopped with an error: {}.", error.message),
                });
            }
            MessagesStreamEvent::Ping | MessagesStreamEvent::Unknown => {}
        }
        Ok(())
    }

    fn close_block(&mut self, index: u32) -> Result<()> {
        if let Some(json) = self.partial_json.remove(&index)
            && let Some(ContentBlock::ToolUse { input, .. }) = self.blocks.get_mut(&index)
        {
            *input = if json.trim().is_empty() {
                serde_json::json!({})
            } else {
                serde_json::from_str(&json).map_err(|e| Error::Stream {
                    message: format!("The model sent tool input that is not valid JSON ({e})."),
                })?
            };
        }
        Ok(())
    }

    /// Whether `message_stop` was seen.
    pub fn is_complete(&self) -> bool {
        self.stopped
    }

    /// The text so far (every text block, joined).
    pub fn text(&self) -> String {
        self.blocks
            .values()
            .filter_map(|b| match b {
                ContentBlock::Text { text } => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }

    /// The final message. Fails when the stream ended before `message_stop`.
    pub fn finish(mut self) -> Result<MessagesResponse> {
        if !self.stopped {
            return Err(Error::Stream {
                message: "The reply stopped before it was complete. Try again.".to_owned(),
            });
        }
        let open: Vec<u32> = self.partial_json.keys().copied().collect();
        for index in open {
            self.close_block(index)?;
        }
        let mut message = self.message.unwrap_or_else(empty_message);
        message.content = self.blocks.into_values().collect();
        Ok(message)
    }
}

fn empty_message() -> MessagesResponse {
    MessagesResponse {
        id: String::new(),
        object_type: "message".to_owned(),
        role: specdesk_types::MessageRole::Assistant,
        model: String::new(),
        content: Vec::new(),
        stop_reason: None,
        stop_sequence: None,
        usage: Default::default(),
    }
}
