//! The one place requests are built, sent, retried and their answers classified.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use backon::BackoffBuilder;
use bytes::Bytes;
use futures::{Stream, StreamExt};
use reqwest::header::{HeaderMap, HeaderValue};
use reqwest::{Method, Response, StatusCode};
use secrecy::ExposeSecret;
use serde::de::DeserializeOwned;
use tokio::time::Instant;

use crate::config::ClientConfig;
use crate::error::{ApiError, Error, Result};
use crate::metering::Metering;

/// Header carrying the idempotency key of a browser-agent submission.
pub(crate) const IDEMPOTENCY_KEY: &str = "Idempotency-Key";
/// Header attributing gateway usage to a project.
pub(crate) const PROJECT_ID: &str = "x-svc-project-id";

/// A part of a multipart body, kept as owned data so the form can be rebuilt for each attempt.
#[derive(Debug, Clone)]
pub(crate) enum FormPart {
    Text(&'static str, String),
    File {
        name: &'static str,
        file_name: String,
        mime: String,
        bytes: Bytes,
    },
}

#[derive(Debug, Clone)]
pub(crate) enum Body {
    Empty,
    Json(Bytes),
    Multipart(Vec<FormPart>),
}

/// Which rules a call follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Family {
    /// Specs, plans, credits, browser agents.
    Rest,
    /// Gateway model calls: rate limited, attributed to the project.
    Gateway,
    /// Gateway catalog reads: exempt from the rate limit.
    Catalog,
}

