//! API keys: where each endpoint family reads them, and its answer to a missing or unknown key.

use crate::errors;
use crate::state::{App, User};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;

/// The key of `Authorization: Bearer KEY`.
pub fn bearer(headers: &HeaderMap) -> Option<String> {
    let v = headers.get("authorization")?.to_str().ok()?.trim();
    let (scheme, rest) = v.split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("bearer") {
        return None;
    }
    let key = rest.trim();
    (!key.is_empty()).then(|| key.to_owned())
}

/// The key of `x-api-key`.
pub fn x_api_key(headers: &HeaderMap) -> Option<String> {
    let v = headers.get("x-api-key")?.to_str().ok()?.trim();
    (!v.is_empty()).then(|| v.to_owned())
}

/// Result of reading a key.
pub enum KeyCheck {
    Missing,
    Unknown,
    Valid(User),
}

/// Reads the key (Bearer, and `x-api-key` when `allow_x_api_key`) and resolves it.
pub fn check(app: &App, headers: &HeaderMap, allow_x_api_key: bool) -> KeyCheck {
    let key = bearer(headers).or_else(|| {
        if allow_x_api_key {
            x_api_key(headers)
        } else {
            None
        }
    });
    match key {
        None => KeyCheck::Missing,
        Some(k) => match app.data().user_for_key(&k) {
            Some(u) => KeyCheck::Valid(u.clone()),
            None => KeyCheck::Unknown,
        },
    }
}

/// Spec, list, find, spec-status and browser agents: Bearer only.
pub fn rest_user(app: &App, headers: &HeaderMap) -> Result<User, Response> {
    match check(app, headers, false) {
        KeyCheck::Valid(u) => Ok(u),
        KeyCheck::Missing => Err(errors::rest(
            StatusCode::UNAUTHORIZED,
            "Missing API key",
            "Send your API key as `Authorization: Bearer <API_KEY>`.",
        )),
        KeyCheck::Unknown => Err(errors::rest(
            StatusCode::UNAUTHORIZED,
            "Authentication failed",
            "Invalid API key.",
        )),
    }
}

/// `GET /credits-balance`: Bearer only; any failure is `Unauthorized`.
pub fn credits_user(app: &App, headers: &HeaderMap) -> Result<User, Response> {
    match check(app, headers, false) {
        KeyCheck::Valid(u) => Ok(u),
        KeyCheck::Missing => Err(errors::rest(
            StatusCode::UNAUTHORIZED,
            "Unauthorized",
            "Missing API key.",
        )),
        KeyCheck::Unknown => Err(errors::rest(
            StatusCode::UNAUTHORIZED,
            "Unauthorized",
            "Invalid API key.",
        )),
    }
}

/// `GET /get-plan`: Bearer or `x-api-key`; a personal key without a paid plan is refused.
pub fn plan_user(app: &App, headers: &HeaderMap) -> Result<User, Response> {
    match check(app, headers, true) {
        KeyCheck::Valid(u) if u.paid() => Ok(u),
        KeyCheck::Valid(_) => Err(errors::rest(
            StatusCode::UNAUTHORIZED,
            "Authentication failed",
            "Plans need a paid plan; this key has none.",
        )),
        KeyCheck::Missing => Err(errors::rest(
            StatusCode::UNAUTHORIZED,
            "Missing API key",
            "Send your API key as `Authorization: Bearer <API_KEY>` or `x-api-key`.",
        )),
        KeyCheck::Unknown => Err(errors::rest(
            StatusCode::UNAUTHORIZED,
            "Authentication failed",
            "Invalid API key.",
        )),
    }
}

/// The gateway: Bearer or `x-api-key`; gateway-shaped errors.
pub fn gateway_user(app: &App, headers: &HeaderMap) -> Result<User, Response> {
    match check(app, headers, true) {
        KeyCheck::Valid(u) => Ok(u),
        KeyCheck::Missing => Err(errors::gw(
            "missing_api_key",
            "No API key: send `Authorization: Bearer <API_KEY>` or `x-api-key`.",
        )),
        KeyCheck::Unknown => Err(errors::gw(
            "invalid_api_key",
            "Invalid API key: it is unknown or was rotated more than 15 minutes ago.",
        )),
    }
}
