//! The window's size and place, kept across launches by `tauri-plugin-window-state`. The plugin
//! saves them when the app closes normally; they are saved here too a moment after the user moves
//! or resizes the window, so a crash, a killed app or a power cut keeps them as well.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tauri::{Manager, Runtime, Window, WindowEvent};
use tauri_plugin_window_state::{AppHandleExt, StateFlags};

/// How long the window stays still before its state is saved.
const SETTLE: Duration = Duration::from_millis(400);

/// What is kept: everything but visibility (the app decides when to show the window).
pub fn flags() -> StateFlags {
    StateFlags::all() - StateFlags::VISIBLE
}

/// Saves the windows' state once moves and resizes have settled.
pub fn on_window_event<R: Runtime>(window: &Window<R>, event: &WindowEvent) {
    static CHANGES: AtomicU64 = AtomicU64::new(0);
    if !matches!(event, WindowEvent::Moved(_) | WindowEvent::Resized(_)) {
        return;
    }
    let change = CHANGES.fetch_add(1, Ordering::SeqCst) + 1;
    let app = window.app_handle().clone();
    tauri::async_runtime::spawn(async move {
        tokio::time::sleep(SETTLE).await;
        // Only the last change of a drag saves, and on the main thread: the plugin holds its lock
        // while it asks the window where it is, which from another thread waits for the main
        // thread, whose own window events want that lock (plugins-workspace#3594).
        if CHANGES.load(Ordering::SeqCst) != change {
            return;
        }
        let handle = app.clone();
        let saved = app.run_on_main_thread(move || {
            if let Err(e) = handle.save_window_state(flags()) {
                tracing::warn!("the window's size and place could not be kept: {e}");
            }
        });
        if let Err(e) = saved {
            tracing::warn!("the window's size and place could not be kept: {e}");
        }
    });
}
