//! The app's running work in one list (issue 24's activity center): every gateway call and chat
//! reply while it runs and a while after it ends ([`Board`], fed by the commands that make them),
//! and the long jobs (specs, batches, videos) from the job ledger ([`jobs`]). The UI reads the
//! list as a whole (`activity`) and is told when it changed; nothing in it comes from a screen.

pub mod calls;
pub mod jobs;

use std::collections::VecDeque;
use std::sync::{Mutex, MutexGuard};

use serde::Serialize;

use crate::ipc_error::IpcError;

/// What kind of work an entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub enum ActivityKind {
    Chat,
    Image,
    Speech,
    Music,
    Transcription,
    Rerank,
    Video,
    Spec,
    Batch,
}

/// Where an entry is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub enum ActivityState {
    Running,
    Done,
    Failed,
    Stopped,
}

/// Where an entry's item is shown (the UI makes its route of it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub enum ActivityPlace {
    /// A conversation of the Chat studio.
    #[serde(rename_all = "camelCase")]
    Conversation { id: i64 },
    /// A studio of the Gateway (`images`, `speech`, `transcribe`, `video`, `rerank`), with the
    /// library item made, once there is one.
    #[serde(rename_all = "camelCase")]
    Studio {
        studio: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        item: Option<i64>,
    },
    /// A spec, once the service named it (else the Specs area).
    #[serde(rename_all = "camelCase")]
    Spec {
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        spec_id: Option<String>,
    },
    /// A batch, once the service named it (else the Browser agents area).
    #[serde(rename_all = "camelCase")]
    Batch {
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(feature = "ts", ts(optional))]
        batch_id: Option<String>,
    },
}

/// How an entry is stopped, where it can be: a chat reply by its stream, a job the service does
/// not have yet by its job. Gateway calls and jobs the service has cannot be stopped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub enum StopBy {
    #[serde(rename_all = "camelCase")]
    Stream { stream_id: String },
    #[serde(rename_all = "camelCase")]
    Job { job_id: i64 },
}

/// One piece of work, running or recently ended.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct Activity {
    /// Unique in the list: `call-<n>` for a call, `job-<id>` for a job.
    pub id: String,
    pub kind: ActivityKind,
    /// What it is about, in the user's words (a prompt, a question, a spec's idea).
    pub title: String,
    pub state: ActivityState,
    /// When it started and ended (RFC 3339).
    pub started_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub ended_at: Option<String>,
    /// Done of total, where known (a batch's tasks).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub progress: Option<(u32, u32)>,
    /// What the service said of its progress, where it says (a spec's step).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub status_text: Option<String>,
    /// Credits charged so far, where known.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub credits: Option<f64>,
    pub place: ActivityPlace,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub stop: Option<StopBy>,
    /// Why it failed, with its action.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub error: Option<IpcError>,
}

/// How many ended calls stay listed.
pub const ENDED_KEPT: usize = 20;

/// The gateway calls and chat replies of this run: those running, then the newest that ended.
#[derive(Default)]
pub struct Board {
    inner: Mutex<Entries>,
}

#[derive(Default)]
struct Entries {
    next: u64,
    running: Vec<Activity>,
    ended: VecDeque<Activity>,
}

/// Now, as RFC 3339.
pub fn now() -> String {
    time::OffsetDateTime::now_utc()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}

impl Board {
    fn lock(&self) -> MutexGuard<'_, Entries> {
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Lists a call that starts now; its id (`call-<n>`, or `stream-<id>` for a stream, so what
    /// follows the stream can move it).
    pub fn start(
        &self,
        kind: ActivityKind,
        title: &str,
        place: ActivityPlace,
        stop: Option<StopBy>,
    ) -> String {
        let mut entries = self.lock();
        entries.next += 1;
        let id = match &stop {
            Some(StopBy::Stream { stream_id }) => stream_entry(stream_id),
            _ => format!("call-{}", entries.next),
        };
        entries.running.push(Activity {
            id: id.clone(),
            kind,
            title: title_of(title),
            state: ActivityState::Running,
            started_at: now(),
            ended_at: None,
            progress: None,
            status_text: None,
            credits: None,
            place,
            stop,
            error: None,
        });
        id
    }

    /// Moves running call `id` to where it is shown (a chat reply's conversation, once known).
    pub fn place(&self, id: &str, place: ActivityPlace) {
        if let Some(a) = self.lock().running.iter_mut().find(|a| a.id == id) {
            a.place = place;
        }
    }

    /// Ends call `id`: done (with its charge and, when it made one, where its item is), failed or
    /// stopped (a cancelled error).
    pub fn end(&self, id: &str, outcome: Result<(Option<f64>, Option<ActivityPlace>), &IpcError>) {
        let mut entries = self.lock();
        let Some(at) = entries.running.iter().position(|a| a.id == id) else {
            return;
        };
        let mut a = entries.running.remove(at);
        a.ended_at = Some(now());
        a.stop = None;
        match outcome {
            Ok((credits, place)) => {
                a.state = ActivityState::Done;
                a.credits = credits;
                if let Some(place) = place {
                    a.place = place;
                }
            }
            Err(e) if e.kind == crate::ipc_error::IpcErrorKind::Cancelled => {
                a.state = ActivityState::Stopped
            }
            Err(e) => {
                a.state = ActivityState::Failed;
                a.error = Some(e.clone());
            }
        }
        entries.ended.push_front(a);
        entries.ended.truncate(ENDED_KEPT);
    }

    /// The calls: running first (oldest first), then the ended (newest first).
    pub fn list(&self) -> Vec<Activity> {
        let entries = self.lock();
        entries
            .running
            .iter()
            .chain(entries.ended.iter())
            .cloned()
            .collect()
    }
}

/// The entry id of stream `stream_id`'s call.
pub fn stream_entry(stream_id: &str) -> String {
    format!("stream-{stream_id}")
}

/// The longest title kept.
const TITLE_MAX: usize = 120;

/// A title from the user's words: its first line, white space collapsed, cut at a word.
pub fn title_of(text: &str) -> String {
    let line = text.trim().lines().next().unwrap_or("");
    let words: Vec<&str> = line.split_whitespace().collect();
    let joined = words.join(" ");
    if joined.chars().count() <= TITLE_MAX {
        return joined;
    }
    let cut: String = joined.chars().take(TITLE_MAX - 1).collect();
    let kept = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head);
    format!("{kept}…")
}

/// The whole list: running first (calls, then jobs, each oldest first), then what ended, newest
/// first.
pub fn compose(calls: Vec<Activity>, jobs: Vec<Activity>) -> Vec<Activity> {
    let (mut running, mut ended): (Vec<Activity>, Vec<Activity>) = calls
        .into_iter()
        .chain(jobs)
        .partition(|a| a.state == ActivityState::Running);
    running.sort_by(|a, b| a.started_at.cmp(&b.started_at));
    ended.sort_by(|a, b| b.ended_at.cmp(&a.ended_at));
    running.extend(ended);
    running
}

#[cfg(test)]
mod tests;
