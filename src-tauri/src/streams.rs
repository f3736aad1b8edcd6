//! Running streams, by id, so `cancel_stream` can stop one. The UI creates a fresh id (a UUID)
//! and one `Channel` for every stream; the command that runs the stream resolves when it ends.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use tokio::sync::oneshot;

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
