use super::jobs::{ENDED_JOBS_KEPT, job_activities, job_activity};
use super::*;
use crate::ipc_error::IpcErrorKind;
use crate::library::{Job, JobKind, JobStatus};

fn job(id: i64, kind: JobKind, status: JobStatus, request: serde_json::Value) -> Job {
    Job {
        id,
        kind,
        profile_id: "sandbox".into(),
        idempotency_key: None,
        request,
        remote_id: None,
        status,
        progress: None,
        result: None,
        error: None,
        created_at: format!("2026-11-28T10:00:{id:02}Z"),
        updated_at: format!("2026-11-28T11:00:{id:02}Z"),
    }
}

#[test]
fn a_call_is_listed_while_it_runs_then_as_it_ended() {
    let board = Board::default();
    let chat = board.start(
        ActivityKind::Chat,
        "  Tell me\nabout   kites",
        ActivityPlace::Studio {
            studio: "chat".into(),
            item: None,
        },
        Some(StopBy::Stream {
            stream_id: "s1".into(),
        }),
    );
    let image = board.start(
        ActivityKind::Image,
        "A kite",
        ActivityPlace::Studio {
            studio: "images".into(),
            item: None,
        },
        None,
    );
    board.place(&chat, ActivityPlace::Conversation { id: 7 });
    let listed = board.list();
    assert_eq!(
        listed
            .iter()
            .map(|a| (a.id.as_str(), a.title.as_str(), a.state))
            .collect::<Vec<_>>(),
        [
            ("stream-s1", "Tell me", ActivityState::Running),
            ("call-2", "A kite", ActivityState::Running),
        ]
    );
    assert_eq!(listed[0].place, ActivityPlace::Conversation { id: 7 });

    board.end(
        &image,
        Ok((
            Some(0.4),
            Some(ActivityPlace::Studio {
                studio: "images".into(),
                item: Some(12),
            }),
        )),
    );
    board.end(
        &chat,
        Err(&IpcError::new(IpcErrorKind::Cancelled, "Stopped.")),
    );
    let listed = board.list();
    // The newest ended first; an ended call offers no Stop.
    assert_eq!(
        listed
            .iter()
            .map(|a| (a.id.as_str(), a.state, a.stop.is_some()))
            .collect::<Vec<_>>(),
        [
            ("stream-s1", ActivityState::Stopped, false),
            ("call-2", ActivityState::Done, false),
        ]
    );
    assert_eq!(listed[1].credits, Some(0.4));
    assert_eq!(
        listed[1].place,
        ActivityPlace::Studio {
            studio: "images".into(),
            item: Some(12)
        }
    );
    assert!(listed.iter().all(|a| a.ended_at.is_some()));

    let failing = board.start(
        ActivityKind::Speech,
        "Hello",
        ActivityPlace::Studio {
            studio: "speech".into(),
            item: None,
        },
        None,
    );
    let refused = IpcError::new(IpcErrorKind::Network, "The service could not be reached.");
    board.end(&failing, Err(&refused));
    assert_eq!(board.list()[0].error, Some(refused));
    // Only the newest ended stay.
    for n in 0..ENDED_KEPT {
        let id = board.start(
            ActivityKind::Rerank,
            &format!("q{n}"),
            ActivityPlace::Studio {
                studio: "rerank".into(),
                item: None,
            },
            None,
        );
        board.end(&id, Ok((None, None)));
    }
    assert_eq!(board.list().len(), ENDED_KEPT);
}

#[test]
fn a_long_title_is_cut_at_a_word() {
    let long = "word ".repeat(40);
    let title = title_of(&long);
    assert!(title.ends_with("word…"), "{title}");
    assert!(title.chars().count() <= 120);
    assert_eq!(title_of(""), "");
}

