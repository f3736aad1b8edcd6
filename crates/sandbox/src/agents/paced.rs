//! Paced batches, for benchmarks of a live view: while `POST /_sandbox/agents/pace` holds a rate
//! (off by default), a new batch's tasks fetch nothing. The batch emits synthetic events at
//! `eventsPerSecond` in all, `concurrency` tasks at a time, each running task taking the next
//! event in turn; every task emits `eventsPerTask` events (its browser starting, a page loaded,
//! a one-chunk screenshot, then plans and actions, and `done` with SUCCESS), then its result.
//! The rate is read again on every tick, so a running batch follows a new pace; turning the pace
//! off lets running paced batches end at their last rate.

use super::events::{emit_many, finish};
use super::{complete_batch, result_for};
use crate::state::App;
use serde_json::json;
use specdesk_types::{
    ActionEvent, BrowserTask, NavigationEvent, PlanEvent, PlannedAction, SandboxEvent,
    ScreenshotEvent, TaskDoneEvent, TaskEventKind, TaskStatus,
};
use std::time::{Duration, Instant};
use tokio::time::MissedTickBehavior;

/// A pace for new batches: events a second over the whole batch, events per task.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pace {
    pub events_per_second: f64,
    pub events_per_task: u32,
}

/// Events a paced task emits unless told otherwise.
pub const DEFAULT_EVENTS_PER_TASK: u32 = 20;
/// The fewest events a paced task can emit: starting, navigation, screenshot, done.
pub const MIN_EVENTS_PER_TASK: u32 = 4;
/// The most events a paced task may emit.
pub const MAX_EVENTS_PER_TASK: u32 = 100_000;
/// The highest pace accepted.
pub const MAX_EVENTS_PER_SECOND: f64 = 1_000_000.0;

/// How often the emitter wakes up; each wake emits what the rate owes since the last one.
const TICK: Duration = Duration::from_millis(2);

/// A 48×30 PNG (a page with a header bar, a line of text and a button), base64.
const PAGE_PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAADAAAAAeCAIAAADlxgqWAAAATElEQVR42mNwtjg1qBDDqINGHTTsHPTr159BhUYdNOogajvoxIlL9EGjDqKWg0YT9aiDhp2D+Kv8iUejDhp10FBw0Gi2H3XQqIOojQAyhs8eYeo5cQAAAABJRU5ErkJggg==";

/// A running paced task: its index, the events it emitted, when it started.
struct Running {
    i: usize,
    emitted: u32,
    started: Instant,
}

/// Runs batch `id` paced (see the module), then completes it like any batch.
pub(super) async fn run_paced(
    app: App,
    id: String,
    tasks: Vec<BrowserTask>,
    concurrency: usize,
    pace: Pace,
) {
    let per_task = pace.events_per_task.max(MIN_EVENTS_PER_TASK);
    let mut rate = pace.events_per_second;
    let mut running: Vec<Running> = Vec::new();
    let mut next = 0usize;
    let mut turn = 0usize;
    let mut owed = 0.0f64;
    let mut last = Instant::now();
    let mut tick = tokio::time::interval(TICK);
    tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
    while next < tasks.len() || !running.is_empty() {
        tick.tick().await;
        if let Some(p) = app.runtime().agents_pace {
            rate = p.events_per_second;
        }
        let now = Instant::now();
        owed += rate * now.duration_since(last).as_secs_f64();
        last = now;
        let due = owed.floor();
        owed -= due;
        let mut events = Vec::new();
        let mut ended = Vec::new();
        for _ in 0..due as u64 {
            while running.len() < concurrency && next < tasks.len() {
                running.push(Running {
                    i: next,
                    emitted: 0,
                    started: Instant::now(),
                });
                next += 1;
            }
            if running.is_empty() {
                break;
            }
            turn %= running.len();
            let r = &mut running[turn];
            events.push((r.i, event(&tasks[r.i], r, per_task)));
            r.emitted += 1;
            if r.emitted >= per_task {
                ended.push(running.remove(turn));
            } else {
                turn += 1;
            }
        }
        let count = (events.len() + ended.len()) as u64;
        emit_many(&app, &id, events);
        for r in ended {
            let t = &tasks[r.i];
            let d = r.started.elapsed().as_millis() as f64;
            finish(
                &app,
                &id,
                r.i,
                result_for(t, TaskStatus::Success, Some(data(t, r.i)), 1, d, None),
            );
        }
        app.runtime().paced_emitted += count;
    }
    complete_batch(&app, &id);
}

/// What a paced task found: its page's title and URL.
fn data(t: &BrowserTask, i: usize) -> serde_json::Value {
    json!({"title": title(i), "url": t.url})
}

fn title(i: usize) -> String {
    format!("Paced page {}", i + 1)
}

/// Event number `r.emitted` of a task that emits `per_task` events.
fn event(t: &BrowserTask, r: &Running, per_task: u32) -> TaskEventKind {
    let k = r.emitted;
    if k + 1 >= per_task {
        return TaskEventKind::Done(TaskDoneEvent {
            status: TaskStatus::Success,
            data: Some(data(t, r.i)),
            duration_ms: Some(r.started.elapsed().as_millis() as f64),
        });
    }
    match k {
        0 => TaskEventKind::Sandbox(SandboxEvent {
            status: "starting".into(),
        }),
        1 => TaskEventKind::Navigation(NavigationEvent {
            url: t.url.clone(),
            title: Some(title(r.i)),
        }),
        2 => TaskEventKind::Screenshot(ScreenshotEvent {
            url: Some(t.url.clone()),
            mime_type: "image/png".into(),
            chunk_index: 0,
            chunk_count: 1,
            data: Some(PAGE_PNG.into()),
        }),
        _ if (k - 3).is_multiple_of(3) => TaskEventKind::Plan(PlanEvent {
            actions: vec![PlannedAction {
                action_type: Some("click".into()),
                selector: Some("a.next".into()),
                value: None,
            }],
            notes: Some(format!("Step {}: follow the next link.", k / 3)),
            done: false,
            captcha_detected: false,
        }),
        _ => TaskEventKind::Action(ActionEvent {
            action_type: Some(if (k - 3) % 3 == 1 { "click" } else { "scroll" }.into()),
            selector: Some("a.next".into()),
            success: true,
            message: Some("Done.".into()),
        }),
    }
}
