//! A finished batch's timeline kept on this computer, so a past batch opens offline with every
//! step: `<timelines>/<batch id>/timeline.json` holds the batch and its events in order, each
//! screenshot as its own image file beside it (its chunks joined and decoded) instead of base64
//! chunks. Reading it back gives the same events, each screenshot as one single-chunk event.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use base64::Engine as _;
use serde::{Deserialize, Serialize};
use specdesk_types::{Batch, TaskEvent, TaskEventKind};

use crate::events::BatchEvent;
use crate::files::write_atomically;
use crate::ipc_error::IpcError;

#[derive(Serialize, Deserialize)]
struct Stored {
    batch: Batch,
    entries: Vec<Entry>,
}

#[derive(Serialize, Deserialize)]
#[serde(tag = "entry", rename_all = "camelCase")]
enum Entry {
    Event {
        event: BatchEvent,
    },
    /// A whole screenshot: its first chunk's event without data, and the file beside.
    Screenshot {
        event: TaskEvent,
        file: String,
    },
}

/// The folder of batch `batch_id`'s timeline, when the id is safe as a folder name.
fn folder(timelines: &Path, batch_id: &str) -> Option<PathBuf> {
    let safe = !batch_id.is_empty()
        && batch_id.len() <= 64
        && batch_id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    safe.then(|| timelines.join(batch_id))
}

fn extension(mime: &str) -> &'static str {
    match mime {
        "image/jpeg" | "image/jpg" => "jpg",
        "image/webp" => "webp",
        "image/svg+xml" => "svg",
        "image/gif" => "gif",
        _ => "png",
    }
}

/// What of a batch is kept: no timelines inside the results (they are the entries), and no
/// input values (see [`super::without_values`]).
fn kept_batch(batch: &Batch) -> Batch {
    let mut batch = super::without_values(batch.clone());
    for result in &mut batch.results {
        result.events = None;
    }
    batch
}

/// Keeps `batch`'s timeline `events` (a feed's, in order) under `timelines`, with no input
/// value in it. Chunks of a screenshot never completed are left out.
pub fn store(timelines: &Path, batch: &Batch, events: &[BatchEvent]) -> Result<PathBuf, IpcError> {
    let dir = folder(timelines, &batch.id)
        .ok_or_else(|| IpcError::storage(format!("a batch id such as {:?}", batch.id)))?;
    std::fs::create_dir_all(&dir).map_err(IpcError::storage)?;
    // A screenshot takes the place of its first chunk (`None` until it is complete).
    let mut entries: Vec<Option<Entry>> = Vec::with_capacity(events.len());
    // Chunks read so far of the screenshot each task is sending, and its place.
    let mut partial: HashMap<u32, (TaskEvent, String, usize)> = HashMap::new();
    let mut shots: HashMap<u32, u32> = HashMap::new();
    for event in events {
        let BatchEvent::TaskEvent { event: task_event } = event else {
            if !matches!(event, BatchEvent::Done { .. } | BatchEvent::Error { .. }) {
                entries.push(Some(Entry::Event {
                    event: event.clone(),
                }));
            }
            continue;
        };
        let TaskEventKind::Screenshot(shot) = &task_event.kind else {
            entries.push(Some(Entry::Event {
                event: super::event_without_values(event.clone()),
            }));
            continue;
        };
        let task = task_event.task_index;
        if shot.chunk_index == 0 {
            partial.insert(task, (task_event.clone(), String::new(), entries.len()));
            entries.push(None);
        }
        let Some((_, data, _)) = partial.get_mut(&task) else {
            continue;
        };
        data.push_str(shot.data.as_deref().unwrap_or_default());
        if shot.chunk_index + 1 < shot.chunk_count {
            continue;
        }
        let Some((mut first, data, place)) = partial.remove(&task) else {
            continue;
        };
        let Ok(bytes) = base64::engine::general_purpose::STANDARD.decode(data.trim()) else {
            continue;
        };
        let n = shots.entry(task).or_default();
        *n += 1;
        let TaskEventKind::Screenshot(head) = &mut first.kind else {
            continue;
        };
        let file = format!("shot-{task}-{n}.{}", extension(&head.mime_type));
        write_atomically(&dir.join(&file), &bytes).map_err(IpcError::storage)?;
        head.data = None;
        head.chunk_index = 0;
        head.chunk_count = 1;
        entries[place] = Some(Entry::Screenshot { event: first, file });
    }
    let stored = Stored {
        batch: kept_batch(batch),
        entries: entries.into_iter().flatten().collect(),
    };
    let json = serde_json::to_vec(&stored).map_err(IpcError::storage)?;
    let path = dir.join("timeline.json");
    write_atomically(&path, &json).map_err(IpcError::storage)?;
    Ok(path)
}

/// Batch `batch_id`'s kept timeline, ending with its `done`; `None` when none was kept (or it
/// cannot be read).
pub fn load(timelines: &Path, batch_id: &str) -> Option<Vec<BatchEvent>> {
    let dir = folder(timelines, batch_id)?;
    let bytes = std::fs::read(dir.join("timeline.json")).ok()?;
    let stored: Stored = match serde_json::from_slice(&bytes) {
        Ok(s) => s,
        Err(e) => {
            tracing::warn!("a kept batch timeline could not be read: {e}");
            return None;
        }
    };
    let mut events = Vec::with_capacity(stored.entries.len() + 1);
    for entry in stored.entries {
        match entry {
            Entry::Event { event } => events.push(event),
            Entry::Screenshot { mut event, file } => {
                // A file name this module wrote: never a path elsewhere.
                if file.contains(['/', '\\']) || file.starts_with('.') {
                    continue;
                }
                let Ok(bytes) = std::fs::read(dir.join(&file)) else {
                    continue;
                };
                if let TaskEventKind::Screenshot(shot) = &mut event.kind {
                    shot.data = Some(base64::engine::general_purpose::STANDARD.encode(bytes));
                }
                events.push(BatchEvent::TaskEvent { event });
            }
        }
    }
    events.push(BatchEvent::Done {
        batch: Box::new(stored.batch),
    });
    Some(events)
}
