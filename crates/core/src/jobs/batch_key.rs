//! A batch's idempotency key against the service's 24-hour window (the contract: "a repeated
//! submission with the same idempotency key within 24 hours returns the existing batch"). Past
//! it, posting the key again would make and charge a second batch, so a batch whose key is that
//! old is never posted again: it is looked for in the service's batch list (same tasks, sent
//! within the window) and followed by its id, or, not found, ends "not known to have reached the
//! service" (`IpcErrorKind::Unconfirmed`), for the user to send again as a new batch.
//!
//! The key's age counts from the job's ledger row, written just before its first send (so it
//! errs on the old side), on the runner's [`Clock`].

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use specdesk_client::Client;
use specdesk_types::{Batch, BrowserTask};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::ipc_error::{IpcError, IpcErrorKind};
use crate::library::{Job, JobKind, Library};

/// How long the service keeps a batch's idempotency key.
pub const KEY_WINDOW: Duration = Duration::from_secs(24 * 60 * 60);
/// Kept below the window: clock differences, and the time a send takes to arrive.
const POST_MARGIN: Duration = Duration::from_secs(60 * 60);
/// How far before its ledger row a batch may have been created on the service's clock.
const CLOCK_SKEW: Duration = Duration::from_secs(10 * 60);
/// Batch-list pages read at most when looking for a batch (100 each).
const MAX_PAGES: usize = 20;
const PAGE: i64 = 100;

/// The runner's clock: the system's, plus what it was advanced by (tests advance it as they
/// advance the sandbox's clock, to see a day pass).
#[derive(Debug, Clone, Default)]
pub struct Clock(Arc<AtomicU64>);

impl Clock {
    /// Now on this clock.
    pub fn now(&self) -> OffsetDateTime {
        OffsetDateTime::now_utc() + Duration::from_millis(self.0.load(Ordering::Relaxed))
    }

    /// Moves this clock (and every copy of it) on by `by`.
    pub fn advance(&self, by: Duration) {
        let ms = u64::try_from(by.as_millis()).unwrap_or(u64::MAX);
        self.0.fetch_add(ms, Ordering::Relaxed);
    }
}

