//! Charges of cancelled jobs. Cancelling only stops Specdesk following a job: the service may
//! still finish a spec or a batch and charge for it. On start, each job cancelled in the last
//! days is read once more; when it has ended, what it cost goes to the credit ledger, once.
//! (A video is charged only when a poll reports it completed: a cancelled one is never polled,
//! so it is never charged, and is left alone.)

use specdesk_client::Metering;
use specdesk_types::{BatchStatus, SpecStatus};

use super::runner::Inner;
use crate::library::{Job, JobKind};

/// How far back cancelled jobs are looked at.
const WINDOW: time::Duration = time::Duration::days(7);

/// Records the charge of every recently cancelled spec or batch that has ended on the service.
/// Errors only mean it is looked at again on the next start.
pub(super) async fn record_charges(inner: &Inner) {
    let since = (time::OffsetDateTime::now_utc() - WINDOW)
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default();
    let Ok(jobs) = inner.library.cancelled_unrecorded(&since) else {
        return;
    };
    for job in jobs {
        if let Some(charged) = ended_charge(inner, &job).await {
            let endpoint = match job.kind {
                JobKind::Batch => "browser-agents",
                _ => "spec",
            };
            let metering = Metering {
                request_id: None,
                credits_charged: Some(charged),
                credits_remaining: None,
            };
            if inner
                .library
                .record_metering(&job.profile_id, endpoint, &metering)
                .and_then(|_| inner.library.note_charge_recorded(job.id, charged))
                .is_ok()
            {
                tracing::info!(
                    job_id = job.id,
                    charged,
                    "a cancelled job's charge was recorded"
                );
            }
        }
    }
}

/// What the cancelled job cost once it ended on the service (0 when it failed), or `None`
/// while it runs or cannot be read.
async fn ended_charge(inner: &Inner, job: &Job) -> Option<f64> {
    let remote = job.remote_id.as_deref()?;
    let client = inner.clients.client_for(&job.profile_id).await.ok()?;
    match job.kind {
        JobKind::Spec => {
            let status = client.specs().status(remote).await.ok()?;
            match status.status {
                SpecStatus::Completed => Some(status.credits_used.unwrap_or(0.0)),
                // A failed spec is not charged.
                SpecStatus::Failed => Some(0.0),
                _ => None,
            }
        }
        JobKind::Batch => {
            let batch = client.agents().get(remote, false).await.ok()?;
            matches!(batch.status, BatchStatus::Completed | BatchStatus::Failed)
                .then_some(batch.total_credits_used)
        }
        JobKind::Video => None,
    }
}
