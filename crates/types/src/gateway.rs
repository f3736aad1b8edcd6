//! The AI gateway (`{base_url}/v1`): catalogs, rerank, speech and music, transcription, Messages,
//! images and videos.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

string_enum! {
    /// Kind of a catalog model.
    pub enum ModelType {
        Text = "text",
        Image = "image",
        Video = "video",
        Embeddings = "embeddings",
    }
}

string_enum! {
    /// Voice of a speech request (music models ignore it).
    pub enum Voice {
        Alloy = "alloy",
        Ash = "ash",
        Ballad = "ballad",
        Coral = "coral",
        Echo = "echo",
        Sage = "sage",
        Shimmer = "shimmer",
        Verse = "verse",
    }
}

string_enum! {
    /// Audio format named by `x-svc-audio-format`.
    pub enum AudioFormat {
        Wav = "wav",
        Pcm16 = "pcm16",
        Mp3 = "mp3",
    }
}

impl AudioFormat {
    /// Media type of bytes in this format.
    pub fn mime_type(&self) -> &str {
        match self {
            Self::Wav => "audio/wav",
            Self::Pcm16 => "audio/L16",
            Self::Mp3 => "audio/mpeg",
            Self::Unknown(_) => "application/octet-stream",
        }
    }
}

string_enum! {
    /// Status of a video job.
    pub enum VideoStatus {
        Queued = "queued",
        InProgress = "in_progress",
        Completed = "completed",
        Failed = "failed",
    }
}

impl VideoStatus {
    /// `completed` or `failed`: content (or the failure) is final.
    pub fn is_terminal(&self) -> bool {
        matches!(self, Self::Completed | Self::Failed)
    }
}

string_enum! {
    /// Who wrote a message.
    pub enum MessageRole {
        User = "user",
        Assistant = "assistant",
    }
}

string_enum! {
    /// Why the model stopped.
    pub enum StopReason {
        EndTurn = "end_turn",
        MaxTokens = "max_tokens",
        StopSequence = "stop_sequence",
        ToolUse = "tool_use",
        PauseTurn = "pause_turn",
        Refusal = "refusal",
    }
}

wire! {
    /// Model counts by type in the public catalog.
    pub struct CatalogCounts {
        pub text: u32,
        pub image: u32,
        pub video: u32,
        pub embeddings: u32,
    }

    /// A lab in the public catalog.
    pub struct CatalogLab {
        pub id: String,
        pub name: String,
        /// Number of models.
        pub models: u32,
    }

    /// Price object (`svc`) of a priced catalog row. Only the documented keys are named; any
    /// other price key is kept in `extra`.
    pub struct ModelPrice {
        pub credits_per_image: Option<f64>,
        pub credits_per_second: Option<f64>,
        #[serde(flatten)]
        #[cfg_attr(feature = "ts", ts(skip))]
        pub extra: Map<String, Value>,
    }

    /// A model of a catalog.
    pub struct CatalogModel {
        /// `<lab>/<model>`.
        pub id: String,
        pub name: Option<String>,
        pub lab: Option<String>,
        #[serde(rename = "type")]
        #[cfg_attr(feature = "ts", ts(rename = "type"))]
        pub model_type: Option<ModelType>,
        #[serde(default)]
        pub input: Vec<String>,
        #[serde(default)]
        pub output: Vec<String>,
        pub context_length: Option<u64>,
        /// Unix seconds.
        pub created: Option<i64>,
        /// Price object on the authenticated, image and video lists.
        pub svc: Option<ModelPrice>,
    }

    /// `GET /v1/models/public`.
    pub struct PublicCatalog {
        pub object: String,
        pub updated_at: Option<Value>,
        pub total: u32,
        pub counts: CatalogCounts,
        #[serde(default)]
        pub labs: Vec<CatalogLab>,
        #[serde(default)]
        pub data: Vec<CatalogModel>,
    }

    /// `GET /v1/models`, `/v1/images/models`, `/v1/videos/models`: `{object: "list", data}`.
    pub struct ModelList {
        pub object: String,
        #[serde(default)]
        pub data: Vec<CatalogModel>,
    }

    /// `POST /v1/rerank`.
    pub struct RerankRequest {
        pub model: String,
        pub query: String,
        pub documents: Vec<String>,
        /// Return only the most relevant N documents.
        pub top_n: Option<u32>,
    }

    /// A ranked document.
    pub struct RerankHit {
        /// Position in the submitted `documents`.
        pub index: u32,
        pub relevance_score: f64,
    }

    /// Token usage of a rerank.
    pub struct RerankUsage {
        pub total_tokens: u64,
    }

    /// Answer of `POST /v1/rerank`, most relevant first.
    pub struct RerankResult {
        pub model: String,
        pub results: Vec<RerankHit>,
        pub usage: Option<RerankUsage>,
    }

    /// `POST /v1/audio/speech` (speech and music).
    pub struct SpeechRequest {
        pub model: String,
        /// Text to speak, or the mood/style of the music.
        pub input: String,
        pub voice: Option<Voice>,
        /// For example `pcm16` for raw samples.
        pub response_format: Option<String>,
        pub instructions: Option<String>,
    }

    /// Cost of a gateway call as the model reported it.
    pub struct CostUsage {
        pub cost: Option<f64>,
        #[serde(flatten)]
        #[cfg_attr(feature = "ts", ts(skip))]
        pub extra: Map<String, Value>,
    }

    /// Answer of `POST /v1/audio/transcriptions`.
    pub struct Transcription {
        pub text: String,
        pub usage: Option<CostUsage>,
    }

    /// `POST /v1/images`.
    pub struct ImageRequest {
        pub model: String,
        pub prompt: String,
        pub n: Option<u32>,
        /// `"WxH"`.
        pub size: Option<String>,
    }

    /// One generated image.
    pub struct ImageData {
        pub b64_json: Option<String>,
        pub url: Option<String>,
        pub revised_prompt: Option<String>,
    }

    /// Answer of `POST /v1/images`.
    pub struct ImageResponse {
        pub created: i64,
        pub data: Vec<ImageData>,
        pub usage: Option<CostUsage>,
    }

    /// `POST /v1/videos`.
    pub struct VideoRequest {
        pub model: String,
        pub prompt: String,
        /// Length in seconds, as a string (for example `"4"`).
        pub seconds: Option<String>,
        pub size: Option<String>,
    }

    /// A video job record.
    pub struct VideoJob {
        pub id: String,
        pub object: Option<String>,
        pub status: VideoStatus,
        pub progress: Option<f64>,
        pub model: Option<String>,
        pub prompt: Option<String>,
        pub seconds: Option<String>,
        pub size: Option<String>,
        pub created_at: Option<i64>,
        pub completed_at: Option<i64>,
        pub error: Option<Value>,
        pub usage: Option<CostUsage>,
    }

    /// Body of `POST /v1/messages`.
    pub struct MessagesRequest {
        pub model: String,
        pub max_tokens: u32,
        pub messages: Vec<Message>,
        pub system: Option<SystemPrompt>,
        pub tools: Option<Vec<Tool>>,
        pub tool_choice: Option<Value>,
        pub stream: Option<bool>,
        pub temperature: Option<f64>,
        pub top_p: Option<f64>,
        pub top_k: Option<u32>,
        pub stop_sequences: Option<Vec<String>>,
        pub metadata: Option<Value>,
    }

    /// A message of the conversation.
    pub struct Message {
        pub role: MessageRole,
        pub content: MessageContent,
    }

    /// A tool the model may call.
    pub struct Tool {
        pub name: String,
        pub description: Option<String>,
        /// JSON Schema of the tool's input.
        pub input_schema: Value,
    }

    /// Token usage (and the gateway's `cost`) of a Messages call.
    #[derive(Default)]
    pub struct MessagesUsage {
        pub input_tokens: Option<u64>,
        pub output_tokens: Option<u64>,
        pub cache_creation_input_tokens: Option<u64>,
        pub cache_read_input_tokens: Option<u64>,
        pub cost: Option<f64>,
    }

    /// Answer of `POST /v1/messages`.
    pub struct MessagesResponse {
        pub id: String,
        #[serde(rename = "type")]
        #[cfg_attr(feature = "ts", ts(rename = "type"))]
        pub object_type: String,
        pub role: MessageRole,
        pub model: String,
        pub content: Vec<ContentBlock>,
        #[serialize_always]
        #[cfg_attr(feature = "ts", ts(optional = false))]
        pub stop_reason: Option<StopReason>,
        #[serialize_always]
        #[cfg_attr(feature = "ts", ts(optional = false))]
        pub stop_sequence: Option<String>,
        pub usage: MessagesUsage,
    }

    /// `delta` of a `message_delta` event.
    pub struct MessageDeltaBody {
        #[serialize_always]
        #[cfg_attr(feature = "ts", ts(optional = false))]
        pub stop_reason: Option<StopReason>,
        #[serialize_always]
        #[cfg_attr(feature = "ts", ts(optional = false))]
        pub stop_sequence: Option<String>,
    }

    /// `error` of a stream `error` event.
    pub struct StreamErrorBody {
        #[serde(rename = "type")]
        #[cfg_attr(feature = "ts", ts(rename = "type"))]
        pub error_type: Option<String>,
        pub message: String,
    }
}

