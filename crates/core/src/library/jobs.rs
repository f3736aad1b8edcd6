//! The job ledger: a job is written before its request is sent, then follows the service
//! (remote id, status, progress, result or error) until it is finished.

use rusqlite::{OptionalExtension, params};
use serde::{Deserialize, Serialize};

use super::{Library, now};
use crate::ipc_error::IpcError;

/// What a job is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub enum JobKind {
    Spec,
    Batch,
    Video,
}

/// Where a job is. `queued`: written, not sent yet (or its answer was lost); `submitted`: the
/// service has it; `running`: progress seen; then `completed`, `failed` or `cancelled`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub enum JobStatus {
    Queued,
    Submitted,
    Running,
    Completed,
    Failed,
    Cancelled,
}

impl JobStatus {
    fn as_str(self) -> &'static str {
        match self {
            JobStatus::Queued => "queued",
            JobStatus::Submitted => "submitted",
            JobStatus::Running => "running",
            JobStatus::Completed => "completed",
            JobStatus::Failed => "failed",
            JobStatus::Cancelled => "cancelled",
        }
    }

    fn parse(s: &str) -> Self {
        match s {
            "submitted" => JobStatus::Submitted,
            "running" => JobStatus::Running,
            "completed" => JobStatus::Completed,
            "failed" => JobStatus::Failed,
            "cancelled" => JobStatus::Cancelled,
            _ => JobStatus::Queued,
        }
    }

    /// Nothing more will happen to it.
    pub fn is_final(self) -> bool {
        matches!(
            self,
            JobStatus::Completed | JobStatus::Failed | JobStatus::Cancelled
        )
    }
}

impl JobKind {
    fn as_str(self) -> &'static str {
        match self {
            JobKind::Spec => "spec",
            JobKind::Batch => "batch",
            JobKind::Video => "video",
        }
    }

    fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "spec" => JobKind::Spec,
            "batch" => JobKind::Batch,
            "video" => JobKind::Video,
            _ => return None,
        })
    }
}

/// A job of the ledger.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct Job {
    pub id: i64,
    pub kind: JobKind,
    pub profile_id: String,
    pub idempotency_key: Option<String>,
    /// The request as sent (JSON), so an unsent job can be sent again.
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub request: serde_json::Value,
    pub remote_id: Option<String>,
    pub status: JobStatus,
    pub progress: Option<String>,
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub result: Option<serde_json::Value>,
    /// Why the job failed or is held, with its kind and action, as the command that met it
    /// reported it (so "Top up" or "Unlock your keychain" is still offered after a restart).
    pub error: Option<IpcError>,
    pub created_at: String,
    pub updated_at: String,
}

/// A job's error as the ledger keeps it: the whole `IpcError` as JSON.
fn stored_error(e: &IpcError) -> String {
    serde_json::to_string(e).unwrap_or_else(|_| e.message.clone())
}

/// A job's error read back. Ledgers written before errors were kept whole hold the message
/// only: it comes back as a failure with that message.
fn read_error(text: &str) -> IpcError {
    serde_json::from_str(text).unwrap_or_else(|_| IpcError::failed(text))
}

impl Library {
    /// Writes a job before its request is sent. Returns it with its local id.
    pub fn insert_job(
        &self,
        kind: JobKind,
        profile_id: &str,
        idempotency_key: Option<&str>,
        request: &serde_json::Value,
    ) -> Result<Job, IpcError> {
        let at = now();
        let id = {
            let conn = self.conn();
            conn.execute(
                "INSERT INTO jobs (kind, profile_id, idempotency_key, request_json, status, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, 'queued', ?5, ?5)",
                params![kind.as_str(), profile_id, idempotency_key, request.to_string(), at],
            )?;
            conn.last_insert_rowid()
        };
        self.job(id)
    }

    /// Records the service's id the moment it arrives.
    pub fn set_remote_id(&self, id: i64, remote_id: &str) -> Result<(), IpcError> {
        let n = self.conn().execute(
            "UPDATE jobs SET remote_id = ?2, status = CASE WHEN status = 'queued' THEN 'submitted' ELSE status END, updated_at = ?3 WHERE id = ?1",
            params![id, remote_id, now()],
        )?;
        if n == 0 {
            return Err(IpcError::not_found("That job is no longer in the library."));
        }
        Ok(())
    }

