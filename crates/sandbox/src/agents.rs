//! Browser agents (stub).
use crate::state::{App, Data};
use axum::Router;

/// One SSE frame of a batch stream.
#[derive(Debug, Clone)]
pub struct Frame {
    pub event: &'static str,
    pub data: String,
}

pub fn routes() -> Router<App> {
    Router::new()
}

pub fn recover(_d: &mut Data) {}