/// A request, described once and built afresh for every attempt.
#[derive(Debug, Clone)]
pub(crate) struct Call {
    pub method: Method,
    pub path: String,
    pub query: Vec<(&'static str, String)>,
    pub body: Body,
    pub family: Family,
    pub auth: bool,
    pub idempotency_key: Option<String>,
    pub headers: Vec<(&'static str, String)>,
    /// Whether a `429` is retried here. A browser batch's submission is not: its caller decides
    /// (no stream free: send it in the background; too many tasks in flight: wait for room).
    pub retry_busy: bool,
}

impl Call {
    pub fn new(method: Method, path: impl Into<String>, family: Family) -> Self {
        Call {
            method,
            path: path.into(),
            query: Vec::new(),
            body: Body::Empty,
            family,
            auth: true,
            idempotency_key: None,
            headers: Vec::new(),
            retry_busy: true,
        }
    }

    pub fn get(path: impl Into<String>, family: Family) -> Self {
        Self::new(Method::GET, path, family)
    }

    pub fn post(path: impl Into<String>, family: Family) -> Self {
        Self::new(Method::POST, path, family)
    }

    pub fn query(mut self, name: &'static str, value: impl ToString) -> Self {
        self.query.push((name, value.to_string()));
        self
    }

    pub fn query_opt(self, name: &'static str, value: Option<impl ToString>) -> Self {
        match value {
            Some(v) => self.query(name, v),
            None => self,
        }
    }

    pub fn json<T: serde::Serialize + ?Sized>(mut self, body: &T) -> Result<Self> {
        let bytes = serde_json::to_vec(body).map_err(|e| {
            Error::invalid("body", format!("The request could not be encoded: {e}"))
        })?;
        self.body = Body::Json(Bytes::from(bytes));
        Ok(self)
    }

    pub fn multipart(mut self, parts: Vec<FormPart>) -> Self {
        self.body = Body::Multipart(parts);
        self
    }

    pub fn header(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.headers.push((name, value.into()));
        self
    }

    pub fn no_auth(mut self) -> Self {
        self.auth = false;
        self
    }

    /// A `429` is returned to the caller at once, never retried here.
    pub fn no_busy_retry(mut self) -> Self {
        self.retry_busy = false;
        self
    }

    pub fn idempotency_key(mut self, key: impl Into<String>) -> Self {
        self.idempotency_key = Some(key.into());
        self
    }

    /// A call that repeats safely: a read, or a write carrying an idempotency key.
    fn is_replay_safe(&self) -> bool {
        self.method == Method::GET || self.idempotency_key.is_some()
    }
}

/// Sliding one-minute window of gateway calls, so a burst waits instead of earning 429s.
#[derive(Debug)]
pub(crate) struct RateLimiter {
    per_minute: std::sync::atomic::AtomicUsize,
    sent: Mutex<VecDeque<Instant>>,
}

const WINDOW: Duration = Duration::from_secs(60);
/// Gateway calls a minute on a trial workspace (the spec's limits).
pub(crate) const TRIAL_REQUESTS_PER_MINUTE: u32 = 30;

impl RateLimiter {
    pub fn new(per_minute: u32) -> Self {
        RateLimiter {
            per_minute: std::sync::atomic::AtomicUsize::new(per_minute.max(1) as usize),
            sent: Mutex::new(VecDeque::new()),
        }
    }

    /// Calls allowed in a minute.
    pub fn per_minute(&self) -> usize {
        self.per_minute.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Lowers (or raises) the allowance from now on; calls already counted stay counted.
    pub fn set_per_minute(&self, per_minute: u32) {
        self.per_minute.store(
            per_minute.max(1) as usize,
            std::sync::atomic::Ordering::Relaxed,
        );
    }

    /// Calls counted in the last minute.
    pub fn in_window(&self) -> usize {
        let sent = self.sent.lock().unwrap_or_else(|p| p.into_inner());
        let now = Instant::now();
        sent.iter()
            .filter(|t| now.duration_since(**t) < WINDOW)
            .count()
    }

    pub async fn acquire(&self) {
        loop {
            let wait_until = {
                let mut sent = self.sent.lock().unwrap_or_else(|p| p.into_inner());
                let now = Instant::now();
                while sent
                    .front()
                    .is_some_and(|t| now.duration_since(*t) >= WINDOW)
                {
                    sent.pop_front();
                }
                if sent.len() < self.per_minute() {
                    sent.push_back(now);
                    None
                } else {
                    sent.front().map(|t| *t + WINDOW)
                }
            };
            match wait_until {
                None => return,
                Some(t) => tokio::time::sleep_until(t).await,
            }
        }
    }
}

/// State shared by every clone of a `Client`.
pub(crate) struct Inner {
    pub http: reqwest::Client,
    pub config: ClientConfig,
    pub limiter: RateLimiter,
    pub catalog_cache: Mutex<Option<(String, specdesk_types::PublicCatalog)>>,
}

pub(crate) type Shared = Arc<Inner>;

impl Inner {
    pub fn new(config: ClientConfig) -> Result<Self> {
        crate::install_tls_provider();
        let mut builder = reqwest::Client::builder().user_agent(config.user_agent.clone());
        if let Some(t) = config.connect_timeout {
            builder = builder.connect_timeout(t);
        }
        let http = builder.build().map_err(Error::transport)?;
        Ok(Inner {
            http,
            limiter: RateLimiter::new(config.gateway_requests_per_minute),
            config,
            catalog_cache: Mutex::new(None),
        })
    }

    /// Applies the trial workspace's 30 calls a minute when the service shows the key is on the
    /// trial: its trial allowance is used up (`subscription_required` with
    /// `trial_credits_used`), or it refuses a call for the rate while this client has sent no more
    /// than one call over the trial's allowance in the last minute.
    fn learn_trial(&self, api: &crate::ApiError) {
        use specdesk_types::GatewayErrorCode;
        let crate::ErrorBody::Gateway(g) = &api.body else {
            return;
        };
        let trial = match &g.code {
            Some(GatewayErrorCode::SubscriptionRequired) => g
                .svc
                .as_ref()
                .is_some_and(|s| s.trial_credits_used.is_some()),
            // The refused call is counted in the window already: refused as the 31st (or
            // sooner), the allowance is the trial's.
            Some(GatewayErrorCode::RateLimitExceeded) => {
                self.limiter.in_window() <= TRIAL_REQUESTS_PER_MINUTE as usize + 1
            }
            _ => false,
        };
        if trial && self.limiter.per_minute() > TRIAL_REQUESTS_PER_MINUTE as usize {
            tracing::info!("the service reports a trial workspace: 30 gateway calls a minute");
            self.limiter.set_per_minute(TRIAL_REQUESTS_PER_MINUTE);
        }
    }

    fn url(&self, path: &str) -> Result<url::Url> {
        self.config
            .base_url()
            .join(path.trim_start_matches('/'))
            .map_err(|e| Error::invalid("path", format!("Bad request path {path}: {e}")))
    }

    fn build(&self, call: &Call, streaming: bool) -> Result<reqwest::RequestBuilder> {
        let mut req = self
            .http
            .request(call.method.clone(), self.url(&call.path)?);
        if !call.query.is_empty() {
            req = req.query(&call.query);
        }
        if call.auth {
            let key = self.config.api_key().ok_or(Error::MissingKey)?;
            let mut value = HeaderValue::from_str(&format!("Bearer {}", key.expose_secret()))
                .map_err(|_| {
                    Error::invalid(
                        "apiKey",
                        "The API key contains characters that cannot be sent. Paste it again without spaces or line breaks.",
                    )
                })?;
            value.set_sensitive(true);
            req = req.header(reqwest::header::AUTHORIZATION, value);
        }
        if matches!(call.family, Family::Gateway)
            && let Some(project) = &self.config.project_id
        {
            req = req.header(PROJECT_ID, project);
        }
        if let Some(key) = &call.idempotency_key {
            req = req.header(IDEMPOTENCY_KEY, key);
        }
        for (name, value) in &call.headers {
            req = req.header(*name, value);
        }
        if let (Some(t), false) = (self.config.request_timeout, streaming) {
            req = req.timeout(t);
        }
        req = match &call.body {
            Body::Empty => req,
            Body::Json(bytes) => req
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .body(bytes.clone()),
            Body::Multipart(parts) => {
                let mut form = reqwest::multipart::Form::new();
                for part in parts {
                    form = match part {
                        FormPart::Text(name, value) => form.text(*name, value.clone()),
                        FormPart::File {
                            name,
                            file_name,
                            mime,
                            bytes,
                        } => {
                            let p = reqwest::multipart::Part::stream(bytes.clone())
                                .file_name(file_name.clone())
                                .mime_str(mime)
                                .map_err(|_| {
                                    Error::invalid(
                                        "file",
                                        format!("\"{mime}\" is not a valid file type."),
                                    )
                                })?;
                            form.part(*name, p)
                        }
                    };
                }
                req.multipart(form)
            }
        };
        Ok(req)
    }

    /// Sends `call`, retrying where the spec says it is safe, and returns a successful (2xx or
    /// 304) response with its headers. The body is not read.
    pub async fn send(&self, call: &Call, streaming: bool) -> Result<Response> {
        let policy = &self.config.retry;
        let mut backoff = backon::ExponentialBuilder::default()
            .with_min_delay(policy.min_delay)
            .with_max_delay(policy.max_delay)
            .with_max_times(policy.max_retries)
            .with_jitter()
            .build();
        let started = Instant::now();
        loop {
            if call.family == Family::Gateway {
                self.limiter.acquire().await;
            }
            let request = self.build(call, streaming)?;
            let outcome = match request.send().await {
                Ok(resp)
                    if resp.status().is_success() || resp.status() == StatusCode::NOT_MODIFIED =>
                {
                    return Ok(resp);
                }
                Ok(resp) => Err(read_api_error(resp).await),
                Err(e) => Err(Error::transport(e)),
            };
            if call.family == Family::Gateway
                && let Err(Error::Api(api)) = &outcome
            {
                self.learn_trial(api);
            }
            let err = match outcome {
                Ok(never) => return Ok(never),
                Err(e) => e,
            };
            let retry = match &err {
                Error::Api(api) => {
                    api.is_retryable()
                        && (call.retry_busy || api.status != 429)
                        && (call.is_replay_safe() || api.nothing_was_done())
                }
                Error::Transport { connect, .. } => *connect || call.is_replay_safe(),
                _ => false,
            };
            let give_up = |err: Error| {
                tracing::warn!(
                    method = %call.method,
                    path = %call.path,
                    status = ?err.status(),
                    kind = err.kind().as_str(),
                    request_id = ?err.request_id(),
                    "request failed: {err}"
                );
                Err(err)
            };
            if !retry {
                return give_up(err);
            }
            let Some(fallback) = backoff.next() else {
                return give_up(err);
            };
            let delay = err.retry_after().unwrap_or(fallback);
            if started.elapsed() + delay > policy.max_elapsed {
                return give_up(err);
            }
            tracing::debug!(
                path = %call.path,
                status = ?err.status(),
                delay_ms = delay.as_millis() as u64,
                "retrying"
            );
            tokio::time::sleep(delay).await;
        }
    }

    /// Sends and decodes a JSON answer, with its metering.
    pub async fn json<T: DeserializeOwned>(&self, call: &Call) -> Result<(T, Metering)> {
        let resp = self.send(call, false).await?;
        let metering = Metering::from_headers(resp.headers());
        let status = resp.status().as_u16();
        let body = resp.bytes().await.map_err(Error::transport)?;
        let value = decode(status, &body)?;
        Ok((value, metering))
    }

    /// Sends and returns the raw body, with its headers.
    pub async fn bytes(&self, call: &Call) -> Result<(Bytes, HeaderMap)> {
        let resp = self.send(call, false).await?;
        let headers = resp.headers().clone();
        let body = resp.bytes().await.map_err(Error::transport)?;
        Ok((body, headers))
    }

    /// Sends a streaming call and returns its server-sent events. A started stream is never
    /// replayed: only the request that precedes the first byte is retried.
    pub async fn sse(&self, call: &Call) -> Result<(SseStream, Metering)> {
        let resp = self.send(call, true).await?;
        let metering = Metering::from_headers(resp.headers());
        let content_type = resp
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_owned();
        if !content_type.starts_with("text/event-stream") {
            let status = resp.status().as_u16();
            let body = resp.bytes().await.unwrap_or_default();
            return Err(Error::Decode {
                status,
                reason: format!("expected an event stream, got \"{content_type}\""),
                body: String::from_utf8_lossy(&body).into_owned(),
            });
        }
        Ok((
            sse_events(resp.bytes_stream(), self.config.keepalive * 3).boxed(),
            metering,
        ))
    }
}

/// Decodes a JSON body, keeping the raw text when it does not fit.
pub(crate) fn decode<T: DeserializeOwned>(status: u16, body: &[u8]) -> Result<T> {
    serde_json::from_slice(body).map_err(|e| Error::Decode {
        status,
        reason: e.to_string(),
        body: String::from_utf8_lossy(body).into_owned(),
    })
}

async fn read_api_error(resp: Response) -> Error {
    let status = resp.status().as_u16();
    let retry_after = retry_after(resp.headers());
    let request_id = Metering::from_headers(resp.headers()).request_id;
    match resp.bytes().await {
        Ok(body) => Error::Api(Box::new(ApiError::from_parts(
            status,
            &body,
            retry_after,
            request_id,
        ))),
        Err(e) => Error::transport(e),
    }
}

/// `Retry-After` as seconds or an HTTP date.
pub(crate) fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let raw = headers
        .get(reqwest::header::RETRY_AFTER)?
        .to_str()
        .ok()?
        .trim();
    if let Ok(secs) = raw.parse::<f64>() {
        return (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs));
    }
    let when = httpdate::parse_http_date(raw).ok()?;
    Some(
        when.duration_since(std::time::SystemTime::now())
            .unwrap_or(Duration::ZERO),
    )
}

/// A stream of server-sent events.
pub type SseStream = futures::stream::BoxStream<'static, Result<eventsource_stream::Event>>;

/// Parses server-sent events out of a byte stream with eventsource-stream. A stream that
/// yields no byte (keepalive comments included) for `stall` ends with a `Stream` error.
pub fn sse_events<S, E>(
    bytes: S,
    stall: Duration,
) -> impl Stream<Item = Result<eventsource_stream::Event>>
where
    S: Stream<Item = std::result::Result<Bytes, E>> + Send + 'static,
    E: std::fmt::Display + Send + 'static,
{
    use eventsource_stream::Eventsource;

    #[derive(Debug)]
    enum Cut {
        Stalled,
        Broken(String),
    }
    impl std::fmt::Display for Cut {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            match self {
                Cut::Stalled => f.write_str("stalled"),
                Cut::Broken(m) => f.write_str(m),
            }
        }
    }

    let timed = tokio_stream::StreamExt::timeout(bytes, stall).map(|item| match item {
        Ok(Ok(b)) => Ok(b),
        Ok(Err(e)) => Err(Cut::Broken(e.to_string())),
        Err(_) => Err(Cut::Stalled),
    });
    let mut events = Box::pin(timed.eventsource());
    async_stream::stream! {
        while let Some(item) = events.next().await {
            match item {
                Ok(ev) => yield Ok(ev),
                Err(eventsource_stream::EventStreamError::Transport(Cut::Stalled)) => {
                    yield Err(Error::Stream {
                        message: format!(
                            "The live connection went silent for {}.",
                            crate::error::human_duration(stall)
                        ),
                    });
                    return;
                }
                Err(eventsource_stream::EventStreamError::Transport(Cut::Broken(m))) => {
                    yield Err(Error::Stream { message: format!("The live connection broke: {m}.") });
                    return;
                }
                Err(e) => {
                    yield Err(Error::Stream { message: format!("The live connection sent something unreadable: {e}.") });
                    return;
                }
            }
        }
    }
}
