//! Browser agents (`/api/v1/browser-agents`): submit (wait, async, stream), follow a batch with a
//! polling fallback, read, list, capacity.

use futures::{Stream, StreamExt};
use specdesk_types::{
    Batch, BatchList, BatchRequest, BatchStatus, BrowserTask, CapacitySnapshot, StreamFrame,
    TaskEvent, TaskResultFrame,
};

use crate::batch_follow;
use crate::error::{Error, Result};
use crate::http::{Call, Family, Shared};
use crate::validate;

/// Which of the spec's equivalent paths the browser-agent calls use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AgentsRoute {
    /// `/api/v1/browser-agents` (the current path).
    #[default]
    BrowserAgents,
    /// `/api/v1/browser-tasks`, the older alias.
    BrowserTasks,
    /// Submissions to `POST /browser-agent`; reads on `/api/v1/browser-agents`.
    LegacySubmission,
}

impl AgentsRoute {
    fn base(self) -> &'static str {
        match self {
            AgentsRoute::BrowserTasks => "api/v1/browser-tasks",
            _ => "api/v1/browser-agents",
        }
    }

    fn submit_path(self) -> &'static str {
        match self {
            AgentsRoute::LegacySubmission => "browser-agent",
            other => other.base(),
        }
    }
}

/// Options of a submission.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BatchOptions {
    /// Tasks run at once, 1-20.
    pub concurrency: Option<u32>,
    /// Idempotency key; one is generated when `None`.
    pub idempotency_key: Option<String>,
}

/// A validated submission with its idempotency key, to be written to the job ledger before it is
/// sent. Sending it again (after a crash, a lost answer) never creates a second batch within the
/// service's 24-hour window; past it, [`PreparedBatch::guarded`] keeps it from being sent again.
#[derive(Debug, Clone, PartialEq)]
pub struct PreparedBatch {
    idempotency_key: String,
    tasks: Vec<BrowserTask>,
    concurrency: Option<u32>,
    guard: Option<PostGuard>,
}

/// How a polled batch's timelines are read (see [`Agents::follow_batch_paced`]).
#[derive(Clone)]
pub struct Pace {
    watched: std::sync::Arc<dyn Fn() -> bool + Send + Sync>,
    /// While the batch is watched, the timelines are read at one poll in this many (at least 1).
    pub events_every: u32,
}

impl Pace {
    /// Timelines read while `watched` says someone watches, at one poll in `events_every`.
    pub fn new(watched: impl Fn() -> bool + Send + Sync + 'static, events_every: u32) -> Self {
        Pace {
            watched: std::sync::Arc::new(watched),
            events_every: events_every.max(1),
        }
    }

    /// Timelines read at every poll (someone always watches).
    pub fn always_watched() -> Self {
        Pace::new(|| true, 1)
    }

    pub(crate) fn watched(&self) -> bool {
        (self.watched)()
    }
}

impl std::fmt::Debug for Pace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pace")
            .field("events_every", &self.events_every)
            .finish_non_exhaustive()
    }
}

/// Says whether a prepared batch's key may still be posted (see [`PreparedBatch::guarded`]).
#[derive(Clone)]
pub struct PostGuard(std::sync::Arc<dyn Fn() -> bool + Send + Sync>);

impl std::fmt::Debug for PostGuard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PostGuard")
    }
}

