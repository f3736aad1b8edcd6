//! Browser agents: submit through the job ledger, watch a batch's timeline live, read, list.

use tauri::State;
use tauri::ipc::Channel;

use specdesk_client::BatchOptions;
use specdesk_core::{BatchEvent, IpcError, Job};
use specdesk_types::{Batch, BatchList, BatchStatus, BrowserTask, CapacitySnapshot};

use super::Result;
use crate::state::AppState;
use crate::streams::{Ending, send_event};

/// Every problem of a draft batch (one `invalidInput` error each, its field naming the place).
#[tauri::command]
pub fn check_tasks(tasks: Vec<BrowserTask>, concurrency: Option<u32>) -> Vec<IpcError> {
    specdesk_core::agents::task_problems(&tasks, concurrency)
}

#[tauri::command]
pub async fn submit_batch(
    state: State<'_, AppState>,
    tasks: Vec<BrowserTask>,
    concurrency: Option<u32>,
) -> Result<Job> {
    let profile_id = state.profiles.settings()?.active_profile_id;
    state
        .jobs
        .start_batch(
            &profile_id,
            tasks,
            BatchOptions {
                concurrency,
                idempotency_key: None,
            },
        )
        .await
}

/// Streams batch `batch_id`'s timeline (each event and result once), then `done` or `error`.
#[tauri::command]
pub async fn watch_batch(
    state: State<'_, AppState>,
    stream_id: String,
    batch_id: String,
    on_event: Channel<BatchEvent>,
) -> Result<Batch> {
    let ending = Ending {
        done: |batch: &Batch| {
            Some(BatchEvent::Done {
                batch: Box::new(batch.clone()),
            })
        },
        error: |error| BatchEvent::Error { error },
        cancelled: "Stopped watching this batch. It goes on running.",
    };
    let body = async {
        let (_, client) = state.profiles.active_client().await?;
        specdesk_core::agents::watch_batch(&client, &batch_id, |e| send_event(&on_event, e)).await
    };
    state.streams.run(&stream_id, &on_event, ending, body).await
}

#[tauri::command]
pub async fn list_batches(
    state: State<'_, AppState>,
    limit: i64,
    skip: i64,
    status: Option<BatchStatus>,
) -> Result<BatchList> {
    let (_, client) = state.profiles.active_client().await?;
    Ok(client
        .agents()
        .list(Some(limit), Some(skip), status)
        .await?)
}

#[tauri::command]
pub async fn get_batch(
    state: State<'_, AppState>,
    batch_id: String,
    include_events: bool,
) -> Result<Batch> {
    let (_, client) = state.profiles.active_client().await?;
    Ok(client.agents().get(&batch_id, include_events).await?)
}

#[tauri::command]
pub async fn agent_capacity(state: State<'_, AppState>) -> Result<CapacitySnapshot> {
    let (_, client) = state.profiles.active_client().await?;
    Ok(client.agents().capacity().await?)
}
