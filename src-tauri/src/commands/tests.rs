//! Commands called as the web view calls them (through IPC, on Tauri's mock runtime, over a real
//! `AppState` with in-memory settings and keychain), asserting the exact error bodies the UI
//! reads; and the handler list of lib.rs checked against the one list of commands.

use std::sync::Arc;

use serde_json::{Value, json};
use tauri::Manager;
use tauri::ipc::{CallbackFn, InvokeBody};
use tauri::test::{INVOKE_KEY, MockRuntime, get_ipc_response, mock_builder, mock_context};
use tauri::webview::{InvokeRequest, WebviewWindow, WebviewWindowBuilder};

use specdesk_core::{
    JobKind, JobStatus, KeyKind, MemorySecretStore, MemorySettings, ProfileInput,
    SANDBOX_PROFILE_ID, SilentNotifier,
};

use crate::state::AppState;

/// A mock app managing a fresh `AppState` in a temporary folder, with a few real commands, and
/// its main window.
struct App {
    _app: tauri::App<MockRuntime>,
    window: WebviewWindow<MockRuntime>,
    _dir: tempfile::TempDir,
}

impl App {
    fn new() -> App {
        let dir = tempfile::tempdir().unwrap();
        let state = tauri::async_runtime::block_on(AppState::open(
            dir.path(),
            Arc::new(MemorySettings::default()),
            Arc::new(MemorySecretStore::default()),
            Arc::new(SilentNotifier),
            false,
        ))
        .unwrap()
        .0;
        let app = mock_builder()
            .manage(state)
            .invoke_handler(tauri::generate_handler![
                super::open_external,
                super::set_api_key,
                super::specs::get_spec,
                super::jobs::cancel_job,
                super::jobs::list_jobs,
                super::media::delete_media,
                super::agents::check_tasks,
                super::agents::check_task_data,
                super::agents::keep_draft_values,
                super::agents::draft_values,
                super::gateway::read_text_file,
                super::gateway::read_image_file,
                super::gateway::submit_video,
                super::gateway::raise_spend_cap_today,
                super::recording::save_recording,
                super::activity::activity,
            ])
            .build(mock_context(tauri::test::noop_assets()))
            .unwrap();
        let window = WebviewWindowBuilder::new(&app, "main", Default::default())
            .build()
            .unwrap();
        App {
            _app: app,
            window,
            _dir: dir,
        }
    }

    fn state(&self) -> tauri::State<'_, AppState> {
        self.window.state::<AppState>()
    }

    /// Calls command `cmd` with `args`: its JSON answer, or the JSON it rejected with.
    fn invoke(&self, cmd: &str, args: Value) -> Result<Value, Value> {
        self.send(cmd, InvokeBody::Json(args), Default::default())
    }

    /// Calls command `cmd` with a body of raw bytes and `headers`, as `callBytes` does.
    fn invoke_bytes(
        &self,
        cmd: &str,
        bytes: &[u8],
        headers: &[(&str, &str)],
    ) -> Result<Value, Value> {
        let mut map = tauri::http::HeaderMap::new();
        for (name, value) in headers {
            map.insert(
                tauri::http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
                tauri::http::HeaderValue::from_str(value).unwrap(),
            );
        }
        self.send(cmd, InvokeBody::Raw(bytes.to_vec()), map)
    }

    fn send(
        &self,
        cmd: &str,
        body: InvokeBody,
        headers: tauri::http::HeaderMap,
    ) -> Result<Value, Value> {
        let request = InvokeRequest {
            cmd: cmd.into(),
            callback: CallbackFn(0),
            error: CallbackFn(1),
            url: "tauri://localhost".parse().unwrap(),
            body,
            headers,
            invoke_key: INVOKE_KEY.to_string(),
        };
        get_ipc_response(&self.window, request).map(|body| body.deserialize::<Value>().unwrap())
    }
}

#[test]
fn open_external_refuses_anything_but_a_web_link() {
    let app = App::new();
    assert_eq!(
        app.invoke("open_external", json!({"url": "javascript:alert(1)"})),
        Err(json!({
            "kind": "invalidInput",
            "message": "Only web links (http or https) can be opened.",
            "field": "url",
        }))
    );
    assert_eq!(
        app.invoke("open_external", json!({"url": "not a link"})),
        Err(json!({
            "kind": "invalidInput",
            "message": "That link is not a web address.",
            "field": "url",
        }))
    );
}

