//! API keys: a `SecretStore` (the OS keychain in the app, an in-memory fake in tests) used only
//! through `Keys`, which runs every call off the async runtime with a timeout — a locked keychain
//! can hang on an unlock prompt — and turns failures into plain errors.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::ipc_error::{IpcError, IpcErrorKind};

/// Why the keychain could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SecretError {
    /// The keychain is locked (or refused access).
    #[error(
        "Your keychain is locked. Unlock it (it may be asking for your password), then try again."
    )]
    Locked(String),
    /// No keychain service answers on this computer.
    #[error(
        "No keychain service was found on this computer, so Specdesk cannot store your API key safely. Install or start your desktop's keyring (for example GNOME Keyring or KWallet), then try again."
    )]
    Unavailable(String),
    /// The keychain did not answer in time.
    #[error(
        "Your keychain did not answer. It may be waiting for you to unlock it: unlock it, then try again."
    )]
    Timeout,
    /// Anything else.
    #[error("The keychain could not be used: {0}")]
    Other(String),
}

impl From<SecretError> for IpcError {
    fn from(e: SecretError) -> Self {
        let kind = match e {
            SecretError::Locked(_) | SecretError::Timeout => IpcErrorKind::KeychainLocked,
            SecretError::Unavailable(_) => IpcErrorKind::KeychainUnavailable,
            SecretError::Other(_) => IpcErrorKind::Internal,
        };
        IpcError::new(kind, e.to_string())
    }
}

/// Where keys are kept, by account (a profile id). Calls may block.
pub trait SecretStore: Send + Sync + 'static {
    fn get(&self, account: &str) -> Result<Option<String>, SecretError>;
    fn set(&self, account: &str, secret: &str) -> Result<(), SecretError>;
    fn delete(&self, account: &str) -> Result<(), SecretError>;
}

/// An in-memory store for tests; it can be locked as an OS keychain is (every call refused).
#[derive(Default, Clone)]
pub struct MemorySecretStore {
    entries: Arc<Mutex<HashMap<String, String>>>,
    locked: Arc<std::sync::atomic::AtomicBool>,
    /// The most bytes (UTF-16, as Windows counts) an entry takes, when limited.
    entry_limit: Option<usize>,
}

impl MemorySecretStore {
    /// A store whose entries take at most `bytes` (UTF-16), as Windows' Credential Manager's do.
    pub fn with_entry_limit(mut self, bytes: usize) -> Self {
        self.entry_limit = Some(bytes);
        self
    }

    /// How many entries the store holds.
    pub fn len(&self) -> usize {
        self.entries.lock().unwrap_or_else(|p| p.into_inner()).len()
    }

    /// Whether the store holds no entry.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Locks (every call refused with [`SecretError::Locked`]) or unlocks the store.
    pub fn set_locked(&self, locked: bool) {
        self.locked
            .store(locked, std::sync::atomic::Ordering::SeqCst);
    }

    fn open(&self) -> Result<std::sync::MutexGuard<'_, HashMap<String, String>>, SecretError> {
        if self.locked.load(std::sync::atomic::Ordering::SeqCst) {
            return Err(SecretError::Locked("the test locked it".into()));
        }
        Ok(self.entries.lock().unwrap_or_else(|p| p.into_inner()))
    }
}

impl std::fmt::Debug for MemorySecretStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemorySecretStore").finish_non_exhaustive()
    }
}

impl SecretStore for MemorySecretStore {
    fn get(&self, account: &str) -> Result<Option<String>, SecretError> {
        Ok(self.open()?.get(account).cloned())
    }
    fn set(&self, account: &str, secret: &str) -> Result<(), SecretError> {
        if let Some(limit) = self.entry_limit
            && secret.encode_utf16().count() * 2 > limit
        {
            return Err(SecretError::Other(format!(
                "an entry holds at most {limit} bytes"
            )));
        }
        self.open()?.insert(account.to_owned(), secret.to_owned());
        Ok(())
    }
    fn delete(&self, account: &str) -> Result<(), SecretError> {
        self.open()?.remove(account);
        Ok(())
    }
}

