//! The one error shape that crosses IPC: a stable `kind` the UI branches on, a plain message
//! with the next step, and an action the user can take (opened in the system browser).

use std::time::Duration;

use serde::{Deserialize, Serialize};

specdesk_types::string_enum! {
    /// The stable classification of an [`IpcError`] the UI branches on. Serialised as its
    /// camelCase string; a kind this version does not know (from a newer ledger) is kept as sent.
    #[allow(missing_docs)]
    pub enum IpcErrorKind {
        MissingKey = "missingKey",
        InvalidKey = "invalidKey",
        InsufficientCredits = "insufficientCredits",
        SubscriptionRequired = "subscriptionRequired",
        RateLimited = "rateLimited",
        NotFound = "notFound",
        InvalidInput = "invalidInput",
        Network = "network",
        Server = "server",
        Decode = "decode",
        Stream = "stream",
        Cancelled = "cancelled",
        KeychainLocked = "keychainLocked",
        KeychainUnavailable = "keychainUnavailable",
        Storage = "storage",
        Internal = "internal",
        /// The service ran the job and reported that it failed (the message says why).
        Failed = "failed",
        /// Refused before sending: the call would pass the connection's daily spend cap
        /// (`spendCap` on the error says what was spent, the cap and the estimate).
        SpendCap = "spendCap",
        /// A batch not known to have reached the service, whose idempotency key is too old to
        /// send again safely: the user chooses whether to send it again as a new batch.
        Unconfirmed = "unconfirmed",
    }
}

impl IpcErrorKind {
    /// A passing failure of the network or the service: trying again later may work.
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            Self::Network | Self::Server | Self::RateLimited | Self::Stream
        )
    }

    /// The keychain refused or is missing: the user unlocks or sets one up.
    pub fn is_keychain(&self) -> bool {
        matches!(self, Self::KeychainLocked | Self::KeychainUnavailable)
    }
}

impl From<specdesk_client::ErrorKind> for IpcErrorKind {
    fn from(k: specdesk_client::ErrorKind) -> Self {
        use specdesk_client::ErrorKind as K;
        match k {
            K::MissingKey => Self::MissingKey,
            K::InvalidKey => Self::InvalidKey,
            K::InsufficientCredits => Self::InsufficientCredits,
            K::SubscriptionRequired => Self::SubscriptionRequired,
            K::RateLimited => Self::RateLimited,
            K::NotFound => Self::NotFound,
            K::InvalidInput => Self::InvalidInput,
            K::Network => Self::Network,
            K::Server => Self::Server,
            K::Decode => Self::Decode,
            K::Stream => Self::Stream,
            K::Cancelled => Self::Cancelled,
        }
    }
}

/// An action offered with an error, for example "Top up" with the service's top-up page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub struct ErrorAction {
    pub label: String,
    /// Always http or https.
    pub url: String,
}

/// The error every command rejects with (`IpcError` in DESIGN.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
#[error("{message}")]
pub struct IpcError {
    /// What went wrong, for the UI to branch on.
    pub kind: IpcErrorKind,
    /// A plain sentence with the next step.
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_after_ms: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<ErrorAction>,
    /// The input the error is about (`baseUrl`, `limit`, `tasks[2].url`), for forms.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// With kind `spendCap`: the connection, what it spent today, its cap and the estimate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spend_cap: Option<crate::settings::SpendCapDetail>,
}

impl IpcError {
    /// An error of `kind` with `message`.
    pub fn new(kind: IpcErrorKind, message: impl Into<String>) -> Self {
        IpcError {
            kind,
            message: message.into(),
            status: None,
            retry_after_ms: None,
            action: None,
            field: None,
            spend_cap: None,
        }
    }

    /// A refused input.
    pub fn invalid(field: &str, message: impl Into<String>) -> Self {
        let mut e = Self::new(IpcErrorKind::InvalidInput, message);
        e.field = Some(field.to_owned());
        e
    }