#[test]
fn set_api_key_refuses_an_empty_key_and_the_sandbox_profile() {
    let app = App::new();
    let input = ProfileInput {
        name: "Work".into(),
        base_url: app.state().sandbox.base_url().to_owned(),
        key_kind: KeyKind::Personal,
        project_id: None,
    };
    let profile = tauri::async_runtime::block_on(app.state().profiles.add(&input, None)).unwrap();

    assert_eq!(
        app.invoke(
            "set_api_key",
            json!({"profileId": profile.id, "apiKey": "  "})
        ),
        Err(json!({
            "kind": "invalidInput",
            "message": "Paste your API key.",
            "field": "apiKey",
        }))
    );
    assert_eq!(
        app.invoke(
            "set_api_key",
            json!({"profileId": SANDBOX_PROFILE_ID, "apiKey": "sk_live_1"})
        ),
        Err(json!({
            "kind": "invalidInput",
            "message": "The Sandbox uses its own built-in key. Add a connection to use your key.",
            "field": "apiKey",
        }))
    );
}

#[test]
fn get_spec_refuses_a_malformed_id_and_reports_an_unknown_one() {
    let app = App::new();
    assert_eq!(
        app.invoke("get_spec", json!({"specId": "nope"})),
        Err(json!({
            "kind": "invalidInput",
            "message": "A spec id is 24 characters, each 0-9 or a-f; \"nope\" is not one. Copy it again from where you found it.",
            "field": "specId",
        }))
    );
    assert_eq!(
        app.invoke("get_spec", json!({"specId": "0123456789abcdef01234567"})),
        Err(json!({
            "kind": "notFound",
            "message": "The service could not find that. It may have been deleted, or it belongs to another account. (The service said: No spec with this id belongs to this key.)",
            "status": 404,
        }))
    );
}

#[test]
fn jobs_and_media_not_in_the_library_are_not_found() {
    let app = App::new();
    assert_eq!(
        app.invoke("cancel_job", json!({"jobId": 4242})),
        Err(json!({
            "kind": "notFound",
            "message": "That job is no longer in the library.",
        }))
    );
    assert_eq!(
        app.invoke("delete_media", json!({"id": 7})),
        Err(json!({
            "kind": "notFound",
            "message": "That file is no longer in the library.",
        }))
    );
    assert_eq!(
        app.invoke("list_jobs", json!({"kind": null, "limit": 10})),
        Ok(json!([]))
    );
}

#[test]
fn check_tasks_lists_every_problem_with_its_field() {
    let app = App::new();
    let tasks = json!([
        {"url": "https://example.com", "output": {"type": "object"}},
        {"url": "example.com", "maxSteps": 0},
    ]);
    assert_eq!(
        app.invoke("check_tasks", json!({"tasks": tasks, "concurrency": 3})),
        Ok(json!([
            {
                "kind": "invalidInput",
                "message": "Task 2: \"example.com\" is not a full web address. Start it with https:// or http://.",
                "field": "tasks[1].url",
            },
            {
                "kind": "invalidInput",
                "message": "Task 2: the step limit must be at least 1.",
                "field": "tasks[1].maxSteps",
            },
        ]))
    );
    assert_eq!(
        app.invoke(
            "check_tasks",
            json!({"tasks": [{"url": "http://127.0.0.1:9/"}]})
        ),
        Ok(json!([]))
    );
}

#[test]
fn check_task_data_names_each_failing_place() {
    let app = App::new();
    let schema = json!({"type": "object", "required": ["passed", "evidence"],
        "properties": {"passed": {"type": "boolean"}, "evidence": {"type": "string"}}});
    assert_eq!(
        app.invoke(
            "check_task_data",
            json!({"schema": schema, "data": {"passed": "yes"}})
        ),
        Ok(json!([
            {"path": "", "message": "\"evidence\" is a required property"},
            {"path": "/passed", "message": "\"yes\" is not of type \"boolean\""},
        ]))
    );
    assert_eq!(
        app.invoke(
            "check_task_data",
            json!({"schema": schema, "data": {"passed": true, "evidence": "The basket shows 2 items."}})
        ),
        Ok(json!([]))
    );
}

