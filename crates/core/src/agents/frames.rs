//! A watcher's frames: what a batch's feed publishes goes to the web view at most once a frame
//! (~16 ms), every event of the frame in one message, so a busy batch never floods the IPC
//! bridge with one message per event.

use std::time::Duration;

use specdesk_types::Batch;
use tokio::time::Instant;

use super::feed::FeedReader;
use crate::events::BatchEvent;
use crate::ipc_error::{IpcError, IpcErrorKind};

/// The length of a frame.
pub const FRAME: Duration = Duration::from_millis(16);

/// How many events a replayed (stored) timeline puts in one message.
pub const REPLAY_CHUNK: usize = 500;

/// Sends `reader`'s events to `send` in frames: what arrives first goes at once; each next
/// message goes at least `frame` after the previous one, with everything that arrived meanwhile,
/// in pages of at most [`REPLAY_CHUNK`] events (a watcher that joins a long batch late gets its
/// timeline so far a page a frame, never in one message). The last event (`done` or `error`) is
/// not sent but returned, for the stream's ending.
pub async fn in_frames(
    mut reader: FeedReader,
    frame: Duration,
    mut send: impl FnMut(Vec<BatchEvent>),
) -> Result<Batch, IpcError> {
    let mut last_sent: Option<Instant> = None;
    while let Some(mut events) = reader.next().await {
        if let Some(at) = last_sent
            && Instant::now() < at + frame
        {
            tokio::time::sleep_until(at + frame).await;
            events.extend(reader.ready());
        }
        let ending = take_ending(&mut events);
        for (i, page) in events.chunks(REPLAY_CHUNK).enumerate() {
            if let (true, Some(at)) = (i > 0, last_sent) {
                tokio::time::sleep_until(at + frame).await;
            }
            send(page.to_vec());
            last_sent = Some(Instant::now());
        }
        if let Some(ending) = ending {
            return ending;
        }
    }
    Err(ended_early())
}

/// Sends a stored timeline (ending with its `done`) in messages of [`REPLAY_CHUNK`] events, and
/// returns its batch.
pub fn replay(
    mut events: Vec<BatchEvent>,
    mut send: impl FnMut(Vec<BatchEvent>),
) -> Result<Batch, IpcError> {
    let ending = take_ending(&mut events);
    for chunk in events.chunks(REPLAY_CHUNK) {
        send(chunk.to_vec());
    }
    ending.unwrap_or_else(|| Err(ended_early()))
}

/// Takes the last event off `events` when it ends the timeline.
fn take_ending(events: &mut Vec<BatchEvent>) -> Option<Result<Batch, IpcError>> {
    match events.last() {
        Some(BatchEvent::Done { .. } | BatchEvent::Error { .. }) => match events.pop() {
            Some(BatchEvent::Done { batch }) => Some(Ok(*batch)),
            Some(BatchEvent::Error { error }) => Some(Err(error)),
            _ => None,
        },
        _ => None,
    }
}

fn ended_early() -> IpcError {
    IpcError::new(
        IpcErrorKind::Stream,
        "The batch's timeline ended before the batch finished. Open it again to see where it is.",
    )
}
