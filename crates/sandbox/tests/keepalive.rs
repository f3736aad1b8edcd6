//! Keep-alive: every route reads or discards its request body before answering, so a client that
//! reuses one pooled connection keeps it. (hyper closes a connection whose request body the
//! handler left unread when that body has not fully arrived yet; the client then either opens a new
//! connection or, when it had already reused the old one, sees "connection closed before message
//! completed".)

mod common;
use common::*;
use reqwest::Method;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

const INPUT: &str =
    "A team wiki where people can write pages, edit pages together and search pages.";
const HOST: &str = "sandbox.test";
const ROUNDS: usize = 50;

/// Resolves every name to the sandbox and counts the look-ups: the client resolves once per new
/// connection, so this counts the connections it opened.
struct CountingResolver {
    addr: SocketAddr,
    lookups: Arc<AtomicUsize>,
}

impl Resolve for CountingResolver {
    fn resolve(&self, _name: Name) -> Resolving {
        self.lookups.fetch_add(1, Ordering::SeqCst);
        let addr = self.addr;
        Box::pin(async move { Ok(Box::new(std::iter::once(addr)) as Addrs) })
    }
}

/// Every request of a round after the spec is made: method, path, key, JSON body.
fn requests(project: &str, spec: &str) -> Vec<(Method, String, Option<&'static str>, Value)> {
    let empty = json!({});
    let advance = format!("/_sandbox/projects/{project}/advance");
    let fault = json!({"match": {"method": "GET", "path": "/v1/models"}, "times": 1,
                       "respond": {"status": 503}});
    let rerank = json!({"model": "cohere/rerank-v3.5", "query": "a", "documents": ["a", "b"]});
    let get = |path: String, key| (Method::GET, path, key, json!({}));
    let post = |path: &str, body: Value| (Method::POST, path.to_owned(), None, body);
    vec![
        // Every control route, with a JSON body whether it reads one or not.
        (Method::POST, advance.clone(), None, empty.clone()),
        get("/_sandbox/health".into(), None),
        post("/_sandbox/health", empty.clone()), // 405, answered by the router
        post("/_sandbox/clock/advance", json!({"ms": 1})),
        post("/_sandbox/clock/advance", empty.clone()), // 400
        post("/_sandbox/credits", json!({"key": PRO, "credits": 1000})),
        post("/_sandbox/keys/rotate", json!({"key": "sk_unknown"})), // 404
        post("/_sandbox/faults", fault),
        get("/v1/models".into(), Some(PRO)), // answered by the fault injector
        (
            Method::DELETE,
            "/_sandbox/faults".into(),
            None,
            empty.clone(),
        ),
        // API routes: handlers that ignore a body, and a few that read one.
        get("/credits-balance".into(), Some(PRO)),
        get("/v1/models/public".into(), None),
        get(format!("/get-plan?projectId={project}"), Some(PRO)),
        get(format!("/spec-status/{spec}"), Some(PRO)),
        get("/list-specs".into(), Some(PRO)),
        get(format!("/files/specs/{spec}/human.md"), None),
        get(format!("/projects/{project}"), None),
        post("/fast-spec", json!({"input": "x"})), // 401 before the body is looked at
        (Method::POST, "/v1/rerank".into(), Some(PRO), rerank),
        post("/no-such-route", empty.clone()), // the fallback
        (Method::POST, advance, None, empty.clone()),
        post("/_sandbox/reset", empty),
    ]
}

/// Sends one request with a JSON body; `late` sends the body a moment after the head, as a slow
/// client or a busy network does, so it is not there yet when a handler that ignores it answers.
async fn send(
    client: &reqwest::Client,
    base: &str,
    (method, path, key, body): &(Method, String, Option<&'static str>, Value),
    late: bool,
) -> reqwest::Result<(u16, String)> {
    let text = body.to_string();
    let mut req = client
        .request(method.clone(), format!("{base}{path}"))
        .header("content-type", "application/json")
        .header("content-length", text.len());
    req = if late {
        req.body(reqwest::Body::wrap_stream(futures::stream::once(
            async move {
                tokio::time::sleep(Duration::from_millis(2)).await;
                Ok::<_, std::io::Error>(text)
            },
        )))
    } else {
        req.body(text)
    };
    if let Some(k) = key {
        req = req.bearer_auth(k);
    }
    let resp = req.send().await?;
    let status = resp.status().as_u16();
    Ok((status, resp.text().await?))
}

// One thread: the client's pool then hands back the connection it just used, deterministically
// (on several threads it sometimes races a fresh connect against the connection's return).
#[tokio::test]
async fn one_kept_alive_connection_serves_bodies_on_every_route() {
    let env = Env::new().await;
    let lookups = Arc::new(AtomicUsize::new(0));
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(1)
        .dns_resolver(CountingResolver {
            addr: env.sb.addr,
            lookups: lookups.clone(),
        })
        .build()
        .unwrap();
    let base = format!("http://{HOST}:{}", env.sb.addr.port());

    let mut failures = Vec::new();
    let mut sent = 0;
    for round in 0..ROUNDS {
        // A project to advance (the round ends with a reset).
        let create = (
            Method::POST,
            "/fast-spec".to_owned(),
            Some(PRO),
            json!({"input": INPUT, "async": true}),
        );
        let (status, text) = send(&client, &base, &create, round % 2 == 1)
            .await
            .expect("fast-spec answers");
        assert_eq!(status, 200, "{text}");
        let spec = serde_json::from_str::<Value>(&text).unwrap()["specId"]
            .as_str()
            .unwrap()
            .to_owned();
        let status_req = (
            Method::GET,
            format!("/spec-status/{spec}"),
            Some(PRO),
            json!({}),
        );
        let (_, text) = send(&client, &base, &status_req, false)
            .await
            .expect("spec-status answers");
        let project = serde_json::from_str::<Value>(&text).unwrap()["projectId"]
            .as_str()
            .unwrap()
            .to_owned();

        for (i, req) in requests(&project, &spec).iter().enumerate() {
            // Each request once with its body sent with the head, once with a late body.
            for late in [false, true] {
                sent += 1;
                match send(&client, &base, req, late).await {
                    Ok((status, text)) => {
                        if req.1.ends_with("/advance") && req.1.starts_with("/_sandbox/projects") {
                            assert_eq!(status, 200, "round {round}: advance: {text}");
                        }
                    }
                    Err(e) => failures.push(format!(
                        "round {round}, request {i} ({} {}, late body {late}): {e:?}",
                        req.0, req.1
                    )),
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {sent} requests got no response:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(
        lookups.load(Ordering::SeqCst),
        1,
        "the client had to open new connections: the sandbox closed kept-alive ones"
    );
}
