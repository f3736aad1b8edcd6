//! Gateway use cases: every call's metering goes to the credit ledger; what a call makes (speech,
//! music, images) is saved as a file in the media folder and recorded in the library with its
//! prompt, model and cost; a chat turn is kept in its conversation.

use std::path::{Path, PathBuf};

use base64::Engine as _;
use futures::StreamExt;
use specdesk_client::{AudioUpload, Client, MessageAccumulator, Metering};
use specdesk_types::{
    AudioFormat, ContentDelta, ImageRequest, MessageContent, MessageRole, MessagesRequest,
    MessagesStreamEvent, RerankRequest, RerankResult, SpeechRequest, Transcription,
};

use crate::charged::{Charged, ChatReply};
use crate::events::ChatEvent;
use crate::ipc_error::{IpcError, IpcErrorKind};
use crate::library::{Library, MediaItem, MediaKind, NewMedia, PendingCharge};

/// Largest recording sent for transcription.
pub const MAX_AUDIO_BYTES: u64 = 100 * 1024 * 1024;

pub(crate) const AUDIO_TYPES: &[(&str, &str)] = &[
    ("wav", "audio/wav"),
    ("mp3", "audio/mpeg"),
    ("m4a", "audio/mp4"),
    ("mp4", "audio/mp4"),
    ("ogg", "audio/ogg"),
    ("oga", "audio/ogg"),
    ("webm", "audio/webm"),
    ("flac", "audio/flac"),
];

/// The gateway calls of one profile, with the library that records them.
pub struct Studio<'a> {
    pub client: &'a Client,
    pub library: &'a Library,
    pub profile_id: &'a str,
    /// Where generated files are saved.
    pub media_dir: &'a Path,
    /// What the call about to be made was estimated at before it was sent (0: not known): kept
    /// with a stream's ledger line, which counts at it if the stream is cut before its charge.
    pub estimate: f64,
}