#[test]
fn the_drafts_input_values_are_kept_in_the_keychain_until_none_are_left() {
    let app = App::new();
    assert_eq!(app.invoke("draft_values", json!({})), Ok(json!({})));
    let values = json!({"i-1": "hunter2", "i-2": "ada@example.com", "i-3": ""});
    assert_eq!(
        app.invoke("keep_draft_values", json!({ "values": values })),
        Ok(Value::Null)
    );
    // Blank values are not kept; the rest come back by input id.
    assert_eq!(
        app.invoke("draft_values", json!({})),
        Ok(json!({"i-1": "hunter2", "i-2": "ada@example.com"}))
    );
    assert_eq!(
        app.invoke("keep_draft_values", json!({"values": {"i-3": ""}})),
        Ok(Value::Null)
    );
    assert_eq!(app.invoke("draft_values", json!({})), Ok(json!({})));
}

#[test]
fn read_text_file_reads_only_files_the_user_chose() {
    let app = App::new();
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.md");
    std::fs::write(&notes, "# Streaks\n\nDays in a row.").unwrap();
    let path = notes.display().to_string();
    let refused = app
        .invoke("read_text_file", json!({ "path": path }))
        .unwrap_err();
    assert_eq!(
        (refused["kind"].as_str(), refused["field"].as_str()),
        (Some("invalidInput"), Some("path"))
    );
    app.state().chosen_files.allow(&notes);
    assert_eq!(
        app.invoke("read_text_file", json!({ "path": path })),
        Ok(json!("# Streaks\n\nDays in a row."))
    );
}

#[test]
fn read_image_file_reads_only_images_the_user_dropped_or_chose() {
    let app = App::new();
    let dir = tempfile::tempdir().unwrap();
    let dot = dir.path().join("dot.gif");
    std::fs::write(&dot, b"GIF89a\x01\x00\x01\x00").unwrap();
    let path = dot.display().to_string();
    let refused = app
        .invoke("read_image_file", json!({ "path": path }))
        .unwrap_err();
    assert_eq!(
        (refused["kind"].as_str(), refused["field"].as_str()),
        (Some("invalidInput"), Some("path"))
    );
    app.state().chosen_files.allow(&dot);
    assert_eq!(
        app.invoke("read_image_file", json!({ "path": path })),
        Ok(json!({ "name": "dot.gif", "mediaType": "image/gif", "data": "R0lGODlhAQABAA==" }))
    );
}

#[test]
fn a_call_past_the_spend_cap_is_refused_until_todays_cap_is_raised() {
    let app = App::new();
    let state = app.state();
    let mut settings = state.profiles.settings().unwrap();
    settings
        .spend_caps
        .insert(SANDBOX_PROFILE_ID.to_owned(), 2.0);
    tauri::async_runtime::block_on(state.profiles.save_settings(&settings)).unwrap();
    state
        .library
        .record_metering(
            SANDBOX_PROFILE_ID,
            "v1/images",
            &specdesk_client::Metering {
                request_id: Some("req_1".into()),
                credits_charged: Some(2.0),
                credits_remaining: Some(98.0),
            },
        )
        .unwrap();
    let video = json!({"request": {"model": "sandbox/video-1", "prompt": "A red kite"}});
    assert_eq!(
        app.invoke("submit_video", video.clone()),
        Err(json!({
            "kind": "spendCap",
            "message": "This call was not sent: 2 credits spent today on Sandbox has reached the cap (its daily cap is 2 credits), and the call's cost is only known once it runs. Raise today's cap to send it, or wait until tomorrow.",
            "spendCap": {"profileId": "sandbox", "spent": 2.0, "underWay": 0.0, "limit": 2.0, "estimate": 0.0},
        }))
    );
    assert!(
        state.library.unfinished_jobs().unwrap().is_empty(),
        "nothing was written or sent"
    );
    assert_eq!(
        app.invoke(
            "raise_spend_cap_today",
            json!({"profileId": SANDBOX_PROFILE_ID, "credits": 0})
        ),
        Err(json!({
            "kind": "invalidInput",
            "message": "Raise the cap by a number of credits above 0 and up to 1,000,000.",
            "field": "credits",
        }))
    );
    let mut raised = app
        .invoke(
            "raise_spend_cap_today",
            json!({"profileId": SANDBOX_PROFILE_ID, "credits": 1.5}),
        )
        .unwrap();
    let date = raised.as_object_mut().unwrap().remove("date").unwrap();
    assert_eq!(date.as_str().map(str::len), Some(10), "{date}");
    assert_eq!(
        raised,
        json!({"profileId": "sandbox", "spent": 2.0, "dailyCap": 2.0, "raised": 1.5, "limit": 3.5})
    );
    // Under the raised cap the call goes.
    let job = app.invoke("submit_video", video);
    assert!(
        job.as_ref()
            .err()
            .is_none_or(|e| e["kind"] != json!("spendCap")),
        "{job:?}"
    );
}

