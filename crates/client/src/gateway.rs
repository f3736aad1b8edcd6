//! The AI gateway (`{base_url}/v1`). Every call returns its metering.

use bytes::Bytes;
use futures::Stream;
use reqwest::header::{ETAG, HeaderMap, IF_NONE_MATCH};
use specdesk_types::{
    AudioFormat, ImageRequest, ImageResponse, MessagesRequest, MessagesResponse, ModelList,
    PublicCatalog, RerankRequest, RerankResult, SpeechRequest, Transcription, VideoJob,
    VideoRequest,
};

use crate::error::{Error, Result};
use crate::http::{Call, Family, FormPart, Shared, decode};
use crate::messages::MessagesStream;
use crate::metering::{Metered, Metering};
use crate::validate;

/// Audio produced by `POST /v1/audio/speech`.
#[derive(Debug, Clone, PartialEq)]
pub struct Audio {
    pub bytes: Bytes,
    /// From `x-svc-audio-format` (or the media type when that header is missing).
    pub format: AudioFormat,
    pub content_type: Option<String>,
}

/// An audio file to transcribe.
#[derive(Debug, Clone, PartialEq)]
pub struct AudioUpload {
    pub file_name: String,
    pub mime: String,
    pub bytes: Bytes,
}

/// The bytes of a finished video.
#[derive(Debug, Clone, PartialEq)]
pub struct VideoContent {
    pub bytes: Bytes,
    pub content_type: Option<String>,
}

/// What a conditional read answered.
#[derive(Debug, Clone, PartialEq)]
pub enum Conditional<T> {
    /// 304: the copy whose ETag was sent is still current.
    NotModified,
    /// A full answer, with its ETag when the service gave one.
    Changed { value: T, etag: Option<String> },
}

/// The AI gateway.
pub struct Gateway<'c> {
    inner: &'c Shared,
}

fn not_blank(field: &str, value: &str, message: &str) -> Result<()> {
    if value.trim().is_empty() {
        Err(Error::invalid(field, message))
    } else {
        Ok(())
    }
}

