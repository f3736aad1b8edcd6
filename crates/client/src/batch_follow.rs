//! Following a browser batch to its end: its live stream first; when the stream drops or stalls,
//! `GET /{id}?includeEvents=true` polling; and after a few polls the live stream again. Every
//! event and result is delivered once, whichever way it came.
//!
//! Going back to live sends the same submission (the same idempotency key) with `stream: true`:
//! the sandbox answers with the batch's stream from its start, then live. The contract does not
//! say a repeated key replays the stream, so a stream opened again is trusted only as far as it
//! repeats what was delivered: for each task, the event at the position last delivered must be
//! that same event, and a `done` must come after every task's delivered events. A stream that
//! does not is left for polling, which reads the service's whole timeline (nothing is lost).

use std::collections::{HashMap, HashSet};

use futures::{Stream, StreamExt};
use specdesk_types::{Batch, StreamFrame, TaskEvent, TaskResultFrame};

use crate::agents::{Agents, AgentsRoute, BatchUpdate, Pace, PreparedBatch};
use crate::error::{Error, Result};
use crate::http::Shared;

/// Polls after a dropped stream before the live connection is tried again; doubled after each try
/// that brings nothing new.
const POLLS_BEFORE_LIVE: u32 = 2;
/// How many tries in a row may bring nothing new; then the batch is polled to its end.
const LIVE_TRIES: u32 = 4;

const ENDED: &str = "The live connection ended before the batch finished.";
const KEY_TOO_OLD: &str = "The live connection ended, and this batch was sent too long ago to ask the service for it again by its key.";
const NOT_A_REPLAY: &str =
    "The live connection came back with a different history, so progress is read by polling.";

/// Events and results already delivered, per task.
#[derive(Debug, Default)]
pub(crate) struct Seen {
    /// How many events of each task were delivered, and the last of them.
    events: HashMap<u32, usize>,
    last: HashMap<u32, TaskEvent>,
    results: HashSet<u32>,
}

impl Seen {
    fn delivered(&mut self, event: &TaskEvent, count: usize) {
        self.events.insert(event.task_index, count);
        self.last.insert(event.task_index, event.clone());
    }

    /// The updates a polled batch adds to what was already delivered.
    fn updates_from(&mut self, batch: &Batch) -> Vec<BatchUpdate> {
        let mut out = Vec::new();
        for (position, result) in batch.results.iter().enumerate() {
            let events = result.events.as_deref().unwrap_or_default();
            let index = events
                .first()
                .map(|e| e.task_index)
                .unwrap_or(position as u32);
            let held = self.events.get(&index).copied().unwrap_or(0);
            for (at, event) in events.iter().enumerate().skip(held) {
                out.push(BatchUpdate::Event(event.clone()));
                self.delivered(event, at + 1);
            }
            let finished = events.iter().any(|e| e.kind.is_terminal())
                || batch.status.is_terminal()
                || result.events.is_none();
            if finished && self.results.insert(index) {
                out.push(BatchUpdate::Result(TaskResultFrame {
                    task_index: index,
                    status: result.status.clone(),
                    data: result.data.clone(),
                }));
            }
        }
        out
    }
}

