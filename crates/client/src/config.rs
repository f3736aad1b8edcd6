//! Connection settings: where the service is, the key (as a `SecretString`), project attribution,
//! retry and rate-limit policies.

use std::fmt;
use std::net::IpAddr;
use std::time::Duration;

use secrecy::{ExposeSecret, SecretString};
use url::Url;

use crate::error::{Error, Result};

/// How failed calls are retried (only where the spec says it is safe).
#[derive(Debug, Clone, PartialEq)]
pub struct RetryPolicy {
    /// Retries after the first attempt.
    pub max_retries: usize,
    /// First backoff delay (doubled each retry, with jitter) when the service gives no
    /// `Retry-After`.
    pub min_delay: Duration,
    /// Largest backoff delay.
    pub max_delay: Duration,
    /// A retry that would end after this much time since the first attempt is not made.
    pub max_elapsed: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_retries: 3,
            min_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(30),
            max_elapsed: Duration::from_secs(120),
        }
    }
}

impl RetryPolicy {
    /// No retries at all.
    pub fn none() -> Self {
        RetryPolicy {
            max_retries: 0,
            ..Self::default()
        }
    }
}

/// Settings of one connection to the service.
#[derive(Clone)]
pub struct ClientConfig {
    base_url: Url,
    api_key: Option<SecretString>,
    /// `x-svc-project-id` sent on gateway calls to attribute usage to one project.
    pub project_id: Option<String>,
    /// Retries of failed calls.
    pub retry: RetryPolicy,
    /// Gateway requests a minute this client allows itself (600; 30 on a trial workspace).
    pub gateway_requests_per_minute: u32,
    /// Interval of the service's stream keepalive; a stream with no byte for three of these
    /// counts as stalled.
    pub keepalive: Duration,
    /// Interval between spec-status polls (the spec recommends 10-15 s); jitter of up to
    /// `poll_jitter` either way is added.
    pub spec_poll_interval: Duration,
    /// Jitter either side of `spec_poll_interval`.
    pub poll_jitter: Duration,
    /// Interval between polls of a batch or a video job.
    pub job_poll_interval: Duration,
    /// Connect timeout (`None`: the OS default).
    pub connect_timeout: Option<Duration>,
    /// Timeout of a whole non-streaming request (`None`: none; a synchronous deep spec takes
    /// minutes).
    pub request_timeout: Option<Duration>,
    /// `User-Agent`.
    pub user_agent: String,
}

impl fmt::Debug for ClientConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientConfig")
            .field("base_url", &self.base_url.as_str())
            .field("api_key", &self.api_key.as_ref().map(|_| "[redacted]"))
            .field("project_id", &self.project_id)
            .field("retry", &self.retry)
            .field(
                "gateway_requests_per_minute",
                &self.gateway_requests_per_minute,
            )
            .field("keepalive", &self.keepalive)
            .field("spec_poll_interval", &self.spec_poll_interval)
            .finish_non_exhaustive()
    }
}

impl ClientConfig {
    /// A configuration for `base_url` (for example `https://api.example.com`). Refuses anything
    /// but https, except plain http to this machine (loopback), where the key cannot travel in
    /// clear over a network.
    pub fn new(base_url: &str) -> Result<Self> {
        let base_url = validate_base_url(base_url)?;
        Ok(ClientConfig {
            base_url,
            api_key: None,
            project_id: None,
            retry: RetryPolicy::default(),
            gateway_requests_per_minute: 600,
            keepalive: Duration::from_secs(10),
            spec_poll_interval: Duration::from_millis(12_500),
            poll_jitter: Duration::from_millis(2_500),
            job_poll_interval: Duration::from_secs(2),
            connect_timeout: Some(Duration::from_secs(15)),
            request_timeout: None,
            user_agent: format!("specdesk/{}", env!("CARGO_PKG_VERSION")),
        })
    }

    /// Sets the API key.
    pub fn with_api_key(mut self, key: impl Into<SecretString>) -> Self {
        let key: SecretString = key.into();
        self.api_key = if key.expose_secret().trim().is_empty() {
            None
        } else {
            Some(key)
        };
        self
    }

    /// Sets `x-svc-project-id` for gateway calls.
    pub fn with_project_id(mut self, project_id: impl Into<String>) -> Self {
        self.project_id = Some(project_id.into());
        self
    }

