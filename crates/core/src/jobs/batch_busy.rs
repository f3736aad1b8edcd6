//! A batch the service has no room for: `429` from the browser-agents submission means one of
//! two things (service-api.md, "Errors": more than 5000 of the user's tasks in flight, or stream
//! capacity reached). The error body is not part of the contract, so they are told apart by what
//! works: a live send refused is sent again in the background (no stream needed) and followed by
//! polling, and the user is told why; refused in the background too, it is the in-flight cap, and
//! the batch waits for room, held with a sentence that says how many of the user's tasks are
//! running (from the service's list of batches still processing).

use std::time::Duration;

use specdesk_client::Client;
use specdesk_types::BatchStatus;

use super::runner::Halt;
use crate::ipc_error::{IpcError, IpcErrorKind};

/// Why a live batch is followed by polling from its start.
pub(super) const NO_STREAM_FREE: &str = "The service has no live stream free for you right now, so this batch runs in the background and Specdesk reads its progress every few seconds instead. Nothing is lost.";

/// The service's cap on one user's tasks in flight (service-api.md, "Limits").
const IN_FLIGHT_CAP: u64 = 5000;

/// Whether the service refused the send for want of room (`429`).
pub(super) fn no_room(e: &specdesk_client::Error) -> bool {
    e.status() == Some(429)
}

/// The hold of a batch refused for the in-flight cap: sent again by the job runner after the
/// service's `Retry-After` or the runner's growing wait (its values stay in the keychain
/// meanwhile), with a sentence the UI shows.
pub(super) async fn wait_for_room(client: &Client, e: &specdesk_client::Error) -> Halt {
    Halt::Retry(no_room_error(client, e).await)
}

/// The sentence a batch refused for the in-flight cap is held with (how many tasks run).
pub(super) async fn no_room_error(client: &Client, e: &specdesk_client::Error) -> IpcError {
    room_error(running_tasks(client).await, e.retry_after())
}

pub(super) fn room_error(running: Option<u64>, retry_after: Option<Duration>) -> IpcError {
    let cap = thousands(IN_FLIGHT_CAP);
    let now = match running {
        Some(n) => format!(
            "The service is already running {} of your tasks and takes at most {cap} at once.",
            thousands(n)
        ),
        None => format!(
            "The service is already running as many of your tasks as it takes at once ({cap})."
        ),
    };
    let mut error = IpcError::new(
        IpcErrorKind::RateLimited,
        format!(
            "{now} Specdesk sends this batch by itself as soon as there is room, even after a restart. You can also stop it and send fewer tasks."
        ),
    );
    error.status = Some(429);
    error.retry_after_ms = retry_after.map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
    error
}

/// The user's tasks not finished yet, over their batches still processing (up to 1000 batches;
/// None when the list cannot be read).
async fn running_tasks(client: &Client) -> Option<u64> {
    let mut running = 0u64;
    for page in 0..10 {
        let list = client
            .agents()
            .list(Some(100), Some(page * 100), Some(BatchStatus::Processing))
            .await
            .ok()?;
        running += list
            .batches
            .iter()
            .map(|b| u64::from(b.total.saturating_sub(b.completed)))
            .sum::<u64>();
        if !list.has_more {
            break;
        }
    }
    Some(running)
}

/// 4990 → "4,990".
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hold_says_how_many_tasks_run_and_keeps_the_services_wait() {
        let e = room_error(Some(4990), Some(Duration::from_secs(5)));
        assert_eq!(e.kind, IpcErrorKind::RateLimited);
        assert_eq!(
            e.message,
            "The service is already running 4,990 of your tasks and takes at most 5,000 at once. Specdesk sends this batch by itself as soon as there is room, even after a restart. You can also stop it and send fewer tasks."
        );
        assert_eq!(e.retry_after_ms, Some(5_000));
        assert_eq!(room_error(None, None).retry_after_ms, None);
        assert!(room_error(None, None).message.starts_with(
            "The service is already running as many of your tasks as it takes at once (5,000)."
        ));
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }
}
