//! Calls at once cannot together pass the daily spend cap: a call sent and not charged yet
//! counts at its estimate until it ends, and an unfinished video (charged when it completes)
//! counts at its estimate from the ledger, so it still counts after a restart.

use std::sync::Arc;
use std::time::Duration;

use specdesk_client::Metering;
use specdesk_core::settings::SpendCapDetail;
use specdesk_core::spend::{GatewayCall, Prices, UnderWay, check_call};
use specdesk_core::*;
use specdesk_types::ImageRequest;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

/// The service at `server` (images at 0.4 credits, videos at 0.5 a second), reached as the
/// Sandbox connection, with a daily cap of `cap`.
async fn capped(server: &MockServer, cap: f64) -> Profiles {
    for (list, row) in [
        (
            "/v1/images/models",
            serde_json::json!({"id": "openai/gpt-image-1", "type": "image", "svc": {"credits_per_image": 0.4}}),
        ),
        (
            "/v1/videos/models",
            serde_json::json!({"id": "openai/sora-2", "type": "video", "svc": {"credits_per_second": 0.5}}),
        ),
    ] {
        Mock::given(method("GET"))
            .and(path(list))
            .respond_with(
                ResponseTemplate::new(200)
                    .set_body_json(serde_json::json!({"object": "list", "data": [row]})),
            )
            .mount(server)
            .await;
    }
    let p = Profiles::new(
        Arc::new(MemorySettings::default()),
        Keys::new(
            Arc::new(MemorySecretStore::default()),
            Duration::from_secs(5),
        ),
        server.uri(),
    );
    let mut s = p.settings().unwrap();
    s.spend_caps.insert(SANDBOX_PROFILE_ID.to_owned(), cap);
    p.save_settings(&s).await.unwrap();
    p
}

fn spent(lib: &Library, credits: f64) {
    lib.record_metering(
        SANDBOX_PROFILE_ID,
        "v1/images",
        &Metering {
            request_id: None,
            credits_charged: Some(credits),
            credits_remaining: None,
        },
    )
    .unwrap();
}

fn images(n: u32) -> ImageRequest {
    serde_json::from_value(serde_json::json!({
        "model": "openai/gpt-image-1", "prompt": "A red kite", "n": n
    }))
    .unwrap()
}

#[tokio::test]
async fn calls_under_way_count_at_their_estimate_until_they_end() {
    let server = MockServer::start().await;
    let p = capped(&server, 10.0).await;
    let lib = Library::in_memory().unwrap();
    spent(&lib, 9.0);
    let client = p.client_for(SANDBOX_PROFILE_ID).await.unwrap();
    let prices = Prices::default();
    let under_way = UnderWay::default();
    let (one, two) = (images(1), images(2));
    let check = async |call: &GatewayCall<'_>| {
        check_call(
            &p,
            &lib,
            &prices,
            &under_way,
            SANDBOX_PROFILE_ID,
            &client,
            call,
        )
        .await
    };

    // Two calls at once: 9 + 0.4 + 0.4 = 9.8, under the cap of 10.
    let first = check(&GatewayCall::Images(&one)).await.unwrap();
    let second = check(&GatewayCall::Images(&one)).await.unwrap();
    // A third of two images would make 10.6 with the two still running: refused.
    let e = check(&GatewayCall::Images(&two)).await.unwrap_err();
    assert_eq!(e.kind, IpcErrorKind::SpendCap);
    assert_eq!(
        e.message,
        "This call was not sent: 9 credits spent today on Sandbox and about 0.8 credits more on calls still running, its daily cap is 10 credits, and this call is estimated at 0.8 credits, which would pass it. Raise today's cap to send it, wait for the running calls to end, or wait until tomorrow."
    );
    assert_eq!(
        e.spend_cap,
        Some(SpendCapDetail {
            profile_id: SANDBOX_PROFILE_ID.to_owned(),
            spent: 9.0,
            under_way: 0.8,
            limit: 10.0,
            estimate: 0.8,
        })
    );

    // The first ends without a charge (it failed): one image fits beside the second.
    drop(first);
    let third = check(&GatewayCall::Images(&one)).await.unwrap();
    // Then 9 + 0.8 under way + 0.4 = 10.2: refused.
    let e = check(&GatewayCall::Images(&one)).await.unwrap_err();
    assert_eq!(e.spend_cap.map(|d| d.under_way), Some(0.8));
    // Both end: two images (9.8) go.
    drop((second, third));
    drop(check(&GatewayCall::Images(&two)).await.unwrap());
}

#[tokio::test]
async fn an_unfinished_video_counts_from_the_ledger_until_it_ends() {
    let server = MockServer::start().await;
    let p = capped(&server, 10.0).await;
    let lib = Library::in_memory().unwrap();
    spent(&lib, 7.0);
    let client = p.client_for(SANDBOX_PROFILE_ID).await.unwrap();
    let prices = Prices::default();
    // A four-second video sent before a restart (nothing in memory counts it): 2 credits.
    let video = lib
        .insert_job(
            JobKind::Video,
            SANDBOX_PROFILE_ID,
            None,
            &serde_json::json!({"model": "openai/sora-2", "prompt": "Waves", "seconds": "4"}),
        )
        .unwrap();
    lib.update_job(video.id, JobStatus::Running, Some("Rendering"), None, None)
        .unwrap();
    // Another connection's video does not count.
    lib.insert_job(
        JobKind::Video,
        "work",
        None,
        &serde_json::json!({"model": "openai/sora-2", "prompt": "Hills", "seconds": "8"}),
    )
    .unwrap();
    let three = images(3);
    let call = GatewayCall::Images(&three);

    // 7 spent + 2 rendering + 1.2 = 10.2: refused.
    let e = check_call(
        &p,
        &lib,
        &prices,
        &UnderWay::default(),
        SANDBOX_PROFILE_ID,
        &client,
        &call,
    )
    .await
    .unwrap_err();
    assert_eq!(
        e.spend_cap.map(|d| (d.under_way, d.estimate)),
        Some((2.0, 1.2))
    );

    // The video completed: its charge is in the ledger now, no longer an estimate.
    lib.update_job(video.id, JobStatus::Completed, None, None, None)
        .unwrap();
    spent(&lib, 2.0);
    let e = check_call(
        &p,
        &lib,
        &prices,
        &UnderWay::default(),
        SANDBOX_PROFILE_ID,
        &client,
        &call,
    )
    .await
    .unwrap_err();
    assert_eq!(
        e.spend_cap.map(|d| (d.spent, d.under_way)),
        Some((9.0, 0.0))
    );
    let one = images(1);
    drop(
        check_call(
            &p,
            &lib,
            &prices,
            &UnderWay::default(),
            SANDBOX_PROFILE_ID,
            &client,
            &GatewayCall::Images(&one),
        )
        .await
        .unwrap(),
    );
}
