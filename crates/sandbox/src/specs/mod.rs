//! Spec generation (fast/deep, JSON/multipart, sync/async), spec-status, list-specs,
//! find-specs, credits-balance, and the files a spec result links to.

mod files;
mod form;
mod list;
mod results;
mod settle;
mod submit;

pub use list::list_query;
pub use settle::settle;

use crate::errors::Resp;
use crate::state::App;
use axum::Router;
use axum::extract::{Request, State};
use axum::routing::{get, post};

/// Nominal duration of a fast spec at time scale 1 (sandbox ms).
const FAST_MS: u64 = 4_000;
/// Nominal duration of a deep spec at time scale 1.
const DEEP_MS: u64 = 10_000;
/// `[sandbox:slow]` stays processing this long whatever the time scale.
const SLOW_MS: i64 = 3_000;

pub fn routes() -> Router<App> {
    Router::new()
        .route("/fast-spec", post(fast_spec))
        .route("/deep-spec", post(deep_spec))
        .route("/spec-status/{id}", get(results::spec_status))
        .route("/api/spec-status/{id}", get(results::spec_status))
        .route("/list-specs", get(list::list_specs))
        .route("/find-specs", get(list::find_specs))
        .route("/credits-balance", get(list::credits_balance))
        .route("/files/specs/{id}/{file}", get(files::spec_file))
        .route("/files/specs/{id}/docs/{file}", get(files::doc_file))
        .route("/files/uploads/{id}/{name}", get(files::upload_file))
}

async fn fast_spec(State(app): State<App>, req: Request) -> Resp {
    submit::submit(app, req, false).await
}

async fn deep_spec(State(app): State<App>, req: Request) -> Resp {
    submit::submit(app, req, true).await
}
