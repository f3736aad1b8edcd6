//! Browser agents: following a batch already submitted, event by event, until it is finished;
//! its one feed shared by every watcher ([`feed`]), sent to the web view in frames ([`frames`]),
//! and kept on this computer once finished ([`timeline`]).

pub mod feed;
pub mod frames;
pub mod timeline;

#[cfg(test)]
mod tests;

use futures::StreamExt;
use specdesk_client::{BatchOptions, BatchUpdate, Client};
use specdesk_types::{Batch, BrowserTask};

use crate::events::BatchEvent;
use crate::ipc_error::{IpcError, IpcErrorKind};

/// A batch as it may leave Rust (the web view, a file): the input values its results echo and
/// the values its plans type into forms are blanked, their names kept, and every secret this app
/// holds is scrubbed from the rest (a page's data may show the email it was signed in with).
/// Browser-task values (credentials, form values) are secrets, like API keys.
pub fn without_values(mut batch: Batch) -> Batch {
    for result in &mut batch.results {
        for value in result.input.iter_mut().flat_map(|m| m.values_mut()) {
            value.clear();
        }
        for event in result.events.iter_mut().flatten() {
            blank_planned_values(event);
        }
        scrub(&mut result.url);
        result.data.iter_mut().for_each(scrub_json);
        result.error.iter_mut().for_each(scrub);
    }
    batch
}

/// A timeline event as it may leave Rust: see [`without_values`]. The finished batch of a `done`
/// also leaves its results' timelines behind: its watchers had every event already, one by one
/// (a polled batch carries all of them, screenshots and all, which the web view would only drop).
pub fn event_without_values(mut event: BatchEvent) -> BatchEvent {
    match &mut event {
        BatchEvent::TaskEvent { event } => blank_planned_values(event),
        BatchEvent::TaskResult { result } => result.data.iter_mut().for_each(scrub_json),
        // The client's and the service's words (a frame it could not read, a lost connection).
        BatchEvent::Polling { reason, .. } | BatchEvent::Reconnecting { reason } => scrub(reason),
        BatchEvent::Error { error } => scrub(&mut error.message),
        BatchEvent::Done { batch } => {
            let mut kept = without_values((**batch).clone());
            for result in &mut kept.results {
                result.events = None;
            }
            **batch = kept;
        }
        _ => {}
    }
    event
}

/// Blanks the values a plan types into forms, and scrubs every secret this app holds (input
/// values it sent, keys) from the words and data of a step, where a service may echo what was
/// typed (a query in a URL, an action's message, an error, the page's data).
fn blank_planned_values(event: &mut specdesk_types::TaskEvent) {
    use specdesk_types::TaskEventKind as K;
    match &mut event.kind {
        K::Plan(plan) => {
            for action in &mut plan.actions {
                if action.value.is_some() {
                    action.value = Some(String::new());
                }
                action.selector.iter_mut().for_each(scrub);
            }
            plan.notes.iter_mut().for_each(scrub);
        }
        K::Navigation(nav) => {
            scrub(&mut nav.url);
            nav.title.iter_mut().for_each(scrub);
        }
        K::Action(action) => {
            action.message.iter_mut().for_each(scrub);
            action.selector.iter_mut().for_each(scrub);
        }
        K::Screenshot(shot) => shot.url.iter_mut().for_each(scrub),
        K::Error(error) => error.error.iter_mut().for_each(scrub),
        K::Waiting(waiting) => scrub(&mut waiting.reason),
        K::Done(done) => done.data.iter_mut().for_each(scrub_json),
        // A kind this version does not know may carry anything: every string in it.
        K::Unknown { fields, .. } => fields.values_mut().for_each(scrub_json),
        K::Sandbox(_) | K::Validation(_) => {}
    }
}

/// Replaces every secret this app holds in `text` (the log redactor's list).
fn scrub(text: &mut String) {
    if let std::borrow::Cow::Owned(clean) = crate::logs::redactor().scrub(text) {
        *text = clean;
    }
}

