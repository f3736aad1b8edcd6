//! The long jobs of the job ledger (specs, batches, videos) as entries of the activity list:
//! each running one, and the newest that ended. What a job is about comes from its request as
//! sent; its progress from what the job runner last wrote of it.

use crate::ipc_error::IpcError;
use crate::library::{Job, JobKind, JobStatus};

use super::{Activity, ActivityKind, ActivityPlace, ActivityState, StopBy, title_of};

/// How many ended jobs stay listed.
pub const ENDED_JOBS_KEPT: usize = 10;

/// The activity entries of `jobs` (the newest first, as the ledger lists them): every job not
/// ended, and the newest `ENDED_JOBS_KEPT` that did.
pub fn job_activities(jobs: &[Job]) -> Vec<Activity> {
    let mut ended = 0;
    jobs.iter()
        .filter(|j| {
            if !j.status.is_final() {
                return true;
            }
            ended += 1;
            ended <= ENDED_JOBS_KEPT
        })
        .map(job_activity)
        .collect()
}

/// One job as an activity entry.
pub fn job_activity(job: &Job) -> Activity {
    let (kind, title, place) = match job.kind {
        JobKind::Spec => (
            ActivityKind::Spec,
            text_at(&job.request, "input")
                .map_or_else(|| "A spec from a file".to_owned(), |t| title_of(&t)),
            ActivityPlace::Spec {
                spec_id: job.remote_id.clone(),
            },
        ),
        JobKind::Batch => {
            let tasks = job
                .request
                .get("tasks")
                .and_then(|t| t.as_array())
                .map_or(0, Vec::len);
            let what = if tasks == 1 { "task" } else { "tasks" };
            (
                ActivityKind::Batch,
                format!("Batch of {tasks} {what}"),
                ActivityPlace::Batch {
                    batch_id: job.remote_id.clone(),
                },
            )
        }
        JobKind::Video => (
            ActivityKind::Video,
            text_at(&job.request, "prompt").map_or_else(|| "A video".to_owned(), |t| title_of(&t)),
            ActivityPlace::Studio {
                studio: "video".to_owned(),
                item: None,
            },
        ),
    };
    let state = match job.status {
        JobStatus::Queued | JobStatus::Submitted | JobStatus::Running => ActivityState::Running,
        JobStatus::Completed => ActivityState::Done,
        JobStatus::Failed => ActivityState::Failed,
        JobStatus::Cancelled => ActivityState::Stopped,
    };
    let running = state == ActivityState::Running;
    Activity {
        id: format!("job-{}", job.id),
        kind,
        title,
        state,
        started_at: job.created_at.clone(),
        ended_at: (!running).then(|| job.updated_at.clone()),
        progress: job.progress.as_deref().and_then(tasks_finished),
        status_text: job.progress.clone().filter(|_| running),
        credits: credits_of(job),
        place,
        // Only what the service does not have yet can be stopped (it has no way to stop a job).
        stop: (running && job.remote_id.is_none()).then_some(StopBy::Job { job_id: job.id }),
        error: job
            .error
            .clone()
            .filter(|_: &IpcError| state == ActivityState::Failed),
    }
}

/// Credits charged so far, as the job's last reading says: a spec's `creditsUsed` (live while it
/// runs), a batch's `totalCreditsUsed`, a video's `credits` (charged when it is done).
fn credits_of(job: &Job) -> Option<f64> {
    let key = match job.kind {
        JobKind::Spec => "creditsUsed",
        JobKind::Batch => "totalCreditsUsed",
        JobKind::Video => "credits",
    };
    job.result.as_ref()?.get(key)?.as_f64()
}

fn text_at(request: &serde_json::Value, key: &str) -> Option<String> {
    request
        .get(key)
        .and_then(|v| v.as_str())
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_owned)
}

/// "3 of 10 tasks finished" (the batch runner's words) as (3, 10).
fn tasks_finished(text: &str) -> Option<(u32, u32)> {
    let (done, rest) = text.split_once(" of ")?;
    let total = rest.strip_suffix(" tasks finished")?;
    Some((done.trim().parse().ok()?, total.trim().parse().ok()?))
}
