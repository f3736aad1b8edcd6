//! Browser agents: following a batch already submitted, event by event, until it is finished.

use futures::StreamExt;
use specdesk_client::{BatchOptions, BatchUpdate, Client};
use specdesk_types::{Batch, BrowserTask};

use crate::events::BatchEvent;
use crate::ipc_error::{IpcError, IpcErrorKind};

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

/// Follows batch `batch_id` with `client` (its timeline so far, then each new event and result
/// once) and hands each one to `on_event`. Returns the finished batch; its `done` event is left
/// to the caller, which ends the stream.
pub async fn watch_batch(
    client: &Client,
    batch_id: &str,
    mut on_event: impl FnMut(BatchEvent),
) -> Result<Batch, IpcError> {
    let updates = client.agents().follow_batch(batch_id);
    let mut updates = std::pin::pin!(updates);
    loop {
        match updates.next().await {
            None => {
                return Err(IpcError::new(
                    IpcErrorKind::Stream,
                    "The batch's timeline ended before the batch finished. Open it again to see where it is.",
                ));
            }
            Some(Err(e)) => return Err(IpcError::from(e)),
            Some(Ok(BatchUpdate::Done(batch))) => return Ok(*batch),
            Some(Ok(update)) => on_event(BatchEvent::from(update)),
        }
    }
}

#[cfg(test)]
mod tests {
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

        let mut seen = Vec::new();
        let batch = watch_batch(&client, &started.id, |e| seen.push(e))
            .await
            .unwrap();

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
    }

    #[tokio::test]
    async fn a_batch_that_is_not_there_is_an_error_and_no_event() {
        let sb = Sandbox::start(SandboxConfig::ephemeral()).await.unwrap();
        let client = client(&sb);
        let mut seen = Vec::new();

        let bad = watch_batch(&client, "no such/batch", |e| seen.push(e))
            .await
            .unwrap_err();
        assert_eq!(
            (bad.kind, bad.field.as_deref()),
            (IpcErrorKind::InvalidInput, Some("batchId"))
        );

        let missing = watch_batch(&client, "batch_0000000000", |e| seen.push(e))
            .await
            .unwrap_err();
        assert_eq!(missing.kind, IpcErrorKind::NotFound);
        assert!(seen.is_empty(), "{seen:?}");
    }
}
