//! Events of the streams the app forwards to the UI, one Tauri `Channel` per stream (DESIGN.md,
//! "Streams"): deltas tagged by `type`, always ending with `done` or `error`.

use serde::{Deserialize, Serialize};
use specdesk_client::BatchUpdate;
use specdesk_types::{Batch, MessagesResponse, TaskEvent, TaskResultFrame};

use crate::ipc_error::IpcError;
use crate::library::Job;

/// A job's changes (spec progress, batch and video state), until it ends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub enum JobEvent {
    Update { job: Job },
    Done { job: Job },
    Error { error: IpcError },
}

/// A browser batch's timeline: each task event and result once, then the batch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub enum BatchEvent {
    TaskEvent {
        event: TaskEvent,
    },
    TaskResult {
        result: TaskResultFrame,
    },
    /// The live connection ended; the batch is now read by polling (nothing is lost or repeated).
    #[serde(rename_all = "camelCase")]
    Polling {
        batch_id: String,
        reason: String,
    },
    /// Back on the live connection after polling (nothing it replays is sent again).
    #[serde(rename_all = "camelCase")]
    Live {
        batch_id: String,
    },
    /// The follower lost the service (a network or server failure) and follows the batch again
    /// by itself after a wait; nothing is lost or repeated.
    Reconnecting {
        reason: String,
    },
    Done {
        batch: Box<Batch>,
    },
    Error {
        error: IpcError,
    },
}

impl BatchEvent {
    /// What a watcher is told of `update`; `None` for a status read without the timelines
    /// (`Progress`), which only moves the job's progress on.
    pub fn of(update: BatchUpdate) -> Option<Self> {
        Some(match update {
            BatchUpdate::Event(event) => BatchEvent::TaskEvent { event },
            BatchUpdate::Result(result) => BatchEvent::TaskResult { result },
            BatchUpdate::Polling { batch_id, reason } => BatchEvent::Polling { batch_id, reason },
            BatchUpdate::Live { batch_id } => BatchEvent::Live { batch_id },
            BatchUpdate::Done(batch) => BatchEvent::Done { batch },
            BatchUpdate::Progress { .. } => return None,
        })
    }
}

/// A streamed chat turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub enum ChatEvent {
    /// The conversation the turn is kept in.
    #[serde(rename_all = "camelCase")]
    Start {
        conversation_id: i64,
    },
    /// Text appended to content block `index`. The reply's text so far (every text delta of the
    /// stream, in order) as safe HTML, rendered in Rust when the delta leaves for the web view
    /// (`core::chat_render`), so the UI shows it without a round trip of its own: that HTML is
    /// the previous text event's up to `htmlFrom` (UTF-16 code units, as JavaScript counts;
    /// absent: 0) followed by `html`. Only what changed travels, however long the reply.
    #[serde(rename_all = "camelCase")]
    Text {
        index: u32,
        text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        html: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        html_from: Option<u32>,
    },
    #[serde(rename_all = "camelCase")]
    Done {
        message: MessagesResponse,
        conversation_id: i64,
        /// The service's request id of the reply, when its headers gave one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        request_id: Option<String>,
        /// The balance after the reply, as the service's headers gave it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        balance_after: Option<f64>,
        /// The credits the reply cost (its final usage, else its headers), as the ledger keeps.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        credits_charged: Option<f64>,
    },
    Error {
        error: IpcError,
    },
}
