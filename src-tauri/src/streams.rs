//! Running streams, by id, so `cancel_stream` can stop one. The UI creates a fresh id (a UUID)
//! and one `Channel` for every stream; the command that runs the stream resolves when it ends.
//! [`StreamRegistry::run`] is the frame every streaming command uses.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use specdesk_core::{IpcError, IpcErrorKind};
use tauri::ipc::{Channel, IpcResponse};
use tokio::sync::oneshot;

/// Sends one event of a stream (a closed window is not an error).
pub fn send_event<T: IpcResponse>(channel: &Channel<T>, event: T) {
    if let Err(e) = channel.send(event) {
        tracing::debug!("a stream's window is gone: {e}");
    }
}

/// How a stream tells the UI that it ended: the final event of a success (`None` when the body
/// sent its own), the error event, and what a cancel from the UI says.
pub struct Ending<T, E> {
    pub done: fn(&T) -> Option<E>,
    pub error: fn(IpcError) -> E,
    pub cancelled: &'static str,
}

/// Cancel handles of the streams now running.
#[derive(Default)]
pub struct StreamRegistry {
    running: Mutex<Running>,
}

#[derive(Default)]
struct Running {
    next: u64,
    by_id: HashMap<String, (u64, oneshot::Sender<()>)>,
    /// Ids cancelled before their stream registered (the UI can cancel a stream whose command has
    /// not started yet): such a stream is cancelled the moment it registers. The newest few only.
    cancelled_early: VecDeque<String>,
}

/// How many early cancels are remembered.
const EARLY_CANCELS_KEPT: usize = 64;

/// Removes its stream from the registry when the stream ends, however it ends.
pub struct StreamGuard<'a> {
    registry: &'a StreamRegistry,
    id: String,
    generation: u64,
}

impl Drop for StreamGuard<'_> {
    fn drop(&mut self) {
        let mut running = self.registry.lock();
        // Only this stream's own entry: a newer stream may have taken the id.
        if running
            .by_id
            .get(&self.id)
            .is_some_and(|(g, _)| *g == self.generation)
        {
            running.by_id.remove(&self.id);
        }
    }
}

impl StreamRegistry {
    fn lock(&self) -> std::sync::MutexGuard<'_, Running> {
        self.running.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Registers stream `id`. Returns the receiver that fires on cancel and a guard that
    /// unregisters the stream when dropped. A second stream with a running id replaces (and
    /// cancels) the first.
    pub fn register(&self, id: &str) -> (oneshot::Receiver<()>, StreamGuard<'_>) {
        let (tx, rx) = oneshot::channel();
        let mut running = self.lock();
        if let Some(at) = running.cancelled_early.iter().position(|c| c == id) {
            running.cancelled_early.remove(at);
            let _ = tx.send(());
            let generation = running.next;
            return (
                rx,
                StreamGuard {
                    registry: self,
                    id: id.to_owned(),
                    generation,
                },
            );
        }
        running.next += 1;
        let generation = running.next;
        if let Some((_, previous)) = running.by_id.insert(id.to_owned(), (generation, tx)) {
            let _ = previous.send(());
        }
        drop(running);
        (
            rx,
            StreamGuard {
                registry: self,
                id: id.to_owned(),
                generation,
            },
        )
    }

    /// Runs stream `id`: `body` sends its events on `channel` until it ends or the UI cancels it
    /// (the body is then dropped and the outcome is a `cancelled` error). Whatever happens, the
    /// last event on `channel` is `done` or `error`, and the stream is unregistered.
    pub async fn run<T, E: IpcResponse>(
        &self,
        id: &str,
        channel: &Channel<E>,
        ending: Ending<T, E>,
        body: impl Future<Output = Result<T, IpcError>>,
    ) -> Result<T, IpcError> {
        let (cancelled, _guard) = self.register(id);
        let outcome = tokio::select! {
            biased;
            _ = cancelled => Err(IpcError::new(IpcErrorKind::Cancelled, ending.cancelled)),
            outcome = body => outcome,
        };
        match &outcome {
            Ok(value) => {
                if let Some(event) = (ending.done)(value) {
                    send_event(channel, event);
                }
            }
            Err(error) => send_event(channel, (ending.error)(error.clone())),
        }
        outcome
    }

    /// Cancels stream `id`. False when no such stream runs: it may have just ended, or not have
    /// started yet, in which case it is cancelled as soon as it registers.
    pub fn cancel(&self, id: &str) -> bool {
        let mut running = self.lock();
        match running.by_id.remove(id) {
            Some((_, tx)) => tx.send(()).is_ok(),
            None => {
                if running.cancelled_early.len() == EARLY_CANCELS_KEPT {
                    running.cancelled_early.pop_front();
                }
                running.cancelled_early.push_back(id.to_owned());
                false
            }
        }
    }

    /// Streams now running.
    pub fn len(&self) -> usize {
        self.lock().by_id.len()
    }

    /// Whether no stream runs.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use tauri::ipc::InvokeResponseBody;