fn content_type(headers: &HeaderMap) -> Option<String> {
    headers
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

impl<'c> Gateway<'c> {
    pub(crate) fn new(inner: &'c Shared) -> Self {
        Gateway { inner }
    }

    /// `POST /v1/rerank`: the documents ordered by relevance to the query.
    pub async fn rerank(&self, request: &RerankRequest) -> Result<Metered<RerankResult>> {
        not_blank("model", &request.model, "Choose a rerank model.")?;
        not_blank(
            "query",
            &request.query,
            "Enter the query to rank the documents against.",
        )?;
        if request.documents.is_empty() {
            return Err(Error::invalid(
                "documents",
                "Add at least one document to rank.",
            ));
        }
        if request.top_n == Some(0) {
            return Err(Error::invalid(
                "top_n",
                "The number of results to keep must be at least 1.",
            ));
        }
        let call = Call::post("v1/rerank", Family::Gateway).json(request)?;
        let (value, metering) = self.inner.json(&call).await?;
        Ok(Metered::new(value, metering))
    }

    /// `POST /v1/audio/speech`: speech (WAV 24 kHz mono by default, or `pcm16`) or music (MP3).
    pub async fn speech(&self, request: &SpeechRequest) -> Result<Metered<Audio>> {
        not_blank("model", &request.model, "Choose a speech or music model.")?;
        not_blank(
            "input",
            &request.input,
            "Enter the text to speak, or describe the music.",
        )?;
        let call = Call::post("v1/audio/speech", Family::Gateway).json(request)?;
        let (bytes, headers) = self.inner.bytes(&call).await?;
        let metering = Metering::from_headers(&headers);
        let content_type = content_type(&headers);
        let format = headers
            .get("x-svc-audio-format")
            .and_then(|v| v.to_str().ok())
            .map(AudioFormat::from)
            .unwrap_or_else(|| match content_type.as_deref() {
                Some(t) if t.starts_with("audio/mpeg") => AudioFormat::Mp3,
                Some(t) if t.starts_with("audio/wav") || t.starts_with("audio/x-wav") => {
                    AudioFormat::Wav
                }
                Some(t) => AudioFormat::Unknown(t.to_owned()),
                None => AudioFormat::Unknown(String::new()),
            });
        Ok(Metered::new(
            Audio {
                bytes,
                format,
                content_type,
            },
            metering,
        ))
    }

    /// `POST /v1/audio/transcriptions` (multipart).
    pub async fn transcribe(
        &self,
        model: &str,
        audio: &AudioUpload,
    ) -> Result<Metered<Transcription>> {
        not_blank("model", model, "Choose a transcription model.")?;
        if audio.bytes.is_empty() {
            return Err(Error::invalid(
                "file",
                format!(
                    "The file \"{}\" is empty. Choose a recording.",
                    audio.file_name
                ),
            ));
        }
        let call = Call::post("v1/audio/transcriptions", Family::Gateway).multipart(vec![
            FormPart::File {
                name: "file",
                file_name: audio.file_name.clone(),
                mime: audio.mime.clone(),
                bytes: audio.bytes.clone(),
            },
            FormPart::Text("model", model.to_owned()),
        ]);
        let (value, metering) = self.inner.json(&call).await?;
        Ok(Metered::new(value, metering))
    }

    fn check_messages(request: &MessagesRequest) -> Result<()> {
        not_blank("model", &request.model, "Choose a chat model.")?;
        if request.messages.is_empty() {
            return Err(Error::invalid("messages", "Write a message first."));
        }
        if request.max_tokens == 0 {
            return Err(Error::invalid(
                "max_tokens",
                "The reply length must be at least 1 token.",
            ));
        }
        Ok(())
    }

    /// `POST /v1/messages`: the whole reply at once.
    pub async fn messages(&self, request: &MessagesRequest) -> Result<Metered<MessagesResponse>> {
        Self::check_messages(request)?;
        let mut request = request.clone();
        request.stream = None;
        let call = Call::post("v1/messages", Family::Gateway).json(&request)?;
        let (value, metering) = self.inner.json(&call).await?;
        Ok(Metered::new(value, metering))
    }

    /// `POST /v1/messages` with `stream: true`: the reply as events.
    pub async fn messages_stream(&self, request: &MessagesRequest) -> Result<MessagesStream> {
        Self::check_messages(request)?;
        let mut request = request.clone();
        request.stream = Some(true);
        let call = Call::post("v1/messages", Family::Gateway)
            .header("accept", "text/event-stream")
            .json(&request)?;
        let (events, metering) = self.inner.sse(&call).await?;
        Ok(MessagesStream::new(events, metering))
    }

    /// `POST /v1/images`: synchronous image generation.
    pub async fn images(&self, request: &ImageRequest) -> Result<Metered<ImageResponse>> {
        not_blank("model", &request.model, "Choose an image model.")?;
        not_blank("prompt", &request.prompt, "Describe the image you want.")?;
        if request.n == Some(0) {
            return Err(Error::invalid("n", "Ask for at least one image."));
        }
        if let Some(size) = &request.size {
            let ok = size.split_once('x').is_some_and(|(w, h)| {
                w.parse::<u32>().is_ok_and(|w| w > 0) && h.parse::<u32>().is_ok_and(|h| h > 0)
            });
            if !ok {
                return Err(Error::invalid(
                    "size",
                    format!(
                        "\"{size}\" is not an image size. Write it as width x height, for example 1024x1024."
                    ),
                ));
            }
        }
        let call = Call::post("v1/images", Family::Gateway).json(request)?;
        let (value, metering) = self.inner.json(&call).await?;
        Ok(Metered::new(value, metering))
    }

    /// `POST /v1/videos`: starts a video job (charged later, when a poll reports completion).
    pub async fn create_video(&self, request: &VideoRequest) -> Result<Metered<VideoJob>> {
        not_blank("model", &request.model, "Choose a video model.")?;
        not_blank("prompt", &request.prompt, "Describe the video you want.")?;
        if let Some(s) = &request.seconds
            && !s.parse::<f64>().is_ok_and(|n| n > 0.0)
        {
            return Err(Error::invalid(
                "seconds",
                format!("\"{s}\" is not a length in seconds."),
            ));
        }
        let call = Call::post("v1/videos", Family::Gateway).json(request)?;
        let (value, metering) = self.inner.json(&call).await?;
        Ok(Metered::new(value, metering))
    }

    /// `GET /v1/videos/{jobId}`.
    pub async fn video(&self, job_id: &str) -> Result<Metered<VideoJob>> {
        validate::path_id("jobId", job_id)?;
        let call = Call::get(format!("v1/videos/{job_id}"), Family::Gateway);
        let (value, metering) = self.inner.json(&call).await?;
        Ok(Metered::new(value, metering))
    }

    /// `GET /v1/videos/{jobId}/content`: the finished video.
    pub async fn video_content(&self, job_id: &str) -> Result<Metered<VideoContent>> {
        validate::path_id("jobId", job_id)?;
        let call = Call::get(format!("v1/videos/{job_id}/content"), Family::Gateway);
        let (bytes, headers) = self.inner.bytes(&call).await?;
        Ok(Metered::new(
            VideoContent {
                bytes,
                content_type: content_type(&headers),
            },
            Metering::from_headers(&headers),
        ))
    }

    /// Polls a video job at the configured interval and yields every status read (with its
    /// metering: the charge arrives on the poll that reports completion), the last terminal.
    pub fn wait_for_video(
        &self,
        job_id: &str,
    ) -> impl Stream<Item = Result<Metered<VideoJob>>> + Send + 'static {
        let inner = self.inner.clone();
        let job_id = job_id.to_owned();
        async_stream::try_stream! {
            loop {
                let job = Gateway::new(&inner).video(&job_id).await?;
                let done = job.value.status.is_terminal();
                yield job;
                if done {
                    break;
                }
                tokio::time::sleep(inner.config.job_poll_interval).await;
            }
        }
    }

    /// `GET /v1/models/public`: the catalog without prices (no key needed). Conditional: a 304
    /// answer reuses the catalog cached from the last full answer.
    pub async fn public_catalog(&self) -> Result<PublicCatalog> {
        let cached_etag = self
            .inner
            .catalog_cache
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
            .map(|(etag, _)| etag.clone());
        match self.public_catalog_since(cached_etag.as_deref()).await? {
            Conditional::NotModified => {
                let cache = self
                    .inner
                    .catalog_cache
                    .lock()
                    .unwrap_or_else(|p| p.into_inner());
                match cache.as_ref() {
                    Some((_, catalog)) => Ok(catalog.clone()),
                    None => Err(Error::Decode {
                        status: 304,
                        reason: "the service said the catalog had not changed, but none is cached"
                            .into(),
                        body: String::new(),
                    }),
                }
            }
            Conditional::Changed { value, etag } => {
                if let Some(etag) = etag {
                    *self
                        .inner
                        .catalog_cache
                        .lock()
                        .unwrap_or_else(|p| p.into_inner()) = Some((etag, value.clone()));
                }
                Ok(value)
            }
        }
    }

    /// `GET /v1/models/public` sent with `etag` (one the caller kept, say on disk) as
    /// `If-None-Match`: `NotModified` on 304, else the catalog with its new ETag. Keeps nothing.
    pub async fn public_catalog_since(
        &self,
        etag: Option<&str>,
    ) -> Result<Conditional<PublicCatalog>> {
        let mut call = Call::get("v1/models/public", Family::Catalog).no_auth();
        if let Some(etag) = etag {
            call = call.header(IF_NONE_MATCH.as_str(), etag.to_owned());
        }
        let resp = self.inner.send(&call, false).await?;
        let status = resp.status();
        if status == reqwest::StatusCode::NOT_MODIFIED {
            return Ok(Conditional::NotModified);
        }
        let etag = resp
            .headers()
            .get(ETAG)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let body = resp.bytes().await.map_err(Error::transport)?;
        let value: PublicCatalog = decode(status.as_u16(), &body)?;
        Ok(Conditional::Changed { value, etag })
    }

    /// `GET /v1/models`: every model, with audio modalities and prices.
    pub async fn models(&self) -> Result<Metered<ModelList>> {
        self.list("v1/models").await
    }

    /// `GET /v1/images/models`, each row with its `svc` price (`credits_per_image`).
    pub async fn image_models(&self) -> Result<Metered<ModelList>> {
        self.list("v1/images/models").await
    }

    /// `GET /v1/videos/models`, each row with its `svc` price.
    pub async fn video_models(&self) -> Result<Metered<ModelList>> {
        self.list("v1/videos/models").await
    }

    async fn list(&self, path: &str) -> Result<Metered<ModelList>> {
        let call = Call::get(path, Family::Catalog);
        let (value, metering) = self.inner.json(&call).await?;
        Ok(Metered::new(value, metering))
    }
}
