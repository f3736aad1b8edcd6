//! The credit ledger, fed by metering headers and balance reads. Nothing charged goes
//! unrecorded: a streamed call is written when it opens, as pending; its charge is settled from
//! its final usage, or, when the stream was cancelled or broke (the service still charges what the
//! model generated), estimated from the next balance read.

use rusqlite::{OptionalExtension, params};
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
    /// The model a gateway call used (none for specs and browser agents, nor for lines recorded
    /// before the ledger kept it).
    pub model: Option<String>,
    pub request_id: Option<String>,
    pub credits_charged: Option<f64>,
    pub credits_remaining: Option<f64>,
    /// The call's charge is not known yet (a stream that has not settled).
    #[serde(default)]
    pub pending: bool,
    /// `credits_charged` was worked out from balance reads, not told by the service.
    #[serde(default)]
    pub estimated: bool,
}

/// A line recorded as pending, to settle later.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PendingCharge(pub i64);

/// `credit_ledger.pending`: the charge is known.
const SETTLED: i64 = 0;
/// The call is still running (its stream open).
const OPEN: i64 = 1;
/// The call ended without its charge (cancelled, broken, or the app closed meanwhile): the
/// next balance reading estimates it.
const CUT: i64 = 2;

impl Library {
    /// Records what a call cost, from its metering headers. Calls that carry no metering are not
    /// recorded.
    pub fn record_metering(
        &self,
        profile_id: &str,
        endpoint: &str,
        metering: &Metering,
    ) -> Result<Option<CreditEntry>, IpcError> {
        self.record_model_metering(profile_id, endpoint, None, metering)
    }

    /// Records what a gateway call of `model` cost, from its metering headers (none: nothing).
    pub fn record_model_metering(
        &self,
        profile_id: &str,
        endpoint: &str,
        model: Option<&str>,
        metering: &Metering,
    ) -> Result<Option<CreditEntry>, IpcError> {
        if metering.credits_charged.is_none() && metering.credits_remaining.is_none() {
            return Ok(None);
        }
        let entry = CreditEntry {
            at: now(),
            profile_id: profile_id.to_owned(),
            endpoint: endpoint.to_owned(),
            model: model.map(str::to_owned),
            request_id: metering.request_id.clone(),
            credits_charged: metering.credits_charged,
            credits_remaining: metering.credits_remaining,
            pending: false,
            estimated: false,
        };
        self.insert_credit(&entry)?;
        Ok(Some(entry))
    }

    /// Records a streamed call the moment it opens (its request id known, its charge not yet).
    pub fn open_charge(
        &self,
        profile_id: &str,
        endpoint: &str,
        model: Option<&str>,
        request_id: Option<&str>,
    ) -> Result<PendingCharge, IpcError> {
        let entry = CreditEntry {
            at: now(),
            profile_id: profile_id.to_owned(),
            endpoint: endpoint.to_owned(),
            model: model.map(str::to_owned),
            request_id: request_id.map(str::to_owned),
            credits_charged: None,
            credits_remaining: None,
            pending: true,
            estimated: false,
        };
        Ok(PendingCharge(self.insert_credit(&entry)?))
    }

    /// Notes what the call of open line `charge` was estimated at before it was sent: cut before
    /// its charge is known, the line counts at it in [`Self::spent_between`].
    pub fn note_estimate(&self, charge: PendingCharge, estimate: f64) -> Result<(), IpcError> {
        self.conn().execute(
            "UPDATE credit_ledger SET estimate = ?2 WHERE id = ?1",
            params![charge.0, estimate],
        )?;
        Ok(())
    }

    /// Settles a pending line with what the service said the call cost.
    pub fn settle_charge(
        &self,
        charge: PendingCharge,
        credits_charged: Option<f64>,
        credits_remaining: Option<f64>,
    ) -> Result<(), IpcError> {
        self.conn().execute(
            "UPDATE credit_ledger SET credits_charged = ?2, credits_remaining = ?3, pending = ?4,
                 estimated = 0
             WHERE id = ?1",
            params![charge.0, credits_charged, credits_remaining, SETTLED],
        )?;
        Ok(())
    }

    /// Marks an open line as ended without its charge (the stream was cancelled or broke): the
    /// next balance reading estimates it.
    pub fn cut_charge(&self, charge: PendingCharge) -> Result<(), IpcError> {
        self.conn().execute(
            "UPDATE credit_ledger SET pending = ?2 WHERE id = ?1 AND pending = ?3",
            params![charge.0, CUT, OPEN],
        )?;
        Ok(())
    }