/// `content` of a message: a plain string or a list of blocks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub enum MessageContent {
    Text(String),
    Blocks(Vec<ContentBlock>),
}

/// `system`: a plain string or text blocks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub enum SystemPrompt {
    Text(String),
    Blocks(Vec<ContentBlock>),
}

/// Where an image block's bytes come from.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub enum ImageSource {
    Base64 {
        media_type: String,
        data: String,
    },
    Url {
        url: String,
    },
    #[serde(other)]
    Unknown,
}

/// A content block of a message.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub enum ContentBlock {
    Text {
        text: String,
    },
    Image {
        source: ImageSource,
    },
    ToolUse {
        id: String,
        name: String,
        input: Value,
    },
    ToolResult {
        tool_use_id: String,
        content: Option<Value>,
        is_error: Option<bool>,
    },
    Thinking {
        thinking: String,
        signature: Option<String>,
    },
    /// A block type this version does not know.
    #[serde(other)]
    Unknown,
}

/// The change carried by a `content_block_delta` event.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub enum ContentDelta {
    TextDelta {
        text: String,
    },
    InputJsonDelta {
        partial_json: String,
    },
    ThinkingDelta {
        thinking: String,
    },
    SignatureDelta {
        signature: String,
    },
    #[serde(other)]
    Unknown,
}

/// An event of the Messages stream.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub enum MessagesStreamEvent {
    MessageStart {
        message: MessagesResponse,
    },
    ContentBlockStart {
        index: u32,
        content_block: ContentBlock,
    },
    ContentBlockDelta {
        index: u32,
        delta: ContentDelta,
    },
    ContentBlockStop {
        index: u32,
    },
    MessageDelta {
        delta: MessageDeltaBody,
        usage: Option<MessagesUsage>,
    },
    MessageStop,
    Ping,
    Error {
        error: StreamErrorBody,
    },
    /// An event type this version does not know.
    #[serde(other)]
    Unknown,
}

impl CatalogModel {
    /// Whether this model produces audio (speech or music).
    pub fn outputs_audio(&self) -> bool {
        self.output.iter().any(|m| m == "audio")
    }
}
