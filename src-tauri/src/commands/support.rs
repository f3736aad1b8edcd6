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
