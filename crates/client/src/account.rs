//! `GET /credits-balance`.

use specdesk_types::CreditsBalance;

use crate::error::Result;
use crate::http::{Call, Family, Shared};

/// The credits balance of the key holder.
pub struct Account<'c> {
    inner: &'c Shared,
}

impl<'c> Account<'c> {
    pub(crate) fn new(inner: &'c Shared) -> Self {
        Account { inner }
    }

    /// Prototype credits remaining (free of charge; also a cheap "test connection").
    pub async fn credits_balance(&self) -> Result<CreditsBalance> {
        let call = Call::get("credits-balance", Family::Rest);
        Ok(self.inner.json(&call).await?.0)
    }
}
