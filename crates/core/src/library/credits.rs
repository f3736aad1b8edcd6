//! The credit ledger, fed by metering headers and balance reads.

use rusqlite::params;
use serde::{Deserialize, Serialize};
use specdesk_client::Metering;

use super::{Library, now};
use crate::ipc_error::IpcError;

/// A line of the credit ledger.
#[serde_with::skip_serializing_none]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(export, optional_fields))]
pub struct CreditEntry {
    pub at: String,
    pub profile_id: String,
    pub endpoint: String,
    pub request_id: Option<String>,
    pub credits_charged: Option<f64>,
    pub credits_remaining: Option<f64>,
}

impl Library {
    /// Records what a call cost, from its metering headers. Calls that carry no metering are not
    /// recorded.
    pub fn record_metering(
        &self,
        profile_id: &str,
        endpoint: &str,
        metering: &Metering,
    ) -> Result<Option<CreditEntry>, IpcError> {
        if metering.credits_charged.is_none() && metering.credits_remaining.is_none() {
            return Ok(None);
        }
        let entry = CreditEntry {
            at: now(),
            profile_id: profile_id.to_owned(),
            endpoint: endpoint.to_owned(),
            request_id: metering.request_id.clone(),
            credits_charged: metering.credits_charged,
            credits_remaining: metering.credits_remaining,
        };
        self.insert_credit(&entry)?;
        Ok(Some(entry))
    }

    /// Records a balance read (credits-balance).
    pub fn record_balance(
        &self,
        profile_id: &str,
        remaining: f64,
    ) -> Result<CreditEntry, IpcError> {
        let entry = CreditEntry {
            at: now(),
            profile_id: profile_id.to_owned(),
            endpoint: "credits-balance".to_owned(),
            request_id: None,
            credits_charged: None,
            credits_remaining: Some(remaining),
        };
        self.insert_credit(&entry)?;
        Ok(entry)
    }

    fn insert_credit(&self, e: &CreditEntry) -> Result<(), IpcError> {
        self.conn().execute(
            "INSERT INTO credit_ledger (at, profile_id, endpoint, request_id, credits_charged, credits_remaining)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![e.at, e.profile_id, e.endpoint, e.request_id, e.credits_charged, e.credits_remaining],
        )?;
        Ok(())
    }

    /// The newest credit-ledger lines.
    pub fn credit_ledger(&self, limit: u32) -> Result<Vec<CreditEntry>, IpcError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT at, profile_id, endpoint, request_id, credits_charged, credits_remaining
             FROM credit_ledger ORDER BY id DESC LIMIT ?1",
        )?;
        let rows = stmt.query_map([limit], |r| {
            Ok(CreditEntry {
                at: r.get(0)?,
                profile_id: r.get(1)?,
                endpoint: r.get(2)?,
                request_id: r.get(3)?,
                credits_charged: r.get(4)?,
                credits_remaining: r.get(5)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_credit_ledger_keeps_what_the_headers_said() {
        let lib = Library::in_memory().unwrap();
        let none = lib
            .record_metering("p", "v1/rerank", &Metering::default())
            .unwrap();
        assert_eq!(none, None);
        lib.record_metering(
            "p",
            "v1/rerank",
            &Metering {
                request_id: Some("req_9".into()),
                credits_charged: Some(0.25),
                credits_remaining: Some(99.75),
            },
        )
        .unwrap();
        lib.record_balance("p", 99.75).unwrap();
        let ledger = lib.credit_ledger(10).unwrap();
        assert_eq!(ledger.len(), 2);
        assert_eq!(ledger[0].endpoint, "credits-balance");
        assert_eq!(
            (
                ledger[1].request_id.as_deref(),
                ledger[1].credits_charged,
                ledger[1].credits_remaining
            ),
            (Some("req_9"), Some(0.25), Some(99.75))
        );
    }
}