impl Studio<'_> {
    fn meter(&self, endpoint: &str, model: &str, metering: &Metering) -> Result<(), IpcError> {
        if !metering.is_empty() {
            self.library
                .record_model_metering(self.profile_id, endpoint, Some(model), metering)?;
        }
        Ok(())
    }

    async fn save(&self, name: String, bytes: Vec<u8>) -> Result<String, IpcError> {
        let path = self.media_dir.join(name);
        let write = path.clone();
        tokio::task::spawn_blocking(move || crate::files::write_atomically(&write, &bytes))
            .await
            .map_err(IpcError::storage)?
            .map_err(IpcError::storage)?;
        Ok(path.to_string_lossy().into_owned())
    }

    /// `POST /v1/rerank`.
    pub async fn rerank(&self, request: &RerankRequest) -> Result<Charged<RerankResult>, IpcError> {
        let out = self.client.gateway().rerank(request).await?;
        self.meter("v1/rerank", &request.model, &out.metering)?;
        Ok(Charged::new(out.value, &out.metering))
    }

    /// Speech or music, saved as a file of the media library.
    pub async fn speech(&self, request: &SpeechRequest) -> Result<Charged<MediaItem>, IpcError> {
        let out = self.client.gateway().speech(request).await?;
        self.meter("v1/audio/speech", &request.model, &out.metering)?;
        let ext = match &out.value.format {
            AudioFormat::Mp3 => "mp3",
            AudioFormat::Pcm16 => "pcm",
            _ => "wav",
        };
        let name = format!("audio-{}.{ext}", unique());
        let path = self.save(name, out.value.bytes.to_vec()).await?;
        let item = self.library.add_media(&NewMedia {
            kind: MediaKind::Audio,
            path: &path,
            prompt: &request.input,
            model: &request.model,
            profile_id: self.profile_id,
            credits: out.metering.credits_charged,
            cost: None,
            job_id: None,
        })?;
        Ok(Charged::new(item, &out.metering))
    }

    /// Images, each saved as a file of the media library (the charge on the first).
    pub async fn images(
        &self,
        request: &ImageRequest,
    ) -> Result<Charged<Vec<MediaItem>>, IpcError> {
        let out = self.client.gateway().images(request).await?;
        self.meter("v1/images", &request.model, &out.metering)?;
        let cost = out.value.usage.as_ref().and_then(|u| u.cost);
        let batch = unique();
        let mut items = Vec::new();
        for (i, image) in out.value.data.iter().enumerate() {
            let Some(b64) = image.b64_json.as_deref() else {
                continue;
            };
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(b64.trim())
                .map_err(|_| {
                    IpcError::new(
                        IpcErrorKind::Decode,
                        "The service sent an image Specdesk could not read. Try again.",
                    )
                })?;
            let ext = if bytes.starts_with(&[0xff, 0xd8]) {
                "jpg"
            } else if bytes.starts_with(b"RIFF") {
                "webp"
            } else {
                "png"
            };
            let path = self
                .save(format!("image-{batch}-{i}.{ext}"), bytes.clone())
                .await?;
            let first = i == 0;
            let item = self.library.add_media(&NewMedia {
                kind: MediaKind::Image,
                path: &path,
                prompt: &request.prompt,
                model: &request.model,
                profile_id: self.profile_id,
                credits: out.metering.credits_charged.filter(|_| first),
                cost: cost.filter(|_| first),
                job_id: None,
            })?;
            items.push(
                crate::thumbs::with_thumbnail(self.library, self.media_dir, item, bytes).await,
            );
        }
        if items.is_empty() {
            return Err(IpcError::new(
                IpcErrorKind::Decode,
                "The service answered without an image. Try again, or try another model.",
            ));
        }
        Ok(Charged::new(items, &out.metering))
    }

    /// Transcribes an audio file from disk.
    pub async fn transcribe(
        &self,
        path: &Path,
        model: &str,
    ) -> Result<Charged<Transcription>, IpcError> {
        // Up to 100 MB read from disk: off the async runtime's threads.
        let owned = path.to_owned();
        let audio = tokio::task::spawn_blocking(move || read_audio(&owned))
            .await
            .map_err(|e| IpcError::internal(e.to_string()))??;
        let out = self.client.gateway().transcribe(model, &audio).await?;
        self.meter("v1/audio/transcriptions", model, &out.metering)?;
        Ok(Charged::new(out.value, &out.metering))
    }

    /// Keeps a turn's question in conversation `id` before its reply is asked for. A question
    /// sent again after its reply failed is the same question: kept once, the reply cut off then
    /// giving way to the new one. A reply being continued from its words (`prefill`) is no new
    /// question: the cut-off row holding those words gives way to the continued reply.
    fn keep_question(
        &self,
        id: i64,
        content: &serde_json::Value,
        prefill: Option<&str>,
    ) -> Result<(), IpcError> {
        let kept = self.library.messages(id)?;
        if let Some(before) = prefill {
            if let Some(cut) = kept.last().filter(|m| {
                m.cut
                    && m.role == "assistant"
                    && before.starts_with(json_text(&m.content).trim_end())
            }) {
                self.library.delete_cut_reply(cut.id)?;
            }
            return Ok(());
        }
        let asked_already = kept
            .iter()
            .rev()
            .find(|m| !m.cut)
            .is_some_and(|m| m.role == "user" && m.content == *content);
        if !asked_already {
            self.library.add_message(id, "user", content, None, None)?;
            return Ok(());
        }
        for m in kept.iter().rev().take_while(|m| m.cut) {
            self.library.delete_cut_reply(m.id)?;
        }
        Ok(())
    }

    /// A stream's ledger line, recorded as it opens (with the call's estimate): a stream
    /// cancelled or broken from here still costs what the model generated, and the next balance
    /// reading settles it.
    fn open_charge(&self, model: &str, metering: &Metering) -> Result<OpenCharge<'_>, IpcError> {
        let opened = self.library.open_charge(
            self.profile_id,
            "v1/messages",
            Some(model),
            metering.request_id.as_deref(),
        )?;
        if self.estimate > 0.0 {
            self.library.note_estimate(opened, self.estimate)?;
        }
        Ok(OpenCharge {
            library: self.library,
            charge: Some(opened),
        })
    }

    /// One streamed chat turn, kept in conversation `conversation_id` (a new one when `None`):
    /// the user's last message is stored before sending, the reply when it ends. `on_event` gets
    /// `start`, each text delta, then `done` (or the caller sends `error`).
    pub async fn chat_stream(
        &self,
        conversation_id: Option<i64>,
        request: &MessagesRequest,
        mut on_event: impl FnMut(ChatEvent),
    ) -> Result<ChatReply, IpcError> {
        let last = request
            .messages
            .last()
            .ok_or_else(|| IpcError::invalid("messages", "Write a message first."))?;
        let conversation = match conversation_id {
            Some(id) => self.library.conversation(id)?,
            None => self.library.create_conversation(
                self.profile_id,
                &title_of(&last.content),
                Some(&request.model),
            )?,
        };
        on_event(ChatEvent::Start {
            conversation_id: conversation.id,
        });
        let content = serde_json::to_value(&last.content)
            .map_err(|e| IpcError::new(IpcErrorKind::Internal, e.to_string()))?;
        // A reply being continued (the request ends with the assistant's own words, a prefill)
        // is no new question; the continuation is kept joined to those words. The Messages shape
        // refuses a prefill that ends in white space: the words are sent, and kept, without it.
        let prefill = (last.role == MessageRole::Assistant)
            .then(|| text_of(&last.content).trim_end().to_owned());
        let trimmed;
        let request = match &prefill {
            Some(before) if *before != text_of(&last.content) => {
                trimmed = with_last_text(request, before);
                &trimmed
            }
            _ => request,
        };
        self.keep_question(conversation.id, &content, prefill.as_deref())?;
        let mut stream = self.client.gateway().messages_stream(request).await?;
        let metering = stream.metering().clone();
        // A stream's headers come before its reply: their balance is the one after the reply
        // only when they announce its charge (the spec settles a stream's credits at its end).
        let balance_after = metering
            .credits_charged
            .filter(|c| *c > 0.0)
            .and(metering.credits_remaining);
        let mut charge = self.open_charge(&request.model, &metering)?;
        let mut acc = MessageAccumulator::default();
        // What the reply has said so far: kept, marked as cut, if it ends before its end.
        let mut partial = PartialReply {
            library: self.library,
            conversation_id: conversation.id,
            model: &request.model,
            text: prefill.clone().unwrap_or_default(),
            row: None,
            saved_at: None,
            done: false,
        };
        while let Some(event) = stream.next().await {
            let event = event?;
            acc.push(&event)?;
            if let MessagesStreamEvent::ContentBlockDelta {
                index,
                delta: ContentDelta::TextDelta { text },
            } = &event
            {
                partial.text.push_str(text);
                // The delta goes on its way first; the reply so far is saved after it.
                on_event(ChatEvent::Text {
                    html: None,
                    html_from: None,
                    index: *index,
                    text: text.clone(),
                });
                partial.save_now_and_then();
            }
        }
        let message = acc.finish()?;
        partial.finish();
        // The final usage says what the reply cost; the headers announced it otherwise.
        let charged = message
            .usage
            .cost
            .map(|cost| (cost * 10.0 * 1e6).round() / 1e6)
            .or(metering.credits_charged);
        match charged {
            Some(c) => charge.settle(Some(c), metering.credits_remaining)?,
            // No figure from the service: left for the next balance reading to estimate.
            None => drop(charge),
        }
        let metering = Metering {
            credits_charged: charged,
            ..metering
        };
        self.library.add_message(
            conversation.id,
            "assistant",
            &kept_reply(prefill.as_deref(), &message)?,
            Some(&request.model),
            Some(&metering),
        )?;
        let reply = ChatReply {
            message,
            conversation_id: conversation.id,
            request_id: metering.request_id.clone(),
            balance_after,
            credits_charged: charged,
        };
        on_event(reply.done_event());
        Ok(reply)
    }
}

