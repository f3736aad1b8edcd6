//! The daily spend cap per connection: today's spending from the credit ledger (local day) plus a
//! call's estimate may reach the cap but never pass it; a raise counts for its own day only; each
//! connection has its own cap and spending.

use std::sync::Arc;
use std::time::Duration;

use specdesk_client::Metering;
use specdesk_core::settings::SpendCapDetail;
use specdesk_core::*;
use time::{OffsetDateTime, UtcOffset};

fn profiles(settings: &MemorySettings) -> Profiles {
    Profiles::new(
        Arc::new(settings.clone()),
        Keys::new(
            Arc::new(MemorySecretStore::default()),
            Duration::from_secs(5),
        ),
        "http://127.0.0.1:9",
    )
}

fn charge(lib: &Library, profile: &str, endpoint: &str, credits: f64) {
    lib.record_metering(
        profile,
        endpoint,
        &Metering {
            request_id: None,
            credits_charged: Some(credits),
            credits_remaining: None,
        },
    )
    .unwrap();
}

async fn connection(p: &Profiles, name: &str) -> String {
    p.add(
        &ProfileInput {
            name: name.to_owned(),
            base_url: "https://api.example.com".to_owned(),
            key_kind: KeyKind::Personal,
            project_id: None,
        },
        None,
    )
    .await
    .unwrap()
    .id
}

async fn set_cap(p: &Profiles, id: &str, cap: Option<f64>) {
    let mut s = p.settings().unwrap();
    match cap {
        Some(c) => s.spend_caps.insert(id.to_owned(), c),
        None => s.spend_caps.remove(id),
    };
    p.save_settings(&s).await.unwrap();
}

const UTC: &settings::TimeZone = &settings::TimeZone::UTC;

#[tokio::test]
async fn a_call_may_reach_the_cap_but_not_pass_it() {
    let settings = MemorySettings::default();
    let p = profiles(&settings);
    let lib = Library::in_memory().unwrap();
    let work = connection(&p, "Work").await;
    let now = OffsetDateTime::now_utc();

    // No cap: anything goes.
    charge(&lib, &work, "v1/images", 9.5);
    p.check_spend_at(&lib, &work, 1000.0, now, UTC).unwrap();

    set_cap(&p, &work, Some(10.0)).await;
    // Every area counts; a balance reading does not.
    charge(&lib, &work, "spec", 0.25);
    lib.record_balance(&work, 500.0).unwrap();
    let today = p.spend_today_at(&lib, &work, now, UTC).unwrap();
    assert_eq!(
        (today.spent, today.daily_cap, today.raised, today.limit),
        (9.75, Some(10.0), 0.0, Some(10.0))
    );
    // Exactly up to the cap: sent.
    p.check_spend_at(&lib, &work, 0.25, now, UTC).unwrap();
    p.check_spend_at(&lib, &work, 0.0, now, UTC).unwrap();
    // A millionth more: refused, before anything is sent, with what was spent, the cap and the
    // estimate in words.
    let e = p
        .check_spend_at(&lib, &work, 0.250001, now, UTC)
        .unwrap_err();
    assert_eq!(e.kind, IpcErrorKind::SpendCap);
    assert_eq!(
        e.message,
        "This call was not sent: 9.75 credits spent today on Work, its daily cap is 10 credits, and this call is estimated at 0.250001 credits, which would pass it. Raise today's cap to send it, or wait until tomorrow."
    );
    assert_eq!(
        e.spend_cap,
        Some(SpendCapDetail {
            profile_id: work.clone(),
            spent: 9.75,
            under_way: 0.0,
            limit: 10.0,
            estimate: 0.250001,
        })
    );
    let json = serde_json::to_value(&e).unwrap();
    assert_eq!(json["kind"], "spendCap");
    assert_eq!(json["spendCap"]["limit"], 10.0);

    // The cap reached: even a call of unknown cost (estimate 0) is refused.
    charge(&lib, &work, "v1/messages", 0.25);
    let e = p.check_spend_at(&lib, &work, 0.0, now, UTC).unwrap_err();
    assert_eq!(e.kind, IpcErrorKind::SpendCap);
    assert_eq!(
        e.message,
        "This call was not sent: 10 credits spent today on Work has reached the cap (its daily cap is 10 credits), and the call's cost is only known once it runs. Raise today's cap to send it, or wait until tomorrow."
    );
}