impl PartialEq for PostGuard {
    fn eq(&self, other: &Self) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl PreparedBatch {
    /// Lets [`Agents::follow`] post this submission again (to go back to the live stream, or to
    /// find the batch's id after a dropped stream) only while `may_post` says its key is still in
    /// the service's window: past it, a post would make a second batch. Refused, the batch is
    /// polled to its end by the id it has, or, without one, the follow ends with a `Stream`
    /// error for the caller to find the batch another way.
    pub fn guarded(mut self, may_post: impl Fn() -> bool + Send + Sync + 'static) -> Self {
        self.guard = Some(PostGuard(std::sync::Arc::new(may_post)));
        self
    }

    /// Whether this submission may be posted again now (always, when not guarded).
    pub fn may_post_again(&self) -> bool {
        self.guard.as_ref().is_none_or(|g| (g.0)())
    }

    /// The key this submission carries.
    pub fn idempotency_key(&self) -> &str {
        &self.idempotency_key
    }

    /// The tasks.
    pub fn tasks(&self) -> &[BrowserTask] {
        &self.tasks
    }

    /// The concurrency.
    pub fn concurrency(&self) -> Option<u32> {
        self.concurrency
    }

    fn call(&self, route: AgentsRoute, is_async: bool, stream: bool) -> Result<Call> {
        let body = BatchRequest {
            tasks: self.tasks.clone(),
            concurrency: self.concurrency,
            is_async: is_async.then_some(true),
            stream: stream.then_some(true),
            idempotency_key: Some(self.idempotency_key.clone()),
        };
        Call::post(route.submit_path(), Family::Rest)
            .idempotency_key(self.idempotency_key.clone())
            .no_busy_retry()
            .json(&body)
    }
}

/// Checks a submission as the service would, before anything is sent: the first of
/// [`task_problems`].
pub fn validate_tasks(tasks: &[BrowserTask], options: &BatchOptions) -> Result<()> {
    match task_problems(tasks, options).into_iter().next() {
        Some(problem) => Err(problem),
        None => Ok(()),
    }
}

/// Every problem of a submission, in order (the batch, then each task's fields, then the
/// options), each an [`Error::InvalidInput`] naming its field (`tasks[3].url`). Empty when the
/// submission can be sent.
pub fn task_problems(tasks: &[BrowserTask], options: &BatchOptions) -> Vec<Error> {
    let mut problems = Vec::new();
    if tasks.is_empty() {
        problems.push(Error::invalid("tasks", "Add at least one task to run."));
    }
    if tasks.len() > validate::MAX_TASKS {
        problems.push(Error::invalid(
            "tasks",
            format!(
                "A batch can hold at most 1000 tasks; this one has {}. Split it into smaller batches.",
                tasks.len()
            ),
        ));
    }
    for (i, task) in tasks.iter().enumerate() {
        task_field_problems(i, task, &mut problems);
    }
    if let Some(c) = options.concurrency
        && !validate::CONCURRENCY_RANGE.contains(&i64::from(c))
    {
        problems.push(Error::invalid(
            "concurrency",
            format!("Tasks at once must be between 1 and 20 (it was {c})."),
        ));
    }
    if let Some(key) = &options.idempotency_key
        && (key.trim().is_empty() || key.len() > 255)
    {
        problems.push(Error::invalid(
            "idempotencyKey",
            "The idempotency key must be 1 to 255 characters.",
        ));
    }
    problems
}

/// The problems of task `i` (shown to people as task `i + 1`).
fn task_field_problems(i: usize, task: &BrowserTask, problems: &mut Vec<Error>) {
    let n = i + 1;
    let mut push = |field: &str, message: String| {
        problems.push(Error::invalid(format!("tasks[{i}].{field}"), message));
    };
    if task.url.trim().is_empty() {
        push(
            "url",
            format!("Task {n} has no start address. Enter the page it starts on."),
        );
    } else if validate::web_url("url", &task.url).is_err() {
        push(
            "url",
            format!(
                "Task {n}: \"{}\" is not a full web address. Start it with https:// or http://.",
                task.url
            ),
        );
    }
    if let Some(schema) = &task.output {
        if !schema.is_object() {
            push(
                "output",
                format!("Task {n}: the output schema must be a JSON object."),
            );
        } else if let Err(e) = jsonschema::validator_for(schema) {
            push(
                "output",
                format!(
                    "Task {n}: the output schema is not a valid JSON Schema ({e}). Fix it, or start from one of the starter schemas."
                ),
            );
        }
    }
    if task.timeout_ms == Some(0) {
        push(
            "timeoutMs",
            format!("Task {n}: the time limit must be more than 0."),
        );
    }
    if task.max_steps == Some(0) {
        push(
            "maxSteps",
            format!("Task {n}: the step limit must be at least 1."),
        );
    }
    if task.max_duration_seconds == Some(0) {
        push(
            "maxDurationSeconds",
            format!("Task {n}: the duration limit must be at least 1 second."),
        );
    }
}

/// What following a batch yields. Each event and each result comes exactly once, whether it
/// came from the stream or from polling.
#[derive(Debug, Clone, PartialEq)]
pub enum BatchUpdate {
    /// A new entry of a task's timeline.
    Event(TaskEvent),
    /// A task finished.
    Result(TaskResultFrame),
    /// The stream dropped or stalled; progress is now read by polling this batch.
    Polling {
        batch_id: String,
        /// Why the stream was left, in plain words.
        reason: String,
    },
    /// Back on the live stream after polling (what it replays is not yielded again).
    Live { batch_id: String },
    /// How far the batch is, from a read of its status without the timelines (polled while
    /// nobody watches it, or between two reads of its timelines: see
    /// [`Agents::follow_batch_paced`]).
    Progress {
        /// Tasks finished.
        completed: u32,
        /// Tasks in the batch.
        total: u32,
    },
    /// The batch is finished; the full result.
    Done(Box<Batch>),
}

/// Browser agents.
pub struct Agents<'c> {
    inner: &'c Shared,
    route: AgentsRoute,
}