    /// Sets the retry policy.
    pub fn with_retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = retry;
        self
    }

    /// Marks the workspace as a trial one: the gateway allows 30 requests a minute.
    pub fn trial_workspace(mut self) -> Self {
        self.gateway_requests_per_minute = crate::http::TRIAL_REQUESTS_PER_MINUTE;
        self
    }

    /// The service's base address.
    pub fn base_url(&self) -> &Url {
        &self.base_url
    }

    /// Whether a key is set.
    pub fn has_key(&self) -> bool {
        self.api_key.is_some()
    }

    pub(crate) fn api_key(&self) -> Option<&SecretString> {
        self.api_key.as_ref()
    }
}

/// Checks a base address: absolute, http(s), https unless loopback, no credentials, query or
/// fragment.
pub fn validate_base_url(raw: &str) -> Result<Url> {
    let raw = raw.trim();
    let field = "baseUrl";
    if raw.is_empty() {
        return Err(Error::invalid(
            field,
            "Enter the service address, for example https://api.example.com.",
        ));
    }
    let mut url = Url::parse(raw).map_err(|_| {
        Error::invalid(
            field,
            format!("\"{raw}\" is not a web address. Enter it in full, for example https://api.example.com."),
        )
    })?;
    match url.scheme() {
        "https" => {}
        "http" => {
            if !is_loopback(&url) {
                return Err(Error::invalid(
                    field,
                    "The address must start with https:// so your API key is never sent in clear. Plain http:// is allowed only for this computer (localhost).",
                ));
            }
        }
        other => {
            return Err(Error::invalid(
                field,
                format!("Addresses starting with {other}: are not supported. Use https://."),
            ));
        }
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(Error::invalid(field, "The address has no host name."));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(Error::invalid(
            field,
            "Do not put a user name or password in the address; enter your API key in its own field.",
        ));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(Error::invalid(
            field,
            "The address must not contain ? or #. Enter only the service's base address.",
        ));
    }
    // A base without a trailing slash loses its last path segment on join: add one.
    if !url.path().ends_with('/') {
        let path = format!("{}/", url.path());
        url.set_path(&path);
    }
    Ok(url)
}

fn is_loopback(url: &Url) -> bool {
    match url.host() {
        Some(url::Host::Domain(d)) => d.eq_ignore_ascii_case("localhost"),
        Some(url::Host::Ipv4(ip)) => IpAddr::V4(ip).is_loopback(),
        Some(url::Host::Ipv6(ip)) => IpAddr::V6(ip).is_loopback(),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_https_and_loopback_http() {
        assert_eq!(
            validate_base_url("https://api.example.com")
                .unwrap()
                .as_str(),
            "https://api.example.com/"
        );
        assert_eq!(
            validate_base_url("https://example.com/svc")
                .unwrap()
                .as_str(),
            "https://example.com/svc/"
        );
        for ok in [
            "http://127.0.0.1:8787",
            "http://localhost:1",
            "http://[::1]:9",
            "http://127.3.4.5",
        ] {
            assert!(validate_base_url(ok).is_ok(), "{ok}");
        }
    }

    #[test]
    fn refuses_clear_text_to_the_network_and_junk() {
        for (bad, field_text) in [
            ("http://api.example.com", "https://"),
            ("http://10.0.0.5", "https://"),
            ("ftp://x.org", "ftp:"),
            ("api.example.com", "not a web address"),
            ("", "Enter the service address"),
            ("https://u:p@x.org", "user name"),
            ("https://x.org/?a=1", "? or #"),
        ] {
            let err = validate_base_url(bad).unwrap_err();
            assert!(err.to_string().contains(field_text), "{bad}: {err}");
            assert_eq!(err.kind(), crate::ErrorKind::InvalidInput);
        }
    }

    #[test]
    fn debug_never_shows_the_key() {
        let cfg = ClientConfig::new("https://x.org")
            .unwrap()
            .with_api_key("sk_live_supersecret".to_owned());
        let text = format!("{cfg:?}");
        assert!(!text.contains("supersecret"), "{text}");
        assert!(text.contains("[redacted]"));
    }

    #[test]
    fn blank_key_is_no_key() {
        let cfg = ClientConfig::new("https://x.org")
            .unwrap()
            .with_api_key("  ".to_owned());
        assert!(!cfg.has_key());
    }
}
