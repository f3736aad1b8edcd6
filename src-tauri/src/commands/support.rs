//! Help for when something goes wrong: the log folder, and diagnostics copied for a support
//! message (from Rust, so no clipboard permission crosses an await in the web view).

use std::path::PathBuf;

use tauri::{AppHandle, State};
use tauri_plugin_opener::OpenerExt;

use specdesk_core::{IpcError, IpcErrorKind};

use super::Result;
use crate::state::AppState;

/// Where the log files are (managed by the app at start).
pub struct LogFolder(pub PathBuf);

/// Opens the log folder in the file manager.
#[tauri::command]
pub async fn open_log_folder(app: AppHandle, folder: State<'_, LogFolder>) -> Result<()> {
    std::fs::create_dir_all(&folder.0).map_err(IpcError::storage)?;
    app.opener()
        .open_path(folder.0.display().to_string(), None::<&str>)
        .map_err(|e| {
            IpcError::new(
                IpcErrorKind::Internal,
                format!(
                    "The file manager could not be opened ({e}). The logs are in {}.",
                    folder.0.display()
                ),
            )
        })
}

/// Copies the diagnostics (version, OS, kinds of connections, the log's last lines; no
/// secrets) to the clipboard.
#[tauri::command]
pub async fn copy_diagnostics(
    app: AppHandle,
    state: State<'_, AppState>,
    folder: State<'_, LogFolder>,
) -> Result<()> {
    let connections = state.profiles.list().await?;
    let dir = folder.0.clone();
    let text = tauri::async_runtime::spawn_blocking(move || {
        specdesk_core::logs::diagnostics(env!("CARGO_PKG_VERSION"), &connections, &dir)
    })
    .await
    .map_err(|e| IpcError::internal(e.to_string()))?;
    super::clipboard::write(
        &app,
        text,
        "Open the log folder and attach the newest file instead.",
    )
}

/// Whether the first usable screen of this process was logged already.
static FIRST_USABLE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Logs, once per process, that the first usable screen is on screen (`ui/src/lib/startup.ts`):
/// its name, the wall-clock time in Unix milliseconds (read by `bench/probe.py`, which measures
/// the cold start to it) and the page's own time to it (`page_ms`, from the web view's
/// navigation start). Later calls do nothing. Async, so it never waits for the main thread.
#[tauri::command]
pub async fn first_usable(screen: String, page_ms: f64) {
    let unix_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    if FIRST_USABLE.swap(true, std::sync::atomic::Ordering::Relaxed) {
        return;
    }
    let screen = screen_name(&screen);
    let page_ms = if page_ms.is_finite() {
        page_ms.max(0.0).round()
    } else {
        0.0
    };
    tracing::info!(
        target: "specdesk::startup",
        screen,
        unix_ms,
        page_ms,
        "first usable screen"
    );
}

/// `screen` as logged: a short name (`welcome`, `specs`...), else `other` (the web view's text
/// never reaches the log as is).
fn screen_name(screen: &str) -> &str {
    let plain = !screen.is_empty()
        && screen.len() <= 32
        && screen
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
    if plain { screen } else { "other" }
}

#[cfg(test)]
mod tests {
    use super::screen_name;

    #[test]
    fn only_short_plain_screen_names_are_logged() {
        assert_eq!(screen_name("welcome"), "welcome");
        assert_eq!(screen_name("settings"), "settings");
        assert_eq!(screen_name(""), "other");
        assert_eq!(screen_name("specs\nINFO forged line"), "other");
        assert_eq!(screen_name(&"a".repeat(33)), "other");
    }
}