impl<'c> Agents<'c> {
    pub(crate) fn new(inner: &'c Shared, route: AgentsRoute) -> Self {
        Agents { inner, route }
    }

    /// Validates a submission and gives it its idempotency key (generated when none is given).
    /// Persist the key, then send with [`Agents::run`], [`Agents::start`] or [`Agents::follow`].
    pub fn prepare(&self, tasks: Vec<BrowserTask>, options: BatchOptions) -> Result<PreparedBatch> {
        validate_tasks(&tasks, &options)?;
        Ok(PreparedBatch {
            idempotency_key: options
                .idempotency_key
                .unwrap_or_else(|| uuid::Uuid::new_v4().to_string()),
            tasks,
            concurrency: options.concurrency,
            guard: None,
        })
    }

    /// Submits and waits until every task has finished.
    pub async fn run(&self, batch: &PreparedBatch) -> Result<Batch> {
        Ok(self
            .inner
            .json(&batch.call(self.route, false, false)?)
            .await?
            .0)
    }

    /// Submits and answers at once (`status: processing`, no results yet). Submitting the same
    /// prepared batch again returns the existing batch.
    pub async fn start(&self, batch: &PreparedBatch) -> Result<Batch> {
        Ok(self
            .inner
            .json(&batch.call(self.route, true, false)?)
            .await?
            .0)
    }