    /// Updates a job's status, progress text, result and error. A finished job (completed,
    /// failed or cancelled) is never changed again: returns false then (a follower that was
    /// stopping cannot undo a cancel).
    pub fn update_job(
        &self,
        id: i64,
        status: JobStatus,
        progress: Option<&str>,
        result: Option<&serde_json::Value>,
        error: Option<&IpcError>,
    ) -> Result<bool, IpcError> {
        let conn = self.conn();
        let n = conn.execute(
            "UPDATE jobs SET status = ?2, progress = COALESCE(?3, progress),
                 result_json = COALESCE(?4, result_json), error = ?5, updated_at = ?6
             WHERE id = ?1 AND status NOT IN ('completed', 'failed', 'cancelled')",
            params![
                id,
                status.as_str(),
                progress,
                result.map(|r| r.to_string()),
                error.map(stored_error),
                now()
            ],
        )?;
        if n == 0 {
            let exists = conn
                .query_row("SELECT 1 FROM jobs WHERE id = ?1", [id], |_| Ok(()))
                .optional()?
                .is_some();
            if !exists {
                return Err(IpcError::not_found("That job is no longer in the library."));
            }
            return Ok(false);
        }
        Ok(true)
    }

    fn row_to_job(r: &rusqlite::Row<'_>) -> rusqlite::Result<Job> {
        let kind: String = r.get("kind")?;
        let status: String = r.get("status")?;
        let request: String = r.get("request_json")?;
        let result: Option<String> = r.get("result_json")?;
        Ok(Job {
            id: r.get("id")?,
            kind: JobKind::parse(&kind).unwrap_or(JobKind::Spec),
            profile_id: r.get("profile_id")?,
            idempotency_key: r.get("idempotency_key")?,
            request: serde_json::from_str(&request).unwrap_or(serde_json::Value::Null),
            remote_id: r.get("remote_id")?,
            status: JobStatus::parse(&status),
            progress: r.get("progress")?,
            result: result.and_then(|s| serde_json::from_str(&s).ok()),
            error: r.get::<_, Option<String>>("error")?.map(|e| read_error(&e)),
            created_at: r.get("created_at")?,
            updated_at: r.get("updated_at")?,
        })
    }

    /// Claims a batch not known to have reached the service (failed, never named, its error's
    /// kind `unconfirmed`) for the user's choice: closed (cancelled) with `progress`, at once, so
    /// a second Send again finds nothing to claim. False when it is no such job (any more).
    pub fn claim_unconfirmed(&self, id: i64, progress: &str) -> Result<bool, IpcError> {
        let n = self.conn().execute(
            "UPDATE jobs SET status = 'cancelled', progress = ?2, error = NULL, updated_at = ?3
             WHERE id = ?1 AND kind = 'batch' AND status = 'failed' AND remote_id IS NULL
               AND json_valid(error) AND json_extract(error, '$.kind') = 'unconfirmed'",
            params![id, progress, now()],
        )?;
        Ok(n == 1)
    }

    /// Gives a claimed job back its failure (the send it was claimed for did not happen).
    pub fn unclaim_unconfirmed(&self, id: i64, error: &IpcError) -> Result<(), IpcError> {
        self.conn().execute(
            "UPDATE jobs SET status = 'failed', progress = NULL, error = ?2, updated_at = ?3
             WHERE id = ?1 AND status = 'cancelled' AND remote_id IS NULL",
            params![id, stored_error(error), now()],
        )?;
        Ok(())
    }

    /// Says what became of a claimed job (the new batch it was sent again as).
    pub fn note_claimed(&self, id: i64, progress: &str) -> Result<(), IpcError> {
        self.conn().execute(
            "UPDATE jobs SET progress = ?2, updated_at = ?3 WHERE id = ?1 AND status = 'cancelled'",
            params![id, progress, now()],
        )?;
        Ok(())
    }

