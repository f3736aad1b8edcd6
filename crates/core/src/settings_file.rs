//! The settings file survives a power cut. `tauri-plugin-store`'s save is a plain write, so a cut
//! mid-write can leave `settings.json` truncated: before each save the file as it is (when it
//! reads) is copied atomically to `settings.last-good.json` beside it. At start a file that does
//! not read is set aside (`settings.damaged-<time>.json`, never overwritten) and the last good
//! copy, when it reads, takes its place (connections, spend caps and all), the user told which;
//! only when both are damaged does the app start on its defaults.

use std::path::{Path, PathBuf};

use crate::files::write_atomically;
use crate::settings::Stored;

/// Prefix of a settings file that did not parse, kept aside (`settings.damaged-<time>.json`).
pub const DAMAGED_PREFIX: &str = "settings.damaged-";

/// The last good copy of the settings file at `path`.
pub fn last_good(path: &Path) -> PathBuf {
    path.with_file_name("settings.last-good.json")
}

/// The settings at `path`, when the file is there and reads.
fn readable(path: &Path) -> std::io::Result<Option<Vec<u8>>> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(serde_json::from_slice::<Stored>(&bytes)
            .is_ok()
            .then_some(bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// Before a save: the settings file as it is now, when it reads, becomes the last good copy
/// (written atomically: a cut leaves the previous copy whole).
pub fn keep_last_good(path: &Path) -> std::io::Result<()> {
    if let Some(bytes) = readable(path)? {
        write_atomically(&last_good(path), &bytes)?;
    }
    Ok(())
}

/// Before the settings file is opened: a file at `path` that exists but does not read is kept
/// aside as `settings.damaged-<time>.json` beside it, and the last good copy, when it reads, is
/// written over it (atomically: the file is never missing meanwhile); a missing file is restored
/// from a last good copy too (a save or a restore cut short). Returns the plain sentence to tell
/// the user. No file and no copy: the first run.
pub fn recover(path: &Path) -> std::io::Result<Option<String>> {
    let exists = path.exists();
    if exists && readable(path)?.is_some() {
        return Ok(None);
    }
    let good = readable(&last_good(path))?;
    if !exists && good.is_none() {
        return Ok(None);
    }
    let aside = if exists {
        let stamp = crate::files::file_stamp()?;
        let aside = path.with_file_name(format!("{DAMAGED_PREFIX}{stamp}.json"));
        std::fs::copy(path, &aside)?;
        Some(aside)
    } else {
        None
    };
    let kept = aside
        .as_ref()
        .map(|a| format!(" The damaged file was kept as {}.", a.display()))
        .unwrap_or_default();
    if let Some(good) = good {
        write_atomically(path, &good)?;
        tracing::warn!("the settings file did not read; its last good copy is used");
        return Ok(Some(format!(
            "Your settings file was damaged (the computer may have stopped while it was saved), so Specdesk restored your settings, connections and spend caps from their last good copy; a change made just before may be missing.{kept}"
        )));
    }
    // Nothing good to put back: the store starts on the defaults (and would overwrite the
    // damaged file, which is kept aside first).
    std::fs::remove_file(path)?;
    tracing::warn!("the settings file did not parse; defaults are used");
    Ok(Some(format!(
        "Your settings file was damaged, so Specdesk started with its default settings. Your connections need to be added again (their keys are still in your keychain).{kept}"
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"{"settings":{"theme":"dark","activeProfileId":"p_work","spendCaps":{"p_work":50.0}},"profiles":[{"id":"p_work","name":"Work","baseUrl":"https://api.example.com","keyKind":"organization"}],"welcomeDone":true}"#;
    const TRUNCATED: &[u8] = br#"{"settings":{"theme":"dark","activePro"#;

    fn damaged_files(dir: &Path) -> Vec<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(DAMAGED_PREFIX) && n.ends_with(".json"))
            .collect()
    }

    #[test]
    fn a_truncated_file_is_restored_from_its_last_good_copy() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        let good: Stored = serde_json::from_str(GOOD).unwrap();
        assert_eq!(
            good.profiles.len(),
            1,
            "the fixture is a real settings file"
        );
        std::fs::write(&path, GOOD).unwrap();
        keep_last_good(&path).unwrap();
        // The next save was cut short by a power cut.
        std::fs::write(&path, TRUNCATED).unwrap();
        keep_last_good(&path).unwrap();
        assert_eq!(
            std::fs::read_to_string(last_good(&path)).unwrap(),
            GOOD,
            "a damaged file never replaces the copy"
        );

        let notice = recover(&path).unwrap().unwrap();
        let restored: Stored = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(
            restored, good,
            "connections, the active one and the spend cap back"
        );
        let kept = damaged_files(dir.path());
        assert_eq!(kept.len(), 1);
        assert_eq!(std::fs::read(dir.path().join(&kept[0])).unwrap(), TRUNCATED);
        assert!(notice.starts_with("Your settings file was damaged (the computer may have stopped while it was saved), so Specdesk restored your settings, connections and spend caps from their last good copy"), "{notice}");
        assert!(notice.contains(&kept[0]), "{notice}");
        assert_eq!(recover(&path).unwrap(), None, "sound again");

        // Gone altogether (a restore cut short): the last good copy again, said so.
        std::fs::remove_file(&path).unwrap();
        let notice = recover(&path).unwrap().unwrap();
        assert!(notice.contains("restored your settings"), "{notice}");
        assert!(!notice.contains("kept as"), "{notice}");
        let restored: Stored = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(restored, good);
    }

    #[test]
    fn with_both_damaged_the_defaults_are_used_and_a_good_or_missing_file_is_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        assert_eq!(recover(&path).unwrap(), None, "first run");
        std::fs::write(&path, GOOD).unwrap();
        assert_eq!(recover(&path).unwrap(), None);
        assert!(path.exists());

        std::fs::write(last_good(&path), b"{\"settings\":").unwrap();
        std::fs::write(&path, TRUNCATED).unwrap();
        let notice = recover(&path).unwrap().unwrap();
        assert!(!path.exists(), "nothing can overwrite the damaged file now");
        let kept = damaged_files(dir.path());
        assert_eq!(kept.len(), 1);
        assert_eq!(std::fs::read(dir.path().join(&kept[0])).unwrap(), TRUNCATED);
        assert!(
            notice.starts_with(
                "Your settings file was damaged, so Specdesk started with its default settings."
            ),
            "{notice}"
        );
        assert!(notice.contains(&kept[0]), "{notice}");
    }
}
