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
    // 2: the spec cache keeps its markdown apart (a deep spec's is about 1 MB) with the columns a
    // list needs; conversations and their messages; generated media; jobs found by remote id.
    "ALTER TABLE spec_cache ADD COLUMN input TEXT;
    ALTER TABLE spec_cache ADD COLUMN status TEXT;
    ALTER TABLE spec_cache ADD COLUMN endpoint TEXT;
    ALTER TABLE spec_cache ADD COLUMN created TEXT;
    ALTER TABLE spec_cache ADD COLUMN total_human_hours REAL;
    ALTER TABLE spec_cache ADD COLUMN credits_used REAL;
    ALTER TABLE spec_cache ADD COLUMN human_markdown TEXT;
    ALTER TABLE spec_cache ADD COLUMN agent_markdown TEXT;
    UPDATE spec_cache SET
        input = json_extract(json, '$.input'),
        status = json_extract(json, '$.status'),
        endpoint = json_extract(json, '$.endpoint'),
        created = json_extract(json, '$.created'),
        total_human_hours = json_extract(json, '$.totalHumanHours'),
        credits_used = json_extract(json, '$.creditsUsed'),
        human_markdown = json_extract(json, '$.humanSpecMarkdown'),
        agent_markdown = json_extract(json, '$.codingAgentSpecMarkdown'),
        json = json_remove(json, '$.humanSpecMarkdown', '$.codingAgentSpecMarkdown');
    CREATE INDEX spec_cache_recent ON spec_cache(profile_id, cached_at);
    CREATE INDEX jobs_remote ON jobs(kind, remote_id);
    CREATE TABLE conversations (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        profile_id TEXT NOT NULL,
        title TEXT NOT NULL,
        model TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        -- Grows with every change: orders conversations by activity without clock ties.
        activity INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE messages (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        conversation_id INTEGER NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        role TEXT NOT NULL,
        content_json TEXT NOT NULL,
        model TEXT,
        request_id TEXT,
        credits_charged REAL,
        created_at TEXT NOT NULL
    );
    CREATE INDEX messages_conversation ON messages(conversation_id, id);
    CREATE TABLE media (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        path TEXT NOT NULL,
        prompt TEXT NOT NULL,
        model TEXT NOT NULL,
        profile_id TEXT NOT NULL,
        credits REAL,
        cost REAL,
        job_id INTEGER,
        created_at TEXT NOT NULL
    );
    CREATE INDEX media_recent ON media(kind, id);",
    // 3: the projects whose plan was opened, per connection, for the Plans screen's list.
    "CREATE TABLE projects (
        project_id TEXT NOT NULL,
        profile_id TEXT NOT NULL,
        name TEXT,
        spec_id TEXT,
        percent INTEGER,
        built INTEGER,
        total INTEGER,
        computed_at TEXT,
        opened_at TEXT NOT NULL,
        -- Grows with every opening: orders the list without clock ties.
        opened_seq INTEGER NOT NULL,
        PRIMARY KEY (profile_id, project_id)
    );
    CREATE INDEX projects_recent ON projects(profile_id, opened_seq);",
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
    /// Why the job failed or is held, with its kind and action, as the command that met it
    /// reported it (so "Top up" or "Unlock your keychain" is still offered after a restart).
    pub error: Option<IpcError>,
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

/// What the spec view needs to know of a cached spec besides its JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CachedSpecState {
    pub has_human_markdown: bool,
    pub has_agent_markdown: bool,
    pub cached_at: String,
}

/// A project whose plan was opened on a connection, as the Plans screen lists it.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct RecentProject {
    pub project_id: String,
    pub profile_id: String,
    pub name: Option<String>,
    /// The spec that created it, when the service said.
    pub spec_id: Option<String>,
    /// Progress as last read (absent while the project had no plan).
    pub percent: Option<u32>,
    pub built: Option<u32>,
    pub total: Option<u32>,
    /// When the service computed the plan last read.
    pub computed_at: Option<String>,
    /// When its plan was last opened here.
    pub opened_at: String,
}

/// A cached spec, as a list shows it (its markdown is read apart).
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct CachedSpec {
    pub spec_id: String,
    pub profile_id: String,
    pub input: Option<String>,
    /// `pending`, `processing`, `completed` or `failed`, as last read.
    pub status: Option<String>,
    /// `fast_spec` or `deep_spec`.
    pub endpoint: Option<String>,
    /// When the service created it.
    pub created: Option<String>,
    pub total_human_hours: Option<f64>,
    pub credits_used: Option<f64>,
    /// Whether its markdown can be read offline.
    pub has_markdown: bool,
    /// When it was last cached here.
    pub cached_at: String,
}

