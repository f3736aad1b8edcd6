//! Browser agents: submit through the job ledger, watch a batch's timeline live, read, list.

use serde_json::Value;
use tauri::State;
use tauri::ipc::Channel;

use specdesk_client::BatchOptions;
use specdesk_core::agents::DataProblem;
use specdesk_core::agents::frames;
use specdesk_core::jobs::BatchWatch;
use specdesk_core::{BatchEvent, BatchRunMode, IpcError, Job, JobKind, RerunOf};
use specdesk_types::{Batch, BatchList, BatchStatus, BrowserTask, CapacitySnapshot};

use super::Result;
use crate::state::AppState;
use crate::streams::{Ending, send_event};

/// Every problem of a draft batch (one `invalidInput` error each, its field naming the place).
/// Off the window's thread: a thousand tasks with schemas take a while to check.
#[tauri::command]
pub async fn check_tasks(
    tasks: Vec<BrowserTask>,
    concurrency: Option<u32>,
) -> Result<Vec<IpcError>> {
    tauri::async_runtime::spawn_blocking(move || {
        specdesk_core::agents::task_problems(&tasks, concurrency)
    })
    .await
    .map_err(|e| IpcError::internal(e.to_string()))
}

/// Writes the batch (with its idempotency key) to the job ledger, then sends it as `mode` says
/// (live by default; see `JobRunner::start_batch`).
#[tauri::command]
pub async fn submit_batch(
    state: State<'_, AppState>,
    tasks: Vec<BrowserTask>,
    concurrency: Option<u32>,
    mode: Option<BatchRunMode>,
    rerun_of: Option<RerunOf>,
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
            mode.unwrap_or(BatchRunMode::Live),
            rerun_of,
        )
        .await
}

/// The batches of the connection in use not known to have reached the service, newest first.
#[tauri::command]
pub async fn unconfirmed_batches(state: State<'_, AppState>) -> Result<Vec<Job>> {
    let profile_id = state.profiles.settings()?.active_profile_id;
    state.library.unconfirmed_batches(&profile_id)
}

/// The user's choice for a batch not known to have reached the service (its key too old to send
/// again safely): `sendAgain` sends it as a new batch (the new job), else it stays unsent (the
/// old job, closed).
#[tauri::command]
pub async fn settle_unconfirmed_batch(
    state: State<'_, AppState>,
    job_id: i64,
    send_again: bool,
) -> Result<Job> {
    state.jobs.settle_unconfirmed(job_id, send_again).await
}

/// Streams a batch's timeline in frames (every event of the last ~16 ms in one message), each
/// event and result once, then `done` or `error`: from the job runner's follower of the batch,
/// else from its timeline kept on this computer, else by following it here. The batch is named
/// by `batch_id`, or by its `job_id` (a live batch has no id until the service names it).
#[tauri::command]
pub async fn watch_batch(
    state: State<'_, AppState>,
    stream_id: String,
    batch_id: Option<String>,
    job_id: Option<i64>,
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
        let watch = match (job_id, &batch_id) {
            (Some(job_id), _) => state.jobs.watch_job(job_id)?,
            (None, Some(batch_id)) => state.jobs.watch_batch(batch_id)?,
            (None, None) => {
                return Err(IpcError::invalid(
                    "batchId",
                    "Say which batch to watch: its id or its job.",
                ));
            }
        };
        match watch {
            BatchWatch::Live(reader) => frames::in_frames(reader, frames::FRAME, send).await,
            BatchWatch::Kept(events) => frames::replay(events, send),
            BatchWatch::Unfollowed(batch_id) => {
                let (_, client) = state.profiles.active_client().await?;
                let reader = state.jobs.follow_elsewhere(client, &batch_id);
                frames::in_frames(reader, frames::FRAME, send).await
            }
        }
    };
    state.streams.run(&stream_id, &on_event, ending, body).await
}

/// The job of the connection in use that ran batch `batch_id` (its request: the tasks' names,
/// schemas and what it re-runs), if Specdesk ran it.
#[tauri::command]
pub async fn batch_job(state: State<'_, AppState>, batch_id: String) -> Result<Option<Job>> {
    let profile_id = state.profiles.settings()?.active_profile_id;
    Ok(state
        .library
        .job_by_remote_id(JobKind::Batch, &batch_id)?
        .filter(|job| job.profile_id == profile_id))
}

/// Where a task's data does not match its output schema (JSON Pointer paths), by the same
/// checker a submission's schema is checked with.
#[tauri::command]
pub async fn check_task_data(schema: Value, data: Value) -> Result<Vec<DataProblem>> {
    tauri::async_runtime::spawn_blocking(move || {
        specdesk_core::agents::data_problems(&schema, &data)
    })
    .await
    .map_err(|e| IpcError::internal(e.to_string()))?
}

#[tauri::command]
pub async fn list_batches(
    state: State<'_, AppState>,
    limit: i64,
    skip: i64,
    status: Option<BatchStatus>,
) -> Result<BatchList> {
    let (_, client) = state.profiles.active_client().await?;
    let mut list = client
        .agents()
        .list(Some(limit), Some(skip), status)
        .await?;
    list.batches = list
        .batches
        .into_iter()
        .map(specdesk_core::agents::without_values)
        .collect();
    Ok(list)
}

#[tauri::command]
pub async fn get_batch(
    state: State<'_, AppState>,
    batch_id: String,
    include_events: bool,
) -> Result<Batch> {
    let (_, client) = state.profiles.active_client().await?;
    let batch = client.agents().get(&batch_id, include_events).await?;
    Ok(specdesk_core::agents::without_values(batch))
}

#[tauri::command]
pub async fn agent_capacity(state: State<'_, AppState>) -> Result<CapacitySnapshot> {
    let (_, client) = state.profiles.active_client().await?;
    Ok(client.agents().capacity().await?)
}

/// Keeps the batch builder's draft input values (by input id) in the keychain, so the draft
/// survives a restart with them; none given: the kept ones are deleted.
#[tauri::command]
pub async fn keep_draft_values(
    state: State<'_, AppState>,
    values: specdesk_core::task_inputs::DraftValues,
) -> Result<()> {
    state.profiles.keep_draft_values(&values).await
}

/// The batch builder's draft input values kept in the keychain, by input id.
#[tauri::command]
pub async fn draft_values(
    state: State<'_, AppState>,
) -> Result<specdesk_core::task_inputs::DraftValues> {
    state.profiles.draft_values().await
}