    /// The batches of `profile_id` not known to have reached the service, awaiting the user's
    /// choice, the newest first.
    pub fn unconfirmed_batches(&self, profile_id: &str) -> Result<Vec<Job>, IpcError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT * FROM jobs WHERE profile_id = ?1 AND kind = 'batch' AND status = 'failed'
               AND remote_id IS NULL AND json_valid(error)
               AND json_extract(error, '$.kind') = 'unconfirmed'
             ORDER BY id DESC",
        )?;
        let rows = stmt.query_map([profile_id], Self::row_to_job)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// One job.
    pub fn job(&self, id: i64) -> Result<Job, IpcError> {
        self.conn()
            .query_row("SELECT * FROM jobs WHERE id = ?1", [id], Self::row_to_job)
            .optional()?
            .ok_or_else(|| IpcError::not_found("That job is no longer in the library."))
    }

    /// Jobs not finished yet, oldest first: what to resume on start.
    pub fn unfinished_jobs(&self) -> Result<Vec<Job>, IpcError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT * FROM jobs WHERE status IN ('queued', 'submitted', 'running') ORDER BY id",
        )?;
        let rows = stmt.query_map([], Self::row_to_job)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Spec jobs that failed before the service gave them an id, newest first, created since
    /// `since` (RFC 3339): where a spec that shows up late on the service is looked for.
    pub fn unattached_failed_specs(&self, since: &str) -> Result<Vec<Job>, IpcError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT * FROM jobs WHERE kind = 'spec' AND status = 'failed' AND remote_id IS NULL
                 AND created_at >= ?1 ORDER BY id DESC",
        )?;
        let rows = stmt.query_map([since], Self::row_to_job)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Attaches the service's id to a job that was failed for want of it, and makes it unfinished
    /// again (to be followed). False when the job has an id or is not failed.
    pub fn reattach_job(&self, id: i64, remote_id: &str) -> Result<bool, IpcError> {
        let n = self.conn().execute(
            "UPDATE jobs SET remote_id = ?2, status = 'submitted', error = NULL,
                 progress = 'Found on the service', updated_at = ?3
             WHERE id = ?1 AND status = 'failed' AND remote_id IS NULL",
            params![id, remote_id, now()],
        )?;
        Ok(n == 1)
    }

    /// Specs and batches cancelled since `since` (RFC 3339) that the service had, whose charge is
    /// not recorded yet.
    pub fn cancelled_unrecorded(&self, since: &str) -> Result<Vec<Job>, IpcError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT * FROM jobs WHERE kind IN ('spec', 'batch') AND status = 'cancelled'
                 AND remote_id IS NOT NULL AND created_at >= ?1
                 AND (result_json IS NULL OR json_extract(result_json, '$.chargeRecorded') IS NULL)
             ORDER BY id",
        )?;
        let rows = stmt.query_map([since], Self::row_to_job)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Notes on a cancelled job that its charge is in the credit ledger (`creditsCharged`).
    pub fn note_charge_recorded(&self, id: i64, charged: f64) -> Result<(), IpcError> {
        self.conn().execute(
            "UPDATE jobs SET result_json = json_set(COALESCE(result_json, '{}'),
                 '$.chargeRecorded', json('true'), '$.creditsCharged', ?2)
             WHERE id = ?1",
            params![id, charged],
        )?;
        Ok(())
    }

    /// The newest jobs of a kind.
    pub fn recent_jobs(&self, kind: JobKind, limit: u32) -> Result<Vec<Job>, IpcError> {
        let conn = self.conn();
        let mut stmt =
            conn.prepare("SELECT * FROM jobs WHERE kind = ?1 ORDER BY id DESC LIMIT ?2")?;
        let rows = stmt.query_map(params![kind.as_str(), limit], Self::row_to_job)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The newest jobs of `kind` made on connection `profile_id`, newest first.
    pub fn recent_jobs_of(
        &self,
        profile_id: &str,
        kind: JobKind,
        limit: u32,
    ) -> Result<Vec<Job>, IpcError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT * FROM jobs WHERE kind = ?1 AND profile_id = ?2 ORDER BY id DESC LIMIT ?3",
        )?;
        let rows = stmt.query_map(params![kind.as_str(), profile_id, limit], Self::row_to_job)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The job of `kind` that follows the service's `remote_id`, if any.
    pub fn job_by_remote_id(
        &self,
        kind: JobKind,
        remote_id: &str,
    ) -> Result<Option<Job>, IpcError> {
        Ok(self
            .conn()
            .query_row(
                "SELECT * FROM jobs WHERE kind = ?1 AND remote_id = ?2 ORDER BY id LIMIT 1",
                params![kind.as_str(), remote_id],
                Self::row_to_job,
            )
            .optional()?)
    }
}

