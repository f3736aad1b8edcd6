//! Browser-task input values (form values, credentials) are secrets: they never rest in plain
//! text in the job ledger, the library or an app event.
//!
//! The ledger keeps each task with its input *names* only (values blanked). The values wait in
//! the OS keychain, one entry per batch under its idempotency key, until the batch ends: before
//! the service has it, so a batch whose answer was lost can still be sent again after a restart;
//! after, so a restart that follows the batch by its id registers them with the redactor, which
//! scrubs them from the steps and results that echo them. Once the batch ends (finished, failed,
//! refused or stopped) the entry is deleted: from then on only the names remain here.

use std::collections::BTreeMap;

use specdesk_types::BrowserTask;

use crate::ipc_error::IpcError;
use crate::secrets::Keys;

/// One task's input values, by name (`None`: the task has no input).
pub type TaskValues = Option<BTreeMap<String, String>>;

/// The keychain account holding the input values of the batch sent with `idempotency_key`.
pub fn account(idempotency_key: &str) -> String {
    format!("batch-input:{idempotency_key}")
}

/// Whether any task carries an input.
pub fn any(tasks: &[BrowserTask]) -> bool {
    tasks
        .iter()
        .any(|t| t.input.as_ref().is_some_and(|i| !i.is_empty()))
}

/// The tasks with every input value blanked (names kept), and the values taken out, in order.
pub fn strip(tasks: &[BrowserTask]) -> (Vec<BrowserTask>, Vec<TaskValues>) {
    let values = tasks.iter().map(|t| t.input.clone()).collect();
    let stripped = tasks
        .iter()
        .cloned()
        .map(|mut t| {
            if let Some(input) = t.input.as_mut() {
                input.values_mut().for_each(String::clear);
            }
            t
        })
        .collect();
    (stripped, values)
}

/// Puts `values` back into tasks stripped by [`strip`]. Refuses values that do not fit the tasks
/// (another batch's, or a changed ledger).
pub fn fill(tasks: &mut [BrowserTask], values: Vec<TaskValues>) -> Result<(), IpcError> {
    let fits = values.len() == tasks.len()
        && tasks.iter().zip(&values).all(|(t, v)| {
            let names = |m: &BTreeMap<String, String>| m.keys().cloned().collect::<Vec<_>>();
            t.input.as_ref().map(names) == v.as_ref().map(names)
        });
    if !fits {
        return Err(IpcError::internal(
            "The input values kept for this batch do not match its tasks.",
        ));
    }
    for (t, v) in tasks.iter_mut().zip(values) {
        t.input = v;
    }
    Ok(())
}

/// Registers every value with the log's redactor, so none can reach the log file.
pub fn redact_from_logs(values: &[TaskValues]) {
    for value in values.iter().flatten().flat_map(|m| m.values()) {
        for form in written_forms(value) {
            crate::logs::redactor().add(&form);
        }
    }
}

/// `value` as a page or the service may echo it: as typed, form-encoded in a URL's query
/// (`ada%40example.com`, spaces as `+` or `%20`) and escaped in JSON.
fn written_forms(value: &str) -> Vec<String> {
    let form: String = url::form_urlencoded::byte_serialize(value.as_bytes()).collect();
    let json = serde_json::to_string(value).unwrap_or_default();
    let json = json.trim_matches('"').to_owned();
    vec![value.to_owned(), form.replace('+', "%20"), form, json]
}

/// Keeps a batch's input values in the keychain until the batch ends.
pub async fn keep(
    keys: &Keys,
    idempotency_key: &str,
    values: &[TaskValues],
) -> Result<(), IpcError> {
    redact_from_logs(values);
    let json = serde_json::to_string(values).map_err(|e| IpcError::internal(e.to_string()))?;
    keys.set(&account(idempotency_key), &json).await?;
    Ok(())
}

/// The input values kept for a batch, if any.
pub async fn read(keys: &Keys, idempotency_key: &str) -> Result<Option<Vec<TaskValues>>, IpcError> {
    let Some(json) = keys.get(&account(idempotency_key)).await? else {
        return Ok(None);
    };
    let values: Vec<TaskValues> = serde_json::from_str(&json).map_err(|_| {
        IpcError::internal("The input values kept for this batch could not be read back.")
    })?;
    redact_from_logs(&values);
    Ok(Some(values))
}

/// Deletes a batch's input values from the keychain once it has ended (nothing to do when there
/// are none). A failure is logged, not returned: the batch itself is fine.
pub async fn forget(keys: &Keys, idempotency_key: &str) {
    if let Err(e) = keys.delete(&account(idempotency_key)).await {
        tracing::warn!(
            "the input values of an ended batch could not be removed from the keychain: {e}"
        );
    }
}

