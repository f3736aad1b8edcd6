//! The activity list: the work running now and what ended lately, across the app, from one Rust
//! source (`core::activity`): this run's gateway calls and chat replies, and the job ledger's
//! specs, batches and videos of the connection in use. The UI reads it again on
//! `activity-changed` and `job-changed`.

use tauri::State;

use specdesk_core::activity::{Activity, compose, jobs::job_activities};

use super::Result;
use crate::state::AppState;

/// How many of the newest jobs are read for the list.
const JOBS_READ: u32 = 50;

#[tauri::command]
pub async fn activity(state: State<'_, AppState>) -> Result<Vec<Activity>> {
    let profile_id = state.profiles.settings()?.active_profile_id;
    let mut jobs =
        specdesk_core::ledger::recent_jobs(&state.library, &profile_id, None, JOBS_READ)?;
    // A job still running that is older than the newest read (a long batch under many specs) is
    // listed too: every running job is, however many came after it.
    let older: Vec<_> = state
        .library
        .unfinished_jobs()?
        .into_iter()
        .filter(|j| j.profile_id == profile_id && !jobs.iter().any(|k| k.id == j.id))
        .collect();
    jobs.extend(older.into_iter().rev());
    Ok(compose(state.activity.list(), job_activities(&jobs)))
}