    /// Something that does not exist.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(IpcErrorKind::NotFound, message)
    }

    /// A failure of the local library or settings file.
    pub fn storage(what: impl std::fmt::Display) -> Self {
        Self::new(
            IpcErrorKind::Storage,
            format!(
                "Specdesk could not read or write its local data ({what}). Check that the disk is not full, then try again."
            ),
        )
    }

    /// A job the service (or Specdesk, following it) ended as failed.
    pub fn failed(message: impl Into<String>) -> Self {
        Self::new(IpcErrorKind::Failed, message)
    }

    /// An unexpected failure inside Specdesk.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(IpcErrorKind::Internal, message)
    }

    /// Attaches an action when `url` is http(s); anything else is dropped.
    pub fn with_action(mut self, label: &str, url: &str) -> Self {
        if let Ok(u) = url::Url::parse(url)
            && matches!(u.scheme(), "http" | "https")
        {
            self.action = Some(ErrorAction {
                label: label.to_owned(),
                url: u.to_string(),
            });
        }
        self
    }
}

fn millis(d: Duration) -> u64 {
    d.as_millis().min(u128::from(u64::MAX)) as u64
}

impl From<&specdesk_client::Error> for IpcError {
    fn from(e: &specdesk_client::Error) -> Self {
        use specdesk_client::{Error, ErrorKind};
        let kind = e.kind();
        // The service's words may echo what it was sent (a browser task's input value, a key):
        // every registered secret is scrubbed before the message reaches the ledger, an app
        // event or the web view.
        let message = crate::logs::redactor().scrub(&e.to_string()).into_owned();
        let mut out = IpcError::new(kind.into(), message);
        out.status = e.status();
        out.retry_after_ms = e.retry_after().map(millis);
        if let Error::InvalidInput { field, .. } = e {
            out.field = Some(field.clone());
        }
        if let Some(url) = e.action_url() {
            let label = match kind {
                ErrorKind::InsufficientCredits => "Top up",
                ErrorKind::SubscriptionRequired => "Upgrade",
                _ => "Open",
            };
            out = out.with_action(label, url);
        }
        out
    }
}

impl From<specdesk_client::Error> for IpcError {
    fn from(e: specdesk_client::Error) -> Self {
        IpcError::from(&e)
    }
}