impl Library {
    /// Blanks the browser-task input values earlier versions kept in batch jobs (the request's
    /// tasks and the results' echoed inputs), keeping the names. Returns how many jobs changed.
    pub(super) fn scrub_task_values(conn: &rusqlite::Connection) -> rusqlite::Result<usize> {
        let rows: Vec<(i64, String, Option<String>)> = {
            let mut stmt = conn
                .prepare("SELECT id, request_json, result_json FROM jobs WHERE kind = 'batch'")?;
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                .collect::<rusqlite::Result<_>>()?
        };
        let blank = |json: &str, list: &str| -> Option<String> {
            let mut v: serde_json::Value = serde_json::from_str(json).ok()?;
            let items = v.get_mut(list)?.as_array_mut()?;
            let mut changed = false;
            for item in items {
                if let Some(serde_json::Value::Object(input)) = item.get_mut("input") {
                    for value in input.values_mut() {
                        if value.as_str().is_none_or(|s| !s.is_empty()) {
                            *value = serde_json::Value::String(String::new());
                            changed = true;
                        }
                    }
                }
            }
            changed.then(|| v.to_string())
        };
        let mut scrubbed = 0;
        for (id, request, result) in rows {
            let request = blank(&request, "tasks");
            let result = result.as_deref().and_then(|r| blank(r, "results"));
            if request.is_some() || result.is_some() {
                conn.execute(
                    "UPDATE jobs SET request_json = COALESCE(?2, request_json),
                         result_json = COALESCE(?3, result_json) WHERE id = ?1",
                    rusqlite::params![id, request, result],
                )?;
                scrubbed += 1;
            }
        }
        Ok(scrubbed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ipc_error::IpcErrorKind;
    use crate::library::MIGRATIONS;

    #[test]
    fn a_job_is_written_before_sending_and_survives_reopening() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("library.sqlite");
        let request = serde_json::json!({"input": "A todo app", "async": true});
        let job_id = {
            let lib = Library::open(&path).unwrap();
            assert_eq!(lib.schema_version().unwrap(), MIGRATIONS.len() as i64);
            let job = lib
                .insert_job(JobKind::Spec, "sandbox", None, &request)
                .unwrap();
            assert_eq!(job.status, JobStatus::Queued);
            assert_eq!(job.request, request);
            lib.set_remote_id(job.id, "6650f1c2a9b3e4d5f6a7b8c9")
                .unwrap();
            lib.update_job(
                job.id,
                JobStatus::Running,
                Some("Writing stories"),
                None,
                None,
            )
            .unwrap();
            job.id
        };
        let lib = Library::open(&path).unwrap();
        let unfinished = lib.unfinished_jobs().unwrap();
        assert_eq!(unfinished.len(), 1);
        let job = &unfinished[0];
        assert_eq!(job.id, job_id);
        assert_eq!(job.remote_id.as_deref(), Some("6650f1c2a9b3e4d5f6a7b8c9"));
        assert_eq!(job.progress.as_deref(), Some("Writing stories"));
        let result = serde_json::json!({"status": "completed"});
        lib.update_job(job_id, JobStatus::Completed, None, Some(&result), None)
            .unwrap();
        assert!(lib.unfinished_jobs().unwrap().is_empty());
        assert!(
            !lib.update_job(job_id, JobStatus::Running, Some("late"), None, None)
                .unwrap(),
            "a finished job stays finished"
        );
        assert_eq!(
            lib.update_job(999, JobStatus::Running, None, None, None)
                .unwrap_err()
                .kind,
            IpcErrorKind::NotFound
        );
        let done = lib.job(job_id).unwrap();
        assert_eq!(
            (done.status, done.progress.as_deref(), done.result),
            (JobStatus::Completed, Some("Writing stories"), Some(result))
        );
        assert_eq!(lib.recent_jobs(JobKind::Spec, 10).unwrap().len(), 1);
        assert!(lib.recent_jobs(JobKind::Batch, 10).unwrap().is_empty());
        assert_eq!(
            lib.recent_jobs_of("sandbox", JobKind::Spec, 10)
                .unwrap()
                .len(),
            1
        );
        assert!(
            lib.recent_jobs_of("work", JobKind::Spec, 10)
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn a_job_is_found_by_its_remote_id() {
        let lib = Library::in_memory().unwrap();
        let job = lib
            .insert_job(
                JobKind::Batch,
                "sandbox",
                Some("idem-1"),
                &serde_json::json!({}),
            )
            .unwrap();
        assert_eq!(lib.job_by_remote_id(JobKind::Batch, "b1").unwrap(), None);
        lib.set_remote_id(job.id, "b1").unwrap();
        let found = lib.job_by_remote_id(JobKind::Batch, "b1").unwrap().unwrap();
        assert_eq!(
            (found.id, found.status, found.idempotency_key.as_deref()),
            (job.id, JobStatus::Submitted, Some("idem-1"))
        );
        assert_eq!(lib.job_by_remote_id(JobKind::Spec, "b1").unwrap(), None);
        assert_eq!(
            lib.set_remote_id(999, "x").unwrap_err().kind,
            IpcErrorKind::NotFound
        );
    }

    #[test]
    fn task_values_written_by_an_earlier_version_are_scrubbed_on_open() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("library.sqlite");
        let secret = "hunter2-Secret-77";
        {
            let lib = Library::open(&path).unwrap();
            let request = serde_json::json!({"tasks": [
                {"url": "https://example.com/login", "input": {"password": secret}},
                {"url": "https://example.com/"}
            ]});
            let job = lib
                .insert_job(JobKind::Batch, "sandbox", Some("k1"), &request)
                .unwrap();
            let result = serde_json::json!({"id": "b1", "results": [
                {"url": "https://example.com/login", "input": {"password": secret}, "status": "SUCCESS"}
            ]});
            lib.update_job(job.id, JobStatus::Completed, None, Some(&result), None)
                .unwrap();
            // As an earlier version left it (version 4: no scrub yet, no cut replies, no kept
            // catalogs, no kept branches or winners, no media settings, no model on charges, no
            // deleted conversations or files kept for their Undo).
            lib.conn().pragma_update(None, "user_version", 4).unwrap();
            lib.conn()
                .execute_batch(
                    "ALTER TABLE messages DROP COLUMN cut; DROP TABLE catalogs;
                     DROP TABLE conversation_trees; DROP TABLE chat_winners;
                     ALTER TABLE media DROP COLUMN settings_json;
                     ALTER TABLE media DROP COLUMN preferred;
                     ALTER TABLE credit_ledger DROP COLUMN model;
                     ALTER TABLE conversations DROP COLUMN deleted_at;
                     ALTER TABLE credit_ledger DROP COLUMN estimate;
                     ALTER TABLE media DROP COLUMN deleted_at;
                     ALTER TABLE media DROP COLUMN thumb_path;
                     ALTER TABLE media DROP COLUMN width;
                     ALTER TABLE media DROP COLUMN height;",
                )
                .unwrap();
        }
        let lib = Library::open(&path).unwrap();
        let job = &lib.recent_jobs(JobKind::Batch, 1).unwrap()[0];
        assert_eq!(
            job.request["tasks"][0]["input"],
            serde_json::json!({"password": ""})
        );
        assert_eq!(
            job.result.as_ref().unwrap()["results"][0]["input"],
            serde_json::json!({"password": ""})
        );
        drop(lib);
        let mut bytes = std::fs::read(&path).unwrap();
        bytes.extend(std::fs::read(dir.path().join("library.sqlite-wal")).unwrap_or_default());
        assert!(
            !bytes.windows(secret.len()).any(|w| w == secret.as_bytes()),
            "the value is gone from the file, free pages included"
        );
    }
}
