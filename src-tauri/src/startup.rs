//! Starting the app's state so that start-up never ends in no window: each step that can fail
//! (data folder, settings, library, media folder, built-in Sandbox) becomes a `StartProblem`,
//! kept in `Startup`, that the web view shows as the recovery window (`app_info` carries it),
//! with Try again, Open data folder and, for the library, Start with a fresh library
//! (`commands::startup`). Once a start succeeds, `AppState` is managed and the app runs as usual.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use specdesk_core::{StartProblem, StartStep};
use tauri::{AppHandle, Emitter, Manager};
use tokio::sync::broadcast::error::RecvError;

use crate::commands::StartNotice;
use crate::state::AppState;
use crate::{keychain, notify, settings_store};

/// The start's problem while the app could not start; `None` once it runs. Starts are run one at
/// a time (`gate`), so two Try again clicks never open the library twice.
#[derive(Default)]
pub struct Startup {
    problem: Mutex<Option<StartProblem>>,
    gate: tokio::sync::Mutex<()>,
}

impl Startup {
    /// What stopped the last start, if it did.
    pub fn problem(&self) -> Option<StartProblem> {
        self.problem
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    fn set(&self, problem: Option<StartProblem>) {
        *self.problem.lock().unwrap_or_else(|p| p.into_inner()) = problem;
    }
}

/// Where the app keeps its data: `SPECDESK_DATA_DIR` when set (tests, portable use), else the
/// OS's app data folder.
pub fn data_dir(app: &AppHandle) -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os("SPECDESK_DATA_DIR") {
        return Ok(dir.into());
    }
    app.path().app_data_dir().map_err(|e| e.to_string())
}

/// Starts the app's state (or does nothing when it runs already); on failure, keeps the problem
/// for the recovery window and returns it. `fresh_library` sets the library aside first.
pub async fn start(app: &AppHandle, fresh_library: bool) -> Result<(), StartProblem> {
    let startup = app.state::<Startup>();
    let _one_at_a_time = startup.gate.lock().await;
    if app.try_state::<AppState>().is_some() {
        return Ok(());
    }
    match open(app, fresh_library).await {
        Ok(()) => {
            startup.set(None);
            Ok(())
        }
        Err(problem) => {
            tracing::error!(step = ?problem.step, detail = %problem.detail, "Specdesk could not start");
            startup.set(Some(problem.clone()));
            Err(problem)
        }
    }
}

async fn open(app: &AppHandle, fresh_library: bool) -> Result<(), StartProblem> {
    let dir = data_dir(app).map_err(|e| StartProblem {
        step: StartStep::DataFolder,
        message: "Specdesk could not find its data folder. Choose Try again; if it fails again, set SPECDESK_DATA_DIR to a folder you can write to.".into(),
        detail: e,
        data_dir: String::new(),
        library: None,
    })?;
    std::fs::create_dir_all(&dir)
        .map_err(|e| StartProblem::folder(StartStep::DataFolder, &dir, &e, &dir))?;
    let settings_path = dir.join("settings.json");
    let (settings, settings_notice) = settings_store::PluginSettings::open(app, &settings_path)
        .map_err(|e| StartProblem::settings(e.message, &settings_path, &dir))?;
    // Told even when a later step fails and Try again follows (the file is set aside once).
    tell_once(app, settings_notice);
    let secrets = Arc::new(keychain::OsKeychain::default());
    let notifier = Arc::new(notify::DesktopNotifier::new(app.clone()));
    let (state, library_notice) =
        AppState::open(&dir, Arc::new(settings), secrets, notifier, fresh_library).await?;
    tell_once(app, library_notice);
    forward_job_changes(app.clone(), state.jobs.subscribe());
    // Generated media are shown through the asset protocol, from the media folder only.
    if let Err(e) = app
        .asset_protocol_scope()
        .allow_directory(&state.media_dir, true)
    {
        tracing::warn!("the media folder could not be opened to the web view: {e}");
    }
    app.manage(state);
    tracing::info!(version = env!("CARGO_PKG_VERSION"), "Specdesk started");
    // Every unfinished job of the ledger (a spec generating when the app was closed...) is
    // followed again.
    let handle = app.clone();
    tauri::async_runtime::spawn(async move {
        let state = handle.state::<AppState>();
        match state.jobs.resume_all().await {
            Ok(n) if n > 0 => tracing::info!("resumed {n} unfinished jobs"),
            Ok(_) => {}
            Err(e) => tracing::warn!("could not resume jobs: {}", e.message),
        }
    });
    Ok(())
}

/// Adds `notice` to what the first `app_info` tells the user about this start.
pub fn tell_once(app: &AppHandle, notice: Option<String>) {
    let Some(notice) = notice else { return };
    let state = app.state::<StartNotice>();
    let mut told = state.0.lock().unwrap_or_else(|p| p.into_inner());
    *told = Some(match told.take() {
        Some(before) => format!("{before} {notice}"),
        None => notice,
    });
}

/// Broadcasts every change of the job ledger to the UI (`job-changed`), each job's request only
/// when it is new to the UI (`core::job_changes`).
fn forward_job_changes(
    app: AppHandle,
    mut changes: tokio::sync::broadcast::Receiver<specdesk_core::Job>,
) {
    tauri::async_runtime::spawn(async move {
        let mut told = specdesk_core::job_changes::JobChanges::new();
        loop {
            match changes.recv().await {
                Ok(job) => {
                    let payload = told.payload(&job);
                    if let Err(e) = app.emit(crate::commands::events::JOB_CHANGED, payload) {
                        tracing::warn!("could not emit a job change: {e}");
                    }
                }
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => break,
            }
        }
    });
}
