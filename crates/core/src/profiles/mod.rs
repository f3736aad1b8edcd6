//! Profiles: named connections to the service, the built-in Sandbox one first. Keys are read from
//! the keychain only to build a client; commands see `KeyStatus`.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use specdesk_client::{Client, ClientConfig};

use crate::ipc_error::IpcError;
use crate::secrets::{KeyStatus, Keys};
use crate::settings::{Settings, SettingsStore, Stored};

mod spend_cap;
mod trial;

/// Id of the built-in Sandbox profile.
pub const SANDBOX_PROFILE_ID: &str = "sandbox";
/// The Sandbox profile's key: a public, well-known key of the local emulator, not a secret.
pub const SANDBOX_KEY: &str = "sk_sandbox_org";

/// Personal (a solo account) or organization key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export))]
pub enum KeyKind {
    #[default]
    Personal,
    Organization,
}

/// A saved connection (no key: keys live in the keychain).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Profile {
    pub id: String,
    pub name: String,
    pub base_url: String,
    pub key_kind: KeyKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project_id: Option<String>,
    /// The service showed this connection's key is on a trial workspace (30 gateway calls a
    /// minute): its next clients keep to that from their first call. Cleared with a new key.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub trial: bool,
}

/// What the user enters to add or edit a profile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct ProfileInput {
    pub name: String,
    pub base_url: String,
    pub key_kind: KeyKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project_id: Option<String>,
}

/// A profile as the UI sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct ProfileView {
    pub id: String,
    pub name: String,
    pub base_url: String,
    pub key_kind: KeyKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project_id: Option<String>,
    /// The built-in Sandbox: offline, simulated, not editable.
    pub built_in: bool,
    pub active: bool,
    pub key: KeyStatus,
    /// Set once the service showed this connection's key is on the AI gateway's free trial (5
    /// credits of gateway use in all, 30 calls a minute).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trial: Option<bool>,
}

/// Result of setting a key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct KeyChange {
    pub key: KeyStatus,
    /// Set when a key was replaced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
}

/// The notice shown when a key is replaced.
pub const ROTATION_NOTICE: &str = "Your new key is saved. If you replaced the old key on the service, the old key keeps working for 15 minutes, then stops.";

fn check_key(key: &str) -> Result<String, IpcError> {
    let key = key.trim();
    if key.is_empty() {
        return Err(IpcError::invalid("apiKey", "Paste your API key."));
    }
    if key.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(IpcError::invalid(
            "apiKey",
            "An API key has no spaces or line breaks. Copy it again from your account page.",
        ));
    }
    if key.len() > 4096 {
        return Err(IpcError::invalid(
            "apiKey",
            "That is too long to be an API key.",
        ));
    }
    Ok(key.to_owned())
}

fn check_input(input: &ProfileInput) -> Result<ProfileInput, IpcError> {
    let name = input.name.trim();
    if name.is_empty() {
        return Err(IpcError::invalid("name", "Give this connection a name."));
    }
    if name.chars().count() > 80 {
        return Err(IpcError::invalid(
            "name",
            "Keep the name under 80 characters.",
        ));
    }
    let base = specdesk_client::validate_base_url(&input.base_url).map_err(IpcError::from)?;
    let project_id = input
        .project_id
        .as_deref()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(str::to_owned);
    if let Some(p) = &project_id
        && (p.len() != 24 || !p.bytes().all(|b| b.is_ascii_hexdigit()))
    {
        return Err(IpcError::invalid(
            "projectId",
            "A project id is 24 characters, each 0-9 or a-f. Leave it empty to not attribute usage to a project.",
        ));
    }
    Ok(ProfileInput {
        name: name.to_owned(),
        base_url: base.as_str().trim_end_matches('/').to_owned(),
        key_kind: input.key_kind,
        project_id,
    })
}

/// Profiles, keys and settings, over a settings store and the keychain.
///
/// The stored state is read once and kept in memory (every change goes through here), and one
/// [`Client`] is kept per connection, so its connection pool, gateway rate limiter (with a trial
/// workspace's allowance once learnt) and catalog ETag cache live as long as the connection. A
/// connection's client is dropped when its key, address, kind or project changes, when the
/// connection is deleted, and when settings the client is built from change.
pub struct Profiles {
    store: Arc<dyn SettingsStore>,
    keys: Keys,
    sandbox_base_url: String,
    /// Serialises read-modify-write of the stored state.
    write: tokio::sync::Mutex<()>,
    /// The stored state as last read or saved.
    stored: Mutex<Option<Stored>>,
    /// One client per connection id.
    clients: Mutex<HashMap<String, Client>>,
    /// Bumped whenever a client is dropped, so a client built from what was read before the
    /// change is not kept.
    generation: AtomicU64,
}