#[tokio::test]
async fn a_raise_counts_for_today_only_and_adds_up() {
    let settings = MemorySettings::default();
    let p = profiles(&settings);
    let lib = Library::in_memory().unwrap();
    let work = connection(&p, "Work").await;
    let now = OffsetDateTime::now_utc();
    let yesterday = now - time::Duration::days(1);

    let e = p
        .raise_cap_today_at(&lib, &work, 5.0, now, UTC)
        .await
        .unwrap_err();
    assert_eq!(
        (e.kind, e.field.as_deref()),
        (IpcErrorKind::InvalidInput, Some("credits")),
        "no cap to raise"
    );
    set_cap(&p, &work, Some(2.0)).await;
    for bad in [0.0, -1.0, f64::NAN, 2e6] {
        assert!(
            p.raise_cap_today_at(&lib, &work, bad, now, UTC)
                .await
                .is_err()
        );
    }
    charge(&lib, &work, "v1/images", 2.0);
    assert!(p.check_spend_at(&lib, &work, 0.0, now, UTC).is_err());

    // Raised yesterday: nothing today.
    p.raise_cap_today_at(&lib, &work, 3.0, yesterday, UTC)
        .await
        .unwrap();
    assert!(p.check_spend_at(&lib, &work, 0.0, now, UTC).is_err());
    let today = p.spend_today_at(&lib, &work, now, UTC).unwrap();
    assert_eq!((today.raised, today.limit), (0.0, Some(2.0)));

    // Raised today: the cap today is 2 + 1, then 2 + 1 + 0.5.
    let after = p
        .raise_cap_today_at(&lib, &work, 1.0, now, UTC)
        .await
        .unwrap();
    assert_eq!(
        (after.spent, after.raised, after.limit),
        (2.0, 1.0, Some(3.0)),
        "yesterday's raise was forgotten, not added"
    );
    p.check_spend_at(&lib, &work, 1.0, now, UTC).unwrap();
    let e = p.check_spend_at(&lib, &work, 1.5, now, UTC).unwrap_err();
    assert!(
        e.message
            .contains("its cap for today is 3 credits (2 credits a day, raised by 1 credit today)"),
        "{}",
        e.message
    );
    let after = p
        .raise_cap_today_at(&lib, &work, 0.5, now, UTC)
        .await
        .unwrap();
    assert_eq!(after.limit, Some(3.5));
    p.check_spend_at(&lib, &work, 1.5, now, UTC).unwrap();

    // Kept in the settings store, with its day.
    let stored = settings.load().unwrap();
    let raise = &stored.cap_raises[&work];
    assert_eq!(raise.credits, 1.5);
    let json = serde_json::to_value(&stored).unwrap();
    assert_eq!(json["settings"]["spendCaps"][&work], 2.0);
    assert_eq!(json["capRaises"][&work]["credits"], 1.5);

    // Tomorrow the raise no longer counts.
    let tomorrow = now + time::Duration::days(1);
    let t = p.spend_today_at(&lib, &work, tomorrow, UTC).unwrap();
    assert_eq!((t.spent, t.raised, t.limit), (0.0, 0.0, Some(2.0)));
}

#[tokio::test]
async fn each_connection_has_its_own_cap_and_spending() {
    let settings = MemorySettings::default();
    let p = profiles(&settings);
    let lib = Library::in_memory().unwrap();
    let work = connection(&p, "Work").await;
    let home = connection(&p, "Home").await;
    let now = OffsetDateTime::now_utc();
    set_cap(&p, &work, Some(1.0)).await;
    set_cap(&p, SANDBOX_PROFILE_ID, Some(50.0)).await;
    charge(&lib, &work, "v1/rerank", 1.0);
    charge(&lib, &home, "v1/rerank", 100.0);

    assert!(p.check_spend_at(&lib, &work, 0.0, now, UTC).is_err());
    // Home has no cap, and Work's spending is not its own.
    p.check_spend_at(&lib, &home, 5.0, now, UTC).unwrap();
    p.check_spend_at(&lib, SANDBOX_PROFILE_ID, 50.0, now, UTC)
        .unwrap();
    set_cap(&p, &home, Some(200.0)).await;
    p.check_spend_at(&lib, &home, 100.0, now, UTC).unwrap();
    p.raise_cap_today_at(&lib, &work, 1.0, now, UTC)
        .await
        .unwrap();
    let h = p.spend_today_at(&lib, &home, now, UTC).unwrap();
    assert_eq!((h.raised, h.limit), (0.0, Some(200.0)), "Work's raise only");

    // A removed connection's cap and raise go with it; unknown ids are not kept.
    p.delete(&work).await.unwrap();
    let stored = settings.load().unwrap();
    assert!(!stored.settings.spend_caps.contains_key(&work));
    assert!(!stored.cap_raises.contains_key(&work));
    let mut s = p.settings().unwrap();
    s.spend_caps.insert("p_gone".into(), 3.0);
    let saved = p.save_settings(&s).await.unwrap();
    assert!(!saved.spend_caps.contains_key("p_gone"));
    // A cap must be a positive number of credits.
    s.spend_caps.insert(home.clone(), 0.0);
    let e = p.save_settings(&s).await.unwrap_err();
    assert_eq!(e.field.as_deref(), Some("spendCaps"));
}

#[test]
fn the_day_is_the_local_one() {
    // 23:30 UTC is already the next day two hours east.
    let at = time::macros::datetime!(2026-11-22 23:30 UTC);
    let (day, from, to) = settings::local_day(at, UTC);
    assert_eq!(
        (day.as_str(), from.as_str(), to.as_str()),
        (
            "2026-11-22",
            "2026-11-22T00:00:00.000Z",
            "2026-11-23T00:00:00.000Z"
        )
    );
    let east = UtcOffset::from_hms(2, 0, 0).unwrap();
    let (day, from, to) = settings::local_day(at, &settings::fixed_zone(east));
    assert_eq!(
        (day.as_str(), from.as_str(), to.as_str()),
        (
            "2026-11-23",
            "2026-11-22T22:00:00.000Z",
            "2026-11-23T22:00:00.000Z"
        )
    );
    let lib = Library::in_memory().unwrap();
    charge(&lib, "p", "v1/images", 1.0);
    let (_, from, to) = settings::local_day(OffsetDateTime::now_utc(), UTC);
    assert_eq!(lib.spent_between("p", &from, &to).unwrap(), 1.0);
    assert_eq!(lib.spent_between("p", &to, "9999").unwrap(), 0.0);
}
