//! The two error shapes of the service: REST (`{error, message, ...}`) and gateway
//! (`{error: {message, type, code, param, svc}}`).

use serde_json::{Map, Value};

string_enum! {
    /// `error.code` of a gateway error.
    pub enum GatewayErrorCode {
        MissingApiKey = "missing_api_key",
        InvalidApiKey = "invalid_api_key",
        InsufficientCredits = "insufficient_credits",
        SubscriptionRequired = "subscription_required",
        RateLimitExceeded = "rate_limit_exceeded",
        BalanceUnavailable = "balance_unavailable",
        NotFound = "not_found",
        UpstreamUnavailable = "upstream_unavailable",
        InternalError = "internal_error",
        CatalogUnavailable = "catalog_unavailable",
    }
}

wire! {
    /// A REST error body (spec, list, find, credits, plans, browser agents).
    #[serde(rename_all = "camelCase")]
    pub struct RestError {
        pub error: String,
        pub message: Option<String>,
        pub code: Option<String>,
        pub action_url: Option<String>,
        pub requires_subscription: Option<bool>,
        pub trials_used: Option<u32>,
        pub max_trials: Option<u32>,
        /// Further fields the service may add.
        #[serde(flatten)]
        #[cfg_attr(feature = "ts", ts(skip))]
        pub extra: Map<String, Value>,
    }

    /// Extra fields of a gateway error, by code.
    pub struct GatewayErrorSvc {
        pub credits_remaining: Option<f64>,
        pub estimated_credits: Option<f64>,
        pub topup_url: Option<String>,
        pub trial_credits_used: Option<f64>,
        #[serde(flatten)]
        #[cfg_attr(feature = "ts", ts(skip))]
        pub extra: Map<String, Value>,
    }

    /// `error` of a gateway error body.
    pub struct GatewayError {
        pub message: String,
        #[serde(rename = "type")]
        #[cfg_attr(feature = "ts", ts(rename = "type"))]
        pub error_type: Option<String>,
        pub code: Option<GatewayErrorCode>,
        #[serialize_always]
        #[cfg_attr(feature = "ts", ts(optional = false))]
        pub param: Option<Value>,
        pub svc: Option<GatewayErrorSvc>,
    }

    /// A gateway error body.
    pub struct GatewayErrorBody {
        pub error: GatewayError,
    }
}
