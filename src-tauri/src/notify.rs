//! When a long job ends (a spec, a browser batch, a video): the window is told on whatever screen
//! it shows (`job-finished`, an in-app notice with Open), and, while the window is in the
//! background (unfocused, hidden or minimized), the desktop shows a notification if Settings
//! allow its kind. On Linux the notification is sent through the notification server (notify-rust)
//! with a default action, so clicking it brings the window forward and opens the item
//! (`open-place`); on macOS and Windows it goes through tauri-plugin-notification, whose desktop
//! notifications report no click: the OS brings the app forward and the in-app notice has Open.
//! Never blocks the job runner.

use tauri::{AppHandle, Manager, Runtime};
#[cfg(not(target_os = "linux"))]
use tauri_plugin_notification::NotificationExt;

use specdesk_core::activity::{ActivityPlace, jobs::job_activity};
use specdesk_core::{Job, JobKind, JobStatus, Notifier, Settings};

use crate::state::AppState;

/// The event that tells the window a job ended (its activity entry: kind, title, state, place).
pub const JOB_FINISHED: &str = "job-finished";
/// The event that opens a place (a desktop notification was clicked).
pub const OPEN_PLACE: &str = "open-place";

/// How long a notification's click is listened for.
#[cfg(target_os = "linux")]
const LISTENED_FOR: std::time::Duration = std::time::Duration::from_secs(24 * 60 * 60);

pub struct DesktopNotifier {
    app: AppHandle,
}

impl DesktopNotifier {
    pub fn new(app: AppHandle) -> Self {
        DesktopNotifier { app }
    }
}

/// Title and body of the notification for a job that ended, if it deserves one.
pub fn message(job: &Job) -> Option<(String, String)> {
    let (what, ended) = match job.kind {
        JobKind::Spec => ("Your spec", "is ready"),
        JobKind::Batch => ("Your browser batch", "has finished"),
        JobKind::Video => ("Your video", "is ready"),
    };
    let subject = job
        .request
        .get("input")
        .or_else(|| job.request.get("prompt"))
        .and_then(|v| v.as_str())
        .map(|s| {
            let line = s.lines().next().unwrap_or("").trim();
            let short: String = line.chars().take(80).collect();
            if line.chars().count() > 80 {
                format!("{short}…")
            } else {
                short
            }
        })
        .filter(|s| !s.is_empty());
    match job.status {
        JobStatus::Completed => Some((
            format!("{what} {ended}"),
            subject.unwrap_or_else(|| job_activity(job).title),
        )),
        JobStatus::Failed => Some((
            format!("{what} could not be finished"),
            job.error
                .as_ref()
                .map(|e| e.message.clone())
                .unwrap_or_else(|| "Open Specdesk to see why.".to_owned()),
        )),
        _ => None,
    }
}

/// Whether Settings let a finished job of `kind` notify the desktop.
pub fn notifies(settings: &Settings, kind: JobKind) -> bool {
    settings.notifications
        && match kind {
            JobKind::Spec => settings.notify.specs,
            JobKind::Batch => settings.notify.batches,
            JobKind::Video => settings.notify.videos,
        }
}

/// Whether the user is elsewhere: the window unfocused, hidden or minimized (or gone).
fn in_background<R: Runtime>(app: &AppHandle<R>) -> bool {
    let Some(window) = app.get_webview_window("main") else {
        return true;
    };
    !window.is_focused().unwrap_or(false)
        || !window.is_visible().unwrap_or(true)
        || window.is_minimized().unwrap_or(false)
}

impl Notifier for DesktopNotifier {
    fn job_finished(&self, job: &Job) {
        let Some((title, body)) = message(job) else {
            return;
        };
        let entry = job_activity(job);
        crate::commands::emit(&self.app, JOB_FINISHED, entry.clone());
        let allowed = self
            .app
            .try_state::<AppState>()
            .and_then(|s| s.profiles.settings().ok())
            .is_none_or(|s| notifies(&s, job.kind));
        if !allowed || !in_background(&self.app) {
            return;
        }
        show(self.app.clone(), title, body, entry.place);
    }
}

/// Shows the notification; its default action (a click on it) opens `place` in the window.
#[cfg(target_os = "linux")]
fn show(app: AppHandle, title: String, body: String, place: ActivityPlace) {
    tauri::async_runtime::spawn(async move {
        let shown = notify_rust::Notification::new()
            .appname("Specdesk")
            .summary(&title)
            .body(&body)
            .action("default", "Open")
            .show_async()
            .await;
        let handle = match shown {
            Ok(handle) => handle,
            Err(e) => {
                tracing::info!("no desktop notification: {e}");
                return;
            }
        };
        // Waited for as long as a notification can matter (a server that keeps notifications
        // may never say it closed one): then the click is no longer listened for.
        let waiting = handle.wait_for_action_async(|response| {
            use notify_rust::NotificationResponse;
            let clicked = match response {
                NotificationResponse::Default => true,
                NotificationResponse::Action(action) => action == "default",
                _ => false,
            };
            if clicked {
                crate::focus_main_window(&app);
                crate::commands::emit(&app, OPEN_PLACE, place);
            }
        });
        let _ = tokio::time::timeout(LISTENED_FOR, waiting).await;
    });
}

#[cfg(not(target_os = "linux"))]
fn show(app: AppHandle, title: String, body: String, _place: ActivityPlace) {
    tauri::async_runtime::spawn_blocking(move || {
        if let Err(e) = app.notification().builder().title(title).body(body).show() {
            tracing::info!("no desktop notification: {e}");
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(kind: JobKind, status: JobStatus, request: serde_json::Value) -> Job {
        Job {
            id: 1,
            kind,
            profile_id: "sandbox".into(),
            idempotency_key: None,
            request,
            remote_id: None,
            status,
            progress: None,
            result: None,
            error: Some(specdesk_core::IpcError::failed(
                "The service could not generate this spec.",
            )),
            created_at: "2026-11-23T10:00:00Z".into(),
            updated_at: "2026-11-23T10:00:00Z".into(),
        }
    }

    #[test]
    fn each_kind_has_its_switch_under_the_main_one() {
        let mut settings = Settings::default();
        assert!(notifies(&settings, JobKind::Spec));
        settings.notify.batches = false;
        assert!(!notifies(&settings, JobKind::Batch));
        assert!(notifies(&settings, JobKind::Video));
        settings.notifications = false;
        assert!(!notifies(&settings, JobKind::Spec));
    }

    #[test]
    fn finished_jobs_are_told_in_plain_words() {
        let done = job(
            JobKind::Spec,
            JobStatus::Completed,
            serde_json::json!({"depth": "fast", "input": "A habit tracker\nwith streaks"}),
        );
        assert_eq!(
            message(&done),
            Some(("Your spec is ready".into(), "A habit tracker".into()))
        );
        let failed = job(
            JobKind::Video,
            JobStatus::Failed,
            serde_json::json!({"prompt": "waves"}),
        );
        assert_eq!(
            message(&failed),
            Some((
                "Your video could not be finished".into(),
                "The service could not generate this spec.".into()
            ))
        );
        let batch = job(
            JobKind::Batch,
            JobStatus::Completed,
            serde_json::json!({"tasks": [{"url": "https://a.test"}, {"url": "https://b.test"}]}),
        );
        assert_eq!(
            message(&batch),
            Some((
                "Your browser batch has finished".into(),
                "Batch of 2 tasks".into()
            ))
        );
        assert_eq!(
            message(&job(
                JobKind::Batch,
                JobStatus::Cancelled,
                serde_json::json!({})
            )),
            None
        );
    }
}
