//! The two error shapes: REST `{error, message, ...}` and gateway `{error: {message, type, code,
//! param, svc}}`.

use axum::Json;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// What handlers return: a response either way.
pub type Resp = Result<Response, Response>;

/// Where a user adds credits or subscribes.
pub const TOPUP_URL: &str = "https://example.invalid/billing";

/// A REST error with `error` and `message`.
pub fn rest(status: StatusCode, error: &str, message: &str) -> Response {
    (status, Json(json!({"error": error, "message": message}))).into_response()
}

/// A REST error with extra fields merged in.
pub fn rest_with(status: StatusCode, error: &str, message: &str, extra: Value) -> Response {
    let mut body = json!({"error": error, "message": message});
    if let (Some(obj), Value::Object(more)) = (body.as_object_mut(), extra) {
        obj.extend(more);
    }
    (status, Json(body)).into_response()
}

/// `400 Invalid request`.
pub fn invalid(message: &str) -> Response {
    rest(StatusCode::BAD_REQUEST, "Invalid request", message)
}

/// `type` of a gateway error code.
pub fn gateway_type(code: &str) -> &'static str {
    match code {
        "missing_api_key" | "invalid_api_key" => "authentication_error",
        "model_not_found" => "not_found_error",
        "insufficient_credits" | "subscription_required" => "billing_error",
        "rate_limit_exceeded" => "rate_limit_error",
        "not_found" => "not_found_error",
        "internal_error" | "catalog_unavailable" => "server_error",
        "balance_unavailable" | "upstream_unavailable" => "api_error",
        _ => "invalid_request_error",
    }
}

/// The status a gateway code answers with.
pub fn gateway_status(code: &str) -> StatusCode {
    match code {
        "missing_api_key" | "invalid_api_key" => StatusCode::UNAUTHORIZED,
        "insufficient_credits" | "subscription_required" => StatusCode::PAYMENT_REQUIRED,
        "rate_limit_exceeded" => StatusCode::TOO_MANY_REQUESTS,
        "balance_unavailable" | "catalog_unavailable" => StatusCode::SERVICE_UNAVAILABLE,
        "not_found" => StatusCode::NOT_FOUND,
        "upstream_unavailable" => StatusCode::BAD_GATEWAY,
        "internal_error" => StatusCode::INTERNAL_SERVER_ERROR,
        _ => StatusCode::BAD_REQUEST,
    }
}

/// The gateway code of a bare status (for faults that give only a status).
pub fn gateway_code_for(status: StatusCode) -> &'static str {
    match status.as_u16() {
        401 => "invalid_api_key",
        402 => "insufficient_credits",
        404 => "not_found",
        429 => "rate_limit_exceeded",
        502 => "upstream_unavailable",
        503 => "balance_unavailable",
        400 => "invalid_request",
        _ => "internal_error",
    }
}

/// A gateway error body with its status.
pub fn gateway(status: StatusCode, code: &str, message: &str, svc: Value) -> Response {
    let svc = if svc.is_object() { svc } else { json!({}) };
    (
        status,
        Json(json!({"error": {
            "message": message,
            "type": gateway_type(code),
            "code": code,
            "param": null,
            "svc": svc,
        }})),
    )
        .into_response()
}

/// A gateway error whose status follows from its code.
pub fn gw(code: &str, message: &str) -> Response {
    gateway(gateway_status(code), code, message, json!({}))
}

/// Adds `Retry-After: secs`.
pub fn with_retry_after(mut resp: Response, secs: u64) -> Response {
    if let Ok(v) = HeaderValue::from_str(&secs.to_string()) {
        resp.headers_mut().insert("retry-after", v);
    }
    resp
}