    /// Submits with `stream: true` and yields the raw frames. Ends after `done`; ends with a
    /// `Stream` error if the connection drops or stays silent for three keepalive intervals.
    /// Dropping the stream closes the connection (the batch keeps running on the service).
    pub async fn stream(
        &self,
        batch: &PreparedBatch,
    ) -> Result<impl Stream<Item = Result<StreamFrame>> + Send + 'static> {
        let (events, _) = self
            .inner
            .sse(&batch.call(self.route, false, true)?)
            .await?;
        Ok(frames(events))
    }

    /// Submits with `stream: true` and follows the batch to the end: when the stream drops or
    /// stalls, finds the batch by its idempotency key and polls `GET /{id}?includeEvents=true`,
    /// then tries the live stream again (`batch_follow`). Every event and result is yielded
    /// exactly once.
    pub fn follow(
        &self,
        batch: &PreparedBatch,
    ) -> impl Stream<Item = Result<BatchUpdate>> + Send + 'static {
        self.follow_paced(batch, Pace::always_watched())
    }

    /// [`Agents::follow`], its polls (while the stream is down) at `pace`, as
    /// [`Agents::follow_batch_paced`]'s.
    pub fn follow_paced(
        &self,
        batch: &PreparedBatch,
        pace: Pace,
    ) -> impl Stream<Item = Result<BatchUpdate>> + Send + 'static {
        batch_follow::follow(self.inner.clone(), self.route, batch.clone(), pace)
    }

    /// Follows an existing batch by polling (for example after a restart): yields its timeline so
    /// far, then each new event and result once, then `Done`. Every poll reads the timelines
    /// (the whole batch): see [`Agents::follow_batch_paced`] for a follower nobody may watch.
    pub fn follow_batch(
        &self,
        batch_id: &str,
    ) -> impl Stream<Item = Result<BatchUpdate>> + Send + 'static {
        self.follow_batch_paced(batch_id, Pace::always_watched())
    }

    /// Follows an existing batch by polling at `pace`: while nobody watches it, each poll reads
    /// its status only (no timelines: `Progress`); while watched, the timelines are read at one
    /// poll in `Pace::events_every` (the contract has no since-cursor, so each such read is the
    /// whole batch), its status at the polls in between; once it has ended, its timeline is read once (the events
    /// and results not yielded yet), then `Done`.
    pub fn follow_batch_paced(
        &self,
        batch_id: &str,
        pace: Pace,
    ) -> impl Stream<Item = Result<BatchUpdate>> + Send + 'static {
        let inner = self.inner.clone();
        let route = self.route;
        let batch_id = batch_id.to_owned();
        async_stream::try_stream! {
            validate::path_id("batchId", &batch_id)?;
            let mut updates = std::pin::pin!(batch_follow::poll_batch(inner, route, batch_id, pace));
            while let Some(update) = updates.next().await {
                yield update?;
            }
        }
    }

    /// `GET /api/v1/browser-agents/{id}`, with each task's timeline when `include_events`.
    pub async fn get(&self, batch_id: &str, include_events: bool) -> Result<Batch> {
        validate::path_id("batchId", batch_id)?;
        let call = Call::get(format!("{}/{batch_id}", self.route.base()), Family::Rest)
            .query_opt("includeEvents", include_events.then_some("true"));
        Ok(self.inner.json(&call).await?.0)
    }

    /// The caller's batches, newest first.
    pub async fn list(
        &self,
        limit: Option<i64>,
        skip: Option<i64>,
        status: Option<BatchStatus>,
    ) -> Result<BatchList> {
        if let Some(l) = limit {
            validate::limit(l)?;
        }
        if let Some(s) = skip {
            validate::skip(s)?;
        }
        let call = Call::get(self.route.base(), Family::Rest)
            .query_opt("limit", limit)
            .query_opt("skip", skip)
            .query_opt("status", status.as_ref());
        Ok(self.inner.json(&call).await?.0)
    }

    /// The service's capacity snapshot.
    pub async fn capacity(&self) -> Result<CapacitySnapshot> {
        let call = Call::get(
            format!("{}/_system/capacity", self.route.base()),
            Family::Rest,
        );
        Ok(self.inner.json(&call).await?.0)
    }
}

fn frames(
    events: crate::http::SseStream,
) -> impl Stream<Item = Result<StreamFrame>> + Send + 'static {
    async_stream::try_stream! {
        let mut events = events;
        while let Some(event) = events.next().await {
            let event = event?;
            let name = if event.event.is_empty() { "message" } else { event.event.as_str() };
            let frame = StreamFrame::decode(name, &event.data).map_err(|e| Error::Stream {
                message: format!("The live connection sent a {name} frame Specdesk could not read: {e}."),
            })?;
            if let Some(frame) = frame {
                let done = matches!(frame, StreamFrame::Done(_));
                yield frame;
                if done {
                    return;
                }
            }
        }
        Err(Error::Stream { message: "The live connection ended before the batch finished.".to_owned() })?;
    }
}

/// Decodes the frames of a batch stream from its server-sent events (the decoder `stream` uses;
/// public for benchmarks).
pub fn batch_frames(
    events: crate::http::SseStream,
) -> impl Stream<Item = Result<StreamFrame>> + Send + 'static {
    frames(events)
}
