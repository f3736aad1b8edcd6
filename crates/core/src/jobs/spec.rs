//! Following an async spec to its end, and finding a spec whose id never arrived.

use std::sync::Arc;

use futures::StreamExt;
use specdesk_client::{Client, Metering, SpecListQuery};
use specdesk_types::{SpecStatus, SpecStatusResponse};

use super::SpecJobRequest;
use super::runner::{Halt, Inner, Step, request_of, retry_delays, to_json};
use crate::ipc_error::{IpcError, IpcErrorKind};
use crate::library::{Job, JobKind, JobStatus};

/// Shown when a spec's id never arrived and the service has no such spec.
pub const SPEC_NOT_STARTED: &str = "The service never confirmed this spec and does not list it, so it was most likely not started (a spec that is not started is not charged). Your description is kept: send it again. If the spec shows up on the service later, Specdesk attaches it here.";

/// How far back failed specs are looked for on the service when the runner starts.
const LATE_SPEC_WINDOW: time::Duration = time::Duration::days(7);

/// On start: a spec failed as not started that the service lists after all is attached to its
/// job, which is followed again (never lost). Errors only mean it is looked for next time.
pub(super) async fn attach_late_specs(inner: &Inner) {
    let since = (time::OffsetDateTime::now_utc() - LATE_SPEC_WINDOW)
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default();
    let Ok(jobs) = inner.library.unattached_failed_specs(&since) else {
        return;
    };
    for job in jobs {
        if job.error.as_ref().map(|e| e.message.as_str()) != Some(SPEC_NOT_STARTED) {
            continue;
        }
        let Ok(client) = inner.clients.client_for(&job.profile_id).await else {
            continue;
        };
        if let Ok(Some(spec_id)) = find_sent_spec(inner, &client, &job).await
            && let Ok(true) = inner.library.reattach_job(job.id, &spec_id)
        {
            tracing::info!(job_id = job.id, %spec_id, "a spec that showed up late was attached to its job");
            let _ = inner.emit(job.id);
        }
    }
}

pub(super) async fn follow_spec(inner: &Arc<Inner>, mut job: Job) -> Step {
    let client = inner.clients.client_for(&job.profile_id).await?;
    let spec_id = match job.remote_id.clone() {
        Some(id) => id,
        None => {
            let id = search_sent_spec(inner, &client, &mut job).await?;
            tracing::info!(job_id = job.id, spec_id = %id, "a spec whose answer was lost was found");
            inner.library.set_remote_id(job.id, &id)?;
            job = inner.emit(job.id)?;
            id
        }
    };
    // The built-in Sandbox (a loopback address) is followed every second, any other service at
    // the settings' interval.
    let (interval, jitter) = {
        let c = inner.config();
        super::spec_poll_timing(
            client.config().base_url(),
            c.spec_poll_interval,
            c.poll_jitter,
        )
    };
    let mut statuses = std::pin::pin!(
        client
            .specs()
            .wait_for_spec_every(&spec_id, interval, jitter)
    );
    while let Some(status) = statuses.next().await {
        let status = status?;
        match &status.status {
            SpecStatus::Pending => {
                inner.progress(&mut job, JobStatus::Submitted, Some("Waiting to start"))?
            }
            SpecStatus::Completed => return spec_done(inner, &job, &spec_id, &status),
            SpecStatus::Failed => {
                inner
                    .library
                    .cache_spec(&spec_id, &job.profile_id, &to_json(&status)?)?;
                let error = IpcError::failed(
                    status
                        .error_message
                        .as_deref()
                        .unwrap_or("The service could not generate this spec."),
                );
                inner.finish(job.id, JobStatus::Failed, None, None, Some(&error))?;
                return Ok(());
            }
            SpecStatus::Processing | SpecStatus::Unknown(_) => {
                let text = status.progress.as_deref().unwrap_or("Generating");
                inner.progress(&mut job, JobStatus::Running, Some(text))?;
                inner.live_credits(&mut job, &spec_id, status.credits_used)?;
            }
        }
    }
    Err(Halt::Retry(IpcError::new(
        IpcErrorKind::Network,
        "The spec's status could not be read. Specdesk will try again.",
    )))
}

fn spec_done(inner: &Inner, job: &Job, spec_id: &str, status: &SpecStatusResponse) -> Step {
    inner
        .library
        .cache_spec(spec_id, &job.profile_id, &to_json(status)?)?;
    if let Some(plan) = &status.plan {
        inner.library.record_plan(plan)?;
    }
    if let Some(credits) = status.credits_used {
        let endpoint = status
            .endpoint
            .as_ref()
            .map(|e| e.as_str().replace('_', "-"))
            .unwrap_or_else(|| "spec".to_owned());
        inner.library.record_metering(
            &job.profile_id,
            &endpoint,
            &Metering {
                request_id: None,
                credits_charged: Some(credits),
                credits_remaining: None,
            },
        )?;
    }
    let project_id = status
        .project_id
        .clone()
        .or_else(|| status.plan.as_ref().map(|p| p.project_id.clone()));
    let result = serde_json::json!({
        "specId": spec_id,
        "creditsUsed": status.credits_used,
        "totalHumanHours": status.total_human_hours,
        "projectId": project_id,
    });
    inner.finish(
        job.id,
        JobStatus::Completed,
        Some("Done"),
        Some(&result),
        None,
    )
}