/// A reply's content as the conversation keeps it: a continued reply joined to the words it
/// continued (`prefill`).
fn kept_reply(
    prefill: Option<&str>,
    message: &specdesk_types::MessagesResponse,
) -> Result<serde_json::Value, IpcError> {
    match prefill {
        Some(before) => Ok(serde_json::json!([{
            "type": "text",
            "text": format!("{before}{}", blocks_text(&message.content)),
        }])),
        None => serde_json::to_value(&message.content)
            .map_err(|e| IpcError::new(IpcErrorKind::Internal, e.to_string())),
    }
}

/// A reply while it streams, saved in the conversation as a cut-off reply at most once a second
/// (so even a killed app keeps what it said). Ended whole, that row gives way to the reply;
/// dropped before its end (the stream broke or failed, the user stopped it, the app closed),
/// the row keeps everything it said, marked as cut.
struct PartialReply<'a> {
    library: &'a Library,
    conversation_id: i64,
    model: &'a str,
    text: String,
    /// The cut-off row saved so far, and when.
    row: Option<i64>,
    saved_at: Option<std::time::Instant>,
    done: bool,
}

impl PartialReply<'_> {
    /// Saves the text when the last save is a second old (or there was none).
    fn save_now_and_then(&mut self) {
        if self
            .saved_at
            .is_none_or(|at| at.elapsed() >= std::time::Duration::from_secs(1))
        {
            self.save();
        }
    }

    fn save(&mut self) {
        if self.text.trim().is_empty() {
            return;
        }
        let saved = match self.row {
            Some(id) => self.library.update_cut_reply(id, &self.text),
            None => self
                .library
                .add_cut_reply(self.conversation_id, &self.text, Some(self.model))
                .map(|m| self.row = Some(m.id)),
        };
        match saved {
            Ok(()) => self.saved_at = Some(std::time::Instant::now()),
            Err(e) => tracing::warn!("a reply in progress could not be kept: {}", e.message),
        }
    }

    /// The reply ended whole: its cut-off row goes (the whole reply is added after).
    fn finish(&mut self) {
        self.done = true;
        if let Some(id) = self.row.take()
            && let Err(e) = self.library.delete_cut_reply(id)
        {
            tracing::warn!("a cut-off row could not be removed: {}", e.message);
        }
    }
}

