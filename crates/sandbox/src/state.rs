//! The sandbox's data (users, keys, specs, projects, batches, videos, faults), its clock, and
//! persistence to `--state FILE` (written atomically: temp file, then rename).

use crate::SandboxConfig;
use crate::util;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::{Notify, broadcast};

/// Grace period of a rotated key, in sandbox milliseconds.
pub const ROTATION_GRACE_MS: i64 = 15 * 60 * 1000;

/// Which well-known account a user is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Tier {
    /// Organization key, paid.
    Org,
    /// Personal, paid plan.
    Pro,
    /// Personal, no paid plan (gateway trial).
    Free,
    /// Personal, paid plan, no credits.
    Broke,
}

/// A user (or organization) of the sandbox.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct User {
    pub id: String,
    pub tier: Tier,
    /// Organization the user reads for (the org key only).
    pub org: Option<String>,
    /// Prototype credits (shared by specs, agents and a paid gateway).
    pub credits: f64,
    /// Gateway credits used of the 5-credit trial (free tier only).
    pub trial_used: f64,
}

impl User {
    /// A paid subscription tier (deep specs, plans, gateway without trial).
    pub fn paid(&self) -> bool {
        self.tier != Tier::Free
    }

    /// The gateway runs on the 5-credit trial allowance.
    pub fn on_trial(&self) -> bool {
        self.tier == Tier::Free
    }

    /// Whether this user may read a record owned by `owner`.
    pub fn can_read(&self, owner: &str, owner_org: Option<&str>) -> bool {
        owner == self.id || (self.org.is_some() && self.org.as_deref() == owner_org)
    }

    /// Takes `amount` credits from the balance (never below zero).
    pub fn charge(&mut self, amount: f64) {
        self.credits = util::round6((self.credits - amount).max(0.0));
    }
}

/// An API key and whose it is.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KeyEntry {
    pub user: String,
    /// Sandbox time after which a rotated key stops working.
    pub expires_at: Option<i64>,
}

/// A scripted fault (`POST /_sandbox/faults`).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Fault {
    #[serde(rename = "match")]
    pub matcher: FaultMatch,
    #[serde(default = "one")]
    pub times: u32,
    pub respond: Option<FaultRespond>,
    pub drop_stream_after_events: Option<u32>,
    pub delay_ms: Option<u64>,
    /// With `respond`: the request is handled first (a spec is created, a batch started), then
    /// its answer is replaced, as when a proxy fails after the service did the work.
    #[serde(default)]
    pub after_handling: bool,
}

fn one() -> u32 {
    1
}

/// Which requests a fault applies to.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FaultMatch {
    pub method: Option<String>,
    pub path: String,
}

/// A scripted response.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FaultRespond {
    pub status: Option<u16>,
    pub code: Option<String>,
    pub retry_after: Option<u64>,
    pub message: Option<String>,
}

/// A file a spec was generated from.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Upload {
    pub name: String,
    pub content_type: String,
    /// Base64 of the bytes.
    pub b64: String,
}

/// A documentation page fetched for a spec.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DocPage {
    pub platform: String,
    pub url: String,
    pub title: String,
    pub text: String,
}

/// A spec request and its lifecycle. Content is derived from the inputs on demand.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SpecRec {
    pub id: String,
    pub owner: String,
    pub owner_org: Option<String>,
    pub created: i64,
    pub deep: bool,
    pub input: String,
    /// Text read from the uploaded file.
    pub file_text: Option<String>,
    pub context: Option<String>,
    pub docs: Vec<DocPage>,
    pub upload: Option<(String, String)>,
    /// Sandbox time the work ends.
    pub due: i64,
    /// Sandbox time processing starts.
    pub processing_from: i64,
    pub fail: bool,
    pub cost: f64,
    /// `pending`, `processing`, `completed` or `failed` once settled.
    pub settled: Option<String>,
    pub project_id: Option<String>,
    pub execution_ms: f64,
}

/// A recorded coding run of a project.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RunRec {
    pub run_id: String,
    pub ended: i64,
    pub tree: String,
}

/// A feature as planned from a spec.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PlannedFeature {
    pub name: String,
    pub stories: u32,
}

/// A project created by a completed spec.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ProjectRec {
    pub id: String,
    pub owner: String,
    pub owner_org: Option<String>,
    pub spec_id: String,
    pub name: String,
    pub intent: String,
    pub created: i64,
    pub features: Vec<PlannedFeature>,
    pub runs: Vec<RunRec>,
}

/// A browser batch: its request and what has happened so far.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BatchRec {
    pub id: String,
    pub owner: String,
    pub owner_org: Option<String>,
    pub created: i64,
    pub completed_at: Option<i64>,
    pub request: specdesk_types::BatchRequest,
    pub results: Vec<Option<specdesk_types::TaskResult>>,
    pub events: Vec<Vec<specdesk_types::TaskEvent>>,
    pub status: String,
}

