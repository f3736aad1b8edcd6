//! A connection's daily spend cap: today's spending against it, the check before a gateway call,
//! and raising it for today only.

use super::Profiles;
use crate::ipc_error::IpcError;
use crate::library::Library;
use crate::settings::{CapRaise, MAX_CAP, SpendToday};

impl Profiles {
    /// Today's spending of connection `id` against its daily cap, on this computer's local day.
    pub fn spend_today(&self, library: &Library, id: &str) -> Result<SpendToday, IpcError> {
        self.spend_today_at(
            library,
            id,
            time::OffsetDateTime::now_utc(),
            &crate::settings::local_zone(),
        )
    }

    /// [`Self::spend_today`] at `now`, the local day being the one in `zone`.
    pub fn spend_today_at(
        &self,
        library: &Library,
        id: &str,
        now: time::OffsetDateTime,
        zone: &crate::settings::TimeZone,
    ) -> Result<SpendToday, IpcError> {
        let stored = self.load()?;
        let (date, from, to) = crate::settings::local_day(now, zone);
        let spent = library.spent_between(id, &from, &to)?;
        Ok(crate::settings::spend_today(
            id,
            &date,
            spent,
            stored.settings.spend_caps.get(id).copied(),
            stored.cap_raises.get(id),
        ))
    }

    /// Before a gateway call of connection `id` is sent: refuses it (`spendCap`) when today's
    /// spending plus `estimate` (0 when not known) would pass the connection's cap for today.
    pub fn check_spend(&self, library: &Library, id: &str, estimate: f64) -> Result<(), IpcError> {
        self.check_spend_at(
            library,
            id,
            estimate,
            time::OffsetDateTime::now_utc(),
            &crate::settings::local_zone(),
        )
    }

    /// [`Self::check_spend`] at `now`, the local day being the one in `zone`.
    pub fn check_spend_at(
        &self,
        library: &Library,
        id: &str,
        estimate: f64,
        now: time::OffsetDateTime,
        zone: &crate::settings::TimeZone,
    ) -> Result<(), IpcError> {
        self.check_spend_under_way_at(library, id, 0.0, estimate, now, zone)
    }

    /// [`Self::check_spend`] while other calls of the connection, estimated at `under_way`
    /// credits, are sent and not charged yet: they count as spent.
    pub fn check_spend_under_way(
        &self,
        library: &Library,
        id: &str,
        under_way: f64,
        estimate: f64,
    ) -> Result<(), IpcError> {
        self.check_spend_under_way_at(
            library,
            id,
            under_way,
            estimate,
            time::OffsetDateTime::now_utc(),
            &crate::settings::local_zone(),
        )
    }

    fn check_spend_under_way_at(
        &self,
        library: &Library,
        id: &str,
        under_way: f64,
        estimate: f64,
        now: time::OffsetDateTime,
        zone: &crate::settings::TimeZone,
    ) -> Result<(), IpcError> {
        let today = self.spend_today_at(library, id, now, zone)?;
        if today.limit.is_none() {
            return Ok(());
        }
        today.check(&self.profile(id)?.name, under_way, estimate)
    }

    /// Raises connection `id`'s cap by `credits` for today only (raises the same day add up;
    /// one of another day is forgotten). Returns today's spending against the new cap.
    pub async fn raise_cap_today(
        &self,
        library: &Library,
        id: &str,
        credits: f64,
    ) -> Result<SpendToday, IpcError> {
        self.raise_cap_today_at(
            library,
            id,
            credits,
            time::OffsetDateTime::now_utc(),
            &crate::settings::local_zone(),
        )
        .await
    }

    /// [`Self::raise_cap_today`] at `now`, the local day being the one in `zone`.
    pub async fn raise_cap_today_at(
        &self,
        library: &Library,
        id: &str,
        credits: f64,
        now: time::OffsetDateTime,
        zone: &crate::settings::TimeZone,
    ) -> Result<SpendToday, IpcError> {
        if !credits.is_finite() || credits <= 0.0 || credits > MAX_CAP {
            return Err(IpcError::invalid(
                "credits",
                "Raise the cap by a number of credits above 0 and up to 1,000,000.",
            ));
        }
        self.profile(id)?;
        let (date, _, _) = crate::settings::local_day(now, zone);
        {
            let _guard = self.write.lock().await;
            let mut stored = self.load()?;
            if !stored.settings.spend_caps.contains_key(id) {
                return Err(IpcError::invalid(
                    "credits",
                    "This connection has no daily cap to raise. Set one in Settings, under Connections.",
                ));
            }
            // Raises of earlier days mean nothing now.
            stored.cap_raises.retain(|_, r| r.date == date);
            let raise = stored
                .cap_raises
                .entry(id.to_owned())
                .or_insert_with(|| CapRaise {
                    date: date.clone(),
                    credits: 0.0,
                });
            raise.credits = ((raise.credits + credits) * 1e6).round() / 1e6;
            self.save(&stored)?;
        }
        tracing::info!(connection = id, credits, "spend cap raised for today");
        self.spend_today_at(library, id, now, zone)
    }
}