/// What to do with one frame of a stream.
enum Admit {
    Yield(BatchUpdate),
    /// Already delivered (a replay repeating it).
    Skip,
    /// The stream does not repeat what was delivered: leave it, saying why.
    Leave(&'static str),
}

/// One stream's frames against what was delivered.
#[derive(Default)]
struct StreamRead {
    /// Events this stream sent per task.
    streamed: HashMap<u32, usize>,
    /// Whether the stream brought anything new (or confirmed a replay).
    trusted: bool,
}

impl StreamRead {
    fn admit(&mut self, seen: &mut Seen, frame: StreamFrame) -> Admit {
        match frame {
            StreamFrame::TaskEvent(e) => {
                let n = self.streamed.entry(e.task_index).or_default();
                *n += 1;
                let held = seen.events.get(&e.task_index).copied().unwrap_or(0);
                if *n > held {
                    seen.delivered(&e, *n);
                    self.trusted = true;
                    Admit::Yield(BatchUpdate::Event(e))
                } else if *n < held {
                    Admit::Skip
                } else if seen.last.get(&e.task_index) == Some(&e) {
                    self.trusted = true;
                    Admit::Skip
                } else {
                    Admit::Leave(NOT_A_REPLAY)
                }
            }
            StreamFrame::TaskResult(r) => {
                if seen.results.insert(r.task_index) {
                    self.trusted = true;
                    Admit::Yield(BatchUpdate::Result(r))
                } else {
                    Admit::Skip
                }
            }
            StreamFrame::Done(b) => {
                let short = seen
                    .events
                    .iter()
                    .any(|(task, held)| self.streamed.get(task).copied().unwrap_or(0) < *held);
                if short {
                    Admit::Leave(NOT_A_REPLAY)
                } else {
                    Admit::Yield(BatchUpdate::Done(b))
                }
            }
        }
    }
}

/// Submits `batch` with `stream: true` and follows it to the end (see the module's comment).
pub(crate) fn follow(
    inner: Shared,
    route: AgentsRoute,
    batch: PreparedBatch,
    pace: Pace,
) -> impl Stream<Item = Result<BatchUpdate>> + Send + 'static {
    async_stream::try_stream! {
        let mut seen = Seen::default();
        // Polls since the timelines were last read while polling (see `poll_paced`).
        let mut since_events = u32::MAX;
        let agents = Agents::new(&inner, route);
        // Known once the stream first dropped (found by the key).
        let mut batch_id: Option<String> = None;
        let mut tries = 0u32;
        loop {
            let reason = match agents.stream(&batch).await {
                // The first send refused: the caller decides (no room, no credits…).
                Err(e) if batch_id.is_none() && !matches!(e, Error::Stream { .. } | Error::Transport { .. }) => Err(e)?,
                // Back to live refused or out of reach: polling goes on, said once already.
                Err(_) if batch_id.is_some() => None,
                Err(e) => Some(e.to_string()),
                Ok(frames) => {
                    let mut frames = std::pin::pin!(frames);
                    let mut read = StreamRead::default();
                    let mut reason = ENDED.to_owned();
                    let mut live_said = batch_id.is_none();
                    while let Some(frame) = frames.next().await {
                        let admitted = match frame {
                            Ok(frame) => read.admit(&mut seen, frame),
                            Err(e) => {
                                reason = e.to_string();
                                break;
                            }
                        };
                        if let Admit::Leave(why) = admitted {
                            reason = why.to_owned();
                            break;
                        }
                        // Back on the stream once it is known to be right.
                        if !live_said && read.trusted && let Some(id) = &batch_id {
                            live_said = true;
                            tries = 0;
                            yield BatchUpdate::Live { batch_id: id.clone() };
                        }
                        if let Admit::Yield(update) = admitted {
                            let done = matches!(update, BatchUpdate::Done(_));
                            yield update;
                            if done {
                                return;
                            }
                        }
                    }
                    // A stream opened again that never proved right leaves the view on polling.
                    live_said.then_some(reason)
                }
            };
            let id = match &batch_id {
                Some(id) => id.clone(),
                // The same key finds the batch the stream was about, without creating another
                // (while the service still keeps the key: past it, the caller finds it).
                None if !batch.may_post_again() => Err(Error::Stream {
                    message: KEY_TOO_OLD.to_owned(),
                })?,
                None => agents.start(&batch).await?.id,
            };
            batch_id = Some(id.clone());
            if let Some(reason) = reason {
                yield BatchUpdate::Polling { batch_id: id.clone(), reason };
            }
            // Polls until the batch ends, or until it is time to try the live connection again.
            let mut left = (tries < LIVE_TRIES).then(|| POLLS_BEFORE_LIVE << tries);
            tries += 1;
            loop {
                let updates = poll_paced(&agents, &id, &mut seen, &pace, &mut since_events).await?;
                let ended = matches!(updates.last(), Some(BatchUpdate::Done(_)));
                for update in updates {
                    yield update;
                }
                if ended {
                    return;
                }
                tokio::time::sleep(inner.config.job_poll_interval).await;
                if let Some(n) = left.as_mut() {
                    *n -= 1;
                    if *n == 0 {
                        // Back to live posts the key again: only while the service keeps it.
                        if batch.may_post_again() {
                            break;
                        }
                        left = None;
                    }
                }
            }
        }
    }
}

/// Follows batch `batch_id` by polling only, at `pace` (see `Agents::follow_batch_paced`): what
/// it adds to what was yielded, each event and result once, then `Done`.
pub(crate) fn poll_batch(
    inner: Shared,
    route: AgentsRoute,
    batch_id: String,
    pace: Pace,
) -> impl Stream<Item = Result<BatchUpdate>> + Send + 'static {
    async_stream::try_stream! {
        let mut seen = Seen::default();
        let interval = inner.config.job_poll_interval;
        let agents = Agents::new(&inner, route);
        let mut since_events = u32::MAX;
        loop {
            let updates = poll_paced(&agents, &batch_id, &mut seen, &pace, &mut since_events).await?;
            let ended = matches!(updates.last(), Some(BatchUpdate::Done(_)));
            for update in updates {
                yield update;
            }
            if ended {
                return;
            }
            tokio::time::sleep(interval).await;
        }
    }
}

/// One poll of a batch at `pace`: with its timelines while watched, at one poll in
/// `pace.events_every` (`since_events` counts the polls since the last such read; none yet:
/// `u32::MAX`), what they add to `seen`; else its status only (`Progress`). Once it has ended, its
/// timeline (read now unless this poll had it), then `Done`.
async fn poll_paced(
    agents: &Agents<'_>,
    batch_id: &str,
    seen: &mut Seen,
    pace: &Pace,
    since_events: &mut u32,
) -> Result<Vec<BatchUpdate>> {
    let with_events = pace.watched() && *since_events >= pace.events_every - 1;
    let batch = agents.get(batch_id, with_events).await?;
    *since_events = if with_events {
        0
    } else {
        since_events.saturating_add(1)
    };
    let mut updates = if with_events {
        seen.updates_from(&batch)
    } else {
        vec![BatchUpdate::Progress {
            completed: batch.completed,
            total: batch.total,
        }]
    };
    if batch.status.is_terminal() {
        let batch = if with_events {
            batch
        } else {
            agents.get(batch_id, true).await?
        };
        if !with_events {
            updates.extend(seen.updates_from(&batch));
        }
        updates.push(BatchUpdate::Done(Box::new(batch)));
    }
    Ok(updates)
}