impl Profiles {
    /// `sandbox_base_url` is where the embedded sandbox listens.
    pub fn new(
        store: Arc<dyn SettingsStore>,
        keys: Keys,
        sandbox_base_url: impl Into<String>,
    ) -> Self {
        Profiles {
            store,
            keys,
            sandbox_base_url: sandbox_base_url.into(),
            write: tokio::sync::Mutex::new(()),
            stored: Mutex::new(None),
            clients: Mutex::new(HashMap::new()),
            generation: AtomicU64::new(0),
        }
    }

    /// The keychain this uses.
    pub(crate) fn keys(&self) -> &Keys {
        &self.keys
    }

    /// The batch builder's draft input values kept in this keychain, by input id.
    pub async fn draft_values(&self) -> Result<crate::task_inputs::DraftValues, IpcError> {
        crate::task_inputs::draft(&self.keys).await
    }

    /// Keeps the batch builder's draft input values in this keychain (none: deleted).
    pub async fn keep_draft_values(
        &self,
        values: &crate::task_inputs::DraftValues,
    ) -> Result<(), IpcError> {
        crate::task_inputs::keep_draft(&self.keys, values).await
    }

    fn read_stored(&self) -> Result<Stored, IpcError> {
        let mut cached = self.stored.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(s) = cached.as_ref() {
            return Ok(s.clone());
        }
        let s = self.store.load()?;
        *cached = Some(s.clone());
        Ok(s)
    }

    fn save(&self, stored: &Stored) -> Result<(), IpcError> {
        self.store.save(stored)?;
        *self.stored.lock().unwrap_or_else(|p| p.into_inner()) = Some(stored.clone());
        Ok(())
    }

    /// Drops the kept client of connection `id` (all of them with `None`).
    fn forget_client(&self, id: Option<&str>) {
        let mut clients = self.clients.lock().unwrap_or_else(|p| p.into_inner());
        self.generation.fetch_add(1, Ordering::SeqCst);
        match id {
            Some(id) => {
                clients.remove(id);
            }
            None => clients.clear(),
        }
    }

    /// Profiles over in-memory settings and keychain (tests, and tools that keep nothing).
    pub fn in_memory(sandbox_base_url: impl Into<String>) -> Self {
        Profiles::new(
            Arc::new(crate::settings::MemorySettings::default()),
            Keys::new(
                Arc::new(crate::secrets::MemorySecretStore::default()),
                Duration::from_secs(5),
            ),
            sandbox_base_url,
        )
    }

    fn sandbox(&self) -> Profile {
        Profile {
            id: SANDBOX_PROFILE_ID.to_owned(),
            name: "Sandbox".to_owned(),
            base_url: self.sandbox_base_url.clone(),
            key_kind: KeyKind::Organization,
            project_id: None,
            trial: false,
        }
    }

    /// Two connections never share a name (the Sandbox's included; case and spaces aside), so
    /// the header and every picker tell them apart.
    fn check_name_free(
        &self,
        stored: &Stored,
        name: &str,
        except: Option<&str>,
    ) -> Result<(), IpcError> {
        let same = |other: &str| other.trim().to_lowercase() == name.trim().to_lowercase();
        let taken = std::iter::once(self.sandbox())
            .chain(stored.profiles.iter().cloned())
            .find(|p| Some(p.id.as_str()) != except && same(&p.name));
        match taken {
            Some(p) => Err(IpcError::invalid(
                "name",
                format!(
                    "You already have a connection named “{}”. Give this one another name.",
                    p.name
                ),
            )),
            None => Ok(()),
        }
    }

    fn load(&self) -> Result<Stored, IpcError> {
        let mut stored = self.read_stored()?;
        // An active profile that no longer exists falls back to the Sandbox.
        let id = &stored.settings.active_profile_id;
        if id != SANDBOX_PROFILE_ID && !stored.profiles.iter().any(|p| &p.id == id) {
            stored.settings.active_profile_id = SANDBOX_PROFILE_ID.to_owned();
        }
        Ok(stored)
    }

    /// The profile with `id`, the Sandbox included.
    pub fn profile(&self, id: &str) -> Result<Profile, IpcError> {
        if id == SANDBOX_PROFILE_ID {
            return Ok(self.sandbox());
        }
        self.load()?
            .profiles
            .into_iter()
            .find(|p| p.id == id)
            .ok_or_else(|| IpcError::not_found("That connection no longer exists."))
    }

