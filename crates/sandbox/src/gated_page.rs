//! A web page on loopback that answers only once it is opened: a browser task sent to it keeps
//! its batch running for exactly as long as a test needs (no delay to outlast, nothing timed).
//! The tests of the clients that follow batches use it beside the sandbox.

use axum::Router;
use axum::response::Html;
use axum::routing::get;
use tokio::sync::watch;

/// A page whose requests wait until [`GatedPage::open`]; its server ends with the runtime.
pub struct GatedPage {
    url: String,
    open: watch::Sender<bool>,
}

impl GatedPage {
    /// Serves `html` at `/gated` on 127.0.0.1 (a free port), closed.
    pub async fn start(html: &'static str) -> std::io::Result<GatedPage> {
        let (open, gate) = watch::channel(false);
        let app = Router::new().route(
            "/gated",
            get(move || {
                let mut gate = gate.clone();
                async move {
                    let _ = gate.wait_for(|open| *open).await;
                    Html(html)
                }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let url = format!("http://{}/gated", listener.local_addr()?);
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Ok(GatedPage { url, open })
    }

    /// The page's address.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Answers every request waiting and every one after.
    pub fn open(&self) {
        let _ = self.open.send(true);
    }
}