    /// On start: lines still open belong to streams the app was closed (or killed) during.
    pub(super) fn cut_open_charges(conn: &rusqlite::Connection) -> rusqlite::Result<()> {
        conn.execute(
            "UPDATE credit_ledger SET pending = ?1 WHERE pending = ?2",
            params![CUT, OPEN],
        )?;
        Ok(())
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
            model: None,
            request_id: None,
            credits_charged: None,
            credits_remaining: Some(remaining),
            pending: false,
            estimated: false,
        };
        self.settle_from_balance(profile_id, remaining)?;
        self.insert_credit(&entry)?;
        Ok(entry)
    }

    /// Settles the profile's cut lines from a new balance reading: what the balance fell since
    /// the last reading before them, less what settled lines since then explain, is shared among
    /// them, marked as estimated. Without an earlier reading they are left pending. Lines of
    /// streams still running are left alone.
    fn settle_from_balance(&self, profile_id: &str, remaining: f64) -> Result<(), IpcError> {
        let conn = self.conn();
        let first_pending: Option<i64> = conn.query_row(
            "SELECT MIN(id) FROM credit_ledger WHERE profile_id = ?1 AND pending = ?2",
            params![profile_id, CUT],
            |r| r.get(0),
        )?;
        let Some(first) = first_pending else {
            return Ok(());
        };
        let before: Option<(i64, Option<f64>)> = conn
            .query_row(
                "SELECT id, credits_remaining FROM credit_ledger
                 WHERE profile_id = ?1 AND id < ?2 AND endpoint = 'credits-balance'
                 ORDER BY id DESC LIMIT 1",
                params![profile_id, first],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        let Some((before_id, Some(before))) = before else {
            return Ok(());
        };
        // Charges told since that reading explain part of the fall.
        let explained: f64 = conn.query_row(
            "SELECT COALESCE(SUM(credits_charged), 0) FROM credit_ledger
             WHERE profile_id = ?1 AND id > ?2 AND pending = ?3 AND endpoint != 'credits-balance'",
            params![profile_id, before_id, SETTLED],
            |r| r.get(0),
        )?;
        let pending: i64 = conn.query_row(
            "SELECT COUNT(*) FROM credit_ledger WHERE profile_id = ?1 AND pending = ?2",
            params![profile_id, CUT],
            |r| r.get(0),
        )?;
        let share =
            ((before - remaining - explained).max(0.0) / pending as f64 * 1e6).round() / 1e6;
        conn.execute(
            "UPDATE credit_ledger SET credits_charged = ?2, pending = ?3, estimated = 1
             WHERE profile_id = ?1 AND pending = ?4",
            params![profile_id, share, SETTLED, CUT],
        )?;
        Ok(())
    }

    fn insert_credit(&self, e: &CreditEntry) -> Result<i64, IpcError> {
        let conn = self.conn();
        conn.execute(
            "INSERT INTO credit_ledger (at, profile_id, endpoint, request_id, credits_charged, credits_remaining, pending, estimated, model)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            params![e.at, e.profile_id, e.endpoint, e.request_id, e.credits_charged, e.credits_remaining,
                if e.pending { OPEN } else { SETTLED }, e.estimated, e.model],
        )?;
        Ok(conn.last_insert_rowid())
    }

    /// Credits charged to `profile_id` from `from` (inclusive) to `to` (exclusive), both UTC
    /// instants formatted like `at` (see `settings::local_day`). Balance readings count nothing;
    /// a stream cut before its charge was known counts at the estimate it was sent with (none:
    /// nothing) until a balance reading settles it; a stream still open counts nothing here (the
    /// spend cap counts it as under way).
    pub fn spent_between(&self, profile_id: &str, from: &str, to: &str) -> Result<f64, IpcError> {
        let spent: f64 = self.conn().query_row(
            "SELECT COALESCE(SUM(CASE WHEN credits_charged IS NULL AND pending = ?4
                                      THEN estimate ELSE credits_charged END), 0)
             FROM credit_ledger
             WHERE profile_id = ?1 AND at >= ?2 AND at < ?3 AND endpoint != 'credits-balance'",
            params![profile_id, from, to, CUT],
            |r| r.get(0),
        )?;
        Ok((spent * 1e6).round() / 1e6)
    }

    /// The newest credit-ledger lines.
    pub fn credit_ledger(&self, limit: u32) -> Result<Vec<CreditEntry>, IpcError> {
        self.ledger_lines("1 = 1", params![limit])
    }

    /// The newest lines of connection `profile_id` recorded at or after `since` (an instant
    /// formatted like `at`), at most `limit`: what the Spending section sums.
    pub fn credit_ledger_of(
        &self,
        profile_id: &str,
        since: &str,
        limit: u32,
    ) -> Result<Vec<CreditEntry>, IpcError> {
        self.ledger_lines(
            "profile_id = ?2 AND at >= ?3",
            params![limit, profile_id, since],
        )
    }

    /// Lines matching `filter` (its parameters after the limit, `?1`), newest first.
    fn ledger_lines(
        &self,
        filter: &str,
        args: &[&dyn rusqlite::ToSql],
    ) -> Result<Vec<CreditEntry>, IpcError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(&format!(
            "SELECT at, profile_id, endpoint, request_id, credits_charged, credits_remaining,
                    pending, estimated, model
             FROM credit_ledger WHERE {filter} ORDER BY id DESC LIMIT ?1"
        ))?;
        let rows = stmt.query_map(args, |r| {
            Ok(CreditEntry {
                at: r.get(0)?,
                profile_id: r.get(1)?,
                endpoint: r.get(2)?,
                model: r.get(8)?,
                request_id: r.get(3)?,
                credits_charged: r.get(4)?,
                credits_remaining: r.get(5)?,
                pending: r.get::<_, i64>(6)? != SETTLED,
                estimated: r.get(7)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pending_stream_is_settled_by_its_usage_or_estimated_from_the_next_balance() {
        let lib = Library::in_memory().unwrap();
        lib.record_balance("p", 100.0).unwrap();
        // Settled by the service's own figure.
        let told = lib
            .open_charge("p", "v1/messages", Some("m"), Some("req_1"))
            .unwrap();
        assert!(lib.credit_ledger(1).unwrap()[0].pending);
        lib.settle_charge(told, Some(2.0), Some(98.0)).unwrap();
        // Cut by the user: the service charged what was generated; only the balance can tell.
        let cut = lib
            .open_charge("p", "v1/messages", Some("m"), Some("req_2"))
            .unwrap();
        let other = lib
            .open_charge("q", "v1/messages", Some("m"), Some("req_3"))
            .unwrap();
        // Still running while the balance is read: left alone.
        let running = lib
            .open_charge("p", "v1/messages", Some("m"), Some("req_4"))
            .unwrap();
        lib.cut_charge(cut).unwrap();
        lib.cut_charge(other).unwrap();
        let ledger = lib.credit_ledger(10).unwrap();
        let req2 = ledger
            .iter()
            .find(|e| e.request_id.as_deref() == Some("req_2"))
            .unwrap();
        assert_eq!((req2.pending, req2.credits_charged), (true, None));
        lib.record_balance("p", 97.25).unwrap();
        let ledger = lib.credit_ledger(10).unwrap();
        let line = |id: &str| {
            ledger
                .iter()
                .find(|e| e.request_id.as_deref() == Some(id))
                .unwrap()
        };
        assert_eq!(
            (
                line("req_1").credits_charged,
                line("req_1").pending,
                line("req_1").estimated
            ),
            (Some(2.0), false, false)
        );
        assert_eq!(
            (
                line("req_2").credits_charged,
                line("req_2").pending,
                line("req_2").estimated
            ),
            (Some(0.75), false, true),
            "100 - 97.25 - the 2 already told"
        );
        assert!(
            line("req_3").pending,
            "another connection's line waits for its own balance"
        );
        assert!(
            line("req_4").pending && !line("req_4").estimated,
            "a running stream waits"
        );
        let json = serde_json::to_value(line("req_2")).unwrap();
        assert_eq!(json["estimated"], true);
        assert_eq!(json["pending"], false);
        // The running one settles with the service's figure when it ends.
        lib.settle_charge(running, Some(0.5), Some(96.75)).unwrap();
        let settled = lib.credit_ledger(10).unwrap();
        let req4 = settled
            .iter()
            .find(|e| e.request_id.as_deref() == Some("req_4"))
            .unwrap();
        assert_eq!(
            (req4.credits_charged, req4.pending, req4.estimated),
            (Some(0.5), false, false)
        );
    }

    #[test]
    fn a_stream_open_when_the_app_stopped_is_estimated_after_the_restart() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("library.sqlite");
        {
            let lib = Library::open(&path).unwrap();
            lib.record_balance("p", 10.0).unwrap();
            lib.open_charge("p", "v1/messages", Some("m"), Some("req_k"))
                .unwrap();
        }
        let lib = Library::open(&path).unwrap();
        lib.record_balance("p", 9.5).unwrap();
        let line = &lib.credit_ledger(10).unwrap()[1];
        assert_eq!(
            (
                line.request_id.as_deref(),
                line.credits_charged,
                line.estimated
            ),
            (Some("req_k"), Some(0.5), true)
        );
    }

    #[test]
    fn a_stream_cut_before_its_charge_counts_at_its_estimate_until_a_balance_settles_it() {
        let lib = Library::in_memory().unwrap();
        let day = ("2000-01-01T00:00:00.000Z", "2999-01-01T00:00:00.000Z");
        let spent = || lib.spent_between("p", day.0, day.1).unwrap();
        lib.record_balance("p", 10.0).unwrap();
        let open = lib
            .open_charge("p", "v1/messages", Some("m"), Some("req_c"))
            .unwrap();
        lib.note_estimate(open, 0.75).unwrap();
        // Open, it counts nothing here (the spend cap counts it as a call under way).
        assert_eq!(spent(), 0.0);
        lib.cut_charge(open).unwrap();
        assert_eq!(spent(), 0.75);
        // Another connection's cut stream is not this one's spending; one without an estimate
        // counts nothing.
        let other = lib.open_charge("q", "v1/messages", None, None).unwrap();
        lib.note_estimate(other, 3.0).unwrap();
        lib.cut_charge(other).unwrap();
        let unknown = lib.open_charge("p", "v1/messages", None, None).unwrap();
        lib.cut_charge(unknown).unwrap();
        assert_eq!(spent(), 0.75);
        // The next balance reading settles both of p's cut lines from what it moved: 0.4 each.
        lib.record_balance("p", 9.2).unwrap();
        assert_eq!(spent(), 0.8);
    }

    #[test]
    fn pending_lines_without_an_earlier_balance_stay_pending() {
        let lib = Library::in_memory().unwrap();
        let cut = lib
            .open_charge("p", "v1/messages", Some("m"), None)
            .unwrap();
        lib.cut_charge(cut).unwrap();
        lib.record_balance("p", 50.0).unwrap();
        assert!(lib.credit_ledger(10).unwrap()[1].pending);
    }

    #[test]
    fn a_connections_lines_since_an_instant_are_read_without_the_others() {
        let lib = Library::in_memory().unwrap();
        let told = |credits| Metering {
            request_id: None,
            credits_charged: Some(credits),
            credits_remaining: None,
        };
        lib.record_metering("p", "spec", &told(1.0)).unwrap();
        lib.record_metering("q", "spec", &told(2.0)).unwrap();
        lib.record_metering("p", "v1/rerank", &told(3.0)).unwrap();
        let all = lib
            .credit_ledger_of("p", "2000-01-01T00:00:00.000Z", 10)
            .unwrap();
        assert_eq!(
            all.iter().map(|e| e.credits_charged).collect::<Vec<_>>(),
            [Some(3.0), Some(1.0)]
        );
        assert_eq!(
            lib.credit_ledger_of("p", "2000-01-01T00:00:00.000Z", 1)
                .unwrap()
                .len(),
            1
        );
        assert!(
            lib.credit_ledger_of("p", "2999-01-01T00:00:00.000Z", 10)
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn the_credit_ledger_keeps_what_the_headers_said() {
        let lib = Library::in_memory().unwrap();
        let none = lib
            .record_metering("p", "v1/rerank", &Metering::default())
            .unwrap();
        assert_eq!(none, None);
        lib.record_model_metering(
            "p",
            "v1/rerank",
            Some("cohere/rerank-v3.5"),
            &Metering {
                request_id: Some("req_9".into()),
                credits_charged: Some(0.25),
                credits_remaining: Some(99.75),
            },
        )
        .unwrap();
        lib.record_balance("p", 99.75).unwrap();
        let streamed = lib
            .open_charge("p", "v1/messages", Some("lab/chat-1"), Some("req_10"))
            .unwrap();
        lib.settle_charge(streamed, Some(0.5), Some(99.25)).unwrap();
        let ledger = lib.credit_ledger(10).unwrap();
        assert_eq!(ledger.len(), 3);
        assert_eq!(
            (ledger[0].model.as_deref(), ledger[0].credits_charged),
            (Some("lab/chat-1"), Some(0.5))
        );
        assert_eq!(
            (ledger[1].endpoint.as_str(), ledger[1].model.as_deref()),
            ("credits-balance", None)
        );
        assert_eq!(
            (
                ledger[2].request_id.as_deref(),
                ledger[2].model.as_deref(),
                ledger[2].credits_charged,
                ledger[2].credits_remaining
            ),
            (
                Some("req_9"),
                Some("cohere/rerank-v3.5"),
                Some(0.25),
                Some(99.75)
            )
        );
    }
}
