//! A recording made from the microphone in the app's window: the window captures the sound as
//! 16-bit PCM (Web Audio, the same on every web view: WebKitGTK's MediaRecorder has no encoder it
//! can use on common Linux systems), and this writes it as a WAV file in the media folder, kept in
//! the media library as an audio file of its connection (marked as a recording, so it is never
//! mistaken for a generated take), ready to be transcribed by its id.

use std::path::Path;

use crate::ipc_error::IpcError;
use crate::library::{Library, MediaItem, MediaKind, NewMedia};
use crate::studio::MAX_AUDIO_BYTES;

/// What a recording is called in the library (its prompt).
pub const RECORDING_PROMPT: &str = "Recording from the microphone";
/// Its "model": nothing generated it.
pub const RECORDING_MODEL: &str = "microphone";
/// The sample rates a recording may have (the window asks for 16 kHz, which speech models use;
/// a web view that cannot resample records at its device's rate).
const RATES: std::ops::RangeInclusive<u32> = 8_000..=192_000;

/// A recording to keep: mono 16-bit little-endian PCM samples at `sample_rate` Hz.
pub struct Recording<'a> {
    pub pcm: &'a [u8],
    pub sample_rate: u32,
}

fn refused(message: impl Into<String>) -> IpcError {
    IpcError::invalid("recording", message)
}

/// Checks a recording before anything is written.
fn check(recording: &Recording<'_>) -> Result<(), IpcError> {
    if recording.pcm.is_empty() {
        return Err(refused(
            "The recording is empty: it was stopped before any sound arrived. Record again, a little longer.",
        ));
    }
    if !recording.pcm.len().is_multiple_of(2) || !RATES.contains(&recording.sample_rate) {
        return Err(refused(
            "The recording arrived damaged. Record again; if it keeps happening, restart Specdesk.",
        ));
    }
    // The WAV header is 44 bytes: the file, not only its samples, must fit what a call can send.
    if recording.pcm.len() as u64 + 44 > MAX_AUDIO_BYTES {
        return Err(refused(
            "The recording is larger than 100 MB. Record a shorter one.",
        ));
    }
    Ok(())
}

/// The WAV file of `recording` (mono, 16-bit).
fn wav(recording: &Recording<'_>) -> Result<Vec<u8>, hound::Error> {
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: recording.sample_rate,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut out = std::io::Cursor::new(Vec::with_capacity(recording.pcm.len() + 44));
    {
        let mut writer = hound::WavWriter::new(&mut out, spec)?;
        let mut samples = writer.get_i16_writer(recording.pcm.len() as u32 / 2);
        for pair in recording.pcm.chunks_exact(2) {
            samples.write_sample(i16::from_le_bytes([pair[0], pair[1]]));
        }
        samples.flush()?;
        writer.finalize()?;
    }
    Ok(out.into_inner())
}

/// Saves `recording` in `media_dir` as a WAV file (atomically) and records it in the library for
/// connection `profile_id`, with its length. Nothing is charged: no request is sent.
pub fn keep(
    library: &Library,
    media_dir: &Path,
    profile_id: &str,
    recording: &Recording<'_>,
) -> Result<MediaItem, IpcError> {
    check(recording)?;
    // Writing to memory within the size checked above does not fail; should hound refuse
    // anyway, the user gets words and the log gets hound's.
    let bytes = wav(recording).map_err(|e| {
        tracing::error!(error = %e, "a recording could not be written as WAV");
        IpcError::internal(
            "Specdesk could not make a sound file of this recording. Record again; if it keeps happening, restart Specdesk.",
        )
    })?;
    let stamp = time::OffsetDateTime::now_utc().unix_timestamp();
    let id = uuid::Uuid::new_v4().simple().to_string();
    let path = media_dir.join(format!("recording-{stamp}-{}.wav", &id[..8]));
    crate::files::write_atomically(&path, &bytes).map_err(IpcError::storage)?;
    let samples = recording.pcm.len() as f64 / 2.0;
    let seconds = (samples / f64::from(recording.sample_rate) * 10.0).round() / 10.0;
    let path = path.to_string_lossy().into_owned();
    // The file is recorded with its marks, or not at all (a row left unmarked would show as a
    // generated take; a file left unrecorded would be a stray).
    let recorded = record(library, profile_id, &path, seconds);
    if recorded.is_err() {
        let _ = std::fs::remove_file(&path);
    }
    recorded
}

