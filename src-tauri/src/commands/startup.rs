//! The recovery window's commands, which work whether or not the app started (they need no
//! `AppState`): try the start again, start with a fresh library (the old one kept aside), and
//! open the data folder. Each answers with the problem that still stops the start, or `None`
//! once the app runs (the UI then reloads into it).

use tauri::{AppHandle, Manager};
use tauri_plugin_opener::OpenerExt;

use specdesk_core::{IpcError, IpcErrorKind, StartProblem};

use super::Result;
use crate::startup::{self, Startup};

/// Runs the start again (after the user closed the program holding the library, freed space...).
#[tauri::command]
pub async fn retry_start(app: AppHandle) -> Result<Option<StartProblem>> {
    Ok(startup::start(&app, false).await.err())
}

/// Sets the library aside as `library.damaged-<time>.sqlite` and starts with a fresh one.
#[tauri::command]
pub async fn start_fresh_library(app: AppHandle) -> Result<Option<StartProblem>> {
    Ok(startup::start(&app, true).await.err())
}

/// Opens the data folder in the file manager (made first when it is missing and can be).
#[tauri::command]
pub async fn open_data_folder(app: AppHandle) -> Result<()> {
    let dir = startup::data_dir(&app).map_err(|e| IpcError::new(IpcErrorKind::Internal, e))?;
    let _ = std::fs::create_dir_all(&dir);
    app.opener()
        .open_path(dir.display().to_string(), None::<&str>)
        .map_err(|e| {
            IpcError::new(
                IpcErrorKind::Internal,
                format!(
                    "The file manager could not be opened ({e}). The data folder is {}.",
                    dir.display()
                ),
            )
        })
}

/// What stopped the start, if anything (`app_info` gives it to the UI).
pub(crate) fn problem(app: &AppHandle) -> Option<StartProblem> {
    app.try_state::<Startup>().and_then(|s| s.problem())
}
