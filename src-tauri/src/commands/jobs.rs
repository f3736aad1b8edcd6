//! The job ledger: recent jobs, cancel, and one job's changes streamed until it ends.

use tauri::State;
use tauri::ipc::Channel;
use tokio::sync::broadcast::error::RecvError;

use specdesk_core::{IpcError, IpcErrorKind, Job, JobEvent, JobKind};

use super::Result;
use crate::state::AppState;
use crate::streams::{Ending, send_event};

#[tauri::command]
pub async fn list_jobs(
    state: State<'_, AppState>,
    kind: Option<JobKind>,
    limit: u32,
) -> Result<Vec<Job>> {
    // The jobs of the connection in use: another connection's ids mean nothing to this one.
    let profile_id = state.profiles.settings()?.active_profile_id;
    specdesk_core::ledger::recent_jobs(&state.library, &profile_id, kind, limit)
}

#[tauri::command]
pub async fn cancel_job(state: State<'_, AppState>, job_id: i64) -> Result<Job> {
    state.jobs.cancel(job_id).await
}

/// Streams job `job_id`'s changes: `update`s, then always `done` or `error`.
#[tauri::command]
pub async fn follow_job(
    state: State<'_, AppState>,
    stream_id: String,
    job_id: i64,
    on_event: Channel<JobEvent>,
) -> Result<Job> {
    let ending = Ending {
        done: |job: &Job| Some(JobEvent::Done { job: job.clone() }),
        error: |error| JobEvent::Error { error },
        cancelled: "Stopped following this job.",
    };
    state
        .streams
        .run(
            &stream_id,
            &on_event,
            ending,
            follow(&state, job_id, &on_event),
        )
        .await
}

async fn follow(state: &AppState, job_id: i64, on_event: &Channel<JobEvent>) -> Result<Job> {
    // Subscribe before reading the ledger, so no change falls between the two.
    let mut changes = state.jobs.subscribe();
    let job = state.library.job(job_id)?;
    if job.status.is_final() {
        return Ok(job);
    }
    // Make sure something follows it (after a restart, a held job).
    state.jobs.resume(job_id).await?;
    send_event(on_event, JobEvent::Update { job });
    loop {
        let job = match changes.recv().await {
            Ok(job) if job.id == job_id => job,
            Ok(_) => continue,
            // Missed changes: the ledger has the latest.
            Err(RecvError::Lagged(_)) => state.library.job(job_id)?,
            Err(RecvError::Closed) => {
                return Err(IpcError::new(
                    IpcErrorKind::Internal,
                    "Specdesk stopped following jobs. Restart the app to pick them up again.",
                ));
            }
        };
        if job.status.is_final() {
            return Ok(job);
        }
        send_event(on_event, JobEvent::Update { job });
    }
}
