//! Metering headers of gateway calls.

use reqwest::header::HeaderMap;

/// `x-svc-request-id`.
pub const REQUEST_ID: &str = "x-svc-request-id";
/// `x-svc-credits-charged`.
pub const CREDITS_CHARGED: &str = "x-svc-credits-charged";
/// `x-svc-credits-remaining`.
pub const CREDITS_REMAINING: &str = "x-svc-credits-remaining";

/// What a call cost, as its headers say. Each part is optional: a streamed call may settle its
/// charge only at the end, or not carry it at all.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Metering {
    pub request_id: Option<String>,
    pub credits_charged: Option<f64>,
    pub credits_remaining: Option<f64>,
}

impl Metering {
    /// Reads the metering headers.
    pub fn from_headers(headers: &HeaderMap) -> Self {
        let text = |name: &str| {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
        };
        let number = |name: &str| {
            text(name)
                .and_then(|s| s.parse::<f64>().ok())
                .filter(|n| n.is_finite())
        };
        Metering {
            request_id: text(REQUEST_ID),
            credits_charged: number(CREDITS_CHARGED),
            credits_remaining: number(CREDITS_REMAINING),
        }
    }

    /// Whether any header was present.
    pub fn is_empty(&self) -> bool {
        self.request_id.is_none()
            && self.credits_charged.is_none()
            && self.credits_remaining.is_none()
    }
}

/// A value with the metering of the call that produced it.
#[derive(Debug, Clone, PartialEq)]
pub struct Metered<T> {
    pub value: T,
    pub metering: Metering,
}

impl<T> Metered<T> {
    pub(crate) fn new(value: T, metering: Metering) -> Self {
        Metered { value, metering }
    }

    /// The value, without its metering.
    pub fn into_inner(self) -> T {
        self.value
    }
}