    /// A channel that keeps every event it is sent, as JSON text.
    fn recording() -> (Channel<serde_json::Value>, Arc<Mutex<Vec<String>>>) {
        let sent = Arc::new(Mutex::new(Vec::new()));
        let keep = sent.clone();
        let channel = Channel::new(move |body: InvokeResponseBody| {
            if let InvokeResponseBody::Json(json) = body {
                keep.lock().unwrap().push(json);
            }
            Ok(())
        });
        (channel, sent)
    }

    fn ending() -> Ending<u32, serde_json::Value> {
        Ending {
            done: |n| Some(serde_json::json!({"event": "done", "n": n})),
            error: |e| serde_json::json!({"event": "error", "kind": e.kind, "message": e.message}),
            cancelled: "Stopped.",
        }
    }

    #[tokio::test]
    async fn a_stream_that_ends_well_sends_done_last_and_unregisters() {
        let reg = StreamRegistry::default();
        let (channel, sent) = recording();
        let out = reg
            .run("s", &channel, ending(), async {
                send_event(&channel, serde_json::json!({"event": "update"}));
                Ok(7)
            })
            .await;
        assert_eq!(out.unwrap(), 7);
        assert_eq!(
            *sent.lock().unwrap(),
            [r#"{"event":"update"}"#, r#"{"event":"done","n":7}"#]
        );
        assert!(reg.is_empty());
    }

    #[tokio::test]
    async fn a_failed_stream_sends_its_error_last() {
        let reg = StreamRegistry::default();
        let (channel, sent) = recording();
        let out = reg
            .run("s", &channel, ending(), async {
                Err(IpcError::new(
                    IpcErrorKind::Network,
                    "The service did not answer.",
                ))
            })
            .await;
        assert_eq!(out.unwrap_err().kind, IpcErrorKind::Network);
        assert_eq!(
            *sent.lock().unwrap(),
            [r#"{"event":"error","kind":"network","message":"The service did not answer."}"#]
        );
    }

    #[tokio::test]
    async fn a_body_with_its_own_done_event_is_not_sent_a_second() {
        let reg = StreamRegistry::default();
        let (channel, sent) = recording();
        let own = Ending {
            done: |_: &u32| None,
            ..ending()
        };
        reg.run("s", &channel, own, async { Ok(1) }).await.unwrap();
        assert!(sent.lock().unwrap().is_empty());
    }

    #[tokio::test]
    async fn a_cancel_drops_the_body_and_sends_cancelled() {
        let reg = Arc::new(StreamRegistry::default());
        let (channel, sent) = recording();
        let canceller = reg.clone();
        let out = reg
            .run("s", &channel, ending(), async {
                assert!(canceller.cancel("s"));
                // Never ends by itself: only the cancel ends this stream.
                std::future::pending::<Result<u32, IpcError>>().await
            })
            .await;
        let e = out.unwrap_err();
        assert_eq!(
            (e.kind.clone(), e.message.as_str()),
            (IpcErrorKind::Cancelled, "Stopped.")
        );
        assert_eq!(
            *sent.lock().unwrap(),
            [r#"{"event":"error","kind":"cancelled","message":"Stopped."}"#]
        );
        assert!(reg.is_empty());
    }

    #[tokio::test]
    async fn a_stream_cancelled_before_it_started_never_runs_its_body() {
        let reg = StreamRegistry::default();
        let (channel, _sent) = recording();
        assert!(!reg.cancel("early"));
        let ran = std::sync::atomic::AtomicBool::new(false);
        let out = reg
            .run("early", &channel, ending(), async {
                ran.store(true, std::sync::atomic::Ordering::SeqCst);
                Ok(1)
            })
            .await;
        assert_eq!(out.unwrap_err().kind, IpcErrorKind::Cancelled);
        assert!(!ran.load(std::sync::atomic::Ordering::SeqCst));
    }

    #[tokio::test]
    async fn cancel_fires_and_guard_unregisters() {
        let reg = StreamRegistry::default();
        let (rx, guard) = reg.register("s1");
        assert_eq!(reg.len(), 1);
        assert!(reg.cancel("s1"));
        assert!(rx.await.is_ok());
        drop(guard);
        assert!(reg.is_empty());
        assert!(!reg.cancel("s1"));
    }

    #[tokio::test]
    async fn a_cancel_before_the_stream_registers_is_kept_for_it() {
        let reg = StreamRegistry::default();
        assert!(!reg.cancel("early"));
        let (rx, guard) = reg.register("early");
        assert!(rx.await.is_ok(), "cancelled as it registered");
        drop(guard);
        assert!(reg.is_empty());
        // Used once: the same id registers normally afterwards.
        let (mut rx, _guard) = reg.register("early");
        assert!(rx.try_recv().is_err());
        assert_eq!(reg.len(), 1);
    }

    #[tokio::test]
    async fn a_reused_id_cancels_the_older_stream() {
        let reg = StreamRegistry::default();
        let (first, g1) = reg.register("s");
        let (_second, _g2) = reg.register("s");
        assert!(first.await.is_ok());
        drop(g1);
        assert_eq!(
            reg.len(),
            1,
            "the older stream's end leaves the newer one registered"
        );
        assert!(reg.cancel("s"));
    }
}
