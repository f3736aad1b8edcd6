//! Reads every request body in full before anything answers, so kept-alive connections stay open.
//!
//! hyper reuses a connection only when the request's body was read to its end. A handler that
//! ignores its body (get-plan, reset, a project's advance, a GET sent with a body, the fallback, a
//! fault's canned answer...) drops it unread; when the body has not fully arrived by the time the
//! answer is written, hyper cannot drain it and closes the connection, and a client that already
//! took that connection from its pool for its next request gets "connection closed before message
//! completed". Buffering here, outside every route and middleware, makes each answer wait for the
//! whole request.

use crate::errors;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::Response;

/// The largest body read: above what any endpoint accepts (a 16 MiB spec request), whose own
/// limits still apply to the buffered body.
const MAX_BODY: usize = 32 * 1024 * 1024;

/// Middleware: buffers the request body, then runs the rest of the stack with it.
pub async fn read_whole(req: Request, next: Next) -> Response {
    let (parts, body) = req.into_parts();
    let declared = parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY as u64) {
        return refuse(parts.uri.path(), StatusCode::PAYLOAD_TOO_LARGE);
    }
    match axum::body::to_bytes(body, MAX_BODY).await {
        Ok(bytes) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Err(e) => {
            let too_large = std::error::Error::source(&e)
                .is_some_and(|s| s.to_string().contains("length limit"))
                || e.to_string().contains("length limit");
            let status = if too_large {
                StatusCode::PAYLOAD_TOO_LARGE
            } else {
                StatusCode::BAD_REQUEST
            };
            refuse(parts.uri.path(), status)
        }
    }
}

/// The answer to a body that was not read: in the shape of the path's API, closing the connection
/// (what is left of the body cannot be told apart from a next request).
fn refuse(path: &str, status: StatusCode) -> Response {
    let message = if status == StatusCode::PAYLOAD_TOO_LARGE {
        format!("The request body is larger than {} MiB.", MAX_BODY >> 20)
    } else {
        "The request body could not be read.".to_owned()
    };
    let mut resp = if path.starts_with("/v1/") || path == "/v1" {
        errors::gateway(status, "invalid_request", &message, serde_json::json!({}))
    } else if status == StatusCode::PAYLOAD_TOO_LARGE {
        errors::rest(status, "Payload too large", &message)
    } else {
        errors::invalid(&message)
    };
    resp.headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    resp
}
