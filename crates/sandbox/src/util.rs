//! Small helpers shared by every area: ids, timestamps, hashing, text.

use rand::Rng;
use sha2::{Digest, Sha256};
use std::time::{SystemTime, UNIX_EPOCH};

/// Wall-clock Unix milliseconds (the sandbox clock adds its offset to this).
pub fn wall_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// ISO 8601 UTC with milliseconds, e.g. `2026-01-02T03:04:05.678Z`.
pub fn iso(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let millis = ms.rem_euclid(1000);
    match time::OffsetDateTime::from_unix_timestamp(secs) {
        Ok(t) => format!(
            "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
            t.year(),
            t.month() as u8,
            t.day(),
            t.hour(),
            t.minute(),
            t.second(),
            millis
        ),
        Err(_) => "1970-01-01T00:00:00.000Z".to_owned(),
    }
}

/// Random lowercase hex of `len` characters.
pub fn random_hex(len: usize) -> String {
    let mut rng = rand::rng();
    (0..len)
        .map(|_| char::from_digit(rng.random_range(0..16), 16).unwrap_or('0'))
        .collect()
}

/// A 24-hex identifier (spec and project ids).
pub fn object_id() -> String {
    random_hex(24)
}

/// SHA-256 of `data` as lowercase hex.
pub fn sha256_hex(data: &[u8]) -> String {
    let digest = Sha256::digest(data);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// A stable 64-bit number derived from `text` (seeds deterministic content).
pub fn seed(text: &str) -> u64 {
    let digest = Sha256::digest(text.as_bytes());
    let mut b = [0u8; 8];
    b.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(b)
}

/// Whether `s` is exactly 24 hexadecimal characters.
pub fn is_object_id(s: &str) -> bool {
    s.len() == 24 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Rounds to two decimals (credits are shown to the cent).
pub fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// Rounds to six decimals (raw USD costs).
pub fn round6(v: f64) -> f64 {
    (v * 1_000_000.0).round() / 1_000_000.0
}

/// Lowercase words of `text` (letters and digits).
pub fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase())
        .collect()
}

/// A rough token count: one token per four characters, at least one per word.
pub fn tokens(text: &str) -> u64 {
    let by_chars = text.chars().count().div_ceil(4) as u64;
    let by_words = text.split_whitespace().count() as u64;
    by_chars.max(by_words)
}

/// Formats a number for a header: integers without a fraction, others with up to six decimals.
pub fn num_header(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{}", v as i64)
    } else {
        let s = format!("{v:.6}");
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    }
}

/// Plain text of an HTML page: tags, scripts and styles removed, whitespace collapsed.
pub fn html_text(html: &str) -> String {
    let no_script = regex_replace(r"(?is)<(script|style)[^>]*>.*?</(script|style)>", html, " ");
    let no_tags = regex_replace(r"(?s)<[^>]*>", &no_script, " ");
    let decoded = no_tags
        .replace("&nbsp;", " ")
        .replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'");
    decoded.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The `<title>` of an HTML page.
pub fn html_title(html: &str) -> Option<String> {
    let re = regex::Regex::new(r"(?is)<title[^>]*>(.*?)</title>").ok()?;
    let t = re.captures(html)?.get(1)?.as_str();
    let t = html_text(t);
    (!t.is_empty()).then_some(t)
}

fn regex_replace(pattern: &str, text: &str, with: &str) -> String {
    match regex::Regex::new(pattern) {
        Ok(re) => re.replace_all(text, with).into_owned(),
        Err(_) => text.to_owned(),
    }
}

/// Percent-encodes a query component.
pub fn url_encode(s: &str) -> String {
    url::form_urlencoded::byte_serialize(s.as_bytes()).collect()
}

/// Capitalises the first letter.
pub fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// A URL-safe slug of `s`.
pub fn slug(s: &str) -> String {
    let w = words(s);
    if w.is_empty() {
        "item".to_owned()
    } else {
        w.join("-")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_formats_millis() {
        assert_eq!(iso(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso(1_700_000_000_123), "2023-11-14T22:13:20.123Z");
    }

    #[test]
    fn header_numbers() {
        assert_eq!(num_header(2.0), "2");
        assert_eq!(num_header(0.25), "0.25");
    }

    #[test]
    fn html_helpers() {
        let h = "<html><head><title>Hi &amp; bye</title><script>x()</script></head><body><p>One</p> two</body></html>";
        assert_eq!(html_title(h).as_deref(), Some("Hi & bye"));
        assert_eq!(html_text(h), "Hi & bye One two");
    }
}