/// The keychain account holding the batch builder's draft input values.
const DRAFT_ACCOUNT: &str = "agents-draft-input-values";

/// The draft's input values, by the id of the input they were typed into.
pub type DraftValues = BTreeMap<String, String>;

/// Keeps the batch builder's draft input values in the keychain, so the draft survives a
/// restart with them (the draft itself, without values, is in the web view's storage). No
/// values: the entry is deleted.
pub async fn keep_draft(keys: &Keys, values: &DraftValues) -> Result<(), IpcError> {
    let values: DraftValues = values
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    if values.is_empty() {
        keys.delete(DRAFT_ACCOUNT).await?;
        return Ok(());
    }
    // Not registered with the redactor here: a draft's values are half-typed words as often as
    // not ("pass", "john"), and each save is a new version; the values a batch is sent with are
    // (`keep`).
    let json = serde_json::to_string(&values).map_err(|e| IpcError::internal(e.to_string()))?;
    keys.set_unlisted(DRAFT_ACCOUNT, &json).await?;
    Ok(())
}

/// The draft input values kept in the keychain (none when nothing is kept, or what is kept
/// cannot be read).
pub async fn draft(keys: &Keys) -> Result<DraftValues, IpcError> {
    let Some(json) = keys.get_unlisted(DRAFT_ACCOUNT).await? else {
        return Ok(DraftValues::new());
    };
    Ok(serde_json::from_str(&json).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_value_is_scrubbed_as_typed_and_as_a_url_or_json_writes_it() {
        let mut values = std::collections::BTreeMap::new();
        values.insert(
            "login".to_owned(),
            "ada+lovelace@example.org \"x\"".to_owned(),
        );
        super::redact_from_logs(&[Some(values)]);
        let r = crate::logs::redactor();
        for echoed in [
            "https://shop.example/login?u=ada%2Blovelace%40example.org+%22x%22&next=1",
            "https://shop.example/login?u=ada%2Blovelace%40example.org%20%22x%22&next=1",
            "{\"value\":\"ada+lovelace@example.org \\\"x\\\"\"}",
            "typed ada+lovelace@example.org \"x\" here",
        ] {
            let scrubbed = r.scrub(echoed);
            assert!(!scrubbed.contains("lovelace"), "{echoed} → {scrubbed}");
        }
    }

    use super::*;

    fn task(input: Option<&[(&str, &str)]>) -> BrowserTask {
        BrowserTask {
            url: "https://example.com/login".into(),
            instruction: Some("Sign in".into()),
            input: input.map(|pairs| {
                pairs
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect()
            }),
            output: None,
            success_condition: None,
            timeout_ms: None,
            max_steps: None,
            max_duration_seconds: None,
            mode: None,
        }
    }

    #[test]
    fn values_are_taken_out_and_put_back_by_name() {
        let tasks = vec![
            task(Some(&[("user", "ada"), ("password", "s3cret-pw")])),
            task(None),
        ];
        assert!(any(&tasks));
        let (mut stripped, values) = strip(&tasks);
        let json = serde_json::to_string(&stripped).unwrap();
        assert!(
            !json.contains("ada") && !json.contains("s3cret-pw"),
            "{json}"
        );
        assert_eq!(
            stripped[0]
                .input
                .as_ref()
                .unwrap()
                .keys()
                .collect::<Vec<_>>(),
            ["password", "user"]
        );
        fill(&mut stripped, values.clone()).unwrap();
        assert_eq!(stripped, tasks);

        let (mut other, _) = strip(&[task(Some(&[("email", "x")])), task(None)]);
        assert!(fill(&mut other, values).is_err(), "another batch's values");
        assert!(!any(&[task(None), task(Some(&[]))]));
    }

    #[tokio::test]
    async fn a_draft_keeps_its_values_by_input_id_and_leaves_the_log_redactor_alone() {
        let keys = Keys::new(
            std::sync::Arc::new(crate::secrets::MemorySecretStore::default()),
            std::time::Duration::from_secs(5),
        );
        let typed: DraftValues = [("i-1", "zebra-draft-4471"), ("i-2", "")]
            .into_iter()
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect();
        keep_draft(&keys, &typed).await.unwrap();
        let back = draft(&keys).await.unwrap();
        assert_eq!(
            back.into_iter().collect::<Vec<_>>(),
            [("i-1".to_owned(), "zebra-draft-4471".to_owned())]
        );
        // Half-typed words are not secrets of every log line and step.
        let line = r#"{"i-1":"zebra-draft-4471"} zebra-draft-4471"#;
        assert_eq!(crate::logs::redactor().redact(line), line);
        keep_draft(&keys, &DraftValues::new()).await.unwrap();
        assert!(draft(&keys).await.unwrap().is_empty());
    }
}
