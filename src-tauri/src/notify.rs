//! Desktop notifications when a long job ends in the background (tauri-plugin-notification),
//! honouring the notifications setting. Never blocks the job runner: the OS call runs on a
//! blocking thread.

use tauri::{AppHandle, Manager};
use tauri_plugin_notification::NotificationExt;

use specdesk_core::{Job, JobKind, JobStatus, Notifier};

use crate::state::AppState;

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
    let what = match job.kind {
        JobKind::Spec => "Your spec",
        JobKind::Batch => "Your browser batch",
        JobKind::Video => "Your video",
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
            format!("{what} is ready"),
            subject.unwrap_or_else(|| "Open Specdesk to see it.".to_owned()),
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

impl Notifier for DesktopNotifier {
    fn job_finished(&self, job: &Job) {
        let enabled = self
            .app
            .try_state::<AppState>()
            .and_then(|s| s.profiles.settings().ok())
            .is_none_or(|s| s.notifications);
        let Some((title, body)) = message(job).filter(|_| enabled) else {
            return;
        };
        let app = self.app.clone();
        tauri::async_runtime::spawn_blocking(move || {
            if let Err(e) = app.notification().builder().title(title).body(body).show() {
                tracing::info!("no desktop notification: {e}");
            }
        });
    }
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
