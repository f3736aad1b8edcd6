//! One error type for every call: both error shapes of the spec kept typed, the HTTP status,
//! `Retry-After` and the request id, plus local validation, transport and decode failures.
//!
//! `Display` is a plain sentence for a non-technical reader that says what to do next. It never
//! contains the API key (the key is never part of any value held here).

use std::fmt;
use std::time::Duration;

use specdesk_types::{GatewayError, GatewayErrorCode, RestError};

/// Result of every client call.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A stable classification the app branches on (it becomes `IpcError.kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// No key is set for this connection.
    MissingKey,
    /// The key is unknown or was rotated more than 15 minutes ago.
    InvalidKey,
    /// The balance is too low.
    InsufficientCredits,
    /// The feature needs a paid plan (or the trial is used up).
    SubscriptionRequired,
    /// Too many requests; wait `retry_after`.
    RateLimited,
    /// The thing asked for does not exist (or is not yours).
    NotFound,
    /// Something in the request was refused, here or by the service.
    InvalidInput,
    /// The service could not be reached.
    Network,
    /// The service failed or is temporarily unavailable.
    Server,
    /// The answer could not be read.
    Decode,
    /// A stream ended or stalled before it finished.
    Stream,
    /// The call was cancelled.
    Cancelled,
}

impl ErrorKind {
    /// The camelCase name used across IPC.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::MissingKey => "missingKey",
            Self::InvalidKey => "invalidKey",
            Self::InsufficientCredits => "insufficientCredits",
            Self::SubscriptionRequired => "subscriptionRequired",
            Self::RateLimited => "rateLimited",
            Self::NotFound => "notFound",
            Self::InvalidInput => "invalidInput",
            Self::Network => "network",
            Self::Server => "server",
            Self::Decode => "decode",
            Self::Stream => "stream",
            Self::Cancelled => "cancelled",
        }
    }
}

/// The body of an error answer, in whichever of the spec's shapes it came.
#[derive(Debug, Clone, PartialEq)]
pub enum ErrorBody {
    /// `{error: "...", message?, code?, actionUrl?, requiresSubscription?, trialsUsed?, maxTrials?}`.
    Rest(RestError),
    /// `{error: {message, type, code, param, svc}}`.
    Gateway(GatewayError),
    /// Anything else (an HTML page from a proxy, plain text), kept raw.
    Raw(String),
}

/// An error answer from the service.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    /// HTTP status.
    pub status: u16,
    /// The decoded body.
    pub body: ErrorBody,
    /// `Retry-After`, when the service sent one.
    pub retry_after: Option<Duration>,
    /// `x-svc-request-id`, when the service sent one.
    pub request_id: Option<String>,
}

impl ApiError {
    /// Decodes an error body of either shape.
    pub fn from_parts(
        status: u16,
        body: &[u8],
        retry_after: Option<Duration>,
        request_id: Option<String>,
    ) -> Self {
        #[derive(serde::Deserialize)]
        struct GatewayShape {
            error: GatewayError,
        }
        let body = if let Ok(g) = serde_json::from_slice::<GatewayShape>(body) {
            ErrorBody::Gateway(g.error)
        } else if let Ok(r) = serde_json::from_slice::<RestError>(body) {
            ErrorBody::Rest(r)
        } else {
            ErrorBody::Raw(String::from_utf8_lossy(body).into_owned())
        };
        ApiError {
            status,
            body,
            retry_after,
            request_id,
        }
    }

    /// The gateway error code, for gateway errors.
    pub fn gateway_code(&self) -> Option<&GatewayErrorCode> {
        match &self.body {
            ErrorBody::Gateway(g) => g.code.as_ref(),
            _ => None,
        }
    }

    /// The REST `error` value, for REST errors.
    pub fn rest_error(&self) -> Option<&str> {
        match &self.body {
            ErrorBody::Rest(r) => Some(r.error.as_str()),
            _ => None,
        }
    }