impl From<rusqlite::Error> for IpcError {
    fn from(e: rusqlite::Error) -> Self {
        IpcError::storage(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use specdesk_client::{ApiError, Error};

    fn api(status: u16, body: &str, retry: Option<Duration>) -> Error {
        Error::Api(Box::new(ApiError::from_parts(
            status,
            body.as_bytes(),
            retry,
            Some("req_1".into()),
        )))
    }

    #[test]
    fn insufficient_credits_offers_a_top_up() {
        let e = api(
            402,
            r#"{"error":{"message":"no credits","type":"invalid_request_error","code":"insufficient_credits","param":null,"svc":{"credits_remaining":0,"estimated_credits":2,"topup_url":"https://example.com/topup"}}}"#,
            None,
        );
        let ipc = IpcError::from(&e);
        assert_eq!(ipc.kind, IpcErrorKind::InsufficientCredits);
        assert_eq!(ipc.status, Some(402));
        assert_eq!(
            ipc.action,
            Some(ErrorAction {
                label: "Top up".into(),
                url: "https://example.com/topup".into()
            })
        );
        let json = serde_json::to_value(&ipc).unwrap();
        assert_eq!(json["action"]["label"], "Top up");
        assert!(json.get("retryAfterMs").is_none());
    }

    #[test]
    fn subscription_required_offers_an_upgrade_and_rate_limits_carry_the_wait() {
        let e = api(
            402,
            r#"{"error":"Subscription required","message":"Deep spec needs a paid plan.","requiresSubscription":true,"actionUrl":"https://example.com/pricing"}"#,
            None,
        );
        let ipc = IpcError::from(&e);
        assert_eq!(ipc.kind, IpcErrorKind::SubscriptionRequired);
        assert_eq!(ipc.action.unwrap().label, "Upgrade");

        let e = api(
            429,
            r#"{"error":{"message":"slow down","type":"rate_limit_error","code":"rate_limit_exceeded","param":null,"svc":{}}}"#,
            Some(Duration::from_secs(7)),
        );
        let ipc = IpcError::from(&e);
        assert_eq!(
            (ipc.kind, ipc.retry_after_ms),
            (IpcErrorKind::RateLimited, Some(7000))
        );
    }

    #[test]
    fn only_web_links_become_actions() {
        let e = IpcError::new(IpcErrorKind::Server, "x").with_action("Open", "javascript:alert(1)");
        assert_eq!(e.action, None);
        let e = IpcError::new(IpcErrorKind::Server, "x").with_action("Open", "file:///etc/passwd");
        assert_eq!(e.action, None);
    }

    #[test]
    fn cores_own_errors_have_stable_kinds_and_plain_messages() {
        use crate::secrets::SecretError;
        let locked = IpcError::from(SecretError::Locked(
            "org.freedesktop.Secret.Error.IsLocked".into(),
        ));
        assert_eq!(
            (locked.kind, locked.message.as_str()),
            (
                IpcErrorKind::KeychainLocked,
                "Your keychain is locked. Unlock it (it may be asking for your password), then try again."
            )
        );
        let missing = IpcError::from(SecretError::Unavailable("no dbus".into()));
        assert_eq!(missing.kind, IpcErrorKind::KeychainUnavailable);
        assert!(
            missing
                .message
                .starts_with("No keychain service was found on this computer"),
            "{}",
            missing.message
        );
        assert_eq!(
            IpcError::from(SecretError::Timeout).kind,
            IpcErrorKind::KeychainLocked
        );

        let db = IpcError::from(rusqlite::Error::InvalidQuery);
        assert_eq!(db.kind, IpcErrorKind::Storage);
        assert!(
            db.message
                .starts_with("Specdesk could not read or write its local data")
        );
        assert!(
            db.message
                .ends_with("Check that the disk is not full, then try again.")
        );

        assert_eq!(
            IpcError::from(Error::Cancelled).kind,
            IpcErrorKind::Cancelled
        );
        assert_eq!(
            IpcError::from(Error::MissingKey).kind,
            IpcErrorKind::MissingKey
        );
        let json = serde_json::to_value(IpcError::not_found("Gone.")).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"kind": "notFound", "message": "Gone."})
        );
    }

    #[test]
    fn kinds_travel_as_their_strings_and_unknown_ones_are_kept() {
        let json = serde_json::to_value(IpcError::new(IpcErrorKind::KeychainLocked, "m")).unwrap();
        assert_eq!(json["kind"], "keychainLocked");
        let back: IpcError =
            serde_json::from_str(r#"{"kind":"quotaFrozen","message":"m"}"#).unwrap();
        assert_eq!(back.kind, IpcErrorKind::Unknown("quotaFrozen".into()));
        assert_eq!(serde_json::to_value(&back).unwrap()["kind"], "quotaFrozen");
        assert!(IpcErrorKind::Stream.is_transient());
        assert!(!IpcErrorKind::InvalidKey.is_transient());
    }

    #[test]
    fn local_refusals_name_their_field() {
        let e = Error::invalid(
            "limit",
            "The page size must be between 1 and 100 (it was 0).",
        );
        let ipc = IpcError::from(e);
        assert_eq!(ipc.kind, IpcErrorKind::InvalidInput);
        assert_eq!(ipc.field.as_deref(), Some("limit"));
        assert_eq!(
            ipc.message,
            "The page size must be between 1 and 100 (it was 0)."
        );
    }

    #[test]
    fn the_services_words_never_carry_a_registered_secret() {
        crate::logs::redactor().add("quartz-echo-7731");
        let e = api(
            400,
            r#"{"error":{"message":"Field input.password: 'quartz-echo-7731' is too short","type":"invalid_request_error","code":"invalid_parameter","param":"tasks"}}"#,
            None,
        );
        let ipc = IpcError::from(&e);
        assert_eq!(ipc.kind, IpcErrorKind::InvalidInput);
        assert!(
            ipc.message
                .contains("Field input.password: '[redacted]' is too short"),
            "{}",
            ipc.message
        );
        assert!(!ipc.message.contains("quartz-echo-7731"));
    }
}
