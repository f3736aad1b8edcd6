//! The AI gateway under `/v1`: auth (Bearer or `x-api-key`), metering headers, credits from
//! `usage.cost` (× 10), the trial allowance, the sliding-window rate limit, and the endpoints.

mod audio;
mod catalog;
mod messages;
mod pace;
mod rerank;
mod visual;

pub use catalog::find_model;

use crate::auth;
use crate::errors;
use crate::state::{App, User};
use crate::util;
use axum::Router;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use serde_json::json;

/// The trial allowance of a key without a paid plan, in credits.
pub const TRIAL_CREDITS: f64 = 5.0;
/// Gateway calls a minute on a paid plan.
const RATE_PAID: usize = 600;
/// Gateway calls a minute on the trial.
const RATE_TRIAL: usize = 30;

pub fn routes() -> Router<App> {
    Router::new()
        .merge(catalog::routes())
        .merge(pace::routes())
        .merge(rerank::routes())
        .merge(messages::routes())
        .merge(audio::routes())
        .merge(visual::routes())
}

/// A metered call in progress.
pub struct Meter {
    pub user: User,
    pub request_id: String,
    /// A project of the workspace named by `x-svc-project-id`.
    pub project: Option<String>,
}

/// Which checks a call needs before it runs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Gate {
    /// Catalog reads: a key, nothing else.
    Free,
    /// Polls and downloads: a key and the rate limit.
    RateOnly,
    /// Model calls: a key, the rate limit and a balance.
    Full,
}

fn request_id() -> String {
    format!("req_{}", util::random_hex(24))
}

/// Adds the metering headers.
pub fn meter_headers(
    mut resp: Response,
    request_id: &str,
    charged: f64,
    remaining: Option<f64>,
) -> Response {
    let h = resp.headers_mut();
    if let Ok(v) = HeaderValue::from_str(request_id) {
        h.insert("x-svc-request-id", v);
    }
    if let Ok(v) = HeaderValue::from_str(&util::num_header(charged)) {
        h.insert("x-svc-credits-charged", v);
    }
    if let Some(r) = remaining
        && let Ok(v) = HeaderValue::from_str(&util::num_header(util::round6(r)))
    {
        h.insert("x-svc-credits-remaining", v);
    }
    resp
}

/// What the gateway shows as remaining: the trial allowance left, or the balance.
fn remaining_of(u: &User) -> f64 {
    if u.on_trial() {
        (TRIAL_CREDITS - u.trial_used).max(0.0)
    } else {
        u.credits
    }
}

/// Authenticates and applies the rate limit and balance checks. Errors carry the metering
/// headers (nothing charged).
pub fn begin(
    app: &App,
    headers: &HeaderMap,
    gate: Gate,
    estimated: f64,
) -> Result<Meter, Response> {
    let rid = request_id();
    let user = auth::gateway_user(app, headers).map_err(|r| meter_headers(r, &rid, 0.0, None))?;
    let remaining = remaining_of(&user);
    let fail = |r: Response| meter_headers(r, &rid, 0.0, Some(remaining));
    if gate != Gate::Free {
        let now = app.now();
        let limit = if user.on_trial() {
            RATE_TRIAL
        } else {
            RATE_PAID
        };
        let mut rt = app.runtime();
        let window = rt.rate.entry(user.id.clone()).or_default();
        while window.front().is_some_and(|t| *t <= now - 60_000) {
            window.pop_front();
        }
        if window.len() >= limit {
            let oldest = window.front().copied().unwrap_or(now);
            let secs = ((oldest + 60_000 - now) as f64 / 1000.0).ceil().max(1.0) as u64;
            drop(rt);
            let r = errors::gw(
                "rate_limit_exceeded",
                &format!("More than {limit} requests in a minute. Retry after {secs} seconds."),
            );
            return Err(fail(errors::with_retry_after(r, secs)));
        }
        window.push_back(now);
    }
    if gate == Gate::Full {
        if user.on_trial() && user.trial_used >= TRIAL_CREDITS {
            return Err(fail(errors::gateway(
                StatusCode::PAYMENT_REQUIRED,
                "subscription_required",
                "The free trial of 5 gateway credits is used up. Subscribe to continue.",
                json!({"trial_credits_used": util::round6(user.trial_used), "topup_url": errors::TOPUP_URL}),
            )));
        }
        if !user.on_trial() && user.credits <= 0.0 {
            return Err(fail(errors::gateway(
                StatusCode::PAYMENT_REQUIRED,
                "insufficient_credits",
                "The workspace has no credits left; nothing was sent to the model. Add credits or enable auto-recharge.",
                json!({"credits_remaining": 0, "estimated_credits": util::round6(estimated), "topup_url": errors::TOPUP_URL}),
            )));
        }
    }
    let project = headers
        .get("x-svc-project-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
        .filter(|p| {
            app.data()
                .projects
                .get(p)
                .is_some_and(|pr| user.can_read(&pr.owner, pr.owner_org.as_deref()))
        });
    Ok(Meter {
        user,
        request_id: rid,
        project,
    })
}

impl Meter {
    /// Charges `credits` (trial allowance or balance) and returns the remaining amount.
    pub fn charge(&self, app: &App, credits: f64) -> f64 {
        let remaining = {
            let mut d = app.data();
            match d.user_mut(&self.user.id) {
                Some(u) => {
                    if u.on_trial() {
                        u.trial_used = util::round6(u.trial_used + credits);
                    } else {
                        u.charge(credits);
                    }
                    remaining_of(u)
                }
                None => 0.0,
            }
        };
        if credits > 0.0 {
            app.touch();
        }
        remaining
    }

    /// Remaining credits now.
    pub fn remaining(&self, app: &App) -> f64 {
        app.data()
            .users
            .get(&self.user.id)
            .map(remaining_of)
            .unwrap_or(0.0)
    }

    /// Finishes a call: charges `credits` and adds the metering headers.
    pub fn done(&self, app: &App, resp: Response, credits: f64) -> Response {
        let credits = util::round6(credits);
        let remaining = self.charge(app, credits);
        let mut resp = meter_headers(resp, &self.request_id, credits, Some(remaining));
        if let Some(p) = &self.project
            && let Ok(v) = HeaderValue::from_str(p)
        {
            resp.headers_mut().insert("x-svc-project-id", v);
        }
        resp
    }

    /// An error after the checks: nothing charged, headers added.
    pub fn fail(&self, app: &App, resp: Response) -> Response {
        meter_headers(resp, &self.request_id, 0.0, Some(self.remaining(app)))
    }
}

/// Credits for a raw USD cost.
pub fn credits_for(cost: f64) -> f64 {
    util::round6(cost * 10.0)
}

/// A provider-style 4xx: unknown model or malformed request.
pub fn invalid(message: &str) -> Response {
    errors::gateway(
        StatusCode::BAD_REQUEST,
        "invalid_request",
        message,
        json!({}),
    )
}

/// Unknown model id (the provider's 404).
pub fn unknown_model(model: &str) -> Response {
    errors::gateway(
        StatusCode::NOT_FOUND,
        "model_not_found",
        &format!("Unknown model `{model}`: use an id from GET /v1/models."),
        json!({}),
    )
}
