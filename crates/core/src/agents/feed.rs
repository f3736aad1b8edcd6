//! A batch's timeline as its one follower sees it, shared with every watcher.
//!
//! The job runner's follower of a batch publishes into the batch's [`Feed`]; `watch_batch`
//! reads it with a [`FeedReader`] (what was published so far, then what comes). A follower that
//! starts again (after a network error, or a relaunch) reads the batch's timeline from its start
//! once more: [`FeedWriter`] lets through only what the feed does not hold yet, so a watcher sees
//! every event and every result once, in order. Readers never lag: they keep their place in the
//! feed's list instead of a bounded queue.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::Notify;

use crate::events::BatchEvent;

/// The open feeds, each under its job's key (`job-<id>`) and, once the service named the batch,
/// under the batch id too.
#[derive(Default)]
pub struct BatchFeeds {
    feeds: Mutex<HashMap<String, Arc<Feed>>>,
}

/// While a batch's view is open, its timelines are read from the service at one poll in this
/// many (each read is the whole batch, screenshots included: BENCHMARKS.md); its status at the
/// others. While nobody watches, only its status, and its timeline once at the end.
pub const EVENTS_EVERY_POLLS: u32 = 3;

/// How the follower of `feed`'s batch polls it: the timelines only while someone reads the feed.
pub fn pace_of(feed: &Arc<Feed>) -> specdesk_client::Pace {
    let feed = Arc::downgrade(feed);
    specdesk_client::Pace::new(
        move || feed.upgrade().is_some_and(|f| f.watched()),
        EVENTS_EVERY_POLLS,
    )
}

/// The key of job `job_id`'s feed.
pub fn job_key(job_id: i64) -> String {
    format!("job-{job_id}")
}

impl BatchFeeds {
    fn map(&self) -> MutexGuard<'_, HashMap<String, Arc<Feed>>> {
        self.feeds.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The feed under `key`, opened if there is none.
    pub fn open(&self, key: &str) -> Arc<Feed> {
        self.map().entry(key.to_owned()).or_default().clone()
    }

    /// The feed under `key`, and whether it was opened by this call (none was open).
    pub fn open_new(&self, key: &str) -> (Arc<Feed>, bool) {
        let mut map = self.map();
        if let Some(feed) = map.get(key) {
            return (feed.clone(), false);
        }
        let feed = Arc::new(Feed::default());
        map.insert(key.to_owned(), feed.clone());
        (feed, true)
    }

    /// The feed under `key`, if one is open.
    pub fn get(&self, key: &str) -> Option<Arc<Feed>> {
        self.map().get(key).cloned()
    }

    /// Files `feed` under `key` as well (a batch id learnt while following).
    pub fn alias(&self, key: &str, feed: &Arc<Feed>) {
        self.map().insert(key.to_owned(), feed.clone());
    }

    /// Forgets `feed` under every key (readers holding it read it to its end).
    pub fn close(&self, feed: &Arc<Feed>) {
        self.map().retain(|_, f| !Arc::ptr_eq(f, feed));
    }
}

/// One batch's timeline: every event published, in order, and whether it ended.
#[derive(Default)]
pub struct Feed {
    state: Mutex<FeedState>,
    changed: Notify,
    /// Readers alive now: while there is none, nobody watches the batch, and its follower reads
    /// the service's status without the timelines (`watched`).
    readers: std::sync::atomic::AtomicUsize,
}

#[derive(Default)]
struct FeedState {
    events: Vec<BatchEvent>,
    /// Timeline entries held per task, and the tasks whose result is held.
    per_task: HashMap<u32, usize>,
    results: HashSet<u32>,
    /// The last word on the connection (polling, live, reconnecting): a follower that starts
    /// again and says the same is not repeated.
    connection: Option<BatchEvent>,
    ended: bool,
}

impl Feed {
    fn state(&self) -> MutexGuard<'_, FeedState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A writer for one run of a follower (its own count of what it has read per task).
    pub fn writer(self: &Arc<Self>) -> FeedWriter {
        FeedWriter {
            feed: self.clone(),
            read_per_task: HashMap::new(),
        }
    }

