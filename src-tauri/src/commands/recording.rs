//! A recording made in the window, sent as the raw IPC body (no JSON round trip for the audio):
//! mono 16-bit PCM, its sample rate in a header. Kept as a WAV file in the media folder and the
//! library for the active connection, to be transcribed by its id like any take.

use tauri::State;
use tauri::ipc::{InvokeBody, Request};

use specdesk_core::recording::{self, Recording};
use specdesk_core::{IpcError, MediaItem};

use super::Result;
use crate::state::AppState;

/// The header giving the samples' rate in Hz.
pub const RATE_HEADER: &str = "x-recording-rate";

#[tauri::command]
pub async fn save_recording(state: State<'_, AppState>, request: Request<'_>) -> Result<MediaItem> {
    let InvokeBody::Raw(bytes) = request.body() else {
        return Err(IpcError::invalid(
            "recording",
            "Specdesk received no recording. Record again.",
        ));
    };
    let profile_id = state.profiles.settings()?.active_profile_id;
    // Up to 100 MB encoded and written: this worker is let block, the runtime's others go on.
    tokio::task::block_in_place(|| {
        recording::keep(
            &state.library,
            &state.media_dir,
            &profile_id,
            &Recording {
                pcm: bytes,
                // Missing or unreadable: 0, which the check refuses as a damaged recording.
                sample_rate: request
                    .headers()
                    .get(RATE_HEADER)
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(0),
            },
        )
    })
}