impl PartialEq for Clock {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

fn parse(at: &str) -> Option<OffsetDateTime> {
    OffsetDateTime::parse(at, &Rfc3339).ok()
}

/// Whether the key of a batch whose job was written at `created_at` may still be posted at
/// `now`: well inside the service's window. An unreadable time is treated as too old.
pub fn may_post(created_at: &str, now: OffsetDateTime) -> bool {
    parse(created_at).is_some_and(|born| now < born + (KEY_WINDOW - POST_MARGIN))
}

/// The error of a batch whose key is too old to post and which the batch list does not show.
pub fn unconfirmed(job: &Job) -> IpcError {
    let when = job
        .created_at
        .get(..16)
        .unwrap_or(&job.created_at)
        .replace('T', " ");
    IpcError::new(
        IpcErrorKind::Unconfirmed,
        format!(
            "This batch is not known to have reached the service. It was saved on {when} UTC and the service remembers a batch's key for 24 hours only, so sending it now could run and charge it twice. Check your batch history; if it is not there, choose Send again."
        ),
    )
}

/// Whether `batch` is the submission of `tasks`: as many tasks, and each finished result one of
/// the tasks (same address and instruction; results list finished tasks only, values never
/// compared).
fn same_tasks(batch: &Batch, tasks: &[BrowserTask]) -> bool {
    if batch.total as usize != tasks.len() || batch.results.len() > tasks.len() {
        return false;
    }
    let mut used = vec![false; tasks.len()];
    batch.results.iter().all(|result| {
        let found = tasks.iter().enumerate().position(|(i, t)| {
            !used[i] && t.url == result.url && t.instruction == result.instruction
        });
        found.map(|i| used[i] = true).is_some()
    })
}

/// Finding a batch and naming it are one step for every follower at once: two jobs of the same
/// tasks never take the same batch.
static FINDING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// [`find_sent`], then `name` with what it found, as one step for every follower at once.
pub(super) async fn find_and_name(
    client: &Client,
    library: &Library,
    job: &Job,
    tasks: &[BrowserTask],
    name: impl FnOnce(&str) -> Result<(), super::runner::Halt>,
) -> Result<Option<String>, super::runner::Halt> {
    let _one_at_a_time = FINDING.lock().await;
    let found = find_sent(client, library, job, tasks).await?;
    if let Some(id) = &found {
        name(id)?;
    }
    Ok(found)
}

/// Looks for the batch of `job` (whose key is too old to post) in the service's batch list,
/// newest first: the batch with the same tasks created within its window nearest the job's row
/// that no other job follows. `None` when there is none.
pub(super) async fn find_sent(
    client: &Client,
    library: &Library,
    job: &Job,
    tasks: &[BrowserTask],
) -> Result<Option<String>, IpcError> {
    let Some(born) = parse(&job.created_at) else {
        return Ok(None);
    };
    // The key was posted at most until `may_post` stopped it.
    let (earliest, latest) = (
        born - CLOCK_SKEW,
        born + (KEY_WINDOW - POST_MARGIN) + CLOCK_SKEW,
    );
    let mut best: Option<(OffsetDateTime, String)> = None;
    let mut skip = 0;
    for _ in 0..MAX_PAGES {
        let page = client.agents().list(Some(PAGE), Some(skip), None).await?;
        let mut older = false;
        for batch in &page.batches {
            let Some(at) = parse(&batch.created_at) else {
                continue;
            };
            older |= at < earliest;
            if at < earliest || at > latest || !same_tasks(batch, tasks) {
                continue;
            }
            let followed = library
                .job_by_remote_id(JobKind::Batch, &batch.id)?
                .is_some_and(|other| other.id != job.id);
            // The one created nearest the job's row: its own send came first.
            if !followed
                && best
                    .as_ref()
                    .is_none_or(|(t, _)| (at - born).abs() < (*t - born).abs())
            {
                best = Some((at, batch.id.clone()));
            }
        }
        // Newest first: a page reaching before the window ends the search.
        if older || !page.has_more || page.batches.is_empty() {
            break;
        }
        skip += page.batches.len() as i64;
    }
    Ok(best.map(|(_, id)| id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_may_be_posted_until_an_hour_before_the_window_ends() {
        let born = "2026-11-01T10:00:00.000Z";
        let at = |s: &str| parse(s).unwrap();
        assert!(may_post(born, at("2026-11-01T10:00:00Z")));
        assert!(may_post(born, at("2026-11-02T08:59:59Z")));
        assert!(!may_post(born, at("2026-11-02T09:00:00Z")));
        assert!(!may_post(born, at("2026-11-03T10:00:00Z")));
        assert!(!may_post("not a time", at("2026-11-01T10:00:00Z")));
    }

    #[test]
    fn the_clock_moves_on_for_every_copy() {
        let clock = Clock::default();
        let copy = clock.clone();
        let before = copy.now();
        clock.advance(Duration::from_secs(25 * 60 * 60));
        assert!(copy.now() - before >= Duration::from_secs(25 * 60 * 60));
        assert_eq!(clock, copy);
        assert_ne!(clock, Clock::default());
    }

    fn task(url: &str, instruction: &str) -> BrowserTask {
        serde_json::from_value(serde_json::json!({"url": url, "instruction": instruction})).unwrap()
    }

    fn batch(total: u32, results: &[(&str, &str)]) -> Batch {
        serde_json::from_value(serde_json::json!({
            "id": "b1", "total": total, "completed": results.len(), "totalCost": 0.0,
            "totalCreditsUsed": 0.0, "status": "processing", "createdAt": "2026-11-01T10:00:00.000Z",
            "results": results.iter().map(|(u, i)| serde_json::json!({
                "url": u, "instruction": i, "status": "SUCCESS", "cost": 0.0, "creditsUsed": 0.1, "durationMs": 1.0
            })).collect::<Vec<_>>(),
        }))
        .unwrap()
    }

    #[test]
    fn a_batch_is_the_same_when_its_count_and_finished_tasks_match() {
        let tasks = [
            task("http://a/", "Read"),
            task("http://a/", "Read"),
            task("http://b/", "Sign in"),
        ];
        assert!(same_tasks(&batch(3, &[]), &tasks));
        assert!(same_tasks(
            &batch(3, &[("http://b/", "Sign in"), ("http://a/", "Read")]),
            &tasks
        ));
        assert!(same_tasks(
            &batch(3, &[("http://a/", "Read"), ("http://a/", "Read")]),
            &tasks
        ));
        assert!(!same_tasks(&batch(2, &[]), &tasks), "another count");
        assert!(
            !same_tasks(&batch(3, &[("http://c/", "Read")]), &tasks),
            "another address"
        );
        assert!(
            !same_tasks(&batch(3, &[("http://b/", "Read")]), &tasks),
            "another instruction"
        );
        assert!(
            !same_tasks(
                &batch(3, &[("http://b/", "Sign in"), ("http://b/", "Sign in")]),
                &tasks
            ),
            "a task counted twice"
        );
    }
}