/// Looks for the spec of a job whose answer was lost, again and again with growing waits for
/// `find_sent_spec_for` (the service may list it late), then fails the job as not started.
async fn search_sent_spec(inner: &Inner, client: &Client, job: &mut Job) -> Result<String, Halt> {
    let (mut delays, patience) = {
        let c = inner.config();
        (retry_delays(&c), c.find_sent_spec_for)
    };
    let started = tokio::time::Instant::now();
    loop {
        if let Some(id) = find_sent_spec(inner, client, job).await? {
            return Ok(id);
        }
        let delay = delays.next().unwrap_or(patience);
        if started.elapsed() + delay > patience {
            return Err(Halt::Fail(IpcError::failed(SPEC_NOT_STARTED)));
        }
        let status = job.status;
        inner.progress(
            job,
            status,
            Some("Checking whether the service received it"),
        )?;
        tokio::time::sleep(delay).await;
    }
}

fn parse_time(s: &str) -> Option<time::OffsetDateTime> {
    time::OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339).ok()
}

/// A spec sent by `job` whose id never arrived: the oldest spec of the same depth and exactly
/// the same input, created since shortly before the job was written, that no other job follows.
async fn find_sent_spec(inner: &Inner, client: &Client, job: &Job) -> Result<Option<String>, Halt> {
    let request: SpecJobRequest = request_of(job)?;
    if request.input.trim().is_empty() {
        // A file-only spec cannot be told apart by its input.
        return Ok(None);
    }
    let prefix: String = request.input.chars().take(120).collect();
    let query = SpecListQuery {
        limit: Some(50),
        endpoint: Some(request.endpoint()),
        search: Some(format!("^{}", regex::escape(&prefix))),
        ..SpecListQuery::default()
    };
    let page = client.specs().list(&query).await?;
    // Clocks differ: allow the service's clock to be 10 minutes behind.
    let since = parse_time(&job.created_at).map(|t| t - time::Duration::minutes(10));
    let mut found: Option<(time::OffsetDateTime, String)> = None;
    for record in page.specs {
        if record.input != request.input {
            continue;
        }
        let Some(created) = parse_time(&record.created) else {
            continue;
        };
        if since.is_some_and(|s| created < s) {
            continue;
        }
        if inner
            .library
            .job_by_remote_id(JobKind::Spec, &record.id)?
            .is_some()
        {
            continue;
        }
        if found.as_ref().is_none_or(|(t, _)| created < *t) {
            found = Some((created, record.id));
        }
    }
    Ok(found.map(|(_, id)| id))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use futures::future::BoxFuture;
    use specdesk_client::{Client, ClientConfig, SpecSubmission};
    use specdesk_sandbox::{Sandbox, SandboxConfig, keys};

    use crate::ipc_error::IpcError;
    use crate::jobs::{ClientFactory, JobRunner, JobRunnerConfig, SilentNotifier};
    use crate::library::{JobStatus, Library};

    struct OnSandbox(String);

    impl ClientFactory for OnSandbox {
        fn client_for<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<Client, IpcError>> {
            Box::pin(async move {
                let config = ClientConfig::new(&self.0)?.with_api_key(keys::PRO.to_owned());
                Ok(Client::new(config)?)
            })
        }
    }

    /// The settings say 12 s ± 2.5 s; the sandbox (127.0.0.1) keeps a `[sandbox:slow]` spec
    /// processing for 3 real seconds: followed every second, the job completes within about 4 s,
    /// where the settings' interval would take 9.5 s at the least.
    #[tokio::test]
    async fn a_spec_on_the_sandbox_is_followed_every_second_whatever_the_settings() {
        let sb = Sandbox::start(SandboxConfig::ephemeral()).await.unwrap();
        let dir = tempfile::tempdir().unwrap();
        let mut config = JobRunnerConfig::new(dir.path().join("media"));
        config.spec_poll_interval = Duration::from_secs(12);
        config.poll_jitter = Duration::from_millis(2_500);
        let runner = JobRunner::new(
            Arc::new(Library::in_memory().unwrap()),
            Arc::new(OnSandbox(sb.base_url().to_owned())),
            Arc::new(SilentNotifier),
            config,
        );
        let mut changes = runner.subscribe();
        let started = Instant::now();
        let job = runner
            .start_spec(
                "pro",
                &SpecSubmission::fast("A bike repair booking page [sandbox:slow]"),
            )
            .await
            .unwrap();
        loop {
            let change = tokio::time::timeout(Duration::from_secs(20), changes.recv())
                .await
                .expect("the spec did not finish")
                .unwrap();
            if change.id == job.id && change.status == JobStatus::Completed {
                break;
            }
        }
        let took = started.elapsed();
        assert!(took >= Duration::from_secs(3), "{took:?}");
        assert!(took < Duration::from_millis(6_500), "{took:?}");
    }

    #[test]
    fn an_input_searched_for_is_a_literal_pattern_the_service_accepts() {
        let input = "A (todo) app? $5 + [tags] {x} ^a|b \\ . #1 - ~ & done";
        let pattern = format!("^{}", regex::escape(input));
        specdesk_client::validate::search_pattern(&pattern).unwrap();
        let re = regex::Regex::new(&pattern).unwrap();
        assert!(re.is_match(input));
        assert!(!re.is_match("A todo app"));
    }
}
