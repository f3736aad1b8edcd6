//! `POST /v1/images` (real PNGs) and video jobs (`POST /v1/videos`, status, content as MP4),
//! charged when a status poll first reports `completed`.

use super::{Gate, begin, credits_for, find_model, invalid};
use crate::errors::{self, Resp};
use crate::media;
use crate::state::{App, VideoRec};
use crate::util;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, header};
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use base64::Engine;
use serde_json::{Value, json};

pub fn routes() -> Router<App> {
    Router::new()
        .route("/v1/images", post(images))
        .route("/v1/images/generations", post(images))
        .route("/v1/videos", post(create_video))
        .route("/v1/videos/{id}", get(video_status))
        .route("/v1/videos/{id}/content", get(video_content))
}

fn size(v: &Value) -> Result<(u32, u32), String> {
    match v.get("size") {
        None | Some(Value::Null) => Ok((512, 512)),
        Some(Value::String(s)) => {
            let (w, h) = s.split_once('x').ok_or("`size` must be \"WxH\".")?;
            let w: u32 = w.trim().parse().map_err(|_| "`size` must be \"WxH\".")?;
            let h: u32 = h.trim().parse().map_err(|_| "`size` must be \"WxH\".")?;
            if !(16..=2048).contains(&w) || !(16..=2048).contains(&h) {
                return Err("`size` sides must be 16 to 2048 pixels.".into());
            }
            Ok((w, h))
        }
        Some(_) => Err("`size` must be \"WxH\".".into()),
    }
}

async fn images(State(app): State<App>, headers: HeaderMap, body: axum::body::Bytes) -> Resp {
    let meter = begin(&app, &headers, Gate::Full, 0.4)?;
    let fail = |r| Err(meter.fail(&app, r));
    let Ok(v) = serde_json::from_slice::<Value>(&body) else {
        return fail(invalid("Body must be JSON {model, prompt, n?, size?}."));
    };
    let model = v.get("model").and_then(Value::as_str).unwrap_or("");
    let def = match find_model(model) {
        Some(d) if d.kind == "image" => d,
        Some(_) => return fail(invalid(&format!("`{model}` does not make images."))),
        None => return fail(super::unknown_model(model)),
    };
    let Some(prompt) = v
        .get("prompt")
        .and_then(Value::as_str)
        .filter(|p| !p.trim().is_empty())
    else {
        return fail(invalid("`prompt` must be a non-empty string."));
    };
    let n = match v.get("n") {
        None | Some(Value::Null) => 1,
        Some(n) => match n.as_u64() {
            Some(n @ 1..=4) => n as u32,
            _ => return fail(invalid("`n` must be an integer from 1 to 4.")),
        },
    };
    let (w, h) = match size(&v) {
        Ok(s) => s,
        Err(e) => return fail(invalid(&e)),
    };
    let data: Vec<Value> = (0..n)
        .map(|i| {
            let png = media::prompt_png(prompt, i, w, h);
            json!({"b64_json": base64::engine::general_purpose::STANDARD.encode(png)})
        })
        .collect();
    let cost = util::round6(def.price_in * n as f64);
    let body = json!({
        "created": app.now() / 1000,
        "data": data,
        "usage": {"cost": cost},
    });
    Ok(meter.done(&app, Json(body).into_response(), credits_for(cost)))
}

fn seconds(v: &Value) -> Result<u32, String> {
    let s = match v.get("seconds") {
        None | Some(Value::Null) => return Ok(4),
        Some(Value::String(s)) => s.trim().parse::<u32>().ok(),
        Some(n) => n.as_u64().map(|n| n as u32),
    };
    match s {
        Some(s @ 1..=20) => Ok(s),
        _ => Err(
            "`seconds` must be a whole number of seconds from 1 to 20, as a string (\"4\").".into(),
        ),
    }
}

/// Status, progress at `now`.
fn status(v: &VideoRec, now: i64) -> (&'static str, f64) {
    if now >= v.due {
        return (if v.fail { "failed" } else { "completed" }, 100.0);
    }
    let span = (v.due - v.created).max(1) as f64;
    let frac = (now - v.created) as f64 / span;
    if frac < 0.2 {
        ("queued", 0.0)
    } else {
        ("in_progress", ((frac * 100.0).floor()).min(99.0))
    }
}