    /// The service's own message, when it sent one.
    pub fn service_message(&self) -> Option<&str> {
        match &self.body {
            ErrorBody::Rest(r) => r.message.as_deref().or(Some(r.error.as_str())),
            ErrorBody::Gateway(g) => Some(g.message.as_str()),
            ErrorBody::Raw(_) => None,
        }
    }

    /// Where the user can act on this error: the gateway's `topup_url` or the REST `actionUrl`.
    pub fn action_url(&self) -> Option<&str> {
        match &self.body {
            ErrorBody::Rest(r) => r.action_url.as_deref(),
            ErrorBody::Gateway(g) => g.svc.as_ref().and_then(|s| s.topup_url.as_deref()),
            ErrorBody::Raw(_) => None,
        }
    }

    /// The stable kind of this answer.
    pub fn kind(&self) -> ErrorKind {
        if let Some(code) = self.gateway_code() {
            return match code {
                GatewayErrorCode::MissingApiKey => ErrorKind::MissingKey,
                GatewayErrorCode::InvalidApiKey => ErrorKind::InvalidKey,
                GatewayErrorCode::InsufficientCredits => ErrorKind::InsufficientCredits,
                GatewayErrorCode::SubscriptionRequired => ErrorKind::SubscriptionRequired,
                GatewayErrorCode::RateLimitExceeded => ErrorKind::RateLimited,
                GatewayErrorCode::NotFound => ErrorKind::NotFound,
                GatewayErrorCode::BalanceUnavailable
                | GatewayErrorCode::UpstreamUnavailable
                | GatewayErrorCode::InternalError
                | GatewayErrorCode::CatalogUnavailable => ErrorKind::Server,
                GatewayErrorCode::Unknown(_) => self.kind_from_status(),
            };
        }
        if let ErrorBody::Rest(r) = &self.body {
            if r.requires_subscription == Some(true) {
                return ErrorKind::SubscriptionRequired;
            }
            match r.error.as_str() {
                "Missing API key" => return ErrorKind::MissingKey,
                "Insufficient credits" => return ErrorKind::InsufficientCredits,
                "Subscription required" => return ErrorKind::SubscriptionRequired,
                // get-plan refuses a personal key without a paid plan with the same `error` as
                // an unknown key; only its message tells them apart.
                "Authentication failed" if mentions_plan(r.message.as_deref()) => {
                    return ErrorKind::SubscriptionRequired;
                }
                // The key does not identify a user or organization ("401 or other" status).
                "Authentication failed" | "Unauthorized" | "Missing context" => {
                    return ErrorKind::InvalidKey;
                }
                _ => {}
            }
        }
        self.kind_from_status()
    }

    fn kind_from_status(&self) -> ErrorKind {
        match self.status {
            401 => ErrorKind::InvalidKey,
            402 => ErrorKind::InsufficientCredits,
            403 => ErrorKind::SubscriptionRequired,
            404 | 410 => ErrorKind::NotFound,
            429 => ErrorKind::RateLimited,
            400..=499 => ErrorKind::InvalidInput,
            _ => ErrorKind::Server,
        }
    }

    /// Whether the spec's handling column says this answer may be retried.
    pub fn is_retryable(&self) -> bool {
        if matches!(
            self.gateway_code(),
            Some(GatewayErrorCode::CatalogUnavailable)
        ) {
            return true;
        }
        matches!(self.status, 429 | 500 | 502 | 503)
    }

    /// Whether the service says nothing was done (and so nothing charged): a 429, or a 503
    /// balance check, refuse before any work starts.
    pub fn nothing_was_done(&self) -> bool {
        matches!(self.status, 429 | 503)
    }
}

