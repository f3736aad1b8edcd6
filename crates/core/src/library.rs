//! The local library (SQLite): the job ledger (written before a request is sent), the credit
//! ledger fed by metering headers, plan snapshots for progress over time, and cached specs for
//! offline reading. Migrations are numbered with `PRAGMA user_version`.

use std::path::Path;
use std::sync::Mutex;

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};
use specdesk_client::Metering;

use crate::ipc_error::IpcError;

/// Each entry is one migration, applied in order once.
const MIGRATIONS: &[&str] = &[
    // 1: job ledger, credit ledger, plan snapshots, spec cache.
    "CREATE TABLE jobs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        profile_id TEXT NOT NULL,
        idempotency_key TEXT,
        request_json TEXT NOT NULL,
        remote_id TEXT,
        status TEXT NOT NULL,
        progress TEXT,
        result_json TEXT,
        error TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE INDEX jobs_unfinished ON jobs(status) WHERE status IN ('queued', 'submitted', 'running');
    CREATE TABLE credit_ledger (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at TEXT NOT NULL,
        profile_id TEXT NOT NULL,
        endpoint TEXT NOT NULL,
        request_id TEXT,
        credits_charged REAL,
        credits_remaining REAL
    );
    CREATE TABLE plan_snapshots (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        project_id TEXT NOT NULL,
        computed_at TEXT NOT NULL,
        percent INTEGER NOT NULL,
        built INTEGER NOT NULL,
        proven_working INTEGER NOT NULL,
        total INTEGER NOT NULL,
        statuses_json TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        recorded_at TEXT NOT NULL
    );
    CREATE INDEX plan_snapshots_project ON plan_snapshots(project_id, id);
    CREATE TABLE spec_cache (
        spec_id TEXT PRIMARY KEY,
        profile_id TEXT NOT NULL,
        json TEXT NOT NULL,
        cached_at TEXT NOT NULL
    );",
];

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
    pub error: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

/// A line of the credit ledger.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct CreditEntry {
    pub at: String,
    pub profile_id: String,
    pub endpoint: String,
    pub request_id: Option<String>,
    pub credits_charged: Option<f64>,
    pub credits_remaining: Option<f64>,
}

/// A point of a project's progress over time.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct PlanPoint {
    pub computed_at: String,
    pub percent: u32,
    pub built: u32,
    pub proven_working: u32,
    pub total: u32,
    /// Feature count by status.
    pub statuses: std::collections::BTreeMap<String, u32>,
}

/// The local library.
pub struct Library {
    conn: Mutex<Connection>,
}

impl std::fmt::Debug for Library {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Library").finish_non_exhaustive()
    }
}

/// Now, as RFC 3339 UTC with milliseconds.
pub fn now() -> String {
    // RFC 3339 in UTC with milliseconds, from the system clock.
    let d = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let secs = d.as_secs() as i64;
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        d.subsec_millis()
    )
}

