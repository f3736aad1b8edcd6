//! A gateway call's estimate, from the priced model lists, counts against the daily spend cap
//! before the call is sent: a call that would pass the cap never reaches the service; one under
//! it goes through; calls under way and unfinished videos count at their estimates.

use std::sync::Arc;
use std::time::Duration;

use specdesk_client::Metering;
use specdesk_core::settings::SpendCapDetail;
use specdesk_core::spend::{Counted, GatewayCall, Prices, UnderWay, check_call};
use specdesk_core::*;
use specdesk_types::ImageRequest;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

/// A 1×1 PNG.
const PIXEL: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==";

/// The service at `server` reached as the Sandbox connection with a daily cap of `cap`, an
/// empty library, and the prices and calls under way its checks use.
struct Capped {
    p: Profiles,
    lib: Library,
    client: specdesk_client::Client,
    prices: Prices,
    under_way: UnderWay,
}

impl Capped {
    async fn new(server: &MockServer, cap: f64) -> Capped {
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
        let client = p.client_for(SANDBOX_PROFILE_ID).await.unwrap();
        Capped {
            p,
            lib: Library::in_memory().unwrap(),
            client,
            prices: Prices::default(),
            under_way: UnderWay::default(),
        }
    }

    /// Checks `call` before it is sent; counted as under way while the answer is held.
    async fn check(&self, call: &GatewayCall<'_>) -> Result<Counted<'_>, IpcError> {
        check_call(
            &self.p,
            &self.lib,
            &self.prices,
            &self.under_way,
            SANDBOX_PROFILE_ID,
            &self.client,
            call,
        )
        .await
    }
}

async fn priced_videos(server: &MockServer) {
    Mock::given(method("GET"))
        .and(path("/v1/videos/models"))
        .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!({
            "object": "list",
            "data": [{"id": "openai/sora-2", "type": "video", "svc": {"credits_per_second": 0.5}}]
        })))
        .mount(server)
        .await;
}

async fn priced_images(server: &MockServer) {
    Mock::given(method("GET"))
        .and(path("/v1/images/models"))
        .respond_with(ResponseTemplate::new(200).set_body_json(serde_json::json!({
            "object": "list",
            "data": [{"id": "openai/gpt-image-1", "type": "image", "svc": {"credits_per_image": 0.4}}]
        })))
        .mount(server)
        .await;
}

