//! File names the app makes from what a user typed (a spec's title, a conversation's name):
//! valid on Windows, macOS and Linux whatever the title. One function, used wherever such a name
//! is made.

/// Names Windows keeps for devices, with or without an extension (`CON`, `con.txt`, `COM1.md`).
const RESERVED: &[&str] = &[
    "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$", "COM0", "COM1", "COM2", "COM3", "COM4",
    "COM5", "COM6", "COM7", "COM8", "COM9", "COM¹", "COM²", "COM³", "LPT0", "LPT1", "LPT2", "LPT3",
    "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9", "LPT¹", "LPT²", "LPT³",
];

/// The longest name in bytes (every system takes 255; a little is left for a " (2)" suffix).
const MAX_BYTES: usize = 240;

/// `title` as a file name every system takes: characters Windows refuses (`\ / : * ? " < > |`
/// and control characters) become `-`; no leading dot (a hidden file), no trailing dot or space
/// (Windows drops them); a device name (`CON`, `nul.txt`) gets `_` after its stem; at most 240
/// bytes, cut on a character boundary with its extension kept. `None` when nothing is left.
pub fn portable_file_name(title: &str) -> Option<String> {
    let replaced: String = title
        .chars()
        .map(|c| {
            if c.is_control() || matches!(c, '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|') {
                '-'
            } else {
                c
            }
        })
        .collect();
    let trimmed = replaced
        .trim_start_matches(|c: char| c == '.' || c.is_whitespace())
        .trim_end_matches(|c: char| c == '.' || c.is_whitespace());
    if trimmed.trim_matches('-').is_empty() {
        return None;
    }
    let (stem, ext) = match trimmed.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() && !ext.is_empty() && ext.len() <= 16 => {
            (stem, Some(ext))
        }
        _ => (trimmed, None),
    };
    // Windows reads the part before the first dot: "CON.tar.gz" is the device too.
    let device = stem.split('.').next().unwrap_or(stem).trim_end();
    let mut stem = stem.to_owned();
    if RESERVED.iter().any(|r| r.eq_ignore_ascii_case(device)) {
        stem.insert(device.len(), '_');
    }
    let ext_bytes = ext.map_or(0, |e| e.len() + 1);
    if stem.len() + ext_bytes > MAX_BYTES {
        let mut cut = MAX_BYTES.saturating_sub(ext_bytes);
        while !stem.is_char_boundary(cut) {
            cut -= 1;
        }
        stem.truncate(cut);
        let kept = stem
            .trim_end_matches(|c: char| c == '.' || c.is_whitespace())
            .len();
        stem.truncate(kept);
    }
    Some(match ext {
        Some(ext) => format!("{stem}.{ext}"),
        None => stem,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What every system refuses or mishandles in a name.
    fn assert_portable(name: &str) {
        assert!(!name.is_empty());
        assert!(name.len() <= 255, "{} bytes", name.len());
        assert!(
            !name.chars().any(|c| c.is_control()
                || matches!(c, '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|')),
            "{name:?}"
        );
        assert!(!name.starts_with('.'), "{name:?}");
        assert!(!name.ends_with(['.', ' ']), "{name:?}");
        let device = name.split('.').next().unwrap().trim_end();
        assert!(
            !RESERVED.iter().any(|r| r.eq_ignore_ascii_case(device)),
            "{name:?}"
        );
    }

    #[test]
    fn hostile_titles_become_names_every_system_takes() {
        let cases: &[(&str, &str)] = &[
            ("Plan: v2 / final?", "Plan- v2 - final-"),
            ("a*b?c\"d<e>f|g\\h", "a-b-c-d-e-f-g-h"),
            ("CON", "CON_"),
            ("con.md", "con_.md"),
            ("Nul.tar.gz", "Nul_.tar.gz"),
            ("COM1", "COM1_"),
            ("lpt9.txt", "lpt9_.txt"),
            ("AUX .md", "AUX_ .md"),
            ("CONSOLE.md", "CONSOLE.md"),
            ("COM10", "COM10"),
            ("notes.", "notes"),
            ("notes. . .", "notes"),
            ("  spaced  ", "spaced"),
            ("...hidden", "hidden"),
            ("tab\there\nnew line", "tab-here-new line"),
            ("bell\u{7}nul\u{0}", "bell-nul-"),
            ("Résumé — 日本語の仕様.md", "Résumé — 日本語の仕様.md"),
            ("emoji 🚀.md", "emoji 🚀.md"),
            ("../../etc/passwd", "-..-etc-passwd"),
        ];
        for (title, expected) in cases {
            let name = portable_file_name(title).unwrap();
            assert_eq!(&name, expected, "{title:?}");
            assert_portable(&name);
        }
    }

    #[test]
    fn titles_with_nothing_left_give_none() {
        for title in [
            "",
            "   ",
            "...",
            ". . .",
            "///",
            "\u{0}\u{1}",
            "?*:",
            " .. -",
        ] {
            assert_eq!(portable_file_name(title), None, "{title:?}");
        }
    }

    #[test]
    fn long_titles_are_cut_on_a_character_boundary_keeping_the_extension() {
        let long = format!("{}.md", "仕".repeat(200));
        let name = portable_file_name(&long).unwrap();
        assert!(name.ends_with(".md"), "{name}");
        assert!(name.len() <= MAX_BYTES, "{}", name.len());
        assert_portable(&name);
        let spaces = format!("{} .md", "a".repeat(237));
        let name = portable_file_name(&spaces).unwrap();
        assert_eq!(name, format!("{}.md", "a".repeat(237)));
        assert_portable(&name);
    }
}