    async fn view(&self, p: Profile, active: &str) -> Result<ProfileView, IpcError> {
        let built_in = p.id == SANDBOX_PROFILE_ID;
        let key = if built_in {
            KeyStatus::of(Some(SANDBOX_KEY))
        } else {
            self.keys.status(&p.id).await?
        };
        Ok(ProfileView {
            active: p.id == active,
            built_in,
            key,
            trial: p.trial.then_some(true),
            id: p.id,
            name: p.name,
            base_url: p.base_url,
            key_kind: p.key_kind,
            project_id: p.project_id,
        })
    }

    /// Every profile, the Sandbox first.
    pub async fn list(&self) -> Result<Vec<ProfileView>, IpcError> {
        let stored = self.load()?;
        let active = stored.settings.active_profile_id.clone();
        let mut out = vec![self.view(self.sandbox(), &active).await?];
        for p in stored.profiles {
            out.push(self.view(p, &active).await?);
        }
        Ok(out)
    }

    /// Adds a profile (and its key, when given). Everything is checked before anything is saved.
    pub async fn add(
        &self,
        input: &ProfileInput,
        api_key: Option<&str>,
    ) -> Result<ProfileView, IpcError> {
        let input = check_input(input)?;
        // An empty field means "no key yet"; one of only spaces is a paste gone wrong, said so.
        let key = api_key
            .filter(|k| !k.is_empty())
            .map(|k| {
                if k.trim().is_empty() {
                    Err(IpcError::invalid(
                        "apiKey",
                        "What you pasted is only spaces. Paste your API key, or leave the field empty to add it later.",
                    ))
                } else {
                    check_key(k)
                }
            })
            .transpose()?;
        let _guard = self.write.lock().await;
        let mut stored = self.load()?;
        self.check_name_free(&stored, &input.name, None)?;
        let profile = Profile {
            id: format!("p_{}", uuid::Uuid::new_v4().simple()),
            name: input.name,
            base_url: input.base_url,
            key_kind: input.key_kind,
            project_id: input.project_id,
            trial: false,
        };
        if let Some(key) = &key {
            self.keys.set(&profile.id, key).await?;
        }
        stored.profiles.push(profile.clone());
        self.save(&stored)?;
        self.view(profile, &stored.settings.active_profile_id).await
    }

    /// Edits a profile (not the Sandbox).
    pub async fn update(&self, id: &str, input: &ProfileInput) -> Result<ProfileView, IpcError> {
        if id == SANDBOX_PROFILE_ID {
            return Err(IpcError::invalid(
                "id",
                "The Sandbox connection cannot be edited.",
            ));
        }
        let input = check_input(input)?;
        let _guard = self.write.lock().await;
        let mut stored = self.load()?;
        self.check_name_free(&stored, &input.name, Some(id))?;
        let p = stored
            .profiles
            .iter_mut()
            .find(|p| p.id == id)
            .ok_or_else(|| IpcError::not_found("That connection no longer exists."))?;
        p.name = input.name;
        p.base_url = input.base_url;
        p.key_kind = input.key_kind;
        p.project_id = input.project_id;
        p.trial = false;
        let p = p.clone();
        self.save(&stored)?;
        self.forget_client(Some(id));
        self.view(p, &stored.settings.active_profile_id).await
    }

    /// Removes a profile and its key; the Sandbox becomes active if it was.
    pub async fn delete(&self, id: &str) -> Result<(), IpcError> {
        if id == SANDBOX_PROFILE_ID {
            return Err(IpcError::invalid(
                "id",
                "The Sandbox connection cannot be removed.",
            ));
        }
        let _guard = self.write.lock().await;
        let mut stored = self.load()?;
        let before = stored.profiles.len();
        stored.profiles.retain(|p| p.id != id);
        if stored.profiles.len() == before {
            return Err(IpcError::not_found("That connection no longer exists."));
        }
        self.keys.delete(id).await?;
        self.forget_client(Some(id));
        stored.settings.spend_caps.remove(id);
        stored.cap_raises.remove(id);
        if stored.settings.active_profile_id == id {
            stored.settings.active_profile_id = SANDBOX_PROFILE_ID.to_owned();
        }
        self.save(&stored)
    }

    /// Makes `id` the active profile.
    pub async fn set_active(&self, id: &str) -> Result<ProfileView, IpcError> {
        let profile = self.profile(id)?;
        let _guard = self.write.lock().await;
        let mut stored = self.load()?;
        stored.settings.active_profile_id = id.to_owned();
        self.save(&stored)?;
        self.view(profile, id).await
    }