/// Whether a profile has a key, and its last characters for recognition. Never the key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct KeyStatus {
    pub has_key: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub masked_tail: Option<String>,
}

impl KeyStatus {
    /// The status of `key`.
    pub fn of(key: Option<&str>) -> Self {
        KeyStatus {
            has_key: key.is_some(),
            masked_tail: key.map(masked_tail),
        }
    }
}

/// `••••` and the last four characters (fewer for a short key), never more.
pub fn masked_tail(key: &str) -> String {
    let chars: Vec<char> = key.chars().collect();
    let shown = if chars.len() >= 12 {
        4
    } else {
        chars.len() / 4
    };
    let tail: String = chars[chars.len() - shown..].iter().collect();
    format!("••••{tail}")
}

/// Keys, through a `SecretStore`, off the runtime and with a timeout.
#[derive(Clone)]
pub struct Keys {
    store: Arc<dyn SecretStore>,
    timeout: Duration,
    /// Writes and deletes one at a time: an entry written in parts is never written by two
    /// calls at once (the draft's values are saved as the user types).
    writes: Arc<tokio::sync::Mutex<()>>,
}

impl std::fmt::Debug for Keys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Keys")
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl Keys {
    /// Keys in `store`; each call gives up after `timeout`.
    pub fn new(store: Arc<dyn SecretStore>, timeout: Duration) -> Self {
        Keys {
            store,
            timeout,
            writes: Arc::default(),
        }
    }

    /// Runs `f` off the async runtime, giving up after the timeout. `f` is handed a "go on"
    /// check that says no once the call was given up, so a write that timed out writes no more
    /// entries behind the user's back (a keychain call already under way cannot be taken back).
    async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&dyn SecretStore, &dyn Fn() -> bool) -> Result<T, SecretError> + Send + 'static,
    ) -> Result<T, SecretError> {
        let store = self.store.clone();
        let given_up = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = given_up.clone();
        let task = tokio::task::spawn_blocking(move || {
            f(store.as_ref(), &|| {
                !flag.load(std::sync::atomic::Ordering::SeqCst)
            })
        });
        match tokio::time::timeout(self.timeout, task).await {
            Ok(Ok(result)) => result,
            Ok(Err(join)) => Err(SecretError::Other(format!(
                "the keychain call failed: {join}"
            ))),
            Err(_) => {
                given_up.store(true, std::sync::atomic::Ordering::SeqCst);
                Err(SecretError::Timeout)
            }
        }
    }

    /// The key of `account`, registered with the log redactor.
    pub async fn get(&self, account: &str) -> Result<Option<String>, SecretError> {
        let key = self.get_unlisted(account).await?;
        if let Some(k) = &key {
            crate::logs::redactor().add(k);
        }
        Ok(key)
    }

    /// Stores the key of `account`, registered with the log redactor.
    pub async fn set(&self, account: &str, secret: &str) -> Result<(), SecretError> {
        crate::logs::redactor().add(secret);
        self.set_unlisted(account, secret).await
    }

    /// Stores `secret` under `account` without registering it with the log redactor: for a
    /// value that changes as the user types (each version would stay in the redactor's list for
    /// the process's life) and that no log line ever carries.
    pub async fn set_unlisted(&self, account: &str, secret: &str) -> Result<(), SecretError> {
        let account = account.to_owned();
        let secret = secret.to_owned();
        let _one_at_a_time = self.writes.lock().await;
        self.run(move |s, go_on| crate::secret_parts::set(s, &account, &secret, go_on))
            .await
    }

    /// Reads `account` without registering what it holds with the log redactor (see
    /// [`Keys::set_unlisted`]).
    pub async fn get_unlisted(&self, account: &str) -> Result<Option<String>, SecretError> {
        let account = account.to_owned();
        self.run(move |s, _| crate::secret_parts::get(s, &account))
            .await
    }

    /// Removes the key of `account`.
    pub async fn delete(&self, account: &str) -> Result<(), SecretError> {
        let account = account.to_owned();
        let _one_at_a_time = self.writes.lock().await;
        self.run(move |s, _| crate::secret_parts::delete(s, &account))
            .await
    }

    /// `hasKey` and the masked tail of `account`'s key.
    pub async fn status(&self, account: &str) -> Result<KeyStatus, SecretError> {
        Ok(KeyStatus::of(self.get(account).await?.as_deref()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_show_at_most_four_characters() {
        assert_eq!(masked_tail("sk_live_0123456789abcd"), "••••abcd");
        assert_eq!(masked_tail("short"), "••••t");
        assert_eq!(masked_tail("abc"), "••••");
        assert_eq!(masked_tail(""), "••••");
    }

    struct Hanging;
    impl SecretStore for Hanging {
        fn get(&self, _: &str) -> Result<Option<String>, SecretError> {
            std::thread::sleep(Duration::from_millis(600));
            Ok(None)
        }
        fn set(&self, _: &str, _: &str) -> Result<(), SecretError> {
            Ok(())
        }
        fn delete(&self, _: &str) -> Result<(), SecretError> {
            Ok(())
        }
    }

    #[tokio::test]
    async fn a_hanging_keychain_times_out_with_a_plain_message() {
        let keys = Keys::new(Arc::new(Hanging), Duration::from_millis(50));
        let e = keys.get("p").await.unwrap_err();
        assert_eq!(e, SecretError::Timeout);
        let ipc = IpcError::from(e);
        assert_eq!(ipc.kind, IpcErrorKind::KeychainLocked);
        assert!(ipc.message.starts_with("Your keychain did not answer."));
    }

    #[tokio::test]
    async fn status_never_holds_the_key() {
        let keys = Keys::new(
            Arc::new(MemorySecretStore::default()),
            Duration::from_secs(5),
        );
        assert_eq!(
            keys.status("p").await.unwrap(),
            KeyStatus {
                has_key: false,
                masked_tail: None
            }
        );
        keys.set("p", "sk_live_supersecret_c0de").await.unwrap();
        let status = keys.status("p").await.unwrap();
        let json = serde_json::to_string(&status).unwrap();
        assert_eq!(json, r#"{"hasKey":true,"maskedTail":"••••c0de"}"#);
        keys.delete("p").await.unwrap();
        assert!(!keys.status("p").await.unwrap().has_key);
    }

    /// A keychain that takes its time over each write.
    struct Slow(MemorySecretStore);

    impl SecretStore for Slow {
        fn get(&self, account: &str) -> Result<Option<String>, SecretError> {
            self.0.get(account)
        }
        fn set(&self, account: &str, secret: &str) -> Result<(), SecretError> {
            std::thread::sleep(Duration::from_millis(150));
            self.0.set(account, secret)
        }
        fn delete(&self, account: &str) -> Result<(), SecretError> {
            self.0.delete(account)
        }
    }

    #[tokio::test]
    async fn a_write_given_up_writes_no_more_behind_the_users_back() {
        let inner = MemorySecretStore::default();
        let keys = Keys::new(Arc::new(Slow(inner.clone())), Duration::from_millis(250));
        keys.set_unlisted("batch", "old").await.unwrap();
        // Four parts at 150 ms each: given up after the second has started.
        let err = keys
            .set_unlisted("batch", &"x".repeat(3500))
            .await
            .unwrap_err();
        assert_eq!(err, SecretError::Timeout);
        // Once the call under way has ended: nothing more was written, nothing left over.
        tokio::time::sleep(Duration::from_millis(600)).await;
        assert_eq!(inner.get("batch").unwrap().as_deref(), Some("old"));
        assert_eq!(inner.len(), 1);
    }
}
