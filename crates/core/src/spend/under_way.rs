//! Gateway calls sent and not charged yet count against the daily spend cap at their estimate,
//! so calls made at once (compare lanes, a chat while images are made, several videos) cannot
//! together pass it: each is checked against what is spent, what the others will likely cost,
//! and its own estimate, and is counted from then until it ends.
//!
//! A call in flight is counted here, in memory, for as long as its command runs. A video is
//! charged when it completes, long after its command answered: the ledger's unfinished video
//! jobs are counted instead, so they still count after a restart.

use std::sync::Mutex;

use specdesk_client::Client;
use specdesk_types::VideoRequest;

use super::{GatewayCall, Prices};
use crate::ipc_error::IpcError;
use crate::library::{JobKind, Library};
use crate::profiles::Profiles;

/// One call being sent or streamed.
#[derive(Debug)]
struct Open {
    id: u64,
    profile_id: String,
    estimate: f64,
}

/// The calls under way, with their estimates.
#[derive(Debug, Default)]
pub struct UnderWay {
    open: Mutex<(u64, Vec<Open>)>,
}

/// A call counted as under way until this is dropped (when its command ends, its charge
/// recorded by then).
#[derive(Debug)]
#[must_use = "the call counts against the cap only while this is held"]
pub struct Counted<'a> {
    held: Option<(&'a UnderWay, u64)>,
    estimate: f64,
}

impl Counted<'_> {
    /// The call's estimate (0 without a cap: nothing was worked out).
    pub fn estimate(&self) -> f64 {
        self.estimate
    }
}

impl Drop for Counted<'_> {
    fn drop(&mut self) {
        if let Some((under_way, id)) = self.held.take() {
            under_way.lock().1.retain(|o| o.id != id);
        }
    }
}

impl UnderWay {
    fn lock(&self) -> std::sync::MutexGuard<'_, (u64, Vec<Open>)> {
        self.open.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The requests of connection `profile_id`'s videos not ended yet (charged when they complete).
fn unfinished_videos(library: &Library, profile_id: &str) -> Result<Vec<VideoRequest>, IpcError> {
    Ok(library
        .unfinished_jobs()?
        .into_iter()
        .filter(|j| j.kind == JobKind::Video && j.profile_id == profile_id)
        .filter_map(|j| serde_json::from_value(j.request).ok())
        .collect())
}

/// Before gateway call `call` of connection `profile_id` is sent with `client`: refuses it
/// (`spendCap`, nothing sent) when today's spending, the estimates of its calls under way and
/// of its unfinished videos, and this call's estimate would together pass the connection's cap.
/// Otherwise the call is counted as under way while the answer is held. A connection without a
/// cap reads no prices and counts nothing.
pub async fn check_call<'u>(
    profiles: &Profiles,
    library: &Library,
    prices: &Prices,
    under_way: &'u UnderWay,
    profile_id: &str,
    client: &Client,
    call: &GatewayCall<'_>,
) -> Result<Counted<'u>, IpcError> {
    if !profiles.settings()?.spend_caps.contains_key(profile_id) {
        return Ok(Counted {
            held: None,
            estimate: 0.0,
        });
    }
    prices.refresh_for(library, profile_id, client, call).await;
    if let Some(video) = unfinished_videos(library, profile_id)?.first() {
        // One list prices every video.
        let call = GatewayCall::Video(video);
        prices.refresh_for(library, profile_id, client, &call).await;
    }
    let estimate = prices.kept_estimate(profile_id, client, call);
    // Checked and counted at once, so two calls checked together see each other.
    let mut open = under_way.lock();
    let videos: f64 = unfinished_videos(library, profile_id)?
        .iter()
        .map(|v| prices.kept_estimate(profile_id, client, &GatewayCall::Video(v)))
        .sum();
    let others: f64 = (open.1.iter())
        .filter(|o| o.profile_id == profile_id)
        .map(|o| o.estimate)
        .sum();
    profiles.check_spend_under_way(library, profile_id, others + videos, estimate)?;
    open.0 += 1;
    let id = open.0;
    open.1.push(Open {
        id,
        profile_id: profile_id.to_owned(),
        estimate,
    });
    Ok(Counted {
        held: Some((under_way, id)),
        estimate,
    })
}
