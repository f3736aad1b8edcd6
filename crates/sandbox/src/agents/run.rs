//! Running a batch: each task fetches its start URL for real, then follows the fixed outcome rule
//! (ERROR, BLOCKED, CAPTCHA_FAILED, TIMEOUT, LOOP, NO_TARGET, else SUCCESS), emitting its events
//! on the way, and is charged when it ends.

use super::events::{emit, finish};
use super::extract::{extract, quoted_targets};
use super::paced::run_paced;
use super::{CHUNK, complete_batch, result_for};
use crate::media;
use crate::state::App;
use crate::util;
use base64::Engine;
use serde_json::{Value, json};
use specdesk_types::{
    ActionEvent, BrowserTask, NavigationEvent, PlanEvent, PlannedAction, SandboxEvent,
    ScreenshotEvent, TaskDoneEvent, TaskErrorEvent, TaskEventKind, TaskStatus, ValidationEvent,
    WaitingEvent,
};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub(super) async fn run_batch(app: App, id: String, tasks: Vec<BrowserTask>, concurrency: usize) {
    let pace = app.runtime().agents_pace;
    if let Some(pace) = pace {
        return run_paced(app, id, tasks, concurrency, pace).await;
    }
    let sem = Arc::new(tokio::sync::Semaphore::new(concurrency));
    let mut set = tokio::task::JoinSet::new();
    for (i, t) in tasks.into_iter().enumerate() {
        let Ok(permit) = sem.clone().acquire_owned().await else {
            break;
        };
        let app = app.clone();
        let id = id.clone();
        set.spawn(async move {
            let _permit = permit;
            run_task(&app, &id, i, &t).await;
        });
    }
    while set.join_next().await.is_some() {}
    complete_batch(&app, &id);
}

/// A fetched page.
pub(super) struct Page {
    /// The final URL (after redirects).
    pub url: String,
    pub status: u16,
    pub html: String,
}

enum Fetch {
    Page(Page),
    Failed(String),
    TimedOut,
}

async fn fetch(app: &App, url: &str, limit: Duration) -> Fetch {
    let parsed = match url::Url::parse(url) {
        Ok(u) if matches!(u.scheme(), "http" | "https") => u,
        _ => return Fetch::Failed(format!("Not an http(s) URL: {url}")),
    };
    let work = async {
        let resp = app.http().get(parsed).send().await?;
        let status = resp.status().as_u16();
        let final_url = resp.url().to_string();
        let html = resp.text().await?;
        Ok::<_, reqwest::Error>(Page {
            url: final_url,
            status,
            html,
        })
    };
    match tokio::time::timeout(limit, work).await {
        Err(_) => Fetch::TimedOut,
        Ok(Ok(p)) => Fetch::Page(p),
        Ok(Err(e)) if e.is_timeout() => Fetch::TimedOut,
        Ok(Err(e)) => Fetch::Failed(if e.is_connect() {
            format!("Could not connect to {url}: connection refused or unknown host.")
        } else {
            format!("Could not load {url}: {e}")
        }),
    }
}

/// How a task ended: what its last event and its result carry.
struct Ending {
    status: TaskStatus,
    data: Option<Value>,
    steps: u32,
    error: Option<String>,
}

impl Ending {
    fn failed(status: TaskStatus, steps: u32, error: impl Into<String>) -> Ending {
        Ending {
            status,
            data: None,
            steps,
            error: Some(error.into()),
        }
    }
}

/// One task on its way: where its events go, its time limit, and the steps taken so far.
struct TaskRun<'a> {
    app: &'a App,
    id: &'a str,
    i: usize,
    t: &'a BrowserTask,
    started: Instant,
    limit_ms: u64,
    limit: Duration,
    steps: u32,
}

/// Runs task `i` of batch `id` to its end, recording every event and the result.
async fn run_task(app: &App, id: &str, i: usize, t: &BrowserTask) {
    let started = Instant::now();
    let mut limit_ms = t.timeout_ms.unwrap_or(240_000);
    if let Some(s) = t.max_duration_seconds {
        limit_ms = limit_ms.min(s.saturating_mul(1000));
    }
    let mut run = TaskRun {
        app,
        id,
        i,
        t,
        started,
        limit_ms,
        limit: Duration::from_millis(limit_ms),
        steps: 0,
    };
    let ending = match run.work().await {
        Ok(e) | Err(e) => e,
    };
    run.end(ending);
}

