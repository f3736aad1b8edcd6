//! Running streams, by id, so `cancel_stream` can stop one. The UI creates the id and one
//! `Channel` per stream; the command that runs the stream resolves when it ends.

use std::collections::HashMap;
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
}

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

    /// Cancels stream `id`. False when no such stream runs (it may have just ended).
    pub fn cancel(&self, id: &str) -> bool {
        match self.lock().by_id.remove(id) {
            Some((_, tx)) => tx.send(()).is_ok(),
            None => false,
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
