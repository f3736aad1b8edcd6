//! What the UI is told of a job ledger change (`job-changed`): the job without its request once
//! the UI has been told that request. A batch's request holds every task (tens of KB for 1000
//! tasks) and its progress changes several times a second, so sending it whole each time was most
//! of what crossed to the web view while a batch ran (issue 14: "never the whole job per change").
//! The UI keeps the request from the job's first broadcast (or from `list_jobs`) and reads the
//! list again when a change names a job it does not know.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use serde_json::Value;

use crate::library::Job;

/// Remembers, per job id, the request last sent to the UI (by a hash of its JSON text).
#[derive(Debug, Default)]
pub struct JobChanges {
    sent: HashMap<i64, u64>,
}

impl JobChanges {
    pub fn new() -> Self {
        Self::default()
    }

    /// The payload of `job-changed` for `job`: the job as JSON, without `request` when the same
    /// request was already sent for this job id.
    pub fn payload(&mut self, job: &Job) -> Value {
        let mut value = serde_json::to_value(job).unwrap_or(Value::Null);
        let hash = request_hash(&job.request);
        if self.sent.insert(job.id, hash) == Some(hash)
            && let Value::Object(fields) = &mut value
        {
            fields.remove("request");
        }
        value
    }
}

fn request_hash(request: &Value) -> u64 {
    let mut h = DefaultHasher::new();
    request.to_string().hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::{JobKind, JobStatus};
    use serde_json::json;

    fn job(id: i64, request: Value, progress: &str) -> Job {
        Job {
            id,
            kind: JobKind::Batch,
            profile_id: "sandbox".into(),
            idempotency_key: Some("k".into()),
            request,
            remote_id: Some("b001".into()),
            status: JobStatus::Running,
            progress: Some(progress.into()),
            result: None,
            error: None,
            created_at: "2026-11-25T10:00:00Z".into(),
            updated_at: "2026-11-25T10:00:01Z".into(),
        }
    }

    #[test]
    fn the_request_is_sent_once_per_job_and_again_when_it_changes() {
        let mut changes = JobChanges::new();
        let tasks =
            json!({ "tasks": [{ "url": "http://127.0.0.1:9/a", "instruction": "Read a" }] });
        let first = changes.payload(&job(7, tasks.clone(), "0 of 1 tasks finished"));
        assert_eq!(first["request"], tasks);
        assert_eq!(first["progress"], "0 of 1 tasks finished");

        let second = changes.payload(&job(7, tasks.clone(), "1 of 1 tasks finished"));
        assert!(second.get("request").is_none(), "{second}");
        assert_eq!(second["progress"], "1 of 1 tasks finished");
        assert_eq!(second["id"], 7);
        assert_eq!(second["remoteId"], "b001");

        // Another job's first change carries its own request.
        let other = changes.payload(&job(8, tasks.clone(), "queued"));
        assert_eq!(other["request"], tasks);

        // A changed request is sent again.
        let edited = json!({ "tasks": [] });
        assert_eq!(
            changes.payload(&job(7, edited.clone(), "queued"))["request"],
            edited
        );
        assert!(
            changes
                .payload(&job(7, edited, "queued"))
                .get("request")
                .is_none()
        );
    }
}