/// Scrubs every string in `value`, however deep (object keys stay: they are the data's names).
fn scrub_json(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::String(s) => scrub(s),
        serde_json::Value::Array(items) => items.iter_mut().for_each(scrub_json),
        serde_json::Value::Object(map) => map.values_mut().for_each(scrub_json),
        _ => {}
    }
}

/// Every problem of a draft batch, as the submission would meet it (the output schema checked
/// with the same JSON Schema compiler the result is held to); nothing is sent.
pub fn task_problems(tasks: &[BrowserTask], concurrency: Option<u32>) -> Vec<IpcError> {
    let options = BatchOptions {
        concurrency,
        idempotency_key: None,
    };
    specdesk_client::task_problems(tasks, &options)
        .into_iter()
        .map(IpcError::from)
        .collect()
}

/// Where a task's data does not match its output schema.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct DataProblem {
    /// The place in the data, as a JSON Pointer (`/items/2/price`; `` for the whole data).
    pub path: String,
    /// What is wrong there, in the schema checker's words.
    pub message: String,
}

/// Every place where `data` does not match `schema`, with the same JSON Schema checker a
/// submission's schema is checked with. An invalid schema is an `invalidInput` error.
pub fn data_problems(
    schema: &serde_json::Value,
    data: &serde_json::Value,
) -> Result<Vec<DataProblem>, IpcError> {
    let validator = jsonschema::validator_for(schema).map_err(|e| {
        IpcError::invalid(
            "schema",
            format!("The task's output schema is not a valid JSON Schema ({e})."),
        )
    })?;
    Ok(validator
        .iter_errors(data)
        .map(|e| DataProblem {
            path: e.instance_path().as_str().to_owned(),
            message: e.to_string(),
        })
        .collect())
}

/// Follows batch `batch_id`, which no job of the runner follows (one run elsewhere, or before
/// this library), into `feed` until it ends: every update once, then `done` (its timeline kept
/// under `timelines_dir`) or the error. Every reader of the feed sees the same timeline, so one
/// follower serves every watcher of the batch (`JobRunner::follow_elsewhere`).
pub async fn follow_into(
    client: &Client,
    timelines_dir: &std::path::Path,
    batch_id: &str,
    feed: &std::sync::Arc<feed::Feed>,
) {
    let mut writer = feed.writer();
    let pace = crate::agents::feed::pace_of(feed);
    let mut updates = std::pin::pin!(client.agents().follow_batch_paced(batch_id, pace));
    while let Some(update) = updates.next().await {
        match update {
            Ok(BatchUpdate::Done(batch)) => {
                if let Err(e) = timeline::store(timelines_dir, &batch, &writer.events()) {
                    tracing::warn!("a batch timeline could not be kept: {}", e.message);
                }
                feed.end(BatchEvent::Done { batch });
                return;
            }
            Ok(update) => {
                if let Some(event) = BatchEvent::of(update) {
                    writer.publish(event);
                }
            }
            Err(e) => {
                feed.end(BatchEvent::Error {
                    error: IpcError::from(e),
                });
                return;
            }
        }
    }
    feed.end(BatchEvent::Error {
        error: IpcError::new(
            IpcErrorKind::Stream,
            "The batch's timeline ended before the batch finished. Open it again to see where it is.",
        ),
    });
}

/// Follows batch `batch_id` for one watcher, handing `send` its frames (see [`follow_into`]).
/// Returns the finished batch; its `done` (or the error) is left to the caller, which ends the
/// stream.
pub async fn watch_batch(
    client: &Client,
    timelines_dir: &std::path::Path,
    batch_id: &str,
    send: impl FnMut(Vec<BatchEvent>),
) -> Result<Batch, IpcError> {
    let feed = std::sync::Arc::new(feed::Feed::default());
    let follow = follow_into(client, timelines_dir, batch_id, &feed);
    let watch = frames::in_frames(feed.reader(), frames::FRAME, send);
    let (_, outcome) = tokio::join!(follow, watch);
    outcome
}

#[cfg(test)]
mod against_sandbox {
    use std::time::Duration;

    use specdesk_client::{BatchOptions, ClientConfig, RetryPolicy};
    use specdesk_sandbox::{Sandbox, SandboxConfig, SandboxHandle, keys};
    use specdesk_types::{BatchStatus, BrowserTask};