fn spent(lib: &Library, credits: f64) {
    lib.record_metering(
        SANDBOX_PROFILE_ID,
        "v1/messages",
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
async fn a_call_whose_estimate_would_pass_the_cap_is_not_sent() {
    let server = MockServer::start().await;
    priced_images(&server).await;
    Mock::given(method("POST"))
        .and(path("/v1/images"))
        .respond_with(ResponseTemplate::new(500))
        .expect(0)
        .named("an image call")
        .mount(&server)
        .await;
    let c = Capped::new(&server, 10.0).await;
    spent(&c.lib, 9.0);

    // Three images at 0.4 credits each: 10.2 credits today, past the cap of 10.
    let request = images(3);
    let e = c.check(&GatewayCall::Images(&request)).await.unwrap_err();
    assert_eq!(e.kind, IpcErrorKind::SpendCap);
    assert_eq!(
        e.message,
        "This call was not sent: 9 credits spent today on Sandbox, its daily cap is 10 credits, and this call is estimated at 1.2 credits, which would pass it. Raise today's cap to send it, or wait until tomorrow."
    );
    assert_eq!(
        e.spend_cap,
        Some(SpendCapDetail {
            profile_id: SANDBOX_PROFILE_ID.to_owned(),
            spent: 9.0,
            under_way: 0.0,
            limit: 10.0,
            estimate: 1.2,
        })
    );

    // Raised for today, the same call fits.
    c.p.raise_cap_today(&c.lib, SANDBOX_PROFILE_ID, 0.2)
        .await
        .unwrap();
    let _ = c.check(&GatewayCall::Images(&request)).await.unwrap();
    // `expect(0)` is checked when the server drops: no image call was sent.
}

#[tokio::test]
async fn a_call_under_the_cap_goes_through() {
    let server = MockServer::start().await;
    priced_images(&server).await;
    Mock::given(method("POST"))
        .and(path("/v1/images"))
        .respond_with(
            ResponseTemplate::new(200)
                .insert_header("x-svc-credits-charged", "0.8")
                .set_body_json(serde_json::json!({
                    "created": 1_760_000_000,
                    "data": [{"b64_json": PIXEL}, {"b64_json": PIXEL}],
                    "usage": {"cost": 0.08}
                })),
        )
        .expect(1)
        .mount(&server)
        .await;
    let c = Capped::new(&server, 10.0).await;
    spent(&c.lib, 9.0);
    let dir = tempfile::tempdir().unwrap();

    // Two images: 9.8 credits, under the cap.
    let request = images(2);
    let _ = c.check(&GatewayCall::Images(&request)).await.unwrap();
    let studio = Studio {
        client: &c.client,
        library: &c.lib,
        profile_id: SANDBOX_PROFILE_ID,
        media_dir: dir.path(),
        estimate: 0.0,
    };
    let made = studio.images(&request).await.unwrap();
    assert_eq!(made.value.len(), 2);
    let today = c.p.spend_today(&c.lib, SANDBOX_PROFILE_ID).unwrap();
    assert_eq!(today.spent, 9.8);

    // Now one more image (0.4) would make 10.2: refused, estimate and all.
    let e = c.check(&GatewayCall::Images(&images(1))).await.unwrap_err();
    assert_eq!(e.spend_cap.map(|d| d.estimate), Some(0.4));
}

#[tokio::test]
async fn an_unpriced_model_is_estimated_at_nothing_and_no_cap_reads_no_prices() {
    let server = MockServer::start().await;
    // The list cannot be read: the estimate is 0 and only a cap already reached stops a call.
    Mock::given(method("GET"))
        .and(path("/v1/images/models"))
        .respond_with(ResponseTemplate::new(404))
        .mount(&server)
        .await;
    let c = Capped::new(&server, 10.0).await;
    spent(&c.lib, 9.9);
    let request = images(4);
    let call = GatewayCall::Images(&request);
    let _ = c.check(&call).await.unwrap();
    spent(&c.lib, 0.1);
    let e = c.check(&call).await.unwrap_err();
    assert_eq!(e.spend_cap.map(|d| d.estimate), Some(0.0));

    // Without a cap nothing is read before a call.
    let mut s = c.p.settings().unwrap();
    s.spend_caps.clear();
    c.p.save_settings(&s).await.unwrap();
    let reads = server.received_requests().await.unwrap().len();
    let _ = c.check(&call).await.unwrap();
    assert_eq!(server.received_requests().await.unwrap().len(), reads);
}

// Calls at once cannot together pass the cap: a call sent and not charged yet counts at its
// estimate until it ends, and an unfinished video (charged when it completes) counts at its
// estimate from the ledger, so it still counts after a restart.

#[tokio::test]
async fn calls_under_way_count_at_their_estimate_until_they_end() {
    let server = MockServer::start().await;
    priced_images(&server).await;
    let c = Capped::new(&server, 10.0).await;
    spent(&c.lib, 9.0);
    let (one, two) = (images(1), images(2));

    // Two calls at once: 9 + 0.4 + 0.4 = 9.8, under the cap of 10.
    let first = c.check(&GatewayCall::Images(&one)).await.unwrap();
    let second = c.check(&GatewayCall::Images(&one)).await.unwrap();
    // A third of two images would make 10.6 with the two still running: refused.
    let e = c.check(&GatewayCall::Images(&two)).await.unwrap_err();
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
    let third = c.check(&GatewayCall::Images(&one)).await.unwrap();
    // Then 9 + 0.8 under way + 0.4 = 10.2: refused.
    let e = c.check(&GatewayCall::Images(&one)).await.unwrap_err();
    assert_eq!(e.spend_cap.map(|d| d.under_way), Some(0.8));
    // Both end: two images (9.8) go.
    drop((second, third));
    drop(c.check(&GatewayCall::Images(&two)).await.unwrap());
}

#[tokio::test]
async fn an_unfinished_video_counts_from_the_ledger_until_it_ends() {
    let server = MockServer::start().await;
    priced_images(&server).await;
    priced_videos(&server).await;
    let c = Capped::new(&server, 10.0).await;
    spent(&c.lib, 7.0);
    // A four-second video sent before a restart (nothing in memory counts it): 2 credits.
    let video = c
        .lib
        .insert_job(
            JobKind::Video,
            SANDBOX_PROFILE_ID,
            None,
            &serde_json::json!({"model": "openai/sora-2", "prompt": "Waves", "seconds": "4"}),
        )
        .unwrap();
    c.lib
        .update_job(video.id, JobStatus::Running, Some("Rendering"), None, None)
        .unwrap();
    // Another connection's video does not count.
    c.lib
        .insert_job(
            JobKind::Video,
            "work",
            None,
            &serde_json::json!({"model": "openai/sora-2", "prompt": "Hills", "seconds": "8"}),
        )
        .unwrap();
    let (three, one) = (images(3), images(1));

    // 7 spent + 2 rendering + 1.2 = 10.2: refused.
    let e = c.check(&GatewayCall::Images(&three)).await.unwrap_err();
    assert_eq!(
        e.spend_cap.map(|d| (d.under_way, d.estimate)),
        Some((2.0, 1.2))
    );

    // The video completed: its charge is in the ledger now, no longer an estimate.
    c.lib
        .update_job(video.id, JobStatus::Completed, None, None, None)
        .unwrap();
    spent(&c.lib, 2.0);
    let e = c.check(&GatewayCall::Images(&three)).await.unwrap_err();
    assert_eq!(
        e.spend_cap.map(|d| (d.spent, d.under_way)),
        Some((9.0, 0.0))
    );
    drop(c.check(&GatewayCall::Images(&one)).await.unwrap());
}