fn record(
    library: &Library,
    profile_id: &str,
    path: &str,
    seconds: f64,
) -> Result<MediaItem, IpcError> {
    let mut item = library.add_media(&NewMedia {
        kind: MediaKind::Audio,
        path,
        prompt: RECORDING_PROMPT,
        model: RECORDING_MODEL,
        profile_id,
        credits: None,
        cost: None,
        job_id: None,
    })?;
    let settings = serde_json::json!({ "source": "microphone", "seconds": seconds });
    if let Err(e) = library.set_media_settings(profile_id, &[item.id], &settings) {
        let _ = library.delete_media(item.id);
        return Err(e);
    }
    item.settings = settings.as_object().cloned();
    Ok(item)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` samples of a ramp, as the window sends them.
    fn pcm(n: usize) -> Vec<u8> {
        (0..n)
            .flat_map(|i| (i as i16).wrapping_mul(7).wrapping_sub(300).to_le_bytes())
            .collect()
    }

    #[test]
    fn a_recording_is_saved_as_a_wav_file_and_listed_as_audio_of_its_connection() {
        let dir = tempfile::tempdir().unwrap();
        let library = Library::in_memory().unwrap();
        let samples = pcm(40_000);
        let item = keep(
            &library,
            dir.path(),
            "p1",
            &Recording {
                pcm: &samples,
                sample_rate: 16_000,
            },
        )
        .unwrap();
        assert_eq!(item.kind, MediaKind::Audio);
        assert_eq!(item.prompt, RECORDING_PROMPT);
        assert_eq!(item.model, RECORDING_MODEL);
        assert!(item.path.ends_with(".wav"), "{}", item.path);
        // Read back by a WAV reader: the same samples, at the same rate, mono.
        let mut reader = hound::WavReader::open(&item.path).unwrap();
        assert_eq!(reader.spec().sample_rate, 16_000);
        assert_eq!(reader.spec().channels, 1);
        let back: Vec<u8> = reader
            .samples::<i16>()
            .flat_map(|s| s.unwrap().to_le_bytes())
            .collect();
        assert_eq!(back, samples);
        let listed = library
            .media(Some("p1"), Some(MediaKind::Audio), 10, 0)
            .unwrap();
        assert_eq!(listed.len(), 1);
        assert_eq!(
            serde_json::Value::Object(listed[0].settings.clone().unwrap()),
            serde_json::json!({ "source": "microphone", "seconds": 2.5 })
        );
        assert!(library.media(Some("p2"), None, 10, 0).unwrap().is_empty());
    }

    #[test]
    fn an_empty_or_damaged_recording_is_refused_before_anything_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let library = Library::in_memory().unwrap();
        let refuse = |pcm: &[u8], sample_rate: u32| {
            keep(&library, dir.path(), "p1", &Recording { pcm, sample_rate })
                .unwrap_err()
                .message
        };
        assert_eq!(
            refuse(b"", 16_000),
            "The recording is empty: it was stopped before any sound arrived. Record again, a little longer."
        );
        let damaged =
            "The recording arrived damaged. Record again; if it keeps happening, restart Specdesk.";
        assert_eq!(refuse(b"abc", 16_000), damaged);
        assert_eq!(refuse(&pcm(100), 0), damaged);
        assert_eq!(refuse(&pcm(100), 400_000), damaged);
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        assert!(library.media(None, None, 10, 0).unwrap().is_empty());
    }
}
