//! Credit balances as the UI shows them (`CreditsView`): read from the service or from the
//! credit ledger, every reading kept in the ledger.

use specdesk_client::Client;

use crate::ipc_error::IpcError;
use crate::library::Library;
use crate::views::CreditsView;

/// How many of the ledger's newest lines are searched for a profile's latest balance.
const RECENT_LINES: u32 = 20;

/// Records balance `credits_remaining` of `profile_id` (read just now) in the credit ledger and
/// returns it as the UI shows it.
pub fn record_balance(
    library: &Library,
    profile_id: &str,
    credits_remaining: f64,
) -> Result<CreditsView, IpcError> {
    let entry = library.record_balance(profile_id, credits_remaining)?;
    Ok(CreditsView {
        profile_id: profile_id.to_owned(),
        credits_remaining,
        at: entry.at,
    })
}

/// Reads the balance of `profile_id` from the service with `client` (free of charge) and
/// records it (`record_balance`).
pub async fn read_balance(
    client: &Client,
    library: &Library,
    profile_id: &str,
) -> Result<CreditsView, IpcError> {
    let balance = client.account().credits_balance().await?;
    record_balance(library, profile_id, balance.credits_remaining)
}

/// The newest balance the credit ledger knows for `profile_id` (from a balance read or a metered
/// call's headers), or `None` when its recent lines have none.
pub fn latest_balance(
    library: &Library,
    profile_id: &str,
) -> Result<Option<CreditsView>, IpcError> {
    let entries = library.credit_ledger(RECENT_LINES)?;
    Ok(entries
        .into_iter()
        .filter(|entry| entry.profile_id == profile_id)
        .find_map(|entry| {
            Some(CreditsView {
                credits_remaining: entry.credits_remaining?,
                profile_id: entry.profile_id,
                at: entry.at,
            })
        }))
}

#[cfg(test)]
mod tests {
    use specdesk_client::{ClientConfig, Metering, RetryPolicy};
    use specdesk_sandbox::{Sandbox, SandboxConfig, keys};

    use super::*;

    fn metering(charged: Option<f64>, remaining: Option<f64>) -> Metering {
        Metering {
            credits_charged: charged,
            credits_remaining: remaining,
            ..Metering::default()
        }
    }

    #[test]
    fn a_recorded_balance_is_the_view_and_the_ledger_line() {
        let library = Library::in_memory().unwrap();
        let view = record_balance(&library, "work", 42.5).unwrap();
        assert_eq!(
            (view.profile_id.as_str(), view.credits_remaining),
            ("work", 42.5)
        );
        let ledger = library.credit_ledger(10).unwrap();
        assert_eq!(ledger.len(), 1);
        assert_eq!(ledger[0].at, view.at);
        assert_eq!(ledger[0].endpoint, "credits-balance");
        assert_eq!(ledger[0].credits_remaining, Some(42.5));
    }

    #[test]
    fn the_latest_balance_is_the_newest_line_of_that_profile_with_a_balance() {
        let library = Library::in_memory().unwrap();
        assert_eq!(latest_balance(&library, "work").unwrap(), None);

        let first = record_balance(&library, "work", 10.0).unwrap();
        assert_eq!(latest_balance(&library, "work").unwrap(), Some(first));

        let metered = library
            .record_metering("work", "spec", &metering(Some(2.0), Some(8.0)))
            .unwrap()
            .unwrap();
        // A charge without a balance, and another profile's balance, come later.
        library
            .record_metering("work", "rerank", &metering(Some(1.0), None))
            .unwrap();
        record_balance(&library, "home", 99.0).unwrap();

        assert_eq!(
            latest_balance(&library, "work").unwrap(),
            Some(CreditsView {
                profile_id: "work".to_owned(),
                credits_remaining: 8.0,
                at: metered.at,
            })
        );
        assert_eq!(
            latest_balance(&library, "home")
                .unwrap()
                .map(|v| v.credits_remaining),
            Some(99.0)
        );
        assert_eq!(latest_balance(&library, "other").unwrap(), None);
    }

    #[tokio::test]
    async fn a_balance_read_from_the_service_is_recorded() {
        let sb = Sandbox::start(SandboxConfig::ephemeral()).await.unwrap();
        let client = Client::new(
            ClientConfig::new(sb.base_url())
                .unwrap()
                .with_api_key(keys::PRO.to_owned())
                .with_retry(RetryPolicy::none()),
        )
        .unwrap();
        let library = Library::in_memory().unwrap();

        let view = read_balance(&client, &library, "work").await.unwrap();
        let balance = client.account().credits_balance().await.unwrap();
        assert_eq!(view.credits_remaining, balance.credits_remaining);
        assert_eq!(view.profile_id, "work");
        assert_eq!(latest_balance(&library, "work").unwrap(), Some(view));

        let keyless = Client::new(
            ClientConfig::new(sb.base_url())
                .unwrap()
                .with_retry(RetryPolicy::none()),
        )
        .unwrap();
        let refused = read_balance(&keyless, &library, "work").await.unwrap_err();
        assert_eq!(refused.kind, crate::IpcErrorKind::MissingKey);
        assert_eq!(library.credit_ledger(10).unwrap().len(), 1);
    }
}