/// The two markdown documents of a cached spec.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct SpecMarkdown {
    pub human: Option<String>,
    pub coding_agent: Option<String>,
}

/// A chat kept in the library.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct Conversation {
    pub id: i64,
    pub profile_id: String,
    pub title: String,
    pub model: Option<String>,
    pub created_at: String,
    pub updated_at: String,
}

/// A message of a conversation. `content` is the Messages API content (a string or blocks).
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct ConversationMessage {
    pub id: i64,
    pub conversation_id: i64,
    /// `user` or `assistant`.
    pub role: String,
    #[cfg_attr(feature = "ts", ts(type = "unknown"))]
    pub content: serde_json::Value,
    pub model: Option<String>,
    pub request_id: Option<String>,
    pub credits_charged: Option<f64>,
    pub created_at: String,
}

/// What a generated file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub enum MediaKind {
    Image,
    Video,
    Audio,
}

impl MediaKind {
    fn as_str(self) -> &'static str {
        match self {
            MediaKind::Image => "image",
            MediaKind::Video => "video",
            MediaKind::Audio => "audio",
        }
    }

    fn parse(s: &str) -> Self {
        match s {
            "video" => MediaKind::Video,
            "audio" => MediaKind::Audio,
            _ => MediaKind::Image,
        }
    }
}

/// A generated file to record: where it was saved in the app data folder, and how it was made.
#[derive(Debug, Clone, PartialEq)]
pub struct NewMedia<'a> {
    pub kind: MediaKind,
    pub path: &'a str,
    pub prompt: &'a str,
    pub model: &'a str,
    pub profile_id: &'a str,
    /// Credits charged for it (metering header).
    pub credits: Option<f64>,
    /// Raw cost in USD (`usage.cost`).
    pub cost: Option<f64>,
    /// The ledger job that made it (videos).
    pub job_id: Option<i64>,
}

