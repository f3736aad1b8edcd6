//! Browser agents: submit through the job ledger, watch a batch's timeline live, read, list.

use tauri::State;
use tauri::ipc::Channel;

use specdesk_client::BatchOptions;
use specdesk_core::agents::frames;
use specdesk_core::jobs::BatchWatch;
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

/// Streams batch `batch_id`'s timeline in frames (every event of the last ~16 ms in one message),
/// each event and result once, then `done` or `error`: from the job runner's follower of the
/// batch, else from its timeline kept on this computer, else by following it here.
#[tauri::command]
pub async fn watch_batch(
    state: State<'_, AppState>,
    stream_id: String,
    batch_id: String,
    on_event: Channel<Vec<BatchEvent>>,
) -> Result<Batch> {
    let ending = Ending {
        done: |batch: &Batch| {
            Some(vec![BatchEvent::Done {
                batch: Box::new(batch.clone()),
            }])
        },
        error: |error| vec![BatchEvent::Error { error }],
        cancelled: "Stopped watching this batch. It goes on running.",
    };
    let send = |frame: Vec<BatchEvent>| send_event(&on_event, frame);
    let body = async {
        match state.jobs.watch_batch(&batch_id)? {
            BatchWatch::Live(reader) => frames::in_frames(reader, frames::FRAME, send).await,
            BatchWatch::Kept(events) => frames::replay(events, send),
            BatchWatch::Unfollowed => {
                let (_, client) = state.profiles.active_client().await?;
                let kept = state.jobs.timelines_dir();
                specdesk_core::agents::watch_batch(&client, &kept, &batch_id, send).await
            }
        }
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
