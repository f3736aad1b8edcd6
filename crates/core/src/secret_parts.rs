//! Secrets larger than a keychain entry takes. Windows' Credential Manager holds at most 2,560
//! bytes an entry (UTF-16: 1,280 characters), and a batch's input values can pass that: a value
//! over [`PART_UNITS`] UTF-16 units is written as parts (`<account>#<version>-<n>`) with a header
//! entry under `<account>` naming them (`specdesk-parts:<version>:<count>`). The parts are written
//! first and the header last, then the previous version's parts are removed, so a write cut short
//! leaves the previous value whole. A small value is one entry, as before.

use crate::secrets::{SecretError, SecretStore};

/// The most UTF-16 units one entry holds here (2,000 bytes, under Windows' 2,560).
pub const PART_UNITS: usize = 1000;

const HEADER: &str = "specdesk-parts:";

/// The parts a header names: (version, count).
fn parts_of(header: &str) -> Option<(&str, usize)> {
    let (version, count) = header.strip_prefix(HEADER)?.split_once(':')?;
    Some((version, count.parse().ok()?))
}

fn part_account(account: &str, version: &str, n: usize) -> String {
    format!("{account}#{version}-{n}")
}

/// `secret` cut into pieces of at most [`PART_UNITS`] UTF-16 units, on character boundaries.
fn split(secret: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let (mut start, mut units) = (0, 0);
    for (at, c) in secret.char_indices() {
        if units + c.len_utf16() > PART_UNITS {
            pieces.push(&secret[start..at]);
            (start, units) = (at, 0);
        }
        units += c.len_utf16();
    }
    pieces.push(&secret[start..]);
    pieces
}

/// Reads `account`, joining its parts when it was written in parts.
pub fn get(store: &dyn SecretStore, account: &str) -> Result<Option<String>, SecretError> {
    let Some(value) = store.get(account)? else {
        return Ok(None);
    };
    let Some((version, count)) = parts_of(&value) else {
        return Ok(Some(value));
    };
    let mut whole = String::new();
    for n in 0..count {
        let part = store
            .get(&part_account(account, version, n))?
            .ok_or_else(|| {
                SecretError::Other(format!("part {n} of {count} of a kept secret is missing"))
            })?;
        whole.push_str(&part);
    }
    Ok(Some(whole))
}

/// Writes `secret` under `account`, in parts when it is too large for one entry. `go_on` is
/// asked before each entry is written: once it says no (the call timed out), nothing more is
/// written, and the header (written last) still names the previous value.
pub fn set(
    store: &dyn SecretStore,
    account: &str,
    secret: &str,
    go_on: &dyn Fn() -> bool,
) -> Result<(), SecretError> {
    let before = previous(store, account);
    if secret.encode_utf16().count() <= PART_UNITS && !secret.starts_with(HEADER) {
        if !go_on() {
            return Err(SecretError::Timeout);
        }
        store.set(account, secret)?;
    } else {
        let version = uuid::Uuid::new_v4().simple().to_string()[..8].to_owned();
        let pieces = split(secret);
        let header = format!("{HEADER}{version}:{}", pieces.len());
        if let Err(e) = write_parts(store, account, &version, &pieces, &header, go_on) {
            // Stopped short: the parts written so far are named by no header; they go.
            remove_parts(store, account, Some(&header));
            return Err(e);
        }
    }
    remove_parts(store, account, before.as_deref());
    Ok(())
}

/// Writes `pieces` as the parts of `version`, then `header` (only once every part is there).
fn write_parts(
    store: &dyn SecretStore,
    account: &str,
    version: &str,
    pieces: &[&str],
    header: &str,
    go_on: &dyn Fn() -> bool,
) -> Result<(), SecretError> {
    for (n, piece) in pieces.iter().enumerate() {
        if !go_on() {
            return Err(SecretError::Timeout);
        }
        store.set(&part_account(account, version, n), piece)?;
    }
    if !go_on() {
        return Err(SecretError::Timeout);
    }
    store.set(account, header)
}

/// What `account` holds before it is replaced or deleted (for its parts). An entry that cannot
/// be read (damaged) never stops a write that replaces it: it is logged.
fn previous(store: &dyn SecretStore, account: &str) -> Option<String> {
    store.get(account).unwrap_or_else(|e| {
        tracing::warn!("a keychain entry about to be replaced could not be read: {e}");
        None
    })
}

/// Removes `account` and its parts.
pub fn delete(store: &dyn SecretStore, account: &str) -> Result<(), SecretError> {
    let before = previous(store, account);
    store.delete(account)?;
    remove_parts(store, account, before.as_deref());
    Ok(())
}

/// Removes the parts `header` named (a value replaced or deleted); a part left over is logged.
fn remove_parts(store: &dyn SecretStore, account: &str, header: Option<&str>) {
    let Some((version, count)) = header.and_then(parts_of) else {
        return;
    };
    for n in 0..count {
        if let Err(e) = store.delete(&part_account(account, version, n)) {
            tracing::warn!("a part of a replaced keychain entry could not be removed: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::secrets::MemorySecretStore;

    const WINDOWS_ENTRY_BYTES: usize = 2560;

    fn store() -> MemorySecretStore {
        MemorySecretStore::default().with_entry_limit(WINDOWS_ENTRY_BYTES)
    }

    #[test]
    fn four_kilobytes_of_values_fit_a_keychain_of_small_entries_and_come_back_whole() {
        let s = store();
        let values = serde_json::json!([{"email": "ada@example.com", "note": "é😀".repeat(700)}, {"password": "x".repeat(1500)}]).to_string();
        assert!(values.len() > 4096, "{} bytes", values.len());
        assert!(
            s.set("too-big", &values).is_err(),
            "one entry would not take it"
        );
        set(&s, "batch-1", &values, &|| true).unwrap();
        assert_eq!(
            get(&s, "batch-1").unwrap().as_deref(),
            Some(values.as_str())
        );
        assert!(s.len() > 3, "written in parts");
        // Replaced by a small value: the old parts go.
        set(&s, "batch-1", "small", &|| true).unwrap();
        assert_eq!(get(&s, "batch-1").unwrap().as_deref(), Some("small"));
        assert_eq!(s.len(), 1);
        set(&s, "batch-1", &values, &|| true).unwrap();
        delete(&s, "batch-1").unwrap();
        assert_eq!(get(&s, "batch-1").unwrap(), None);
        assert_eq!(s.len(), 0, "nothing left behind");
    }

    #[test]
    fn a_write_stopped_midway_leaves_the_previous_value_whole() {
        let s = store();
        let first = "a".repeat(2500);
        set(&s, "batch-2", &first, &|| true).unwrap();
        let calls = std::sync::atomic::AtomicUsize::new(0);
        // Timed out after its first part: nothing more is written.
        let stop_after_one = || calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst) < 1;
        let err = set(&s, "batch-2", &"b".repeat(2500), &stop_after_one).unwrap_err();
        assert_eq!(err, SecretError::Timeout);
        assert_eq!(get(&s, "batch-2").unwrap(), Some(first));
        assert_eq!(
            s.len(),
            4,
            "the first value's header and three parts: the new part went"
        );
    }

    #[test]
    fn pieces_keep_characters_whole() {
        let text = "😀".repeat(PART_UNITS);
        let pieces = split(&text);
        assert_eq!(pieces.concat(), text);
        assert!(
            pieces
                .iter()
                .all(|p| p.encode_utf16().count() <= PART_UNITS)
        );
    }
}