/// Every way a call can fail.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The request was refused here, before anything was sent.
    #[error("{message}")]
    InvalidInput {
        /// Which input (`limit`, `tasks[3].url`, `baseUrl`...).
        field: String,
        /// A plain sentence saying what is wrong and what is expected.
        message: String,
    },
    /// No key is configured for this connection.
    #[error("This connection has no API key. Add your key in Settings, then try again.")]
    MissingKey,
    /// The service answered with an error.
    #[error("{}", describe(.0))]
    Api(Box<ApiError>),
    /// The service could not be reached, or the connection broke.
    #[error("{}", transport_message(.message))]
    Transport {
        /// What failed, without any secret.
        message: String,
        /// True when the failure happened before the request could reach the service.
        connect: bool,
    },
    /// The answer arrived but could not be read.
    #[error(
        "The service sent an answer Specdesk could not read (HTTP {status}). Try again; if it keeps happening, update Specdesk."
    )]
    Decode {
        /// HTTP status of the answer.
        status: u16,
        /// Why it could not be read.
        reason: String,
        /// The raw body, for a bug report.
        body: String,
    },
    /// A stream ended early or went silent.
    #[error("{message}")]
    Stream {
        /// What happened.
        message: String,
    },
    /// The caller cancelled the call.
    #[error("The request was cancelled.")]
    Cancelled,
}

fn transport_message(message: &str) -> String {
    format!(
        "Specdesk could not reach the service ({message}). Check your internet connection and the connection's address in Settings, then try again."
    )
}

fn describe(e: &ApiError) -> String {
    let service = e.service_message().unwrap_or("");
    let with_service = |plain: &str| {
        if service.is_empty() || plain.contains(service) {
            plain.to_owned()
        } else {
            format!("{plain} (The service said: {service})")
        }
    };
    match e.kind() {
        ErrorKind::MissingKey => {
            "The service needs an API key for this. Add your key in Settings, then try again."
                .to_owned()
        }
        ErrorKind::InvalidKey => "The service did not accept your API key. It may be mistyped, or it was replaced more than 15 minutes ago. Paste your current key in Settings.".to_owned(),
        ErrorKind::InsufficientCredits => {
            let mut s = "You have run out of credits. Top up your balance, then try again.".to_owned();
            // A REST answer says what the call needed (a batch: its least cost and the balance).
            if matches!(e.body, ErrorBody::Rest(_)) && !service.is_empty() {
                s = with_service(
                    "You do not have enough credits for this. Top up your balance, then try again.",
                );
            }
            if let ErrorBody::Gateway(g) = &e.body
                && let Some(svc) = &g.svc
                && let (Some(left), Some(need)) = (svc.credits_remaining, svc.estimated_credits)
            {
                s = format!(
                    "You have {left} credits left and this needs about {need}. Top up your balance, then try again."
                );
            }
            s
        }
        ErrorKind::SubscriptionRequired => {
            if let ErrorBody::Gateway(g) = &e.body
                && let Some(used) = g.svc.as_ref().and_then(|s| s.trial_credits_used)
            {
                return format!(
                    "Your free trial is used up ({used} credits). Subscribe to keep using the AI gateway."
                );
            }
            with_service("This needs a paid plan. Upgrade your plan to use it.")
        }
        ErrorKind::RateLimited => match e.retry_after {
            Some(d) => format!(
                "Too many requests in a short time. Wait {} and try again.",
                human_duration(d)
            ),
            None => "Too many requests in a short time. Wait a minute and try again.".to_owned(),
        },
        ErrorKind::NotFound => match e.rest_error() {
            Some("No project yet") => "This spec has no project yet. Wait until the spec is completed, then open its plan again.".to_owned(),
            Some("Not available") => with_service("This is not available right now. Try again later."),
            // A provider's 404 for a model id it does not know, passed through by the gateway.
            _ if matches!(e.gateway_code(), Some(GatewayErrorCode::Unknown(code)) if code == "model_not_found") => with_service(
                "The gateway does not know that model. Check the model id, or pick one from the model list, then try again.",
            ),
            _ => with_service(
                "The service could not find that. It may have been deleted, or it belongs to another account.",
            ),
        },
        ErrorKind::InvalidInput => {
            if service.is_empty() {
                format!("The service refused the request (HTTP {}). Check what you entered and try again.", e.status)
            } else {
                format!(
                    "The service refused the request: {}. Check what you entered and try again.",
                    service.trim_end_matches('.')
                )
            }
        }
        ErrorKind::Server => match e.gateway_code() {
            Some(GatewayErrorCode::CatalogUnavailable) => {
                "The model list is being refreshed. Try again in a minute.".to_owned()
            }
            Some(GatewayErrorCode::UpstreamUnavailable) => {
                "The AI model's provider did not answer. Try again in a moment, or pick another model.".to_owned()
            }
            Some(GatewayErrorCode::BalanceUnavailable) => {
                "Your balance could not be checked just now. Try again in a moment.".to_owned()
            }
            _ => format!(
                "The service had a problem (HTTP {}). Try again in a moment; if it keeps happening, contact support{}.",
                e.status,
                e.request_id
                    .as_deref()
                    .map(|id| format!(" with request id {id}"))
                    .unwrap_or_default()
            ),
        },
        ErrorKind::Network
        | ErrorKind::Decode
        | ErrorKind::Stream
        | ErrorKind::Cancelled => with_service("The request failed. Try again."),
    }
}

