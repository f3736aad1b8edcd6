//! Following a video job: polled until it ends, the file saved in the media folder and recorded
//! in the library with its prompt, model and cost.

use std::path::Path;
use std::sync::Arc;

use futures::StreamExt;
use specdesk_client::{Client, Metering};
use specdesk_types::{VideoRequest, VideoStatus};

use super::runner::{Halt, Inner, Step, request_of};
use crate::ipc_error::{IpcError, IpcErrorKind};
use crate::library::{Job, JobStatus, MediaKind, NewMedia};

fn file_safe(id: &str) -> String {
    id.chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
        .take(64)
        .collect()
}

pub(super) async fn follow_video(inner: &Arc<Inner>, mut job: Job) -> Step {
    let client = inner.clients.client_for(&job.profile_id).await?;
    let request: VideoRequest = request_of(&job)?;
    let video_id = match job.remote_id.clone() {
        Some(id) => id,
        None => {
            // A video is charged when a poll reports it completed: the lost one never is.
            let created = client.gateway().create_video(&request).await?;
            inner.library.record_model_metering(
                &job.profile_id,
                "v1/videos",
                Some(&request.model),
                &created.metering,
            )?;
            inner.library.set_remote_id(job.id, &created.value.id)?;
            job = inner.emit(job.id)?;
            created.value.id
        }
    };
    let mut polls = std::pin::pin!(client.gateway().wait_for_video(&video_id));
    // The charge, as the poll that reported it metered it (request id, credits, balance after).
    let mut charge = Metering::default();
    while let Some(poll) = polls.next().await {
        let poll = poll?;
        if poll.metering.credits_charged.is_some_and(|c| c > 0.0) {
            inner.library.record_model_metering(
                &job.profile_id,
                "v1/videos",
                Some(&request.model),
                &poll.metering,
            )?;
            charge = poll.metering.clone();
        }
        let video = poll.value;
        match &video.status {
            VideoStatus::Queued => {
                inner.progress(&mut job, JobStatus::Submitted, Some("Queued"))?
            }
            VideoStatus::Completed => {
                let cost = video.usage.as_ref().and_then(|u| u.cost);
                return video_done(inner, &client, &job, &request, &video_id, &charge, cost).await;
            }
            VideoStatus::Failed => {
                let why = match &video.error {
                    Some(serde_json::Value::String(s)) => Some(s.clone()),
                    Some(v) => v.get("message").and_then(|m| m.as_str()).map(str::to_owned),
                    None => None,
                };
                let error = IpcError::failed(match why {
                    Some(why) => format!("The service could not make this video: {why}"),
                    None => "The service could not make this video.".to_owned(),
                });
                inner.finish(job.id, JobStatus::Failed, None, None, Some(&error))?;
                return Ok(());
            }
            VideoStatus::InProgress | VideoStatus::Unknown(_) => {
                let text = match video.progress {
                    Some(p) => format!("Rendering ({p:.0}%)"),
                    None => "Rendering".to_owned(),
                };
                inner.progress(&mut job, JobStatus::Running, Some(&text))?
            }
        }
    }
    Err(Halt::Retry(IpcError::new(
        IpcErrorKind::Network,
        "The video's progress could not be read. Specdesk will try again.",
    )))
}

async fn video_done(
    inner: &Arc<Inner>,
    client: &Client,
    job: &Job,
    request: &VideoRequest,
    video_id: &str,
    charge: &Metering,
    cost: Option<f64>,
) -> Step {
    // Saved already (the app stopped between saving and marking the job done)?
    let existing = inner
        .library
        .media(None, Some(MediaKind::Video), u32::MAX, 0)?
        .into_iter()
        .find(|m| m.job_id == Some(job.id));
    let item = match existing {
        Some(item) => item,
        None => {
            let content = client.gateway().video_content(video_id).await?;
            let ext = match content.value.content_type.as_deref() {
                Some(t) if t.starts_with("video/webm") => "webm",
                _ => "mp4",
            };
            let dir = inner.config().media_dir.clone();
            let path = dir.join(format!("video-{}-{}.{ext}", job.id, file_safe(video_id)));
            let bytes = content.value.bytes;
            let write_path = path.clone();
            tokio::task::spawn_blocking(move || save_file(&write_path, &bytes))
                .await
                .map_err(IpcError::storage)?
                .map_err(IpcError::storage)?;
            let path = path.to_string_lossy().into_owned();
            inner.library.add_media(&NewMedia {
                kind: MediaKind::Video,
                path: &path,
                prompt: &request.prompt,
                model: &request.model,
                profile_id: &job.profile_id,
                credits: charge.credits_charged,
                cost,
                job_id: Some(job.id),
            })?
        }
    };
    let mut result = serde_json::json!({
        "videoId": video_id,
        "mediaId": item.id,
        "path": item.path,
        "credits": item.credits,
        "cost": item.cost,
    });
    // The charging poll's request id and the balance after it, when this follower saw that poll.
    if let Some(id) = &charge.request_id {
        result["requestId"] = id.clone().into();
    }
    if charge.credits_charged.is_some()
        && let Some(balance) = charge.credits_remaining
    {
        result["balanceAfter"] = balance.into();
    }
    inner.finish(
        job.id,
        JobStatus::Completed,
        Some("Done"),
        Some(&result),
        None,
    )
}

fn save_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    crate::files::write_atomically(path, bytes)
}
