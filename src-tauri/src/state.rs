//! What the commands share: profiles (over the settings file and the OS keychain), the local
//! library, the job runner that follows long jobs, running streams, and the embedded sandbox the
//! built-in profile talks to.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use specdesk_core::library::LIBRARY_BUSY_WAIT;
use specdesk_core::{
    ChosenFiles, JobRunner, JobRunnerConfig, Keys, Library, LibraryError, LibraryTrouble, Notifier,
    Profiles, SecretStore, SettingsStore, StartProblem, StartStep,
};
use specdesk_sandbox::SandboxHandle;

use crate::streams::StreamRegistry;

/// How long a keychain call may take before the user is told to unlock it.
const KEYCHAIN_TIMEOUT: Duration = Duration::from_secs(20);

pub struct AppState {
    pub profiles: Arc<Profiles>,
    pub library: Arc<Library>,
    pub jobs: JobRunner,
    pub streams: StreamRegistry,
    /// Chat replies streaming now: they run on when their screen goes, and a screen that comes
    /// back follows them again (`core::live_replies`).
    pub replies: specdesk_core::live_replies::LiveReplies,
    /// The gateway calls and chat replies of this run, running and recently ended: with the jobs,
    /// the activity list (`core::activity`).
    pub activity: specdesk_core::activity::Board,
    /// Prices of the connections' priced model lists: the estimates the spend cap counts.
    pub prices: specdesk_core::spend::Prices,
    /// Gateway calls sent and not charged yet: their estimates count against the spend cap.
    pub under_way: specdesk_core::spend::UnderWay,
    /// Files the user picked or dropped: the only ones the commands read.
    pub chosen_files: ChosenFiles,
    pub data_dir: PathBuf,
    /// Where generated files (audio, images, videos) are saved.
    pub media_dir: PathBuf,
    /// Keeps the embedded sandbox running for the app's lifetime.
    pub sandbox: SandboxHandle,
}

impl AppState {
    /// Opens everything under `data_dir`, starts the embedded sandbox and the job runner (which
    /// follows nothing until `jobs.resume_all()`). A damaged library is set aside and a fresh one
    /// made (the notice says so); `fresh_library` sets the library aside whatever its state (the
    /// recovery window's "Start with a fresh library"). Each failure names its step.
    pub async fn open(
        data_dir: &Path,
        settings: Arc<dyn SettingsStore>,
        secrets: Arc<dyn SecretStore>,
        notifier: Arc<dyn Notifier>,
        fresh_library: bool,
    ) -> Result<(AppState, Option<String>), StartProblem> {
        std::fs::create_dir_all(data_dir)
            .map_err(|e| StartProblem::folder(StartStep::DataFolder, data_dir, &e, data_dir))?;
        let media_dir = data_dir.join("media");
        std::fs::create_dir_all(&media_dir)
            .map_err(|e| StartProblem::folder(StartStep::MediaFolder, &media_dir, &e, data_dir))?;
        let library_path = data_dir.join("library.sqlite");
        // Off the async runtime: opening may wait for another program's lock.
        let path = library_path.clone();
        let opened = tokio::task::spawn_blocking(move || {
            if fresh_library {
                Library::start_fresh(&path, LIBRARY_BUSY_WAIT)
            } else {
                Library::open_at_start(&path, LIBRARY_BUSY_WAIT)
            }
        })
        .await
        .unwrap_or_else(|e| {
            Err(LibraryError {
                trouble: LibraryTrouble::Other,
                detail: e.to_string(),
            })
        })
        .map_err(|e| StartProblem::library(&e, &library_path, data_dir))?;
        let notice = if fresh_library { None } else { opened.notice() };
        let library = Arc::new(opened.library);
        // The files deleted in an earlier run (their Undo ended with it) go for good.
        match specdesk_core::media::purge_deleted(&library, &media_dir) {
            Ok(n) if n > 0 => tracing::info!("removed {n} deleted files"),
            Ok(_) => {}
            Err(e) => tracing::warn!("deleted files could not be removed: {}", e.message),
        }
        // The images saved before there were thumbnails get theirs, one at a time, behind the
        // app's start (the gallery shows each image itself until then).
        let (lib, dir) = (library.clone(), media_dir.clone());
        tokio::task::spawn_blocking(move || match specdesk_core::thumbs::backfill(&lib, &dir) {
            Ok(n) if n > 0 => tracing::info!("made {n} thumbnails"),
            Ok(_) => {}
            Err(e) => tracing::warn!("thumbnails could not be made: {}", e.message),
        });
        let sandbox = crate::embedded_sandbox::start(&data_dir.join("sandbox"))
            .await
            .map_err(|e| StartProblem::sandbox(e, data_dir))?;
        let profiles = Arc::new(Profiles::new(
            settings,
            Keys::new(secrets, KEYCHAIN_TIMEOUT),
            sandbox.base_url(),
        ));
        let mut config = JobRunnerConfig::new(&media_dir);
        if let Ok(settings) = profiles.settings() {
            config.spec_poll_interval =
                Duration::from_secs(settings.spec_poll_interval_secs.into());
        }
        let jobs = JobRunner::new(library.clone(), profiles.clone(), notifier, config);
        let state = AppState {
            profiles,
            library,
            jobs,
            streams: StreamRegistry::default(),
            replies: Default::default(),
            activity: Default::default(),
            prices: Default::default(),
            under_way: Default::default(),
            chosen_files: ChosenFiles::default(),
            data_dir: data_dir.to_owned(),
            media_dir,
            sandbox,
        };
        Ok((state, notice))
    }
}