/// A generated file of the library.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct MediaItem {
    pub id: i64,
    pub kind: MediaKind,
    /// Full path of the file.
    pub path: String,
    pub prompt: String,
    pub model: String,
    pub profile_id: String,
    pub credits: Option<f64>,
    pub cost: Option<f64>,
    pub job_id: Option<i64>,
    pub created_at: String,
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

    /// Remembers that the plan of `response.project_id` was opened on `profile_id` (most
    /// recent first in `recent_projects`), with its name and progress as read.
    pub fn remember_project(
        &self,
        profile_id: &str,
        response: &specdesk_types::PlanResponse,
    ) -> Result<(), IpcError> {
        let plan = response.plan.as_ref();
        self.conn().execute(
            "INSERT INTO projects (project_id, profile_id, name, spec_id, percent, built, total, computed_at, opened_at, opened_seq)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, (SELECT COALESCE(MAX(opened_seq), 0) + 1 FROM projects))
             ON CONFLICT (profile_id, project_id) DO UPDATE SET
                opened_seq = excluded.opened_seq,
                name = COALESCE(excluded.name, projects.name),
                spec_id = COALESCE(excluded.spec_id, projects.spec_id),
                percent = excluded.percent,
                built = excluded.built,
                total = excluded.total,
                computed_at = excluded.computed_at,
                opened_at = excluded.opened_at",
            params![
                response.project_id,
                profile_id,
                plan.and_then(|p| p.name.clone()),
                response.spec_id,
                plan.map(|p| p.progress.percent),
                plan.map(|p| p.progress.built),
                plan.map(|p| p.progress.total),
                plan.map(|p| p.computed_at.clone()),
                now()
            ],
        )?;
        Ok(())
    }

    /// The projects whose plan was opened on `profile_id`, the most recently opened first.
    pub fn recent_projects(
        &self,
        profile_id: &str,
        limit: u32,
    ) -> Result<Vec<RecentProject>, IpcError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT project_id, profile_id, name, spec_id, percent, built, total, computed_at, opened_at
             FROM projects WHERE profile_id = ?1 ORDER BY opened_seq DESC LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![profile_id, limit], |r| {
            Ok(RecentProject {
                project_id: r.get(0)?,
                profile_id: r.get(1)?,
                name: r.get(2)?,
                spec_id: r.get(3)?,
                percent: r.get(4)?,
                built: r.get(5)?,
                total: r.get(6)?,
                computed_at: r.get(7)?,
                opened_at: r.get(8)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Forgets a project of the Plans screen's list (its snapshots stay for its chart).
    pub fn forget_project(&self, profile_id: &str, project_id: &str) -> Result<(), IpcError> {
        self.conn().execute(
            "DELETE FROM projects WHERE profile_id = ?1 AND project_id = ?2",
            params![profile_id, project_id],
        )?;
        Ok(())
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

    /// Keeps a spec (a status read, a result or a list record, as JSON) for offline reading. Its
    /// two markdown documents are kept apart; a later read without them keeps the earlier ones.
    pub fn cache_spec(
        &self,
        spec_id: &str,
        profile_id: &str,
        json: &serde_json::Value,
    ) -> Result<(), IpcError> {
        let mut json = json.clone();
        let (human, agent) = match json.as_object_mut() {
            Some(o) => (
                o.remove("humanSpecMarkdown")
                    .and_then(|v| v.as_str().map(str::to_owned)),
                o.remove("codingAgentSpecMarkdown")
                    .and_then(|v| v.as_str().map(str::to_owned)),
            ),
            None => (None, None),
        };
        let text = |k: &str| json.get(k).and_then(|v| v.as_str()).map(str::to_owned);
        let number = |k: &str| json.get(k).and_then(|v| v.as_f64());
        self.conn().execute(
            "INSERT INTO spec_cache (spec_id, profile_id, json, cached_at, input, status, endpoint,
                 created, total_human_hours, credits_used, human_markdown, agent_markdown)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
             ON CONFLICT(spec_id) DO UPDATE SET
                 -- Merged: a list record (a few fields) never drops what a full read kept
                 -- (scope, graphs, tech stack, plan) for offline reading.
                 json = json_patch(spec_cache.json, excluded.json),
                 cached_at = excluded.cached_at,
                 input = COALESCE(excluded.input, input),
                 status = COALESCE(excluded.status, status),
                 endpoint = COALESCE(excluded.endpoint, endpoint),
                 created = COALESCE(excluded.created, created),
                 total_human_hours = COALESCE(excluded.total_human_hours, total_human_hours),
                 credits_used = COALESCE(excluded.credits_used, credits_used),
                 human_markdown = COALESCE(excluded.human_markdown, human_markdown),
                 agent_markdown = COALESCE(excluded.agent_markdown, agent_markdown)",
            params![
                spec_id,
                profile_id,
                json.to_string(),
                now(),
                text("input"),
                text("status"),
                text("endpoint"),
                text("created"),
                number("totalHumanHours"),
                number("creditsUsed"),
                human,
                agent
            ],
        )?;
        Ok(())
    }

    /// A cached spec as JSON, its markdown included.
    pub fn cached_spec(&self, spec_id: &str) -> Result<Option<serde_json::Value>, IpcError> {
        let row: Option<(String, Option<String>, Option<String>)> = self
            .conn()
            .query_row(
                "SELECT json, human_markdown, agent_markdown FROM spec_cache WHERE spec_id = ?1",
                [spec_id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()?;
        Ok(row.and_then(|(json, human, agent)| {
            let mut v: serde_json::Value = serde_json::from_str(&json).ok()?;
            if let Some(o) = v.as_object_mut() {
                if let Some(h) = human {
                    o.insert("humanSpecMarkdown".into(), h.into());
                }
                if let Some(a) = agent {
                    o.insert("codingAgentSpecMarkdown".into(), a.into());
                }
            }
            Some(v)
        }))
    }

    /// Only the markdown of a cached spec (what the spec view renders).
    /// Whether a cached spec has each of its two documents, and when it was cached, without
    /// reading the documents (a deep spec's are about 1 MB each).
    pub fn cached_spec_state(&self, spec_id: &str) -> Result<Option<CachedSpecState>, IpcError> {
        Ok(self
            .conn()
            .query_row(
                "SELECT human_markdown IS NOT NULL, agent_markdown IS NOT NULL, cached_at
                 FROM spec_cache WHERE spec_id = ?1",
                [spec_id],
                |r| {
                    Ok(CachedSpecState {
                        has_human_markdown: r.get(0)?,
                        has_agent_markdown: r.get(1)?,
                        cached_at: r.get(2)?,
                    })
                },
            )
            .optional()?)
    }

    pub fn cached_spec_markdown(&self, spec_id: &str) -> Result<Option<SpecMarkdown>, IpcError> {
        Ok(self
            .conn()
            .query_row(
                "SELECT human_markdown, agent_markdown FROM spec_cache WHERE spec_id = ?1",
                [spec_id],
                |r| {
                    Ok(SpecMarkdown {
                        human: r.get(0)?,
                        coding_agent: r.get(1)?,
                    })
                },
            )
            .optional()?)
    }

    /// Cached specs, newest first (by the service's creation time); of one profile when
    /// `profile_id` is given.
    pub fn cached_specs(
        &self,
        profile_id: Option<&str>,
        limit: u32,
        offset: u32,
    ) -> Result<Vec<CachedSpec>, IpcError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT spec_id, profile_id, input, status, endpoint, created, total_human_hours,
                 credits_used, human_markdown IS NOT NULL OR agent_markdown IS NOT NULL, cached_at
             FROM spec_cache WHERE ?1 IS NULL OR profile_id = ?1
             ORDER BY COALESCE(created, cached_at) DESC, rowid DESC LIMIT ?2 OFFSET ?3",
        )?;
        let rows = stmt.query_map(params![profile_id, limit, offset], |r| {
            Ok(CachedSpec {
                spec_id: r.get(0)?,
                profile_id: r.get(1)?,
                input: r.get(2)?,
                status: r.get(3)?,
                endpoint: r.get(4)?,
                created: r.get(5)?,
                total_human_hours: r.get(6)?,
                credits_used: r.get(7)?,
                has_markdown: r.get(8)?,
                cached_at: r.get(9)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Starts a conversation.
    pub fn create_conversation(
        &self,
        profile_id: &str,
        title: &str,
        model: Option<&str>,
    ) -> Result<Conversation, IpcError> {
        let at = now();
        let id = {
            let conn = self.conn();
            conn.execute(
                "INSERT INTO conversations (profile_id, title, model, created_at, updated_at, activity)
                 VALUES (?1, ?2, ?3, ?4, ?4, (SELECT COALESCE(MAX(activity), 0) + 1 FROM conversations))",
                params![profile_id, title, model, at],
            )?;
            conn.last_insert_rowid()
        };
        self.conversation(id)
    }

    fn row_to_conversation(r: &rusqlite::Row<'_>) -> rusqlite::Result<Conversation> {
        Ok(Conversation {
            id: r.get("id")?,
            profile_id: r.get("profile_id")?,
            title: r.get("title")?,
            model: r.get("model")?,
            created_at: r.get("created_at")?,
            updated_at: r.get("updated_at")?,
        })
    }

    /// One conversation.
    pub fn conversation(&self, id: i64) -> Result<Conversation, IpcError> {
        self.conn()
            .query_row(
                "SELECT * FROM conversations WHERE id = ?1",
                [id],
                Self::row_to_conversation,
            )
            .optional()?
            .ok_or_else(|| IpcError::not_found("That conversation is no longer in the library."))
    }

    /// Conversations, the most recently active first.
    pub fn conversations(&self, limit: u32, offset: u32) -> Result<Vec<Conversation>, IpcError> {
        let conn = self.conn();
        let mut stmt =
            conn.prepare("SELECT * FROM conversations ORDER BY activity DESC LIMIT ?1 OFFSET ?2")?;
        let rows = stmt.query_map(params![limit, offset], Self::row_to_conversation)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Renames a conversation.
    pub fn rename_conversation(&self, id: i64, title: &str) -> Result<Conversation, IpcError> {
        let n = self.conn().execute(
            "UPDATE conversations SET title = ?2, updated_at = ?3,
                 activity = (SELECT MAX(activity) + 1 FROM conversations) WHERE id = ?1",
            params![id, title, now()],
        )?;
        if n == 0 {
            return Err(IpcError::not_found(
                "That conversation is no longer in the library.",
            ));
        }
        self.conversation(id)
    }

    /// Removes a conversation and its messages.
    pub fn delete_conversation(&self, id: i64) -> Result<(), IpcError> {
        let n = self
            .conn()
            .execute("DELETE FROM conversations WHERE id = ?1", [id])?;
        if n == 0 {
            return Err(IpcError::not_found(
                "That conversation is no longer in the library.",
            ));
        }
        Ok(())
    }

    /// Appends a message to a conversation (and marks the conversation active).
    pub fn add_message(
        &self,
        conversation_id: i64,
        role: &str,
        content: &serde_json::Value,
        model: Option<&str>,
        metering: Option<&Metering>,
    ) -> Result<ConversationMessage, IpcError> {
        let at = now();
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let n = tx.execute(
            "UPDATE conversations SET updated_at = ?2,
                 activity = (SELECT MAX(activity) + 1 FROM conversations) WHERE id = ?1",
            params![conversation_id, at],
        )?;
        if n == 0 {
            return Err(IpcError::not_found(
                "That conversation is no longer in the library.",
            ));
        }
        tx.execute(
            "INSERT INTO messages (conversation_id, role, content_json, model, request_id, credits_charged, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![
                conversation_id,
                role,
                content.to_string(),
                model,
                metering.and_then(|m| m.request_id.as_deref()),
                metering.and_then(|m| m.credits_charged),
                at
            ],
        )?;
        let id = tx.last_insert_rowid();
        tx.commit()?;
        Ok(ConversationMessage {
            id,
            conversation_id,
            role: role.to_owned(),
            content: content.clone(),
            model: model.map(str::to_owned),
            request_id: metering.and_then(|m| m.request_id.clone()),
            credits_charged: metering.and_then(|m| m.credits_charged),
            created_at: at,
        })
    }

    /// The messages of a conversation, in order.
    pub fn messages(&self, conversation_id: i64) -> Result<Vec<ConversationMessage>, IpcError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT id, conversation_id, role, content_json, model, request_id, credits_charged, created_at
             FROM messages WHERE conversation_id = ?1 ORDER BY id",
        )?;
        let rows = stmt.query_map([conversation_id], |r| {
            let content: String = r.get(3)?;
            Ok(ConversationMessage {
                id: r.get(0)?,
                conversation_id: r.get(1)?,
                role: r.get(2)?,
                content: serde_json::from_str(&content).unwrap_or(serde_json::Value::Null),
                model: r.get(4)?,
                request_id: r.get(5)?,
                credits_charged: r.get(6)?,
                created_at: r.get(7)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Records a generated file saved in the app data folder.
    pub fn add_media(&self, m: &NewMedia<'_>) -> Result<MediaItem, IpcError> {
        let at = now();
        let id = {
            let conn = self.conn();
            conn.execute(
                "INSERT INTO media (kind, path, prompt, model, profile_id, credits, cost, job_id, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                params![
                    m.kind.as_str(),
                    m.path,
                    m.prompt,
                    m.model,
                    m.profile_id,
                    m.credits,
                    m.cost,
                    m.job_id,
                    at
                ],
            )?;
            conn.last_insert_rowid()
        };
        Ok(MediaItem {
            id,
            kind: m.kind,
            path: m.path.to_owned(),
            prompt: m.prompt.to_owned(),
            model: m.model.to_owned(),
            profile_id: m.profile_id.to_owned(),
            credits: m.credits,
            cost: m.cost,
            job_id: m.job_id,
            created_at: at,
        })
    }

    /// Generated files, newest first; of one kind when `kind` is given.
    pub fn media(
        &self,
        kind: Option<MediaKind>,
        limit: u32,
        offset: u32,
    ) -> Result<Vec<MediaItem>, IpcError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT id, kind, path, prompt, model, profile_id, credits, cost, job_id, created_at
             FROM media WHERE ?1 IS NULL OR kind = ?1 ORDER BY id DESC LIMIT ?2 OFFSET ?3",
        )?;
        let rows = stmt.query_map(params![kind.map(MediaKind::as_str), limit, offset], |r| {
            let kind: String = r.get(1)?;
            Ok(MediaItem {
                id: r.get(0)?,
                kind: MediaKind::parse(&kind),
                path: r.get(2)?,
                prompt: r.get(3)?,
                model: r.get(4)?,
                profile_id: r.get(5)?,
                credits: r.get(6)?,
                cost: r.get(7)?,
                job_id: r.get(8)?,
                created_at: r.get(9)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Forgets a generated file; returns its path so the caller can delete the file.
    pub fn delete_media(&self, id: i64) -> Result<String, IpcError> {
        let conn = self.conn();
        let path: Option<String> = conn
            .query_row("SELECT path FROM media WHERE id = ?1", [id], |r| r.get(0))
            .optional()?;
        let path =
            path.ok_or_else(|| IpcError::not_found("That file is no longer in the library."))?;
        conn.execute("DELETE FROM media WHERE id = ?1", [id])?;
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ipc_error::IpcErrorKind;

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
    fn opened_projects_are_listed_per_connection_most_recent_first() {
        let lib = Library::in_memory().unwrap();
        let response = |id: &str, name: Option<&str>, plan: bool| {
            let plan = plan.then(|| {
                serde_json::json!({
                    "projectId": id, "name": name, "computedAt": "2026-11-22T10:00:00Z",
                    "codeVersion": {"tree": null, "short": null}, "intent": null,
                    "progress": {"basis": "features", "built": 1, "provenWorking": 0, "total": 4, "left": 3, "percent": 25, "proposed": 0},
                    "features": [], "readyToLaunch": null, "appMap": null
                })
            });
            serde_json::from_value::<specdesk_types::PlanResponse>(serde_json::json!({
                "projectId": id, "specId": "5f0000000000000000000001", "plan": plan, "markdown": ""
            }))
            .unwrap()
        };
        let a = "0123456789abcdef01234567";
        let b = "76543210fedcba9876543210";
        lib.remember_project("sandbox", &response(a, Some("Recipes"), true))
            .unwrap();
        lib.remember_project("sandbox", &response(b, None, false))
            .unwrap();
        lib.remember_project("work", &response(a, Some("Recipes"), true))
            .unwrap();
        let listed = lib.recent_projects("sandbox", 10).unwrap();
        assert_eq!(
            listed
                .iter()
                .map(|p| p.project_id.as_str())
                .collect::<Vec<_>>(),
            [b, a]
        );
        assert_eq!(
            (
                listed[0].name.as_deref(),
                listed[0].percent,
                listed[0].total
            ),
            (None, None, None),
            "no plan yet: no progress"
        );
        assert_eq!(
            (
                listed[1].name.as_deref(),
                listed[1].percent,
                listed[1].built,
                listed[1].total
            ),
            (Some("Recipes"), Some(25), Some(1), Some(4))
        );
        // Opened again, without a name this time: it comes first and keeps the name it had.
        lib.remember_project("sandbox", &response(a, None, true))
            .unwrap();
        let listed = lib.recent_projects("sandbox", 1).unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(
            (listed[0].project_id.as_str(), listed[0].name.as_deref()),
            (a, Some("Recipes"))
        );
        lib.forget_project("sandbox", a).unwrap();
        assert_eq!(
            lib.recent_projects("sandbox", 10)
                .unwrap()
                .iter()
                .map(|p| p.project_id.as_str())
                .collect::<Vec<_>>(),
            [b]
        );
        assert_eq!(lib.recent_projects("work", 10).unwrap().len(), 1);
    }

    #[test]
    fn a_list_record_never_drops_what_a_full_read_kept() {
        let lib = Library::in_memory().unwrap();
        let full = serde_json::json!({
            "_id": "s", "status": "completed", "input": "A recipe app",
            "humanSpecJson": {"executiveSummary": "Recipes"}, "userFlowGraph": {"nodes": [], "edges": []},
            "humanSpecMarkdown": "# Recipes"
        });
        lib.cache_spec("s", "sandbox", &full).unwrap();
        let record = serde_json::json!({
            "_id": "s", "status": "completed", "input": "A recipe app", "endpoint": "fast_spec",
            "totalHumanHours": 40.0
        });
        lib.cache_spec("s", "sandbox", &record).unwrap();
        assert_eq!(
            lib.cached_spec("s").unwrap(),
            Some(serde_json::json!({
                "_id": "s", "status": "completed", "input": "A recipe app", "endpoint": "fast_spec",
                "totalHumanHours": 40.0,
                "humanSpecJson": {"executiveSummary": "Recipes"}, "userFlowGraph": {"nodes": [], "edges": []},
                "humanSpecMarkdown": "# Recipes"
            }))
        );
        assert_eq!(
            lib.cached_spec_markdown("s")
                .unwrap()
                .unwrap()
                .human
                .as_deref(),
            Some("# Recipes")
        );
    }

    #[test]
    fn a_cached_specs_state_says_which_documents_it_has() {
        let lib = Library::in_memory().unwrap();
        assert_eq!(lib.cached_spec_state("s").unwrap(), None);
        lib.cache_spec(
            "s",
            "sandbox",
            &serde_json::json!({"status": "completed", "humanSpecMarkdown": "# H"}),
        )
        .unwrap();
        let state = lib.cached_spec_state("s").unwrap().unwrap();
        assert_eq!(
            (state.has_human_markdown, state.has_agent_markdown),
            (true, false)
        );
        assert!(state.cached_at.ends_with('Z'), "{}", state.cached_at);
    }

    #[test]
    fn specs_are_cached_for_offline_reading() {
        let lib = Library::in_memory().unwrap();
        assert_eq!(lib.cached_spec("s").unwrap(), None);
        assert_eq!(lib.cached_spec_markdown("s").unwrap(), None);
        lib.cache_spec("s", "sandbox", &serde_json::json!({"v": 1}))
            .unwrap();
        lib.cache_spec("s", "sandbox", &serde_json::json!({"v": 2}))
            .unwrap();
        assert_eq!(
            lib.cached_spec("s").unwrap(),
            Some(serde_json::json!({"v": 2}))
        );
    }

    #[test]
    fn a_cached_spec_keeps_its_markdown_apart_and_lists_without_it() {
        let lib = Library::in_memory().unwrap();
        let done = serde_json::json!({
            "specId": "a1", "input": "A todo app", "status": "completed", "endpoint": "fast_spec",
            "created": "2026-11-22T10:00:00.000Z", "totalHumanHours": 42.5, "creditsUsed": 7.0,
            "humanSpecMarkdown": "# Todo\n", "codingAgentSpecMarkdown": "# Todo (agent)\n"
        });
        lib.cache_spec("a1", "sandbox", &done).unwrap();
        lib.cache_spec(
            "b2",
            "p_work",
            &serde_json::json!({"input": "A chat app", "status": "processing", "created": "2026-11-22T11:00:00.000Z"}),
        )
        .unwrap();
        // A later read without markdown (a list record) keeps the markdown already cached.
        lib.cache_spec(
            "a1",
            "sandbox",
            &serde_json::json!({"input": "A todo app", "status": "completed", "svcUrl": "https://x.example/p"}),
        )
        .unwrap();
        assert_eq!(
            lib.cached_spec_markdown("a1").unwrap(),
            Some(SpecMarkdown {
                human: Some("# Todo\n".into()),
                coding_agent: Some("# Todo (agent)\n".into())
            })
        );
        let full = lib.cached_spec("a1").unwrap().unwrap();
        assert_eq!(full["humanSpecMarkdown"], "# Todo\n");
        assert_eq!(full["svcUrl"], "https://x.example/p");

        let all = lib.cached_specs(None, 10, 0).unwrap();
        let ids: Vec<&str> = all.iter().map(|c| c.spec_id.as_str()).collect();
        assert_eq!(ids, ["b2", "a1"], "newest first");
        let a1 = &all[1];
        assert_eq!(
            (
                a1.input.as_deref(),
                a1.status.as_deref(),
                a1.endpoint.as_deref(),
                a1.created.as_deref(),
                a1.total_human_hours,
                a1.credits_used,
                a1.has_markdown
            ),
            (
                Some("A todo app"),
                Some("completed"),
                Some("fast_spec"),
                Some("2026-11-22T10:00:00.000Z"),
                Some(42.5),
                Some(7.0),
                true
            )
        );
        assert!(!all[0].has_markdown);
        let work = lib.cached_specs(Some("p_work"), 10, 0).unwrap();
        assert_eq!(work.len(), 1);
        assert_eq!(work[0].spec_id, "b2");
        assert_eq!(lib.cached_specs(None, 10, 1).unwrap().len(), 1);
    }

    #[test]
    fn a_version_1_library_is_migrated_with_its_cached_specs() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("library.sqlite");
        {
            let conn = Connection::open(&path).unwrap();
            conn.execute_batch(MIGRATIONS[0]).unwrap();
            conn.pragma_update(None, "user_version", 1).unwrap();
            conn.execute(
                "INSERT INTO spec_cache (spec_id, profile_id, json, cached_at) VALUES (?1, ?2, ?3, ?4)",
                params![
                    "old",
                    "sandbox",
                    r##"{"input":"Old spec","status":"completed","humanSpecMarkdown":"# Old"}"##,
                    "2026-11-01T00:00:00.000Z"
                ],
            )
            .unwrap();
        }
        let lib = Library::open(&path).unwrap();
        assert_eq!(lib.schema_version().unwrap(), MIGRATIONS.len() as i64);
        assert_eq!(
            lib.cached_spec_markdown("old").unwrap(),
            Some(SpecMarkdown {
                human: Some("# Old".into()),
                coding_agent: None
            })
        );
        let raw: String = lib
            .conn()
            .query_row(
                "SELECT json FROM spec_cache WHERE spec_id = 'old'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(raw, r#"{"input":"Old spec","status":"completed"}"#);
        let listed = lib.cached_specs(None, 10, 0).unwrap();
        assert_eq!(listed[0].input.as_deref(), Some("Old spec"));
        drop(lib);
        // Opening again applies nothing twice.
        assert_eq!(
            Library::open(&path).unwrap().schema_version().unwrap(),
            MIGRATIONS.len() as i64
        );
    }

    #[test]
    fn conversations_keep_their_messages_in_order() {
        let lib = Library::in_memory().unwrap();
        let first = lib
            .create_conversation("sandbox", "Naming ideas", Some("openai/gpt-5"))
            .unwrap();
        let second = lib.create_conversation("sandbox", "Other", None).unwrap();
        let user = lib
            .add_message(
                first.id,
                "user",
                &serde_json::json!("Name my app"),
                None,
                None,
            )
            .unwrap();
        let metering = Metering {
            request_id: Some("req_7".into()),
            credits_charged: Some(0.02),
            credits_remaining: Some(99.98),
        };
        lib.add_message(
            first.id,
            "assistant",
            &serde_json::json!([{"type": "text", "text": "Specdesk"}]),
            Some("openai/gpt-5"),
            Some(&metering),
        )
        .unwrap();
        let messages = lib.messages(first.id).unwrap();
        assert_eq!(messages.len(), 2);
        assert_eq!(messages[0], user);
        assert_eq!(
            (
                messages[1].role.as_str(),
                &messages[1].content,
                messages[1].request_id.as_deref(),
                messages[1].credits_charged
            ),
            (
                "assistant",
                &serde_json::json!([{"type": "text", "text": "Specdesk"}]),
                Some("req_7"),
                Some(0.02)
            )
        );
        let ids: Vec<i64> = lib
            .conversations(10, 0)
            .unwrap()
            .iter()
            .map(|c| c.id)
            .collect();
        assert_eq!(ids, [first.id, second.id], "the active one first");
        assert_eq!(
            lib.rename_conversation(second.id, "Renamed").unwrap().title,
            "Renamed"
        );
        lib.delete_conversation(first.id).unwrap();
        assert!(lib.messages(first.id).unwrap().is_empty(), "cascade");
        assert_eq!(
            lib.add_message(first.id, "user", &serde_json::json!("x"), None, None)
                .unwrap_err()
                .kind,
            IpcErrorKind::NotFound
        );
        assert_eq!(
            lib.delete_conversation(first.id).unwrap_err().kind,
            IpcErrorKind::NotFound
        );
    }

    #[test]
    fn generated_media_are_recorded_with_prompt_model_and_cost() {
        let lib = Library::in_memory().unwrap();
        let image = lib
            .add_media(&NewMedia {
                kind: MediaKind::Image,
                path: "/data/media/image-1.png",
                prompt: "A lighthouse",
                model: "openai/gpt-image-1",
                profile_id: "sandbox",
                credits: Some(0.4),
                cost: Some(0.04),
                job_id: None,
            })
            .unwrap();
        let video = lib
            .add_media(&NewMedia {
                kind: MediaKind::Video,
                path: "/data/media/video-v1.mp4",
                prompt: "Waves",
                model: "openai/sora-2",
                profile_id: "sandbox",
                credits: None,
                cost: None,
                job_id: Some(3),
            })
            .unwrap();
        assert_eq!(
            lib.media(None, 10, 0).unwrap(),
            vec![video.clone(), image.clone()]
        );
        assert_eq!(
            lib.media(Some(MediaKind::Image), 10, 0).unwrap(),
            vec![image.clone()]
        );
        assert_eq!(
            serde_json::to_value(&image).unwrap(),
            serde_json::json!({"id": image.id, "kind": "image", "path": "/data/media/image-1.png",
                "prompt": "A lighthouse", "model": "openai/gpt-image-1", "profileId": "sandbox",
                "credits": 0.4, "cost": 0.04, "createdAt": image.created_at})
        );
        assert_eq!(
            lib.delete_media(image.id).unwrap(),
            "/data/media/image-1.png"
        );
        assert_eq!(
            lib.delete_media(image.id).unwrap_err().kind,
            IpcErrorKind::NotFound
        );
        assert_eq!(lib.media(None, 10, 0).unwrap(), vec![video]);
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
}