impl Drop for PartialReply<'_> {
    fn drop(&mut self) {
        if !self.done {
            self.save();
        }
    }
}

/// The credit-ledger line of a stream while it runs. Dropped before it is settled (the stream was
/// cancelled, broke, or failed), it marks the line as cut, for the next balance reading.
struct OpenCharge<'a> {
    library: &'a Library,
    charge: Option<PendingCharge>,
}

impl OpenCharge<'_> {
    fn settle(&mut self, charged: Option<f64>, remaining: Option<f64>) -> Result<(), IpcError> {
        match self.charge.take() {
            Some(c) => self.library.settle_charge(c, charged, remaining),
            None => Ok(()),
        }
    }
}

impl Drop for OpenCharge<'_> {
    fn drop(&mut self) {
        if let Some(c) = self.charge.take()
            && let Err(e) = self.library.cut_charge(c)
        {
            tracing::warn!("a cut stream's charge could not be marked: {}", e.message);
        }
    }
}

/// The text of a message's content (its text blocks, joined).
pub fn text_of(content: &MessageContent) -> String {
    match content {
        MessageContent::Text(t) => t.clone(),
        MessageContent::Blocks(blocks) => blocks_text(blocks),
    }
}

/// The text of a kept message's content (its text blocks, joined).
fn json_text(content: &serde_json::Value) -> String {
    match content {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Array(blocks) => blocks
            .iter()
            .filter(|b| b["type"] == "text")
            .filter_map(|b| b["text"].as_str())
            .collect(),
        _ => String::new(),
    }
}

/// `request` with its last message's words replaced by `text`.
fn with_last_text(request: &MessagesRequest, text: &str) -> MessagesRequest {
    let mut out = request.clone();
    if let Some(last) = out.messages.last_mut() {
        last.content = MessageContent::Text(text.to_owned());
    }
    out
}