    use super::*;

    fn client(sb: &SandboxHandle) -> Client {
        let mut config = ClientConfig::new(sb.base_url())
            .unwrap()
            .with_api_key(keys::PRO.to_owned())
            .with_retry(RetryPolicy::none());
        config.poll_jitter = Duration::ZERO;
        config.job_poll_interval = Duration::from_millis(20);
        Client::new(config).unwrap()
    }

    fn task(sb: &SandboxHandle, instruction: &str) -> BrowserTask {
        serde_json::from_value(serde_json::json!({
            "url": format!("{}/_sandbox/health", sb.base_url()),
            "instruction": instruction,
        }))
        .unwrap()
    }

    #[tokio::test]
    async fn a_batch_is_followed_to_its_end_with_each_event_and_result_once() {
        let sb = Sandbox::start(SandboxConfig::ephemeral()).await.unwrap();
        let client = client(&sb);
        let prepared = client
            .agents()
            .prepare(
                vec![task(&sb, "Read the page"), task(&sb, "Read it again")],
                BatchOptions::default(),
            )
            .unwrap();
        let started = client.agents().start(&prepared).await.unwrap();

        let kept = tempfile::tempdir().unwrap();
        let mut seen = Vec::new();
        let mut frames = 0;
        let batch = watch_batch(&client, kept.path(), &started.id, |frame| {
            frames += 1;
            seen.extend(frame)
        })
        .await
        .unwrap();
        assert!(frames >= 1 && frames <= seen.len(), "{frames} frames");

        assert_eq!(batch.id, started.id);
        assert_eq!(batch.status, BatchStatus::Completed);
        assert_eq!((batch.total, batch.completed), (2, 2));
        let mut results: Vec<u32> = seen
            .iter()
            .filter_map(|e| match e {
                BatchEvent::TaskResult { result } => Some(result.task_index),
                _ => None,
            })
            .collect();
        results.sort();
        assert_eq!(results, [0, 1]);
        // Every event of the finished batch's timeline was handed over, in order, once.
        let full = client.agents().get(&batch.id, true).await.unwrap();
        let expected: Vec<_> = full
            .results
            .iter()
            .flat_map(|r| r.events.clone().unwrap_or_default())
            .collect();
        let events: Vec<_> = seen
            .iter()
            .filter_map(|e| match e {
                BatchEvent::TaskEvent { event } => Some(event.clone()),
                _ => None,
            })
            .collect();
        assert!(!expected.is_empty());
        assert_eq!(events, expected);
        assert!(
            !seen
                .iter()
                .any(|e| matches!(e, BatchEvent::Done { .. } | BatchEvent::Error { .. })),
            "the ending is the caller's: {seen:?}"
        );
        // Kept on this computer: the same timeline, then the batch (whose results no longer
        // carry the timeline: it is the entries).
        let mut kept_events = timeline::load(kept.path(), &batch.id).unwrap();
        let mut slim = batch.clone();
        slim.results.iter_mut().for_each(|r| r.events = None);
        assert_eq!(
            kept_events.pop(),
            Some(BatchEvent::Done {
                batch: Box::new(slim)
            })
        );
        assert_eq!(kept_events, seen);
    }

    #[tokio::test]
    async fn a_batch_that_is_not_there_is_an_error_and_no_event() {
        let sb = Sandbox::start(SandboxConfig::ephemeral()).await.unwrap();
        let client = client(&sb);
        let kept = tempfile::tempdir().unwrap();
        let mut seen = Vec::new();

        let bad = watch_batch(&client, kept.path(), "no such/batch", |e| seen.extend(e))
            .await
            .unwrap_err();
        assert_eq!(
            (bad.kind, bad.field.as_deref()),
            (IpcErrorKind::InvalidInput, Some("batchId"))
        );

        let missing = watch_batch(&client, kept.path(), "batch_0000000000", |e| seen.extend(e))
            .await
            .unwrap_err();
        assert_eq!(missing.kind, IpcErrorKind::NotFound);
        assert!(seen.is_empty(), "{seen:?}");
    }
}
