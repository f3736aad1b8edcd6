//! API keys in the OS keychain (keyring 3 with each OS's native store: macOS Keychain, Windows
//! Credential Manager, the Secret Service on Linux — never the kernel keyutils store, and never a
//! silent in-memory fallback). Calls block and may hang on an unlock prompt: `specdesk-core`
//! runs them off the async runtime with a timeout.

use specdesk_core::{SecretError, SecretStore};

/// The keychain "service" every Specdesk key is filed under; the account is the profile id.
pub const SERVICE: &str = "app.specdesk.desktop";

/// The OS keychain.
#[derive(Debug, Clone)]
pub struct OsKeychain {
    service: String,
}

impl Default for OsKeychain {
    fn default() -> Self {
        OsKeychain {
            service: SERVICE.to_owned(),
        }
    }
}

impl OsKeychain {
    /// Keys filed under another service name (tests keep theirs apart).
    pub fn with_service(service: &str) -> Self {
        OsKeychain {
            service: service.to_owned(),
        }
    }

    fn entry(&self, account: &str) -> Result<keyring::Entry, SecretError> {
        keyring::Entry::new(&self.service, account).map_err(classify)
    }
}

impl SecretStore for OsKeychain {
    /// The key stored for `account`, if any.
    fn get(&self, account: &str) -> Result<Option<String>, SecretError> {
        match self.entry(account)?.get_password() {
            Ok(secret) => Ok(Some(secret)),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(classify(e)),
        }
    }

    /// Stores (or replaces) the key of `account`.
    fn set(&self, account: &str, secret: &str) -> Result<(), SecretError> {
        self.entry(account)?.set_password(secret).map_err(classify)
    }

    /// Removes the key of `account` (no error when there is none).
    fn delete(&self, account: &str) -> Result<(), SecretError> {
        match self.entry(account)?.delete_credential() {
            Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(classify(e)),
        }
    }
}

/// Turns a keyring error into one the user can act on. Never includes secret bytes (a
/// `BadEncoding` error carries the stored value, so its content is dropped here).
fn classify(e: keyring::Error) -> SecretError {
    match e {
        // A locked collection is reported over D-Bus too, so "locked" is looked for first:
        // the user must be told to unlock, not that no keychain exists.
        keyring::Error::NoStorageAccess(inner) => {
            let detail = inner.to_string();
            if !mentions_locked(&detail) && mentions_missing_service(&detail) {
                SecretError::Unavailable(detail)
            } else {
                SecretError::Locked(detail)
            }
        }
        keyring::Error::PlatformFailure(inner) => {
            let detail = inner.to_string();
            if mentions_locked(&detail) {
                SecretError::Locked(detail)
            } else if mentions_missing_service(&detail) {
                SecretError::Unavailable(detail)
            } else {
                SecretError::Other(detail)
            }
        }
        keyring::Error::BadEncoding(_) => {
            SecretError::Other("the stored key is not text".to_owned())
        }
        other => SecretError::Other(other.to_string()),
    }
}

fn mentions_locked(detail: &str) -> bool {
    detail.to_lowercase().contains("locked")
}

fn mentions_missing_service(detail: &str) -> bool {
    let d = detail.to_lowercase();
    [
        "serviceunknown",
        "service unknown",
        "was not provided by any .service files",
        "no such file or directory",
        "connection refused",
        "failed to connect",
        "dbus",
    ]
    .iter()
    .any(|needle| d.contains(needle))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_encoding_never_shows_the_stored_bytes() {
        let e = classify(keyring::Error::BadEncoding(b"sk_live_secret\xff".to_vec()));
        let text = format!("{e:?} {e}");
        assert!(!text.contains("sk_live_secret"), "{text}");
    }

    #[test]
    fn a_missing_secret_service_is_unavailable_not_locked() {
        let e = classify(keyring::Error::PlatformFailure(
            "org.freedesktop.DBus.Error.ServiceUnknown: The name org.freedesktop.secrets was not provided by any .service files".into(),
        ));
        assert!(matches!(e, SecretError::Unavailable(_)), "{e:?}");
        let e = classify(keyring::Error::NoStorageAccess(
            "collection is locked".into(),
        ));
        assert!(matches!(e, SecretError::Locked(_)), "{e:?}");
    }

    #[test]
    fn a_locked_collection_named_over_dbus_is_locked_not_missing() {
        let e = classify(keyring::Error::NoStorageAccess(
            "D-Bus error: org.freedesktop.Secret.Error.IsLocked: the collection is locked".into(),
        ));
        assert!(matches!(e, SecretError::Locked(_)), "{e:?}");
        let e = classify(keyring::Error::PlatformFailure(
            "dbus: the default collection is locked".into(),
        ));
        assert!(matches!(e, SecretError::Locked(_)), "{e:?}");
        let e = classify(keyring::Error::NoStorageAccess(
            "failed to connect to the D-Bus session bus".into(),
        ));
        assert!(matches!(e, SecretError::Unavailable(_)), "{e:?}");
    }
}