/// The text blocks of a content, joined.
fn blocks_text(blocks: &[specdesk_types::ContentBlock]) -> String {
    blocks
        .iter()
        .filter_map(|b| match b {
            specdesk_types::ContentBlock::Text { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

/// A conversation's title: the start of its first message.
fn title_of(content: &MessageContent) -> String {
    let text = text_of(content);
    let line = text.lines().next().unwrap_or("").trim();
    let title: String = line.chars().take(60).collect();
    if title.is_empty() {
        "New conversation".to_owned()
    } else if line.chars().count() > 60 {
        format!("{title}…")
    } else {
        title
    }
}

/// An audio file from disk, checked.
pub fn read_audio(path: &Path) -> Result<AudioUpload, IpcError> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let Some((_, mime)) = AUDIO_TYPES.iter().find(|(e, _)| *e == ext) else {
        return Err(IpcError::invalid(
            "file",
            format!(
                "\"{name}\" is not an audio file Specdesk can send. Use WAV, MP3, M4A, OGG, WebM or FLAC."
            ),
        ));
    };
    let meta = std::fs::metadata(path).map_err(|_| {
        IpcError::invalid(
            "file",
            format!("Specdesk could not read \"{name}\". Check that it still exists."),
        )
    })?;
    if meta.len() > MAX_AUDIO_BYTES {
        return Err(IpcError::invalid(
            "file",
            format!("\"{name}\" is larger than 100 MB. Send a shorter recording."),
        ));
    }
    let bytes = std::fs::read(path).map_err(|_| {
        IpcError::invalid(
            "file",
            format!("Specdesk could not read \"{name}\". Check that it still exists."),
        )
    })?;
    Ok(AudioUpload {
        file_name: name,
        mime: (*mime).to_owned(),
        bytes: bytes.into(),
    })
}

/// A name part no other file of this run or another has.
fn unique() -> String {
    let stamp = time::OffsetDateTime::now_utc().unix_timestamp();
    let id = uuid::Uuid::new_v4().simple().to_string();
    format!("{stamp}-{}", &id[..8])
}

/// The only kinds of file `save_document` writes: documents, never something a system could run
/// or load (a `.desktop`, `.bat` or shell file in a startup folder).
const DOCUMENT_EXTENSIONS: &[&str] = &["md", "markdown", "txt", "csv"];

/// Saves `contents` as `file_name` in `folder` without replacing a file already there (a
/// " (2)"-style suffix is added); a name without a document extension (`.md`, `.markdown`, `.csv`,
/// `.txt`) gets `.md` added. Returns the path written.
pub fn save_document(folder: &Path, file_name: &str, contents: &str) -> Result<PathBuf, IpcError> {
    let Some(mut clean) = crate::file_names::portable_file_name(file_name) else {
        return Err(IpcError::invalid("fileName", "Give the file a name."));
    };
    let is_document = clean.rsplit_once('.').is_some_and(|(stem, ext)| {
        !stem.is_empty() && DOCUMENT_EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str())
    });
    if !is_document {
        clean.push_str(".md");
    }
    std::fs::create_dir_all(folder).map_err(|e| {
        IpcError::new(IpcErrorKind::Storage,
            format!(
                "The folder {} could not be created ({e}). Choose another download folder in Settings.",
                folder.display()
            ),
        )
    })?;
    let (stem, ext) = match clean.rsplit_once('.') {
        Some((s, e)) if !s.is_empty() => (s.to_owned(), format!(".{e}")),
        _ => (clean.clone(), String::new()),
    };
    let mut path = folder.join(&clean);
    let mut n = 2;
    while path.exists() {
        path = folder.join(format!("{stem} ({n}){ext}"));
        n += 1;
    }
    write_document(&path, contents)?;
    Ok(path)
}

/// Writes `contents` to `path` (a path the user chose), atomically.
pub fn write_document(path: &Path, contents: &str) -> Result<(), IpcError> {
    crate::files::write_atomically(path, contents.as_bytes()).map_err(|e| {
        IpcError::new(
            IpcErrorKind::Storage,
            format!(
                "{} could not be written ({e}). Check the folder exists and you may write to it.",
                path.display()
            ),
        )
    })
}
