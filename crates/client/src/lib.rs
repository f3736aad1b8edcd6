//! Typed async client for every endpoint of the Specdesk service (`shared/spec/service-api.md`).
//!
//! ```no_run
//! # async fn demo() -> specdesk_client::Result<()> {
//! use specdesk_client::{Client, ClientConfig};
//! let client = Client::new(
//!     ClientConfig::new("https://api.example.com")?.with_api_key("sk_...".to_owned()),
//! )?;
//! let balance = client.account().credits_balance().await?;
//! println!("{} credits left", balance.credits_remaining);
//! # Ok(()) }
//! ```
//!
//! One endpoint group per area: [`Client::specs`], [`Client::plans`], [`Client::agents`],
//! [`Client::gateway`], [`Client::account`]. Every call refuses bad input before sending, retries
//! only where the spec says it is safe, and fails with one [`Error`] type whose `Display` is a
//! plain sentence with the next step. The key is a `SecretString` and never appears in `Debug`,
//! logs or error text.

mod account;
mod agents;
mod batch_follow;
mod config;
mod error;
mod gateway;
mod http;
mod messages;
mod metering;
mod plans;
mod specs;
pub mod validate;

use std::sync::Arc;

pub use account::Account;
pub use agents::{
    Agents, AgentsRoute, BatchOptions, BatchUpdate, Pace, PreparedBatch, batch_frames,
    task_problems, validate_tasks,
};
pub use config::{ClientConfig, RetryPolicy, validate_base_url};
pub use error::{ApiError, Error, ErrorBody, ErrorKind, Result};
pub use gateway::{Audio, AudioUpload, Conditional, Gateway, VideoContent};
pub use http::{SseStream, sse_events};
pub use messages::{MessageAccumulator, MessagesStream};
pub use metering::{CREDITS_CHARGED, CREDITS_REMAINING, Metered, Metering, REQUEST_ID};
pub use plans::{PlanRef, Plans};
pub use specs::{FileUpload, SpecDepth, SpecListQuery, SpecSubmission, Specs};

pub use secrecy::SecretString;
pub use specdesk_types as types;

/// A connection to the service. Cheap to clone; clones share the connection pool, the rate
/// limiter and the catalog cache.
#[derive(Clone)]
pub struct Client {
    inner: http::Shared,
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("config", &self.inner.config)
            .finish()
    }
}

/// Makes rustls on the ring provider the process's TLS provider, unless one is installed already.
/// [`Client::new`] calls it; call it yourself before building a `reqwest::Client` of your own in
/// a process that has not made a [`Client`] yet (reqwest is built without a default provider).
pub fn install_tls_provider() {
    // An error only says a provider is installed already, which is what is wanted.
    let _ = rustls::crypto::ring::default_provider().install_default();
}

impl Client {
    /// A client for `config`.
    pub fn new(config: ClientConfig) -> Result<Self> {
        Ok(Client {
            inner: Arc::new(http::Inner::new(config)?),
        })
    }

    /// The configuration this client was made with (its key is not readable).
    pub fn config(&self) -> &ClientConfig {
        &self.inner.config
    }

    /// Whether this client keeps to a trial workspace's 30 gateway calls a minute (set by
    /// [`ClientConfig::trial_workspace`], or learnt from the service's answers).
    pub fn is_trial(&self) -> bool {
        self.inner.limiter.per_minute() <= http::TRIAL_REQUESTS_PER_MINUTE as usize
    }

    /// Spec generation, status, listing and search.
    pub fn specs(&self) -> Specs<'_> {
        Specs::new(&self.inner)
    }

    /// Project plans.
    pub fn plans(&self) -> Plans<'_> {
        Plans::new(&self.inner)
    }

    /// Browser agents.
    pub fn agents(&self) -> Agents<'_> {
        Agents::new(&self.inner, AgentsRoute::default())
    }

    /// Browser agents on one of the spec's alias paths (`/api/v1/browser-tasks`, or submissions
    /// to `POST /browser-agent`).
    pub fn agents_at(&self, route: AgentsRoute) -> Agents<'_> {
        Agents::new(&self.inner, route)
    }

    /// The AI gateway.
    pub fn gateway(&self) -> Gateway<'_> {
        Gateway::new(&self.inner)
    }

    /// The credits balance.
    pub fn account(&self) -> Account<'_> {
        Account::new(&self.inner)
    }
}
