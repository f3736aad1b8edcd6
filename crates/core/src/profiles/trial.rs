//! What a connection's clients learn from the service: that its key is on a trial workspace (the
//! gateway's 30 calls a minute and 5-credit allowance), kept with the connection.

use specdesk_client::Client;

use super::{Profiles, SANDBOX_PROFILE_ID};
use crate::ipc_error::IpcError;

impl Profiles {
    /// Whether connection `id` is known to be on a trial workspace.
    pub fn knows_trial(&self, id: &str) -> bool {
        self.profile(id).is_ok_and(|p| p.trial)
    }

    /// Keeps what `client` (connection `id`'s) learnt from a call, that its key is on a trial
    /// workspace. True when it was not known before the call (`known_before`, from
    /// [`Self::knows_trial`]), so the UI is told the connections changed; another command that
    /// kept it meanwhile does not hide it.
    pub async fn learn_trial(&self, id: &str, client: &Client, known_before: bool) -> bool {
        if !client.is_trial() {
            return false;
        }
        self.remember_trial(id).await;
        !known_before && self.knows_trial(id)
    }

    /// Keeps what a client learnt from the service, that its key is on a trial workspace, so the
    /// connection's next clients (after a restart) keep to the trial's rate from the first call.
    /// True when it was not known before.
    pub(super) async fn remember_trial(&self, id: &str) -> bool {
        if id == SANDBOX_PROFILE_ID || self.profile(id).is_ok_and(|p| p.trial) {
            return false;
        }
        let _guard = self.write.lock().await;
        let Ok(mut stored) = self.load() else {
            return false;
        };
        let Some(p) = stored.profiles.iter_mut().find(|p| p.id == id) else {
            return false;
        };
        p.trial = true;
        if let Err(e) = self.save(&stored) {
            tracing::warn!(
                "could not keep that a connection is on a trial: {}",
                e.message
            );
            return false;
        }
        true
    }

    /// A new key may be on another plan: what was learnt about the old one is forgotten.
    pub(super) async fn forget_trial(&self, id: &str) -> Result<(), IpcError> {
        let _guard = self.write.lock().await;
        let mut stored = self.load()?;
        if let Some(p) = stored.profiles.iter_mut().find(|p| p.id == id && p.trial) {
            p.trial = false;
            self.save(&stored)?;
        }
        Ok(())
    }
}