#[test]
fn save_recording_keeps_raw_pcm_as_a_wav_take_and_refuses_anything_else() {
    let app = App::new();
    // Half a second of 16 kHz samples, as the window sends them.
    let pcm: Vec<u8> = (0..8000i16).flat_map(|i| (i % 64).to_le_bytes()).collect();
    let item = app
        .invoke_bytes("save_recording", &pcm, &[("x-recording-rate", "16000")])
        .unwrap();
    assert_eq!(item["kind"], "audio");
    assert_eq!(item["model"], "microphone");
    assert_eq!(item["profileId"], "sandbox");
    assert_eq!(
        item["settings"],
        json!({"source": "microphone", "seconds": 0.5})
    );
    let path = std::path::PathBuf::from(item["path"].as_str().unwrap());
    assert!(
        path.starts_with(&app.state().media_dir),
        "{}",
        path.display()
    );
    let wav = std::fs::read(&path).unwrap();
    assert_eq!(&wav[..4], b"RIFF");
    assert_eq!(wav.len(), 44 + pcm.len());

    let damaged = Err(json!({
        "kind": "invalidInput",
        "message": "The recording arrived damaged. Record again; if it keeps happening, restart Specdesk.",
        "field": "recording",
    }));
    assert_eq!(app.invoke_bytes("save_recording", &pcm, &[]), damaged);
    assert_eq!(
        app.invoke("save_recording", json!({"pcm": [1, 2]})),
        Err(json!({
            "kind": "invalidInput",
            "message": "Specdesk received no recording. Record again.",
            "field": "recording",
        }))
    );
}

/// The paths of lib.rs's `tauri::generate_handler![...]`, in order.
fn handler_paths(lib_rs: &str) -> Vec<&str> {
    let start = lib_rs
        .find("tauri::generate_handler![")
        .expect("lib.rs registers its commands with tauri::generate_handler!")
        + "tauri::generate_handler![".len();
    let end = start + lib_rs[start..].find(']').expect("the handler list ends");
    lib_rs[start..end]
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect()
}

/// The paths of `commands.list`, in order.
fn listed_paths(list: &str) -> Vec<&str> {
    list.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

#[test]
fn lib_rs_registers_exactly_the_commands_of_the_list() {
    let mut listed = listed_paths(include_str!("../../commands.list"));
    let mut registered = handler_paths(include_str!("../lib.rs"));
    assert!(listed.len() > 50, "{listed:?}");
    listed.sort_unstable();
    registered.sort_unstable();
    assert_eq!(
        registered, listed,
        "src-tauri/src/lib.rs's generate_handler! must name exactly the paths of src-tauri/commands.list"
    );
}

#[test]
fn every_running_job_is_in_the_activity_list_however_many_came_after_it() {
    let app = App::new();
    let library = &app.state().library;
    let long = library
        .insert_job(
            JobKind::Batch,
            SANDBOX_PROFILE_ID,
            None,
            &json!({"tasks": [{"url": "https://a.test"}]}),
        )
        .unwrap();
    for n in 0..60 {
        let spec = library
            .insert_job(
                JobKind::Spec,
                SANDBOX_PROFILE_ID,
                None,
                &json!({"input": format!("Spec {n}")}),
            )
            .unwrap();
        library
            .update_job(spec.id, JobStatus::Completed, None, None, None)
            .unwrap();
    }
    let listed = app.invoke("activity", json!({})).unwrap();
    let ids: Vec<&str> = listed
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids.len(),
        11,
        "the running batch and the 10 newest that ended"
    );
    assert_eq!(ids[0], format!("job-{}", long.id), "running first");
}