impl BatchRec {
    /// Tasks not finished yet.
    pub fn inflight(&self) -> usize {
        self.results.iter().filter(|r| r.is_none()).count()
    }
}

/// A video job.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct VideoRec {
    pub id: String,
    pub owner: String,
    pub model: String,
    pub prompt: String,
    pub seconds: String,
    pub size: String,
    pub created: i64,
    pub due: i64,
    pub fail: bool,
    pub charged: bool,
    pub cost: f64,
}

/// Everything the sandbox persists.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Data {
    /// Sum of every `/_sandbox/clock/advance`.
    pub clock_offset_ms: i64,
    pub users: BTreeMap<String, User>,
    pub keys: BTreeMap<String, KeyEntry>,
    pub specs: Vec<SpecRec>,
    pub projects: BTreeMap<String, ProjectRec>,
    pub batches: Vec<BatchRec>,
    /// `user \n key` → (batch id, sandbox time of the first submission).
    pub idempotency: BTreeMap<String, (String, i64)>,
    pub videos: BTreeMap<String, VideoRec>,
    pub uploads: BTreeMap<String, Upload>,
    pub faults: Vec<Fault>,
}

impl Data {
    /// The well-known users and keys.
    pub fn initial(clock_offset_ms: i64) -> Self {
        let mut d = Data {
            clock_offset_ms,
            ..Data::default()
        };
        let seeds = [
            ("sk_sandbox_org", "org_sandbox", Tier::Org, 10000.0),
            ("sk_sandbox_pro", "usr_sandbox_pro", Tier::Pro, 1000.0),
            ("sk_sandbox_free", "usr_sandbox_free", Tier::Free, 20.0),
            ("sk_sandbox_broke", "usr_sandbox_broke", Tier::Broke, 0.0),
        ];
        for (key, id, tier, credits) in seeds {
            d.users.insert(
                id.to_owned(),
                User {
                    id: id.to_owned(),
                    tier,
                    org: (tier == Tier::Org).then(|| id.to_owned()),
                    credits,
                    trial_used: 0.0,
                },
            );
            d.keys.insert(
                key.to_owned(),
                KeyEntry {
                    user: id.to_owned(),
                    expires_at: None,
                },
            );
        }
        d
    }

    /// The sandbox clock: wall time plus every advance.
    pub fn now(&self) -> i64 {
        util::wall_ms() + self.clock_offset_ms
    }

    /// The user a key belongs to, if the key is known and not expired.
    pub fn user_for_key(&self, key: &str) -> Option<&User> {
        let entry = self.keys.get(key)?;
        if let Some(exp) = entry.expires_at
            && self.now() >= exp
        {
            return None;
        }
        self.users.get(&entry.user)
    }

    /// The user (mutable) by id.
    pub fn user_mut(&mut self, id: &str) -> Option<&mut User> {
        self.users.get_mut(id)
    }
}

/// In-memory state that is never persisted: rate windows, live batch channels, streams.
#[derive(Default)]
pub struct Runtime {
    /// Gateway calls per user (sandbox ms), for the sliding 60-second window.
    pub rate: HashMap<String, VecDeque<i64>>,
    /// Live frames of running batches.
    pub batch_tx: HashMap<String, broadcast::Sender<crate::agents::Frame>>,
    /// Open batch streams per user.
    pub streams: HashMap<String, u32>,
    /// Set by `POST /_sandbox/agents/pace`: batches submitted while it is set run paced
    /// (synthetic events at a fixed rate) instead of fetching their pages. Off by default.
    pub agents_pace: Option<crate::agents::Pace>,
    /// Events emitted by paced batches since the sandbox started (for benchmarks).
    pub paced_emitted: u64,
    /// Set by `POST /_sandbox/gateway/pace`: the wait before each text delta of a chat stream.
    pub chat_pace: Option<std::time::Duration>,
    /// When the latest paced chat stream sent each text delta (epoch ms, characters so far).
    pub chat_sent: Vec<(f64, usize)>,
    /// Set with the pace (`replyChars`): chat replies are lengthened to at least this many
    /// characters with plain sentences, for benchmarks of long replies.
    pub chat_reply_chars: Option<usize>,
}

/// Everything a handler needs.
pub struct Shared {
    pub config: SandboxConfig,
    pub base_url: String,
    data: Mutex<Data>,
    pub runtime: Mutex<Runtime>,
    dirty: Notify,
    /// For the pages the emulated agents and specs read: made on first use, since building it
    /// loads the OS's trust store (tens of ms) and the app starts its embedded sandbox on the way
    /// to its first screen.
    http: std::sync::OnceLock<reqwest::Client>,
}