    /// Stores (or replaces) the key of a profile.
    pub async fn set_key(&self, id: &str, api_key: &str) -> Result<KeyChange, IpcError> {
        if id == SANDBOX_PROFILE_ID {
            return Err(IpcError::invalid(
                "apiKey",
                "The Sandbox uses its own built-in key. Add a connection to use your key.",
            ));
        }
        self.profile(id)?;
        let key = check_key(api_key)?;
        let replaced = self.keys.get(id).await?.is_some_and(|old| old != key);
        self.keys.set(id, &key).await?;
        self.forget_trial(id).await?;
        self.forget_client(Some(id));
        tracing::info!(connection = id, replaced, "API key saved in the keychain");
        Ok(KeyChange {
            key: KeyStatus::of(Some(&key)),
            notice: replaced.then(|| ROTATION_NOTICE.to_owned()),
        })
    }

    /// Removes the key of a profile.
    pub async fn delete_key(&self, id: &str) -> Result<KeyStatus, IpcError> {
        if id == SANDBOX_PROFILE_ID {
            return Err(IpcError::invalid(
                "apiKey",
                "The Sandbox's built-in key cannot be removed.",
            ));
        }
        self.profile(id)?;
        self.keys.delete(id).await?;
        self.forget_client(Some(id));
        Ok(KeyStatus::of(None))
    }

    /// Current settings.
    pub fn settings(&self) -> Result<Settings, IpcError> {
        Ok(self.load()?.settings)
    }

    /// Checks and saves settings.
    pub async fn save_settings(&self, settings: &Settings) -> Result<Settings, IpcError> {
        settings.validate()?;
        self.profile(&settings.active_profile_id).map_err(|_| {
            IpcError::invalid("activeProfileId", "Choose a connection that exists.")
        })?;
        let _guard = self.write.lock().await;
        let mut stored = self.load()?;
        let rebuild = stored.settings.spec_poll_interval_secs != settings.spec_poll_interval_secs;
        stored.settings = settings.clone();
        // Caps of connections that no longer exist are not kept.
        let known: Vec<String> = stored.profiles.iter().map(|p| p.id.clone()).collect();
        stored
            .settings
            .spend_caps
            .retain(|id, _| id == SANDBOX_PROFILE_ID || known.contains(id));
        self.save(&stored)?;
        if rebuild {
            self.forget_client(None);
        }
        Ok(stored.settings)
    }

    /// Whether the welcome screen should show.
    pub fn first_run(&self) -> Result<bool, IpcError> {
        Ok(!self.load()?.welcome_done)
    }

    /// Records that the welcome screen was seen.
    pub async fn finish_welcome(&self) -> Result<(), IpcError> {
        let _guard = self.write.lock().await;
        let mut stored = self.load()?;
        stored.welcome_done = true;
        self.save(&stored)
    }

    /// The client of connection `id`: the one kept for it, or a new one with its key from the
    /// keychain (then kept).
    pub async fn client_for(&self, id: &str) -> Result<Client, IpcError> {
        let cached = self
            .clients
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(id)
            .cloned();
        if let Some(c) = cached {
            if c.is_trial() {
                self.remember_trial(id).await;
            }
            return Ok(c);
        }
        let generation = self.generation.load(Ordering::SeqCst);
        let client = self.build_client(id).await?;
        let mut clients = self.clients.lock().unwrap_or_else(|p| p.into_inner());
        if self.generation.load(Ordering::SeqCst) != generation {
            // The connection changed while this client was built: use it once, keep none.
            return Ok(client);
        }
        // A client built meanwhile by another call wins, so there is only ever one.
        Ok(clients.entry(id.to_owned()).or_insert(client).clone())
    }

    async fn build_client(&self, id: &str) -> Result<Client, IpcError> {
        let profile = self.profile(id)?;
        let settings = self.settings()?;
        let mut config = ClientConfig::new(&profile.base_url).map_err(IpcError::from)?;
        config.spec_poll_interval =
            Duration::from_secs(u64::from(settings.spec_poll_interval_secs));
        if let Some(p) = &profile.project_id {
            config = config.with_project_id(p.clone());
        }
        let key = if profile.id == SANDBOX_PROFILE_ID {
            Some(SANDBOX_KEY.to_owned())
        } else {
            self.keys.get(&profile.id).await?
        };
        if let Some(key) = key {
            config = config.with_api_key(key);
        }
        if profile.trial {
            config = config.trial_workspace();
        }
        Client::new(config).map_err(IpcError::from)
    }

    /// The active profile's id and client.
    pub async fn active_client(&self) -> Result<(String, Client), IpcError> {
        let id = self.settings()?.active_profile_id;
        let client = self.client_for(&id).await?;
        Ok((id, client))
    }

    /// Reads the credits balance with the profile's key: proves the address and key work.
    pub async fn test_connection(&self, id: &str) -> Result<f64, IpcError> {
        let client = self.client_for(id).await?;
        let balance = client.account().credits_balance().await?;
        Ok(balance.credits_remaining)
    }
}