impl TaskRun<'_> {
    fn emit(&self, kind: TaskEventKind) {
        emit(self.app, self.id, self.i, kind);
    }

    fn timed_out(&self) -> Ending {
        Ending::failed(
            TaskStatus::Timeout,
            1,
            format!(
                "The task took longer than its limit of {} ms.",
                self.limit_ms
            ),
        )
    }

    /// The last event (`done` for SUCCESS, else `error`), then the result.
    fn end(&self, e: Ending) {
        let d = self.started.elapsed().as_millis() as f64;
        let kind = if e.status == TaskStatus::Success {
            TaskEventKind::Done(TaskDoneEvent {
                status: e.status.clone(),
                data: e.data.clone(),
                duration_ms: Some(d),
            })
        } else {
            TaskEventKind::Error(TaskErrorEvent {
                status: e.status.clone(),
                error: e.error.clone(),
                duration_ms: Some(d),
            })
        };
        self.emit(kind);
        let r = result_for(self.t, e.status, e.data, e.steps, d, e.error);
        finish(self.app, self.id, self.i, r);
    }

    /// Loads the page, looks at it, follows the plan and reads the data: the SUCCESS ending, or
    /// the first rule that ended the task early.
    async fn work(&mut self) -> Result<Ending, Ending> {
        self.emit(TaskEventKind::Sandbox(SandboxEvent {
            status: "starting".into(),
        }));
        tokio::time::sleep(self.app.sim(300)).await;
        let (page, title) = self.load().await?;
        let text = util::html_text(&page.html);
        self.screenshot(&page, &title, &text);
        let lower = text.to_lowercase();
        self.look(&lower)?;
        self.act(&lower).await?;
        let data = self.output(&page, &title, &text)?;
        self.steps += 1;
        self.emit(TaskEventKind::Plan(PlanEvent {
            actions: Vec::new(),
            notes: Some("Goal reached.".into()),
            done: true,
            captcha_detected: false,
        }));
        Ok(Ending {
            status: TaskStatus::Success,
            data: Some(data),
            steps: self.steps,
            error: None,
        })
    }

    /// Fetches the start URL within the time limit: the page and its title. A refused or failed
    /// load ends the task.
    async fn load(&self) -> Result<(Page, String), Ending> {
        let left = self.limit.saturating_sub(self.started.elapsed());
        let page = match fetch(self.app, &self.t.url, left).await {
            Fetch::TimedOut => return Err(self.timed_out()),
            Fetch::Failed(e) => return Err(Ending::failed(TaskStatus::Error, 1, e)),
            Fetch::Page(p) => p,
        };
        let title = util::html_title(&page.html).unwrap_or_default();
        self.emit(TaskEventKind::Navigation(NavigationEvent {
            url: page.url.clone(),
            title: Some(title.clone()),
        }));
        if page.status == 401 || page.status == 403 {
            return Err(Ending::failed(
                TaskStatus::Blocked,
                1,
                format!("The site refused access (HTTP {}).", page.status),
            ));
        }
        if page.status >= 400 {
            return Err(Ending::failed(
                TaskStatus::Error,
                1,
                format!("The page answered HTTP {}.", page.status),
            ));
        }
        Ok((page, title))
    }

    /// A PNG of the page, base64 in chunks of [`CHUNK`] characters.
    fn screenshot(&self, page: &Page, title: &str, text: &str) {
        let png = media::page_png(&page.url, title, text);
        let b64 = base64::engine::general_purpose::STANDARD.encode(png);
        let chunks: Vec<&str> = b64
            .as_bytes()
            .chunks(CHUNK)
            .map(|c| std::str::from_utf8(c).unwrap_or(""))
            .collect();
        for (k, c) in chunks.iter().enumerate() {
            self.emit(TaskEventKind::Screenshot(ScreenshotEvent {
                url: Some(page.url.clone()),
                mime_type: "image/png".into(),
                chunk_index: k as u32,
                chunk_count: chunks.len() as u32,
                data: Some((*c).to_owned()),
            }));
        }
    }

    /// What the page text says before acting: a Cloudflare wait, a captcha (which ends the task),
    /// and the time limit.
    fn look(&mut self, lower: &str) -> Result<(), Ending> {
        if lower.contains("cloudflare") || lower.contains("just a moment") {
            self.emit(TaskEventKind::Waiting(WaitingEvent {
                reason: "cloudflare".into(),
            }));
        }
        if lower.contains("captcha") {
            self.steps += 1;
            self.emit(TaskEventKind::Plan(PlanEvent {
                actions: Vec::new(),
                notes: Some("A captcha blocks the page.".into()),
                done: false,
                captcha_detected: true,
            }));
            self.emit(TaskEventKind::Waiting(WaitingEvent {
                reason: "captcha".into(),
            }));
            return Err(Ending::failed(
                TaskStatus::CaptchaFailed,
                self.steps,
                "A captcha could not be solved.",
            ));
        }
        if self.started.elapsed() > self.limit {
            return Err(self.timed_out());
        }
        Ok(())
    }

    /// The plan (fill every input, then click each quoted target), then its actions one by one.
    async fn act(&mut self, lower: &str) -> Result<(), Ending> {
        let targets = quoted_targets(self.t.instruction.as_deref().unwrap_or(""));
        let mut actions: Vec<PlannedAction> = self
            .t
            .input
            .iter()
            .flatten()
            .map(|(k, v)| PlannedAction {
                action_type: Some("fill".into()),
                selector: Some(format!("[name=\"{k}\"]")),
                value: Some(v.clone()),
            })
            .collect();
        actions.extend(targets.iter().map(|tg| PlannedAction {
            action_type: Some("click".into()),
            selector: Some(format!("text=\"{tg}\"")),
            value: None,
        }));
        self.steps += 1;
        self.emit(TaskEventKind::Plan(PlanEvent {
            actions: actions.clone(),
            notes: self
                .t
                .instruction
                .clone()
                .or_else(|| Some("Read the page.".into())),
            done: false,
            captcha_detected: false,
        }));
        let max_steps = self.t.max_steps.unwrap_or(u32::MAX);
        if max_steps < 3 {
            if let Some(a) = actions.first() {
                self.steps += 1;
                self.emit(action_event(a, true, "Done."));
            }
            return Err(Ending::failed(
                TaskStatus::Loop,
                self.steps,
                format!("Stopped after {max_steps} steps without reaching the goal."),
            ));
        }
        for a in &actions {
            tokio::time::sleep(self.app.sim(300)).await;
            self.steps += 1;
            let ok = match a.action_type.as_deref() {
                Some("click") => {
                    let tg = a
                        .selector
                        .as_deref()
                        .and_then(|s| s.strip_prefix("text=\""))
                        .and_then(|s| s.strip_suffix('"'))
                        .unwrap_or("");
                    lower.contains(&tg.to_lowercase())
                }
                _ => true,
            };
            let msg = if ok {
                "Done."
            } else {
                "Target not found on the page."
            };
            self.emit(action_event(a, ok, msg));
            if !ok {
                return Err(Ending::failed(
                    TaskStatus::NoTarget,
                    self.steps,
                    format!(
                        "Could not find {} on the page.",
                        a.selector.clone().unwrap_or_default()
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The task's data: what `output` asks for (validated against it), else the page's title, URL
    /// and first 500 characters of text.
    fn output(&self, page: &Page, title: &str, text: &str) -> Result<Value, Ending> {
        let Some(schema) = &self.t.output else {
            let excerpt: String = text.chars().take(500).collect();
            return Ok(json!({"title": title, "url": page.url, "text": excerpt}));
        };
        let (data, missing) = extract(
            schema,
            page,
            title,
            self.t.instruction.as_deref().unwrap_or(""),
        );
        let ok = missing.is_empty()
            && jsonschema::validator_for(schema).is_ok_and(|v| v.is_valid(&data));
        self.emit(TaskEventKind::Validation(ValidationEvent { ok }));
        if ok {
            return Ok(data);
        }
        let why = if missing.is_empty() {
            "The extracted data does not match the output schema.".to_owned()
        } else {
            format!("Not found on the page: {}.", missing.join(", "))
        };
        Err(Ending {
            status: TaskStatus::NoTarget,
            data: Some(data),
            steps: self.steps,
            error: Some(why),
        })
    }
}

fn action_event(a: &PlannedAction, ok: bool, msg: &str) -> TaskEventKind {
    TaskEventKind::Action(ActionEvent {
        action_type: a.action_type.clone(),
        selector: a.selector.clone(),
        success: ok,
        message: Some(msg.to_owned()),
    })
}
