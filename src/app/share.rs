//! Sharing: the scenario in a URL fragment, `#scenario=<percent-encoded JSON>`
//! (pure functions here; the browser glue is in `web.rs`).

use crate::scenario::Scenario;

/// The fragment key.
pub const KEY: &str = "scenario=";

/// `scenario=<percent-encoded compact JSON>` (without the `#`).
pub fn encode_fragment(s: &Scenario) -> String {
    let json = serde_json::to_string(s).unwrap_or_default();
    format!("{KEY}{}", percent_encode(&json))
}

/// The scenario in a URL fragment or query (`#scenario=...`, `?scenario=...`),
/// `None` when there is none, or an error naming what is wrong.
pub fn decode_fragment(fragment: &str) -> Option<Result<Scenario, String>> {
    let f = fragment.trim_start_matches(['#', '?']);
    let value = f.split('&').find_map(|part| part.strip_prefix(KEY))?;
    let Some(json) = percent_decode(value) else {
        return Some(Err(
            "the link's scenario is not valid percent-encoded text".into()
        ));
    };
    Some(Scenario::from_json(&json).map_err(|e| format!("the link's scenario: {e}")))
}

pub fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len() * 3);
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

pub fn percent_decode(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = s.get(i + 1..i + 3)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let s = Scenario {
            name: "Hot spot & friends".into(),
            topology: "torus:16x16".into(),
            traffic: "hotspot:fraction=0.2:nodes=0,5".into(),
            load: 0.42,
            ..Scenario::default()
        };
        let f = encode_fragment(&s);
        assert!(!f[KEY.len()..].contains(['{', '"', ' ', '&', '#']));
        assert_eq!(decode_fragment(&format!("#{f}")).unwrap().unwrap(), s);
    }

    #[test]
    fn bad_links_are_errors_not_panics() {
        assert!(decode_fragment("#other=1").is_none());
        assert!(
            decode_fragment("#scenario=%7B%22vcs%22%3A%22x%22%7D")
                .unwrap()
                .is_err()
        );
        assert!(decode_fragment("#scenario=%E").unwrap().is_err());
        assert!(decode_fragment("#scenario=not-json").unwrap().is_err());
    }
}
