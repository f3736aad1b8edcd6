//! Spec generation (`/fast-spec`, `/deep-spec`), status, listing and search.

use std::time::Duration;

use bytes::Bytes;
use futures::Stream;
use rand::Rng;
use specdesk_types::{
    SpecAccepted, SpecEndpoint, SpecList, SpecRecord, SpecRequest, SpecResult, SpecStatus,
    SpecStatusResponse,
};

use crate::error::{Error, Result};
use crate::http::{Call, Family, FormPart, Shared};
use crate::validate;

/// Fast (milestones and stories) or deep (with subtasks; needs a paid plan).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SpecDepth {
    #[default]
    Fast,
    Deep,
}

impl SpecDepth {
    fn path(self) -> &'static str {
        match self {
            SpecDepth::Fast => "fast-spec",
            SpecDepth::Deep => "deep-spec",
        }
    }

    /// The `endpoint` value of specs of this depth.
    pub fn endpoint(self) -> SpecEndpoint {
        match self {
            SpecDepth::Fast => SpecEndpoint::Fast,
            SpecDepth::Deep => SpecEndpoint::Deep,
        }
    }
}

/// A file sent with a spec request (parsed by the service as input).
#[derive(Debug, Clone, PartialEq)]
pub struct FileUpload {
    pub file_name: String,
    /// Media type, for example `text/markdown` or `application/pdf`.
    pub mime: String,
    pub bytes: Bytes,
}

/// What to generate a spec from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SpecSubmission {
    pub depth: SpecDepth,
    /// What to build. May be empty when a file is given.
    pub input: String,
    /// Existing project context: the result is a feature addition to it.
    pub current_context: Option<String>,
    /// Documentation sites to reference.
    pub doc_urls: Vec<String>,
    /// An optional file parsed as input (sent as `multipart/form-data`).
    pub file: Option<FileUpload>,
}

impl SpecSubmission {
    /// A fast spec of `input`.
    pub fn fast(input: impl Into<String>) -> Self {
        SpecSubmission {
            input: input.into(),
            ..Self::default()
        }
    }

    /// A deep spec of `input`.
    pub fn deep(input: impl Into<String>) -> Self {
        SpecSubmission {
            depth: SpecDepth::Deep,
            input: input.into(),
            ..Self::default()
        }
    }

    /// Refuses a submission the service would refuse, before sending it.
    pub fn validate(&self) -> Result<()> {
        if self.input.trim().is_empty() && self.file.is_none() {
            return Err(Error::invalid(
                "input",
                "Describe what you want to build, or attach a file that describes it.",
            ));
        }
        if let Some(file) = &self.file {
            if file.bytes.is_empty() {
                return Err(Error::invalid(
                    "file",
                    format!(
                        "The file \"{}\" is empty. Choose another file.",
                        file.file_name
                    ),
                ));
            }
            if file.file_name.trim().is_empty() {
                return Err(Error::invalid("file", "The file has no name."));
            }
        }
        for (i, url) in self.doc_urls.iter().enumerate() {
            validate::web_url(&format!("docURLs[{i}]"), url)?;
        }
        Ok(())
    }

    fn call(&self, is_async: bool) -> Result<Call> {
        self.validate()?;
        let call = Call::post(self.depth.path(), Family::Rest);
        let context = self
            .current_context
            .as_ref()
            .filter(|c| !c.trim().is_empty())
            .cloned();
        let doc_urls: Vec<String> = self.doc_urls.iter().map(|u| u.trim().to_owned()).collect();
        match &self.file {
            None => call.json(&SpecRequest {
                input: self.input.clone(),
                current_context: context,
                doc_urls: (!doc_urls.is_empty()).then_some(doc_urls),
                is_async: Some(is_async),
            }),
            Some(file) => {
                let mut parts = vec![FormPart::File {
                    name: "file",
                    file_name: file.file_name.clone(),
                    mime: file.mime.clone(),
                    bytes: file.bytes.clone(),
                }];
                parts.push(FormPart::Text("input", self.input.clone()));
                if let Some(c) = context {
                    parts.push(FormPart::Text("currentContext", c));
                }
                if !doc_urls.is_empty() {
                    let json = serde_json::to_string(&doc_urls).unwrap_or_else(|_| "[]".into());
                    parts.push(FormPart::Text("docURLs", json));
                }
                parts.push(FormPart::Text("async", is_async.to_string()));
                Ok(call.multipart(parts))
            }
        }
    }
}

/// Filters and page of list-specs / find-specs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SpecListQuery {
    /// Page size, 1-100 (service default 20).
    pub limit: Option<i64>,
    /// Items to skip, 0 or more.
    pub skip: Option<i64>,
    pub endpoint: Option<SpecEndpoint>,
    pub status: Option<SpecStatus>,
    /// A regular expression matched case-insensitively against the input text; when set the
    /// query goes to find-specs.
    pub search: Option<String>,
}

