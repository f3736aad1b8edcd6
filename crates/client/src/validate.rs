//! Checks made before any request is sent, each with a specific, plain message.

use crate::error::{Error, Result};

/// Page size bounds of list-specs, find-specs and the batch list.
pub const LIMIT_RANGE: std::ops::RangeInclusive<i64> = 1..=100;
/// Most tasks in one browser-agent submission.
pub const MAX_TASKS: usize = 1000;
/// Bounds of a submission's `concurrency`.
pub const CONCURRENCY_RANGE: std::ops::RangeInclusive<i64> = 1..=20;

/// `limit` must be 1-100.
pub fn limit(value: i64) -> Result<()> {
    if LIMIT_RANGE.contains(&value) {
        Ok(())
    } else {
        Err(Error::invalid(
            "limit",
            format!("The page size must be between 1 and 100 (it was {value})."),
        ))
    }
}

/// `skip` must be zero or more.
pub fn skip(value: i64) -> Result<()> {
    if value >= 0 {
        Ok(())
    } else {
        Err(Error::invalid(
            "skip",
            format!("The number of items to skip cannot be negative (it was {value})."),
        ))
    }
}

/// Spec and project ids are 24 hexadecimal characters.
pub fn hex_id(field: &str, value: &str) -> Result<()> {
    if value.len() == 24 && value.bytes().all(|b| b.is_ascii_hexdigit()) {
        Ok(())
    } else {
        let what = match field {
            "projectId" => "A project id",
            "specId" => "A spec id",
            _ => "An id",
        };
        Err(Error::invalid(
            field,
            format!(
                "{what} is 24 characters, each 0-9 or a-f; \"{}\" is not one. Copy it again from where you found it.",
                shorten(value)
            ),
        ))
    }
}

/// An id used as a path segment (batch or video job): not empty, no slash, not absurdly long.
pub fn path_id(field: &str, value: &str) -> Result<()> {
    if value.is_empty()
        || value.len() > 200
        || value.contains(['/', '?', '#'])
        || value.trim() != value
    {
        Err(Error::invalid(
            field,
            format!("\"{}\" is not a valid id.", shorten(value)),
        ))
    } else {
        Ok(())
    }
}

/// find-specs' `query` is a regular expression; the service matches it case-insensitively.
pub fn search_pattern(value: &str) -> Result<()> {
    if value.is_empty() {
        return Err(Error::invalid("query", "Enter some text to search for."));
    }
    let refuse = |why: String| {
        Error::invalid(
            "query",
            format!(
                "\"{}\" is not a valid search pattern ({why}). Characters such as ( [ * + ? need a \\ before them to be searched literally.",
                shorten(value)
            ),
        )
    };
    // Parse only: a pattern that is valid but large (`a{1000000}`) is the service's to run.
    fancy_regex::Expr::parse_tree(value).map_err(|e| refuse(e.to_string()))?;
    if let Some((min, max)) = reversed_repetition(value) {
        return Err(refuse(format!(
            "{{{min},{max}}} repeats at least {min} but at most {max} times"
        )));
    }
    Ok(())
}

/// A `{m,n}` repetition with m > n (the parser accepts it; JavaScript and PCRE refuse it).
fn reversed_repetition(pattern: &str) -> Option<(u64, u64)> {
    let bytes = pattern.as_bytes();
    let mut i = 0;
    let mut in_class = false;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 1,
            b'[' => in_class = true,
            b']' => in_class = false,
            b'{' if !in_class => {
                let rest = &pattern[i + 1..];
                if let Some(end) = rest.find('}')
                    && let Some((a, b)) = rest[..end].split_once(',')
                    && let (Ok(a), Ok(b)) = (a.trim().parse::<u64>(), b.trim().parse::<u64>())
                    && a > b
                {
                    return Some((a, b));
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// An absolute http(s) URL.
pub fn web_url(field: &str, value: &str) -> Result<url::Url> {
    let bad = || {
        Error::invalid(
            field,
            format!(
                "\"{}\" is not a full web address. Start it with https:// or http://.",
                shorten(value)
            ),
        )
    };
    let url = url::Url::parse(value.trim()).map_err(|_| bad())?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none_or(str::is_empty) {
        return Err(bad());
    }
    Ok(url)
}

fn shorten(value: &str) -> String {
    if value.chars().count() > 60 {
        let head: String = value.chars().take(57).collect();
        format!("{head}...")
    } else {
        value.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_and_skips() {
        assert!(limit(1).is_ok() && limit(100).is_ok());
        assert_eq!(
            limit(0).unwrap_err().to_string(),
            "The page size must be between 1 and 100 (it was 0)."
        );
        assert!(limit(101).is_err());
        assert!(skip(0).is_ok());
        assert_eq!(
            skip(-1).unwrap_err().to_string(),
            "The number of items to skip cannot be negative (it was -1)."
        );
    }

    #[test]
    fn hex_ids() {
        assert!(hex_id("specId", "0123456789abcdefABCDEF01").is_ok());
        for bad in [
            "",
            "0123456789abcdef0123456",
            "0123456789abcdef012345678",
            "0123456789abcdef0123456g",
        ] {
            let e = hex_id("projectId", bad).unwrap_err();
            assert!(
                e.to_string().starts_with("A project id is 24 characters"),
                "{e}"
            );
        }
    }

    #[test]
    fn patterns() {
        assert!(search_pattern("(?i)todo|kanban").is_ok());
        assert!(
            search_pattern("foo(?=bar)").is_ok(),
            "lookahead is valid for the service"
        );
        let e = search_pattern("app(").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("\"app(\" is not a valid search pattern"),
            "{e}"
        );
        assert!(search_pattern("").is_err());
        assert!(search_pattern("a{1000000}").is_ok(), "large but valid");
        assert!(search_pattern("a{2,10}").is_ok());
        assert!(
            search_pattern("[{3,1}]").is_ok(),
            "braces inside a class are literal"
        );
        assert!(
            search_pattern(r"\{3,1}").is_ok(),
            "escaped brace is literal"
        );
        let e = search_pattern("a{3,1}").unwrap_err();
        assert!(
            e.to_string()
                .contains("{3,1} repeats at least 3 but at most 1 times"),
            "{e}"
        );
    }

    #[test]
    fn web_urls() {
        assert!(web_url("url", "https://example.com/a?b=c").is_ok());
        assert!(web_url("url", "http://127.0.0.1:3000/").is_ok());
        for bad in [
            "example.com",
            "ftp://x.org",
            "javascript:alert(1)",
            "https://",
        ] {
            assert!(web_url("url", bad).is_err(), "{bad}");
        }
    }
}