impl Library {
    /// Opens (creating when missing) the library at `path` and applies pending migrations.
    pub fn open(path: &Path) -> Result<Self, IpcError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(IpcError::storage)?;
        }
        let conn = Connection::open(path)?;
        Self::with_connection(conn)
    }

    /// A library in memory (tests).
    pub fn in_memory() -> Result<Self, IpcError> {
        Self::with_connection(Connection::open_in_memory()?)
    }

    fn with_connection(mut conn: Connection) -> Result<Self, IpcError> {
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(version.max(0) as usize) {
            let tx = conn.transaction()?;
            tx.execute_batch(sql)?;
            tx.pragma_update(None, "user_version", (i + 1) as i64)?;
            tx.commit()?;
        }
        Ok(Library {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The schema version (number of migrations applied).
    pub fn schema_version(&self) -> Result<i64, IpcError> {
        Ok(self
            .conn()
            .pragma_query_value(None, "user_version", |r| r.get(0))?)
    }

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

    /// Updates a job's status, progress text, result and error.
    pub fn update_job(
        &self,
        id: i64,
        status: JobStatus,
        progress: Option<&str>,
        result: Option<&serde_json::Value>,
        error: Option<&str>,
    ) -> Result<(), IpcError> {
        let n = self.conn().execute(
            "UPDATE jobs SET status = ?2, progress = COALESCE(?3, progress),
                 result_json = COALESCE(?4, result_json), error = ?5, updated_at = ?6 WHERE id = ?1",
            params![id, status.as_str(), progress, result.map(|r| r.to_string()), error, now()],
        )?;
        if n == 0 {
            return Err(IpcError::not_found("That job is no longer in the library."));
        }
        Ok(())
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
            error: r.get("error")?,
            created_at: r.get("created_at")?,
            updated_at: r.get("updated_at")?,
        })
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

    /// The newest jobs of a kind.
    pub fn recent_jobs(&self, kind: JobKind, limit: u32) -> Result<Vec<Job>, IpcError> {
        let conn = self.conn();
        let mut stmt =
            conn.prepare("SELECT * FROM jobs WHERE kind = ?1 ORDER BY id DESC LIMIT ?2")?;
        let rows = stmt.query_map(params![kind.as_str(), limit], Self::row_to_job)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Records what a call cost, from its metering headers. Calls that carry no metering are not
    /// recorded.
    pub fn record_metering(
        &self,
        profile_id: &str,
        endpoint: &str,
        metering: &Metering,
    ) -> Result<Option<CreditEntry>, IpcError> {
        if metering.credits_charged.is_none() && metering.credits_remaining.is_none() {
            return Ok(None);
        }
        let entry = CreditEntry {
            at: now(),
            profile_id: profile_id.to_owned(),
            endpoint: endpoint.to_owned(),
            request_id: metering.request_id.clone(),
            credits_charged: metering.credits_charged,
            credits_remaining: metering.credits_remaining,
        };
        self.insert_credit(&entry)?;
        Ok(Some(entry))
    }

    /// Records a balance read (credits-balance).
    pub fn record_balance(
        &self,
        profile_id: &str,
        remaining: f64,
    ) -> Result<CreditEntry, IpcError> {
        let entry = CreditEntry {
            at: now(),
            profile_id: profile_id.to_owned(),
            endpoint: "credits-balance".to_owned(),
            request_id: None,
            credits_charged: None,
            credits_remaining: Some(remaining),
        };
        self.insert_credit(&entry)?;
        Ok(entry)
    }

    fn insert_credit(&self, e: &CreditEntry) -> Result<(), IpcError> {
        self.conn().execute(
            "INSERT INTO credit_ledger (at, profile_id, endpoint, request_id, credits_charged, credits_remaining)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![e.at, e.profile_id, e.endpoint, e.request_id, e.credits_charged, e.credits_remaining],
        )?;
        Ok(())
    }

    /// The newest credit-ledger lines.
    pub fn credit_ledger(&self, limit: u32) -> Result<Vec<CreditEntry>, IpcError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT at, profile_id, endpoint, request_id, credits_charged, credits_remaining
             FROM credit_ledger ORDER BY id DESC LIMIT ?1",
        )?;
        let rows = stmt.query_map([limit], |r| {
            Ok(CreditEntry {
                at: r.get(0)?,
                profile_id: r.get(1)?,
                endpoint: r.get(2)?,
                request_id: r.get(3)?,
                credits_charged: r.get(4)?,
                credits_remaining: r.get(5)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Stores a snapshot of `plan` when it differs from the last one of its project. True when
    /// stored.
    pub fn record_plan(&self, plan: &specdesk_types::Plan) -> Result<bool, IpcError> {
        let mut statuses = std::collections::BTreeMap::<String, u32>::new();
        for f in &plan.features {
            *statuses.entry(f.status.as_str().to_owned()).or_default() += 1;
        }
        let statuses_json = serde_json::to_string(&statuses).map_err(IpcError::storage)?;
        let p = &plan.progress;
        let fingerprint = format!(
            "{}|{}|{}|{}|{}|{}",
            plan.code_version.tree.as_deref().unwrap_or(""),
            p.percent,
            p.built,
            p.proven_working,
            p.total,
            statuses_json
        );
        let conn = self.conn();
        let last: Option<String> = conn
            .query_row(
                "SELECT fingerprint FROM plan_snapshots WHERE project_id = ?1 ORDER BY id DESC LIMIT 1",
                [&plan.project_id],
                |r| r.get(0),
            )
            .optional()?;
        if last.as_deref() == Some(fingerprint.as_str()) {
            return Ok(false);
        }
        conn.execute(
            "INSERT INTO plan_snapshots (project_id, computed_at, percent, built, proven_working, total, statuses_json, fingerprint, recorded_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            params![
                plan.project_id,
                plan.computed_at,
                p.percent,
                p.built,
                p.proven_working,
                p.total,
                statuses_json,
                fingerprint,
                now()
            ],
        )?;
        Ok(true)
    }

    /// A project's progress over time, oldest first.
    pub fn plan_history(&self, project_id: &str) -> Result<Vec<PlanPoint>, IpcError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT computed_at, percent, built, proven_working, total, statuses_json
             FROM plan_snapshots WHERE project_id = ?1 ORDER BY id",
        )?;
        let rows = stmt.query_map([project_id], |r| {
            let statuses: String = r.get(5)?;
            Ok(PlanPoint {
                computed_at: r.get(0)?,
                percent: r.get(1)?,
                built: r.get(2)?,
                proven_working: r.get(3)?,
                total: r.get(4)?,
                statuses: serde_json::from_str(&statuses).unwrap_or_default(),
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Keeps a spec (its status or result JSON) for offline reading.
    pub fn cache_spec(
        &self,
        spec_id: &str,
        profile_id: &str,
        json: &serde_json::Value,
    ) -> Result<(), IpcError> {
        self.conn().execute(
            "INSERT INTO spec_cache (spec_id, profile_id, json, cached_at) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT(spec_id) DO UPDATE SET json = excluded.json, cached_at = excluded.cached_at",
            params![spec_id, profile_id, json.to_string(), now()],
        )?;
        Ok(())
    }

    /// A cached spec.
    pub fn cached_spec(&self, spec_id: &str) -> Result<Option<serde_json::Value>, IpcError> {
        let json: Option<String> = self
            .conn()
            .query_row(
                "SELECT json FROM spec_cache WHERE spec_id = ?1",
                [spec_id],
                |r| r.get(0),
            )
            .optional()?;
        Ok(json.and_then(|j| serde_json::from_str(&j).ok()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_rfc3339_utc() {
        let t = now();
        assert_eq!(t.len(), 24, "{t}");
        assert!(t.ends_with('Z') && t.as_bytes()[10] == b'T', "{t}");
    }

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
        let done = lib.job(job_id).unwrap();
        assert_eq!(
            (done.status, done.progress.as_deref(), done.result),
            (JobStatus::Completed, Some("Writing stories"), Some(result))
        );
        assert_eq!(lib.recent_jobs(JobKind::Spec, 10).unwrap().len(), 1);
        assert!(lib.recent_jobs(JobKind::Batch, 10).unwrap().is_empty());
    }

    #[test]
    fn the_credit_ledger_keeps_what_the_headers_said() {
        let lib = Library::in_memory().unwrap();
        let none = lib
            .record_metering("p", "v1/rerank", &Metering::default())
            .unwrap();
        assert_eq!(none, None);
        lib.record_metering(
            "p",
            "v1/rerank",
            &Metering {
                request_id: Some("req_9".into()),
                credits_charged: Some(0.25),
                credits_remaining: Some(99.75),
            },
        )
        .unwrap();
        lib.record_balance("p", 99.75).unwrap();
        let ledger = lib.credit_ledger(10).unwrap();
        assert_eq!(ledger.len(), 2);
        assert_eq!(ledger[0].endpoint, "credits-balance");
        assert_eq!(
            (
                ledger[1].request_id.as_deref(),
                ledger[1].credits_charged,
                ledger[1].credits_remaining
            ),
            (Some("req_9"), Some(0.25), Some(99.75))
        );
    }

    #[test]
    fn plan_snapshots_are_kept_only_when_the_plan_changed() {
        let lib = Library::in_memory().unwrap();
        let plan_json = |percent: u32, built: u32, status: &str| {
            serde_json::json!({
                "projectId": "0123456789abcdef01234567", "name": "P", "computedAt": "2026-11-22T10:00:00Z",
                "codeVersion": {"tree": null, "short": null}, "intent": null,
                "progress": {"basis": "features", "built": built, "provenWorking": 0, "total": 2, "left": 2 - built, "percent": percent, "proposed": 0},
                "features": [
                    {"id": "f1", "name": "A", "status": status, "statusText": "", "scope": "confirmed", "addedByAgent": false, "stories": {"done": 0, "total": 1}, "counted": true, "removedParts": [], "partOf": null},
                    {"id": "f2", "name": "B", "status": "planned", "statusText": "", "scope": "confirmed", "addedByAgent": false, "stories": {"done": 0, "total": 1}, "counted": true, "removedParts": [], "partOf": null}
                ],
                "readyToLaunch": null, "appMap": null
            })
        };
        let plan =
            |p, b, s| serde_json::from_value::<specdesk_types::Plan>(plan_json(p, b, s)).unwrap();
        assert!(lib.record_plan(&plan(0, 0, "planned")).unwrap());
        assert!(
            !lib.record_plan(&plan(0, 0, "planned")).unwrap(),
            "unchanged"
        );
        assert!(lib.record_plan(&plan(50, 1, "built_not_checked")).unwrap());
        let history = lib.plan_history("0123456789abcdef01234567").unwrap();
        assert_eq!(history.len(), 2);
        assert_eq!(history[1].percent, 50);
        assert_eq!(history[1].statuses.get("built_not_checked"), Some(&1));
        assert_eq!(history[1].statuses.get("planned"), Some(&1));
    }

    #[test]
    fn specs_are_cached_for_offline_reading() {
        let lib = Library::in_memory().unwrap();
        assert_eq!(lib.cached_spec("s").unwrap(), None);
        lib.cache_spec("s", "sandbox", &serde_json::json!({"v": 1}))
            .unwrap();
        lib.cache_spec("s", "sandbox", &serde_json::json!({"v": 2}))
            .unwrap();
        assert_eq!(
            lib.cached_spec("s").unwrap(),
            Some(serde_json::json!({"v": 2}))
        );
    }
}