    /// A reader from the feed's start.
    pub fn reader(self: &Arc<Self>) -> FeedReader {
        self.readers
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        FeedReader {
            feed: self.clone(),
            read: 0,
        }
    }

    /// Whether someone reads the feed now (a batch's view is open).
    pub fn watched(&self) -> bool {
        self.readers.load(std::sync::atomic::Ordering::SeqCst) > 0
    }

    /// Everything published so far.
    pub fn events(&self) -> Vec<BatchEvent> {
        self.state().events.clone()
    }

    /// Whether the feed has its last event.
    pub fn ended(&self) -> bool {
        self.state().ended
    }

    fn push(&self, event: BatchEvent, end: bool) {
        let mut state = self.state();
        if state.ended {
            return;
        }
        state.events.push(event);
        state.ended = end;
        drop(state);
        self.changed.notify_waiters();
    }

    /// Ends the feed with `last` (`done` or `error`); nothing is published after it. A batch's
    /// input values never enter the feed, whoever ends it.
    pub fn end(&self, last: BatchEvent) {
        self.push(super::event_without_values(last), true);
    }
}

/// Publishes what one run of a follower reads, skipping what the feed holds already.
pub struct FeedWriter {
    feed: Arc<Feed>,
    read_per_task: HashMap<u32, usize>,
}

impl FeedWriter {
    /// Everything the feed holds so far.
    pub fn events(&self) -> Vec<BatchEvent> {
        self.feed.events()
    }

    /// Publishes `event` unless an earlier run published it (`done` and `error` end the feed).
    /// Input values never enter the feed (its readers are the web view and the kept timeline).
    pub fn publish(&mut self, event: BatchEvent) {
        let event = super::event_without_values(event);
        let fresh = {
            let mut state = self.feed.state();
            match &event {
                BatchEvent::TaskEvent { event } => {
                    let read = self.read_per_task.entry(event.task_index).or_default();
                    *read += 1;
                    let held = state.per_task.entry(event.task_index).or_default();
                    let fresh = *read > *held;
                    if fresh {
                        *held = *read;
                    }
                    fresh
                }
                BatchEvent::TaskResult { result } => state.results.insert(result.task_index),
                BatchEvent::Polling { .. }
                | BatchEvent::Live { .. }
                | BatchEvent::Reconnecting { .. } => {
                    let fresh = state.connection.as_ref() != Some(&event);
                    if fresh {
                        state.connection = Some(event.clone());
                    }
                    fresh
                }
                BatchEvent::Done { .. } | BatchEvent::Error { .. } => {
                    drop(state);
                    self.feed.end(event);
                    return;
                }
            }
        };
        if fresh {
            self.feed.push(event, false);
        }
    }
}

/// Reads a feed from its start: what is there, then what comes, to its end.
pub struct FeedReader {
    feed: Arc<Feed>,
    read: usize,
}

impl Drop for FeedReader {
    fn drop(&mut self) {
        self.feed
            .readers
            .fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

impl FeedReader {
    /// What was published since the last read, without waiting (empty when nothing was).
    pub fn ready(&mut self) -> Vec<BatchEvent> {
        self.take().0
    }

    /// What is new, and whether the feed had ended when it was read (one look, so the last
    /// event is never missed).
    fn take(&mut self) -> (Vec<BatchEvent>, bool) {
        let state = self.feed.state();
        let new = state.events[self.read..].to_vec();
        self.read = state.events.len();
        (new, state.ended)
    }

    /// Waits for something not read yet and returns all of it; `None` once the feed ended and
    /// everything was read.
    pub async fn next(&mut self) -> Option<Vec<BatchEvent>> {
        loop {
            // Registered before looking, so a publish in between still wakes this reader.
            let feed = self.feed.clone();
            let changed = feed.changed.notified();
            let mut changed = std::pin::pin!(changed);
            changed.as_mut().enable();
            let (new, ended) = self.take();
            if !new.is_empty() {
                return Some(new);
            }
            if ended {
                return None;
            }
            changed.await;
        }
    }
}