#[test]
fn jobs_are_entries_with_their_place_progress_and_stop() {
    let mut spec = job(
        1,
        JobKind::Spec,
        JobStatus::Submitted,
        serde_json::json!({"input": "A tool library\nfor neighbours", "depth": "fast"}),
    );
    spec.remote_id = Some("6741a0c3e4b0f1a2b3c4d5e6".into());
    spec.progress = Some("Writing the stories".into());
    let mut batch = job(
        2,
        JobKind::Batch,
        JobStatus::Running,
        serde_json::json!({"tasks": [{}, {}, {}]}),
    );
    batch.progress = Some("2 of 3 tasks finished".into());
    let held = job(
        3,
        JobKind::Batch,
        JobStatus::Queued,
        serde_json::json!({"tasks": [{}]}),
    );
    let mut video = job(
        4,
        JobKind::Video,
        JobStatus::Failed,
        serde_json::json!({"prompt": "A wave", "model": "v"}),
    );
    video.error = Some(IpcError::new(
        IpcErrorKind::InsufficientCredits,
        "Top up to make this video.",
    ));

    let a = job_activity(&spec);
    assert_eq!(
        (a.id.as_str(), a.kind, a.title.as_str(), a.state),
        (
            "job-1",
            ActivityKind::Spec,
            "A tool library",
            ActivityState::Running
        )
    );
    assert_eq!(
        a.place,
        ActivityPlace::Spec {
            spec_id: Some("6741a0c3e4b0f1a2b3c4d5e6".into())
        }
    );
    assert_eq!(a.status_text.as_deref(), Some("Writing the stories"));
    // The service has it: it cannot be stopped.
    assert_eq!(a.stop, None);

    let b = job_activity(&batch);
    assert_eq!(
        (b.title.as_str(), b.progress, b.place.clone()),
        (
            "Batch of 3 tasks",
            Some((2, 3)),
            ActivityPlace::Batch { batch_id: None }
        )
    );
    let h = job_activity(&held);
    assert_eq!(
        (h.title.as_str(), h.stop.clone()),
        ("Batch of 1 task", Some(StopBy::Job { job_id: 3 }))
    );
    let v = job_activity(&video);
    assert_eq!(
        (v.state, v.error.as_ref().map(|e| e.kind.clone())),
        (
            ActivityState::Failed,
            Some(IpcErrorKind::InsufficientCredits)
        )
    );
    assert_eq!(v.ended_at.as_deref(), Some("2026-11-28T11:00:04Z"));
    assert_eq!(
        v.place,
        ActivityPlace::Studio {
            studio: "video".into(),
            item: None
        }
    );
}

#[test]
fn a_job_says_the_credits_its_last_reading_gave() {
    let spec = job(1, JobKind::Spec, JobStatus::Running, serde_json::json!({}));
    assert_eq!(job_activity(&spec).credits, None, "nothing read yet");
    for (kind, result, credits) in [
        (
            JobKind::Spec,
            serde_json::json!({"status": "processing", "creditsUsed": 1.25}),
            1.25,
        ),
        (
            JobKind::Batch,
            serde_json::json!({"id": "b1", "totalCreditsUsed": 0.6}),
            0.6,
        ),
        (
            JobKind::Video,
            serde_json::json!({"mediaId": 4, "credits": 6.0}),
            6.0,
        ),
    ] {
        let mut j = job(2, kind, JobStatus::Running, serde_json::json!({}));
        j.result = Some(result);
        assert_eq!(job_activity(&j).credits, Some(credits), "{kind:?}");
    }
}

#[test]
fn the_list_keeps_every_running_job_and_the_newest_ended_ones() {
    let mut jobs = vec![job(
        40,
        JobKind::Spec,
        JobStatus::Running,
        serde_json::json!({"input": "Still going"}),
    )];
    // The ledger lists the newest first.
    for id in (1..=(ENDED_JOBS_KEPT as i64 + 3)).rev() {
        jobs.push(job(
            id,
            JobKind::Spec,
            JobStatus::Completed,
            serde_json::json!({"input": format!("Spec {id}")}),
        ));
    }
    let listed = job_activities(&jobs);
    assert_eq!(listed.len(), ENDED_JOBS_KEPT + 1);
    assert_eq!(listed[0].title, "Still going");

    let board = Board::default();
    let call = board.start(
        ActivityKind::Image,
        "A kite",
        ActivityPlace::Studio {
            studio: "images".into(),
            item: None,
        },
        None,
    );
    let all = compose(board.list(), listed);
    // Running first, oldest first; then the ended, newest first.
    assert_eq!(all[0].title, "Still going");
    assert_eq!(all[1].id, call);
    assert_eq!(all[2].title, format!("Spec {}", ENDED_JOBS_KEPT + 3));
}