/// The handler state.
pub type App = Arc<Shared>;

impl Shared {
    pub fn new(config: SandboxConfig, base_url: String, data: Data) -> Self {
        // The TLS provider at once (cheap, and what any client of the process builds on); the
        // client itself, which reads the trust store, on first use.
        crate::install_tls_provider();
        Shared {
            config,
            base_url,
            data: Mutex::new(data),
            runtime: Mutex::new(Runtime::default()),
            dirty: Notify::new(),
            http: std::sync::OnceLock::new(),
        }
    }

    /// The HTTP client for outside pages (built on first use).
    pub fn http(&self) -> &reqwest::Client {
        self.http.get_or_init(|| {
            reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::limited(5))
                .user_agent("specdesk-sandbox")
                .build()
                .unwrap_or_default()
        })
    }

    /// Locks the data for reading or writing. Never held across an await.
    pub fn data(&self) -> MutexGuard<'_, Data> {
        self.data.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Locks the runtime state.
    pub fn runtime(&self) -> MutexGuard<'_, Runtime> {
        self.runtime.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Marks the data changed so the saver writes it.
    pub fn touch(&self) {
        self.dirty.notify_one();
    }

    /// The sandbox clock now.
    pub fn now(&self) -> i64 {
        self.data().now()
    }

    /// Real time a simulated piece of work takes at the configured time scale.
    pub fn sim(&self, nominal_ms: u64) -> Duration {
        let scale = self.config.time_scale.max(0.0);
        Duration::from_millis((nominal_ms as f64 * scale) as u64)
    }

    /// Absolute URL of a sandbox path.
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.base_url, path)
    }

    /// Waits until something changed (for the saver task).
    pub async fn changed(&self) {
        self.dirty.notified().await;
    }

    /// Serialises the data as JSON for the state file. Browser-task input values (credentials,
    /// form values) stay in memory only: the file keeps their names, with the values (echoed in
    /// results and in fill actions) blanked.
    pub fn snapshot(&self) -> Vec<u8> {
        let mut v = serde_json::to_value(&*self.data()).unwrap_or_default();
        if let Some(batches) = v.get_mut("batches") {
            forget_task_values(batches);
        }
        serde_json::to_vec(&v).unwrap_or_default()
    }
}

/// Blanks every task input value and action value under `v`, keeping their names.
fn forget_task_values(v: &mut serde_json::Value) {
    use serde_json::Value;
    match v {
        Value::Object(map) => {
            for (key, x) in map.iter_mut() {
                match (key.as_str(), &mut *x) {
                    ("input", Value::Object(values)) => {
                        for value in values.values_mut() {
                            *value = Value::String(String::new());
                        }
                    }
                    ("value", Value::String(value)) => value.clear(),
                    _ => forget_task_values(x),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(forget_task_values),
        _ => {}
    }
}

/// Reads a state file written by [`save`]; `None` when it does not exist or is unreadable. An
/// unreadable one is set aside (`<name>.damaged-<unix ms>`) first, so the fresh state saved next
/// never overwrites it.
pub fn load(path: &Path) -> Option<Data> {
    let bytes = std::fs::read(path).ok()?;
    match serde_json::from_slice(&bytes) {
        Ok(d) => Some(d),
        Err(e) => {
            let ms = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis());
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "state".into());
            let aside = path.with_file_name(format!("{name}.damaged-{ms}"));
            match std::fs::rename(path, &aside) {
                Ok(()) => tracing::warn!(
                    "the state file {} did not read ({e}); kept as {}",
                    path.display(),
                    aside.display()
                ),
                Err(r) => tracing::warn!(
                    "the state file {} did not read ({e}) and could not be set aside ({r})",
                    path.display()
                ),
            }
            None
        }
    }
}

/// Writes `bytes` to `path` atomically: a temp file beside it, synced, then renamed over it.
pub fn save(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    std::fs::create_dir_all(&dir)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "state".into());
    let tmp = dir.join(format!(".{name}.{}.tmp", util::random_hex(8)));
    {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)
}

/// Keeps the state file current: writes shortly after each change, until `stop` fires.
pub async fn saver(app: App, path: PathBuf, mut stop: tokio::sync::watch::Receiver<bool>) {
    loop {
        tokio::select! {
            _ = app.changed() => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                let bytes = app.snapshot();
                let p = path.clone();
                let r = tokio::task::spawn_blocking(move || save(&p, &bytes)).await;
                if let Ok(Err(e)) = r {
                    tracing::warn!("could not save state to {}: {e}", path.display());
                }
            }
            _ = stop.changed() => break,
        }
    }
}
