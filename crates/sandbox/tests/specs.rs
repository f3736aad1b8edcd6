//! Spec generation, spec-status, list/find and charging, over HTTP.

mod common;
use common::*;
use serde_json::{Value, json};
use specdesk_sandbox::SandboxConfig;

const TODO: &str =
    "A todo app where users can sign up, create lists, share lists with friends and get reminders.";

fn story_titles(v: &Value) -> Vec<String> {
    v["milestones"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["stories"].as_array().unwrap().clone())
        .map(|s| s["title"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn fast_spec_sync_is_derived_from_the_input() {
    let env = Env::new().await;
    let v = env
        .post_json("/fast-spec", Some(PRO), json!({"input": TODO}), 200)
        .await;
    assert_eq!(v["endpoint"], "fast_spec");
    assert_eq!(v["status"], "completed");
    assert_eq!(v["success"], true);
    assert_eq!(v["input"], TODO);
    let titles = story_titles(&v["humanSpecJson"]);
    for f in [
        "Sign up",
        "Create lists",
        "Share lists with friends",
        "Get reminders",
    ] {
        assert!(titles.iter().any(|t| t == f), "{f} in {titles:?}");
    }
    // Fast: stories without subtasks, hours everywhere in the human spec, none in the agent spec.
    let human = &v["humanSpecJson"];
    assert!(human["personas"].as_array().unwrap().len() >= 2);
    assert!(!human["roles"].as_array().unwrap().is_empty());
    let total = human["totalHours"].as_f64().unwrap();
    assert_eq!(v["totalHumanHours"].as_f64().unwrap(), total);
    let sum: f64 = human["milestones"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["hours"].as_f64().unwrap())
        .sum();
    assert_eq!(sum, total);
    for m in human["milestones"].as_array().unwrap() {
        for s in m["stories"].as_array().unwrap() {
            assert!(s["subTasks"].as_array().unwrap().is_empty());
            assert!(!s["acceptanceCriteria"].as_array().unwrap().is_empty());
            assert!(["XS", "S", "M", "L", "XL"].contains(&s["complexity"].as_str().unwrap()));
        }
    }
    let agent = &v["codingAgentSpecJson"];
    assert!(agent.get("personas").is_none() && agent.get("totalHours").is_none());
    assert!(
        v["humanSpecJson"]["milestones"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["description"].as_str().unwrap().contains("CI/CD"))
    );
    // Credits within the documented range, and charged.
    let used = v["creditsUsed"].as_f64().unwrap();
    assert!((5.0..=10.0).contains(&used), "{used}");
    assert_eq!(env.credits(PRO).await, 1000.0 - used);
    // Graph nodes match the stories.
    let nodes: Vec<String> = v["userFlowGraph"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["label"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(nodes, titles);
    assert!(!v["enrichedTechStack"].as_array().unwrap().is_empty());
    assert_eq!(v["zippedDocsUrls"], json!([]));
    // Same input, same content.
    let again = env
        .post_json("/fast-spec", Some(PRO), json!({"input": TODO}), 200)
        .await;
    assert_eq!(again["humanSpecMarkdown"], v["humanSpecMarkdown"]);
    assert_eq!(again["humanSpecJson"], v["humanSpecJson"]);
    assert!(
        !v["codingAgentSpecMarkdown"]
            .as_str()
            .unwrap()
            .contains("Subtasks")
    );
}

#[tokio::test]
async fn every_tech_alternative_has_a_name_an_https_link_and_a_description() {
    let env = Env::new().await;
    let input = "A shop where customers can pay with Stripe, built with Next.js, Django, MongoDB, \
                 Redis and Kubernetes, plus a Flutter app.";
    for (path, key, text) in [
        ("/fast-spec", PRO, TODO),
        ("/fast-spec", PRO, input),
        ("/deep-spec", ORG, input),
    ] {
        let v = env
            .post_json(path, Some(key), json!({"input": text}), 200)
            .await;
        let stack = v["enrichedTechStack"].as_array().unwrap();
        assert!(stack.len() >= 5, "{path}: {stack:?}");
        for tech in stack {
            let alternatives = tech["alternatives"].as_array().unwrap();
            assert!(!alternatives.is_empty(), "{tech}");
            for a in alternatives {
                let name = a["name"].as_str().unwrap_or("");
                let link = a["link"].as_str().unwrap_or("");
                let description = a["description"].as_str().unwrap_or("");
                assert!(!name.trim().is_empty(), "{a}");
                assert!(
                    link.starts_with("https://") && link.len() > "https://".len() + 3,
                    "{a}"
                );
                assert!(!description.trim().is_empty(), "{a}");
                assert_ne!(link, tech["link"].as_str().unwrap(), "{a} in {tech}");
            }
        }
    }
    // The default frontend, React, offers Vue first.
    let v = env
        .post_json("/fast-spec", Some(PRO), json!({"input": TODO}), 200)
        .await;
    let react = &v["enrichedTechStack"][0];
    assert_eq!(react["name"], "React");
    assert_eq!(react["link"], "https://react.dev");
    assert_eq!(
        react["alternatives"][0],
        json!({
            "name": "Vue",
            "link": "https://vuejs.org",
            "description": "Vue is a progressive JavaScript framework for building user interfaces, \
                            with single-file components and built-in reactivity."
        })
    );
    let node = &v["enrichedTechStack"][1];
    assert_eq!(node["name"], "Node.js");
    assert_eq!(node["alternatives"][0]["name"], "Deno");
    assert_eq!(node["alternatives"][0]["link"], "https://deno.com");
}

#[tokio::test]
async fn every_returned_url_is_served_and_tool_links_name_the_spec() {
    let env = Env::new().await;
    let v = env
        .post_json("/fast-spec", Some(PRO), json!({"input": TODO}), 200)
        .await;
    let human_url = v["humanSpecUrl"].as_str().unwrap();
    let r = env.http.get(human_url).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert!(
        r.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/markdown")
    );
    assert_eq!(
        r.text().await.unwrap(),
        v["humanSpecMarkdown"].as_str().unwrap()
    );
    let r = env
        .http
        .get(v["codingAgentSpecUrl"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(
        r.text().await.unwrap(),
        v["codingAgentSpecMarkdown"].as_str().unwrap()
    );
    let png = env
        .http
        .get(v["architectureInfographicUrl"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(png.headers()["content-type"], "image/png");
    assert!(png.bytes().await.unwrap().starts_with(b"\x89PNG\r\n\x1a\n"));
    let svc = env
        .http
        .get(v["svcUrl"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(svc.status(), 200);
    let enc: String = url::form_urlencoded::byte_serialize(human_url.as_bytes()).collect();
    for k in ["toolAUrl", "toolBUrl", "toolCUrl", "toolDUrl"] {
        assert!(v[k].as_str().unwrap().contains(&enc), "{k}");
    }
}

#[tokio::test]
async fn deep_spec_has_layered_subtasks_and_is_refused_without_a_paid_tier() {
    let env = Env::new().await;
    let v = env
        .post_json("/deep-spec", Some(PRO), json!({"input": TODO}), 200)
        .await;
    assert_eq!(v["endpoint"], "deep_spec");
    let used = v["creditsUsed"].as_f64().unwrap();
    assert!((10.0..=50.0).contains(&used), "{used}");
    let mut labels = std::collections::BTreeSet::new();
    for m in v["humanSpecJson"]["milestones"].as_array().unwrap() {
        for s in m["stories"].as_array().unwrap() {
            let subs = s["subTasks"].as_array().unwrap();
            assert!(!subs.is_empty());
            let sum: f64 = subs.iter().map(|t| t["hours"].as_f64().unwrap()).sum();
            assert_eq!(sum, s["hours"].as_f64().unwrap());
            for t in subs {
                labels.insert(
                    t["description"]
                        .as_str()
                        .unwrap()
                        .split(':')
                        .next()
                        .unwrap()
                        .to_owned(),
                );
                assert!(["S", "M", "L", "XL"].contains(&t["complexity"].as_str().unwrap()));
            }
        }
    }
    for l in ["DB", "Infra", "FE", "API", "Backend", "QA", "Docs"] {
        assert!(labels.contains(l), "{l} in {labels:?}");
    }
    assert!(
        v["codingAgentSpecMarkdown"]
            .as_str()
            .unwrap()
            .contains("Subtasks")
    );

    let e = env
        .post_json("/deep-spec", Some(FREE), json!({"input": TODO}), 402)
        .await;
    assert_eq!(e["error"], "Subscription required");
    assert_eq!(e["requiresSubscription"], true);
    assert!(e["actionUrl"].is_string() && e["message"].is_string());
}

#[tokio::test]
async fn incremental_spec_has_no_setup_or_deployment() {
    let env = Env::new().await;
    let v = env
        .post_json(
            "/fast-spec",
            Some(PRO),
            json!({"input": "Add tags and a search box", "currentContext": "An existing Django notes app"}),
            200,
        )
        .await;
    for m in v["humanSpecJson"]["milestones"].as_array().unwrap() {
        let d = m["description"].as_str().unwrap().to_lowercase();
        assert!(
            !d.contains("deploy") && !d.contains("ci/cd") && !d.contains("setup"),
            "{d}"
        );
    }
}

#[tokio::test]
async fn insufficient_credits_and_validation() {
    let env = Env::new().await;
    let e = env
        .post_json("/fast-spec", Some(BROKE), json!({"input": TODO}), 402)
        .await;
    assert_eq!(e["error"], "Insufficient credits");
    assert!(e["actionUrl"].is_string());
    let e = env
        .post_json("/fast-spec", Some(PRO), json!({"input": "  "}), 400)
        .await;
    assert_eq!(e["error"], "Invalid request");
    let e = env
        .post_json("/fast-spec", Some(PRO), json!({"nope": 1}), 400)
        .await;
    assert_eq!(e["error"], "Invalid request");
    let e = env
        .post_json("/fast-spec", None, json!({"input": TODO}), 401)
        .await;
    assert_eq!(e["error"], "Missing API key");
    let e = env
        .post_json("/fast-spec", Some("sk_bad"), json!({"input": TODO}), 401)
        .await;
    assert_eq!(e["error"], "Authentication failed");
}

#[tokio::test]
async fn async_spec_moves_to_completed_and_status_has_both_paths() {
    let env = Env::new().await;
    let v = env
        .post_json(
            "/fast-spec",
            Some(PRO),
            json!({"input": TODO, "async": true}),
            200,
        )
        .await;
    assert_eq!(v["status"], "pending");
    let id = v["specId"].as_str().unwrap();
    assert_eq!(id.len(), 24);
    for path in [
        format!("/spec-status/{id}"),
        format!("/api/spec-status/{id}"),
    ] {
        let s = env.get_json(&path, Some(PRO), 200).await;
        assert_eq!(s["status"], "completed");
        assert!(s["codingAgentSpecUrl"].is_string());
        assert_eq!(s["plan"]["features"][0]["status"], "planned");
    }
    // Another user does not see it.
    env.get_json(&format!("/spec-status/{id}"), Some(ORG), 404)
        .await;
}

#[tokio::test]
async fn slow_spec_is_processing_with_live_credits() {
    let env = Env::new().await;
    let v = env
        .post_json(
            "/fast-spec",
            Some(PRO),
            json!({"input": format!("{TODO} [sandbox:slow]"), "async": true}),
            200,
        )
        .await;
    let id = v["specId"].as_str().unwrap();
    let s = env
        .get_json(&format!("/spec-status/{id}"), Some(PRO), 200)
        .await;
    assert_eq!(s["status"], "processing");
    assert!(s["progress"].is_string());
    assert!(s["creditsUsed"].is_number());
    let plan = env
        .get_json(&format!("/get-plan?specId={id}"), Some(PRO), 404)
        .await;
    assert_eq!(plan["error"], "No project yet");
    let l = env
        .get_json("/list-specs?status=processing", Some(PRO), 200)
        .await;
    assert_eq!(l["total"], 1);
    // Advancing the sandbox clock past the work completes it.
    env.control("/_sandbox/clock/advance", json!({"ms": 5000}))
        .await;
    let s = env
        .get_json(&format!("/spec-status/{id}"), Some(PRO), 200)
        .await;
    assert_eq!(s["status"], "completed");
}

#[tokio::test]
async fn pending_is_visible_at_demo_pace() {
    let env = Env::with(SandboxConfig {
        time_scale: 1.0,
        ..SandboxConfig::ephemeral()
    })
    .await;
    let v = env
        .post_json(
            "/fast-spec",
            Some(PRO),
            json!({"input": TODO, "async": true}),
            200,
        )
        .await;
    let id = v["specId"].as_str().unwrap();
    let s = env
        .get_json(&format!("/spec-status/{id}"), Some(PRO), 200)
        .await;
    assert_eq!(s["status"], "pending");
}

#[tokio::test]
async fn failed_spec_is_not_charged() {
    let env = Env::new().await;
    let v = env
        .post_json(
            "/fast-spec",
            Some(PRO),
            json!({"input": "Broken [sandbox:fail]"}),
            200,
        )
        .await;
    assert_eq!(v["status"], "failed");
    assert_eq!(v["success"], false);
    assert!(v["errorMessage"].is_string());
    assert_eq!(env.credits(PRO).await, 1000.0);
    let a = env
        .post_json(
            "/fast-spec",
            Some(PRO),
            json!({"input": "Broken [sandbox:fail]", "async": true}),
            200,
        )
        .await;
    let id = a["specId"].as_str().unwrap();
    let s = env
        .get_json(&format!("/spec-status/{id}"), Some(PRO), 200)
        .await;
    assert_eq!(s["status"], "failed");
    assert!(s["errorMessage"].is_string());
    let p = env
        .get_json(&format!("/get-plan?specId={id}"), Some(PRO), 404)
        .await;
    assert_eq!(p["error"], "No project yet");
}

#[tokio::test]
async fn multipart_with_file_and_docs() {
    let env = Env::new().await;
    // A documentation site on loopback.
    let docs = axum::Router::new().route(
        "/guide",
        axum::routing::get(|| async {
            axum::response::Html("<html><head><title>Widget guide</title></head><body><p>Widgets spin.</p></body></html>")
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let docs_addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, docs).await.unwrap() });

    let form = reqwest::multipart::Form::new()
        .text("input", "")
        .text("docURLs", format!("[\"http://{docs_addr}/guide\"]"))
        .text("async", "false")
        .part(
            "file",
            reqwest::multipart::Part::bytes(
                b"Recipe box\n- Browse recipes\n- Save favourites\n".to_vec(),
            )
            .file_name("brief.md")
            .mime_str("text/markdown")
            .unwrap(),
        );
    let r = env
        .http
        .post(env.url("/fast-spec"))
        .bearer_auth(PRO)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let v: Value = r.json().await.unwrap();
    let titles = story_titles(&v["humanSpecJson"]);
    assert!(titles.contains(&"Browse recipes".to_owned()), "{titles:?}");
    let z = v["zippedDocsUrls"].as_array().unwrap();
    assert_eq!(z.len(), 1);
    assert_eq!(z[0]["platform"], "127.0.0.1");
    let zip = env
        .http
        .get(z[0]["masterZipShortUrl"].as_str().unwrap())
        .send()
        .await
        .unwrap();
    assert_eq!(zip.headers()["content-type"], "application/zip");
    assert!(zip.bytes().await.unwrap().starts_with(b"PK\x03\x04"));
    let md = env
        .http
        .get(z[0]["masterMarkdownShortUrl"].as_str().unwrap())
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(md.contains("Widgets spin."));
    let list = env.get_json("/list-specs", Some(PRO), 200).await;
    let rec = &list["specs"][0];
    assert_eq!(rec["uploadedFileName"], "brief.md");
    let up = env
        .http
        .get(rec["uploadedFileShortUrl"].as_str().unwrap())
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(up.contains("Browse recipes"));
}

#[tokio::test]
async fn list_and_find_with_filters_and_400s() {
    let env = Env::new().await;
    for (i, input) in [
        "Alpha invoicing tool",
        "Beta chat app",
        "alpha photo gallery",
    ]
    .iter()
    .enumerate()
    {
        let path = if i == 1 { "/deep-spec" } else { "/fast-spec" };
        env.post_json(path, Some(PRO), json!({"input": input}), 200)
            .await;
    }
    env.post_json(
        "/fast-spec",
        Some(ORG),
        json!({"input": "Org alpha app"}),
        200,
    )
    .await;
    let l = env.get_json("/list-specs", Some(PRO), 200).await;
    assert_eq!(l["total"], 3);
    assert_eq!(l["hasMore"], false);
    assert_eq!(l["specs"][0]["input"], "alpha photo gallery");
    let l = env.get_json("/list-specs?limit=2", Some(PRO), 200).await;
    assert_eq!(l["specs"].as_array().unwrap().len(), 2);
    assert_eq!(l["hasMore"], true);
    let l = env
        .get_json("/list-specs?limit=2&skip=2", Some(PRO), 200)
        .await;
    assert_eq!(l["specs"].as_array().unwrap().len(), 1);
    assert_eq!(l["hasMore"], false);
    let l = env
        .get_json("/list-specs?endpoint=deep_spec", Some(PRO), 200)
        .await;
    assert_eq!(l["total"], 1);
    let l = env
        .get_json("/list-specs?status=completed", Some(PRO), 200)
        .await;
    assert_eq!(l["total"], 3);
    let f = env
        .get_json("/find-specs?query=%5Ealpha", Some(PRO), 200)
        .await;
    assert_eq!(f["total"], 2);
    let f = env
        .get_json(
            "/find-specs?query=ALPHA&endpoint=fast_spec&limit=1",
            Some(PRO),
            200,
        )
        .await;
    assert_eq!(f["total"], 2);
    assert_eq!(f["hasMore"], true);
    let f = env
        .get_json("/find-specs?query=alpha", Some(ORG), 200)
        .await;
    assert_eq!(f["total"], 1);
    for bad in [
        "/list-specs?limit=0",
        "/list-specs?limit=101",
        "/list-specs?limit=x",
        "/list-specs?skip=-1",
        "/list-specs?endpoint=slow_spec",
        "/list-specs?status=done",
        "/find-specs",
        "/find-specs?query=(",
        "/find-specs?query=a&limit=500",
    ] {
        let e = env.get_json(bad, Some(PRO), 400).await;
        assert_eq!(e["error"], "Invalid request", "{bad}");
        assert!(e["message"].is_string());
    }
}

#[tokio::test]
async fn free_key_pays_fast_specs_from_twenty_credits() {
    let env = Env::new().await;
    let v = env
        .post_json("/fast-spec", Some(FREE), json!({"input": TODO}), 200)
        .await;
    let used = v["creditsUsed"].as_f64().unwrap();
    assert_eq!(env.credits(FREE).await, 20.0 - used);
}