impl SpecListQuery {
    fn call(&self) -> Result<Call> {
        if let Some(limit) = self.limit {
            validate::limit(limit)?;
        }
        if let Some(skip) = self.skip {
            validate::skip(skip)?;
        }
        let path = match &self.search {
            Some(pattern) => {
                validate::search_pattern(pattern)?;
                "find-specs"
            }
            None => "list-specs",
        };
        Ok(Call::get(path, Family::Rest)
            .query_opt("query", self.search.as_deref())
            .query_opt("limit", self.limit)
            .query_opt("skip", self.skip)
            .query_opt("endpoint", self.endpoint.as_ref())
            .query_opt("status", self.status.as_ref()))
    }
}

/// Spec generation, status, listing and search.
pub struct Specs<'c> {
    inner: &'c Shared,
}

impl<'c> Specs<'c> {
    pub(crate) fn new(inner: &'c Shared) -> Self {
        Specs { inner }
    }

    /// Generates a spec and waits for it (fast ~30-40 s, deep ~2-3 min).
    pub async fn generate(&self, submission: &SpecSubmission) -> Result<SpecResult> {
        let call = submission.call(false)?;
        Ok(self.inner.json(&call).await?.0)
    }

    /// Starts a spec and answers at once with its id (`status: pending`).
    pub async fn submit(&self, submission: &SpecSubmission) -> Result<SpecAccepted> {
        let call = submission.call(true)?;
        Ok(self.inner.json(&call).await?.0)
    }

    /// `GET /spec-status/{specId}`.
    pub async fn status(&self, spec_id: &str) -> Result<SpecStatusResponse> {
        validate::hex_id("specId", spec_id)?;
        let call = Call::get(format!("spec-status/{spec_id}"), Family::Rest);
        Ok(self.inner.json(&call).await?.0)
    }

    /// `GET /api/spec-status/{specId}` (the same, under the `/api` prefix).
    pub async fn status_api(&self, spec_id: &str) -> Result<SpecStatusResponse> {
        validate::hex_id("specId", spec_id)?;
        let call = Call::get(format!("api/spec-status/{spec_id}"), Family::Rest);
        Ok(self.inner.json(&call).await?.0)
    }

    /// Polls a spec at the configured interval (with jitter) and yields every status read, the
    /// last one terminal (`completed` or `failed`). The first poll is immediate.
    pub fn wait_for_spec(
        &self,
        spec_id: &str,
    ) -> impl Stream<Item = Result<SpecStatusResponse>> + Send + 'static {
        let cfg = &self.inner.config;
        self.wait_for_spec_every(spec_id, cfg.spec_poll_interval, cfg.poll_jitter)
    }

    /// [`Specs::wait_for_spec`] with an explicit interval and jitter.
    pub fn wait_for_spec_every(
        &self,
        spec_id: &str,
        interval: Duration,
        jitter: Duration,
    ) -> impl Stream<Item = Result<SpecStatusResponse>> + Send + 'static {
        let inner = self.inner.clone();
        let spec_id = spec_id.to_owned();
        async_stream::try_stream! {
            loop {
                let status = Specs::new(&inner).status(&spec_id).await?;
                let done = status.status.is_terminal();
                yield status;
                if done {
                    break;
                }
                tokio::time::sleep(jittered(interval, jitter)).await;
            }
        }
    }

    /// One page of list-specs, or of find-specs when `query.search` is set.
    pub async fn list(&self, query: &SpecListQuery) -> Result<SpecList> {
        let call = query.call()?;
        Ok(self.inner.json(&call).await?.0)
    }

    /// Every record matching `query`, page after page (starting at its `skip`).
    pub fn list_all(
        &self,
        query: SpecListQuery,
    ) -> impl Stream<Item = Result<SpecRecord>> + Send + 'static {
        let inner = self.inner.clone();
        async_stream::try_stream! {
            let mut query = query;
            let mut skip = query.skip.unwrap_or(0);
            loop {
                query.skip = Some(skip);
                let page = Specs::new(&inner).list(&query).await?;
                let got = page.specs.len() as i64;
                for record in page.specs {
                    yield record;
                }
                if !page.has_more || got == 0 {
                    break;
                }
                skip += got;
            }
        }
    }
}

/// `interval` moved by a random amount within `jitter` either way.
pub(crate) fn jittered(interval: Duration, jitter: Duration) -> Duration {
    if jitter.is_zero() {
        return interval;
    }
    let j = jitter.as_millis() as i64;
    let offset = rand::rng().random_range(-j..=j);
    let ms = (interval.as_millis() as i64 + offset).max(0) as u64;
    Duration::from_millis(ms)
}
