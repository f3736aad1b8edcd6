//! Fixture loading and the exact round-trip check.

use pretty_assertions::assert_eq;
use serde::{Serialize, de::DeserializeOwned};
use serde_json::{Map, Value};
use std::fmt::Debug;

/// The text of `tests/fixtures/{path}`.
pub fn text(path: &str) -> String {
    let full = format!("{}/tests/fixtures/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("reading {full}: {e}"))
}

/// The fixture as a JSON value.
pub fn json(path: &str) -> Value {
    serde_json::from_str(&text(path)).unwrap_or_else(|e| panic!("{path} is not JSON: {e}"))
}

/// `v` with every float that is a whole number written as an integer, as the service writes it.
/// Everything else (keys, nulls, strings, order of arrays) is left exactly as it is.
pub fn canonical(v: Value) -> Value {
    match v {
        Value::Number(n) => match n.as_f64() {
            Some(f) if n.is_f64() && f.fract() == 0.0 && f.abs() < 9.0e15 => Value::from(f as i64),
            _ => Value::Number(n),
        },
        Value::Array(items) => Value::Array(items.into_iter().map(canonical).collect()),
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(k, v)| (k, canonical(v)))
                .collect::<Map<_, _>>(),
        ),
        other => other,
    }
}

/// Decodes `value` as `T` (from text and from a `Value`, which must agree) and checks that encoding
/// it again gives `value` back exactly.
pub fn roundtrip_value<T>(what: &str, value: &Value) -> T
where
    T: Serialize + DeserializeOwned + Debug + PartialEq,
{
    let from_text: T = serde_json::from_str(&value.to_string())
        .unwrap_or_else(|e| panic!("{what} does not decode: {e}"));
    let from_value: T = serde_json::from_value(value.clone())
        .unwrap_or_else(|e| panic!("{what} does not decode from a Value: {e}"));
    assert_eq!(
        from_text, from_value,
        "{what}: text and Value decodings differ"
    );
    let encoded = serde_json::to_value(&from_text).expect("encodes");
    assert_eq!(
        canonical(encoded),
        canonical(value.clone()),
        "{what}: re-encoded JSON differs from the fixture"
    );
    from_text
}

/// Decodes the fixture at `path` as `T` and checks the exact round trip.
pub fn roundtrip<T>(path: &str) -> T
where
    T: Serialize + DeserializeOwned + Debug + PartialEq,
{
    let text = text(path);
    let value: Value = serde_json::from_str(&text).unwrap();
    roundtrip_value(path, &value)
}

/// Decodes each element of the JSON array at `path` (or of `key` inside each element) as `T`, with
/// the exact round trip.
pub fn roundtrip_each<T>(path: &str, key: Option<&str>) -> Vec<T>
where
    T: Serialize + DeserializeOwned + Debug + PartialEq,
{
    let Value::Array(items) = json(path) else {
        panic!("{path} is not an array")
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let item = match key {
                Some(k) => item
                    .get(k)
                    .unwrap_or_else(|| panic!("{path}[{i}] has no {k}")),
                None => item,
            };
            roundtrip_value(&format!("{path}[{i}]"), item)
        })
        .collect()
}

/// Asserts that the object at JSON `pointer` in `value` has every key in `keys` (the fixture really
/// carries every field the spec documents for that object).
pub fn assert_keys(value: &Value, pointer: &str, keys: &[&str]) {
    let obj = value
        .pointer(pointer)
        .and_then(Value::as_object)
        .unwrap_or_else(|| panic!("no object at {pointer}"));
    let missing: Vec<_> = keys.iter().filter(|k| !obj.contains_key(**k)).collect();
    assert!(
        missing.is_empty(),
        "{pointer} lacks documented fields {missing:?}"
    );
}

/// Asserts that the objects of the array at `pointer`, taken together, carry every key in `keys`.
pub fn assert_keys_across(value: &Value, pointer: &str, keys: &[&str]) {
    let items = value
        .pointer(pointer)
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("no array at {pointer}"));
    let missing: Vec<_> = keys
        .iter()
        .filter(|k| !items.iter().any(|i| i.get(**k).is_some()))
        .collect();
    assert!(missing.is_empty(), "no item of {pointer} has {missing:?}");
}

/// Asserts that `seen` holds every value of `known` (the fixture covers a whole closed set).
pub fn assert_covers(what: &str, known: &[&str], seen: &[String]) {
    let missing: Vec<_> = known
        .iter()
        .filter(|k| !seen.iter().any(|s| s == *k))
        .collect();
    assert!(
        missing.is_empty(),
        "{what}: no fixture item has {missing:?}"
    );
}