/// Whether a refusal's message is about the plan (tier) rather than the key.
fn mentions_plan(message: Option<&str>) -> bool {
    let m = message.unwrap_or("").to_lowercase();
    ["plan", "subscri", "paid", "upgrade"]
        .iter()
        .any(|w| m.contains(w))
}

/// "a second", "12 seconds", "3 minutes"; under a second in milliseconds.
pub(crate) fn human_duration(d: Duration) -> String {
    if d < Duration::from_secs(1) {
        return format!("{} ms", d.as_millis());
    }
    let secs = d.as_secs_f64().ceil() as u64;
    match secs {
        1 => "a second".to_owned(),
        2..=89 => format!("{secs} seconds"),
        _ => format!("{} minutes", secs.div_ceil(60)),
    }
}

impl Error {
    /// A validation error raised before any request.
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> Self {
        Error::InvalidInput {
            field: field.into(),
            message: message.into(),
        }
    }

    /// The stable kind of this error.
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::InvalidInput { .. } => ErrorKind::InvalidInput,
            Error::MissingKey => ErrorKind::MissingKey,
            Error::Api(e) => e.kind(),
            Error::Transport { .. } => ErrorKind::Network,
            Error::Decode { .. } => ErrorKind::Decode,
            Error::Stream { .. } => ErrorKind::Stream,
            Error::Cancelled => ErrorKind::Cancelled,
        }
    }

    /// The service's error answer, if that is what this is.
    pub fn api(&self) -> Option<&ApiError> {
        match self {
            Error::Api(e) => Some(e),
            _ => None,
        }
    }

    /// HTTP status of an error answer.
    pub fn status(&self) -> Option<u16> {
        match self {
            Error::Api(e) => Some(e.status),
            Error::Decode { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// How long the service asked us to wait.
    pub fn retry_after(&self) -> Option<Duration> {
        self.api().and_then(|e| e.retry_after)
    }

    /// Where the user can act on this error (top up, upgrade).
    pub fn action_url(&self) -> Option<&str> {
        self.api().and_then(|e| e.action_url())
    }

    /// The request id the service gave this call.
    pub fn request_id(&self) -> Option<&str> {
        self.api().and_then(|e| e.request_id.as_deref())
    }

    pub(crate) fn transport(err: reqwest::Error) -> Self {
        use std::error::Error as _;
        let connect = err.is_connect();
        let mut parts: Vec<String> = Vec::new();
        if err.is_timeout() {
            parts.push("timed out".to_owned());
        } else if connect {
            parts.push("connection refused or host not found".to_owned());
        }
        // Without the URL: it can carry a query, and the message is shown to people.
        let err = err.without_url();
        let mut source = err.source();
        while let Some(s) = source {
            let text = s.to_string();
            if !parts.contains(&text) {
                parts.push(text);
            }
            source = s.source();
        }
        if parts.is_empty() {
            parts.push(err.to_string());
        }
        Error::Transport {
            message: parts.join(": "),
            connect,
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