fn job(v: &VideoRec, now: i64) -> Value {
    let (st, progress) = status(v, now);
    let mut j = json!({
        "id": v.id,
        "object": "video",
        "status": st,
        "progress": progress,
        "model": v.model,
        "prompt": v.prompt,
        "seconds": v.seconds,
        "size": v.size,
        "created_at": v.created / 1000,
    });
    match st {
        "completed" => {
            j["completed_at"] = json!(v.due / 1000);
            j["usage"] = json!({"cost": v.cost});
        }
        "failed" => {
            j["completed_at"] = json!(v.due / 1000);
            j["error"] = json!({"code": "generation_failed", "message": "The prompt asked the sandbox to fail ([sandbox:fail])."});
        }
        _ => {}
    }
    j
}

async fn create_video(State(app): State<App>, headers: HeaderMap, body: axum::body::Bytes) -> Resp {
    let meter = begin(&app, &headers, Gate::Full, 4.0)?;
    let fail = |r| Err(meter.fail(&app, r));
    let Ok(v) = serde_json::from_slice::<Value>(&body) else {
        return fail(invalid(
            "Body must be JSON {model, prompt, seconds?, size?}.",
        ));
    };
    let model = v.get("model").and_then(Value::as_str).unwrap_or("");
    let def = match find_model(model) {
        Some(d) if d.kind == "video" => d,
        Some(_) => return fail(invalid(&format!("`{model}` does not make videos."))),
        None => return fail(super::unknown_model(model)),
    };
    let Some(prompt) = v
        .get("prompt")
        .and_then(Value::as_str)
        .filter(|p| !p.trim().is_empty())
    else {
        return fail(invalid("`prompt` must be a non-empty string."));
    };
    let secs = match seconds(&v) {
        Ok(s) => s,
        Err(e) => return fail(invalid(&e)),
    };
    let now = app.now();
    let rec = VideoRec {
        id: format!("video_{}", util::random_hex(24)),
        owner: meter.user.id.clone(),
        model: model.to_owned(),
        prompt: prompt.to_owned(),
        seconds: secs.to_string(),
        size: v
            .get("size")
            .and_then(Value::as_str)
            .unwrap_or("96x64")
            .to_owned(),
        created: now,
        due: now + app.sim(2_000 + 1_000 * secs as u64).as_millis() as i64,
        fail: prompt.contains("[sandbox:fail]"),
        charged: false,
        cost: util::round6(def.price_in * secs as f64),
    };
    let mut body = job(&rec, now);
    // A new job always reads as queued.
    body["status"] = json!("queued");
    body["progress"] = json!(0);
    if let Some(o) = body.as_object_mut() {
        o.remove("completed_at");
        o.remove("usage");
        o.remove("error");
    }
    app.data().videos.insert(rec.id.clone(), rec);
    app.touch();
    Ok(meter.done(&app, Json(body).into_response(), 0.0))
}

fn not_found() -> axum::response::Response {
    errors::gw("not_found", "No video job with this id in this workspace.")
}

async fn video_status(State(app): State<App>, headers: HeaderMap, Path(id): Path<String>) -> Resp {
    let meter = begin(&app, &headers, Gate::RateOnly, 0.0)?;
    let (body, charge) = {
        let mut d = app.data();
        let now = d.now();
        let Some(v) = d.videos.get_mut(&id).filter(|v| v.owner == meter.user.id) else {
            drop(d);
            return Err(meter.fail(&app, not_found()));
        };
        let body = job(v, now);
        let charge = if body["status"] == "completed" && !v.charged {
            v.charged = true;
            credits_for(v.cost)
        } else {
            0.0
        };
        (body, charge)
    };
    if charge > 0.0 {
        app.touch();
    }
    Ok(meter.done(&app, Json(body).into_response(), charge))
}

async fn video_content(State(app): State<App>, headers: HeaderMap, Path(id): Path<String>) -> Resp {
    let meter = begin(&app, &headers, Gate::RateOnly, 0.0)?;
    let rec = {
        let d = app.data();
        let now = d.now();
        d.videos
            .get(&id)
            .filter(|v| v.owner == meter.user.id && status(v, now).0 == "completed")
            .cloned()
    };
    let Some(rec) = rec else {
        return Err(meter.fail(&app, not_found()));
    };
    let secs: u32 = rec.seconds.parse().unwrap_or(4);
    let mp4 = media::video_mp4(&rec.prompt, secs);
    let resp = ([(header::CONTENT_TYPE, "video/mp4")], mp4).into_response();
    Ok(meter.done(&app, resp, 0.0))
}
