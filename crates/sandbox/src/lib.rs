//! `specdesk-sandbox`: a local emulator of the whole Specdesk service (spec generation, plans,
//! browser agents, AI gateway), for tests, offline development, and the app's built-in Sandbox
//! profile.
//!
//! ```no_run
//! # async fn demo() -> std::io::Result<()> {
//! use specdesk_sandbox::{Sandbox, SandboxConfig};
//! let sandbox = Sandbox::start(SandboxConfig::ephemeral()).await?;
//! println!("serving on {}", sandbox.base_url);
//! sandbox.shutdown().await;
//! # Ok(()) }
//! ```
//!
//! The conventions it follows where the spec is silent are in the crate's README.

// Handlers answer `Result<Response, Response>`: both arms are complete HTTP answers, and boxing
// them would only add noise to every handler.
#![allow(clippy::result_large_err)]

mod agents;
mod auth;
mod body;
mod content;
mod control;
mod errors;
mod gated_page;
mod gateway;
mod media;
mod plans;
mod specs;
mod state;
mod util;

pub use gated_page::GatedPage;

use axum::Router;
use axum::response::IntoResponse;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// Makes rustls on the ring provider the process's TLS provider, unless one is installed already
/// (reqwest is built without a default one). The sandbox calls it before its own outbound
/// requests; a test calls it before building a `reqwest::Client` in a process with no sandbox.
pub fn install_tls_provider() {
    // An error only says a provider is installed already, which is what is wanted.
    let _ = rustls::crypto::ring::default_provider().install_default();
}

/// The keys every sandbox knows (each is its own user).
pub mod keys {
    /// Organization key, paid, 10000 credits.
    pub const ORG: &str = "sk_sandbox_org";
    /// Personal key with a paid plan, 1000 credits.
    pub const PRO: &str = "sk_sandbox_pro";
    /// Personal key without a paid plan: 20 prototype credits, gateway trial of 5 credits.
    pub const FREE: &str = "sk_sandbox_free";
    /// Personal key with a paid plan and no credits.
    pub const BROKE: &str = "sk_sandbox_broke";
}

/// How to run a sandbox.
#[derive(Debug, Clone)]
pub struct SandboxConfig {
    /// Address to bind; port 0 takes a free port.
    pub addr: SocketAddr,
    /// Multiplies every simulated duration: `0` is instant, `1.0` demo pace.
    pub time_scale: f64,
    /// Interval of `:keepalive` comments on browser-agent streams.
    pub keepalive_ms: u64,
    /// Where to persist all sandbox data; `None` keeps it in memory.
    pub state_file: Option<PathBuf>,
}

impl Default for SandboxConfig {
    fn default() -> Self {
        SandboxConfig {
            addr: SocketAddr::from(([127, 0, 0, 1], 8787)),
            time_scale: 1.0,
            keepalive_ms: 10_000,
            state_file: None,
        }
    }
}

impl SandboxConfig {
    /// A free port on 127.0.0.1, instant simulated work, in-memory state: what tests want.
    pub fn ephemeral() -> Self {
        SandboxConfig {
            addr: SocketAddr::from(([127, 0, 0, 1], 0)),
            time_scale: 0.0,
            ..SandboxConfig::default()
        }
    }
}

/// Entry point of the library.
pub struct Sandbox;

impl Sandbox {
    /// Binds `config.addr`, loads `config.state_file` if it exists, and serves until the handle
    /// is shut down or dropped.
    pub async fn start(config: SandboxConfig) -> std::io::Result<SandboxHandle> {
        let listener = tokio::net::TcpListener::bind(config.addr).await?;
        let addr = listener.local_addr()?;
        let base_url = format!("http://{addr}");
        let mut data = config
            .state_file
            .as_deref()
            .and_then(state::load)
            .unwrap_or_else(|| state::Data::initial(0));
        agents::recover(&mut data);
        let state_file = config.state_file.clone();
        let app = Arc::new(state::Shared::new(config, base_url.clone(), data));
        let router = router(app.clone());
        let (stop_tx, stop_rx) = watch::channel(false);

        let saver = state_file
            .clone()
            .map(|path| tokio::spawn(state::saver(app.clone(), path, stop_rx.clone())));

        let app_for_task = app.clone();
        let mut stop_serve = stop_rx.clone();
        let mut stop_grace = stop_rx;
        let task = tokio::spawn(async move {
            let serve = axum::serve(
                listener,
                router.into_make_service_with_connect_info::<SocketAddr>(),
            )
            .with_graceful_shutdown(async move {
                let _ = stop_serve.wait_for(|s| *s).await;
            });
            tokio::select! {
                r = serve => {
                    if let Err(e) = r {
                        tracing::error!("sandbox server stopped: {e}");
                    }
                }
                _ = async {
                    let _ = stop_grace.wait_for(|s| *s).await;
                    // Open streams (SSE) would hold a graceful shutdown forever: give them a moment.
                    tokio::time::sleep(Duration::from_millis(500)).await;
                } => {}
            }
            if let Some(s) = saver {
                let _ = s.await;
            }
            if let Some(path) = state_file {
                let bytes = app_for_task.snapshot();
                let _ = tokio::task::spawn_blocking(move || state::save(&path, &bytes)).await;
            }
        });

        Ok(SandboxHandle {
            base_url,
            addr,
            stop: stop_tx,
            task: Some(task),
        })
    }
}

/// A running sandbox. Dropping it stops the server (without waiting); [`SandboxHandle::shutdown`]
/// stops it and waits until the state is saved.
pub struct SandboxHandle {
    /// `http://HOST:PORT`, no trailing slash.
    pub base_url: String,
    /// The bound address.
    pub addr: SocketAddr,
    stop: watch::Sender<bool>,
    task: Option<JoinHandle<()>>,
}

impl SandboxHandle {
    /// `http://HOST:PORT`.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// Stops serving, ends open streams, saves the state file, and waits for all of it.
    pub async fn shutdown(mut self) {
        let _ = self.stop.send(true);
        if let Some(t) = self.task.take() {
            let _ = t.await;
        }
    }
}

impl Drop for SandboxHandle {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
    }
}

fn router(app: state::App) -> Router {
    Router::new()
        .merge(control::routes())
        .merge(specs::routes())
        .merge(plans::routes())
        .merge(agents::routes())
        .merge(gateway::routes())
        .merge(media::routes())
        .fallback(fallback)
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            control::faults,
        ))
        .layer(axum::middleware::from_fn(control::loopback_only))
        // Outermost: every answer, refusals and faults included, waits for the whole body.
        .layer(axum::middleware::from_fn(body::read_whole))
        .with_state(app)
}

async fn fallback(uri: axum::http::Uri) -> axum::response::Response {
    let path = uri.path();
    if path.starts_with("/v1/") || path == "/v1" {
        errors::gw("not_found", &format!("No gateway endpoint at {path}."))
    } else {
        errors::rest(
            axum::http::StatusCode::NOT_FOUND,
            "Not found",
            &format!("No endpoint at {path}."),
        )
    }
    .into_response()
}
