//! One parser for spec strings, and the keyword enums their values name.
//! The topology (`irregular:16:seed=3`), traffic
//! (`hotspot:fraction=0.2:nodes=0,5`) and path-selection
//! (`paths:udwm:sa:seed=3`) specs use it; it also expresses the other
//! routing specs (`dor:tie=random:classes=balanced`), which
//! `routing/spec.rs` still splits by itself.
//!
//! A spec is `name[:positional...][:key=value...]`. [`Spec::split`] cuts it
//! at `:` into its name and parts; [`Spec::options`] takes the first
//! `positional` parts as they are and requires every other part to be
//! `key=value`, with a key the spec takes, given once. The typed getters of
//! [`Options`] parse one value; when it is wrong the [`OptionError`] names
//! the key, the bad value and what is accepted. Callers wrap the error in
//! their own, which quotes the whole spec.
//!
//! ```
//! use routelab::paths::{LegalKind, PathsSpec};
//! use routelab::routing::TieRule;
//! use routelab::spec_options::Spec;
//!
//! let spec = Spec::split("dor:tie=random:classes=balanced");
//! assert_eq!(spec.name(), "dor");
//! let o = spec.options(0, &["tie", "classes"]).unwrap();
//! assert_eq!(o.keyword::<TieRule>("tie").unwrap(), Some(TieRule::Random));
//! assert_eq!(o.get("classes"), Some("balanced"));
//!
//! let o = Spec::split("hotspot:fraction=0.2:nodes=0,5")
//!     .options(0, &["fraction", "nodes"])
//!     .unwrap();
//! assert_eq!(o.f64("fraction", 0.0..=1.0).unwrap(), Some(0.2));
//! assert_eq!(o.list::<u32>("nodes", "host ids").unwrap(), Some(vec![0, 5]));
//! let e = o.u32("fraction", 1..=16).unwrap_err();
//! assert_eq!(e.to_string(), "fraction `0.2`; accepted a whole number in 1..=16");
//!
//! // Positional parts first: `paths:LEGAL:SELECT[:key=value...]`.
//! let o = Spec::split("paths:udwm:sa:seed=3").options(2, PathsSpec::KEYS).unwrap();
//! assert_eq!(o.positional_keyword::<LegalKind>(0, "path routing").unwrap(), LegalKind::Udwm);
//! assert_eq!(o.u64("seed", 0..=u64::MAX).unwrap(), Some(3));
//!
//! let e = Spec::split("dor:hops=2").options(0, &["tie", "classes"]).unwrap_err();
//! assert_eq!(e.to_string(), "unknown option `hops` for `dor`; accepted tie, classes");
//! ```
//!
//! **Keyword enums** (the switching mode, the selection policy, a path
//! selection algorithm...) derive strum's `EnumString`, `IntoStaticStr`,
//! `VariantNames` and `VariantArray`, spell their canonical name with
//! `#[strum(serialize_all = "..")]` or `#[strum(to_string = "..")]` and
//! their aliases with `#[strum(serialize = "..")]`, and get `ALL`,
//! `ACCEPTED`, `parse` and `as_str` (and the [`Keyword`] trait) from one
//! line, `crate::spec_options::keyword_enum!(Name);`:
//!
//! ```ignore
//! #[derive(strum::EnumString, strum::IntoStaticStr, strum::VariantNames, strum::VariantArray)]
//! #[strum(serialize_all = "lowercase")]
//! #[derive(Clone, Copy, Debug, PartialEq, Eq)]
//! pub enum Process {
//!     Bernoulli,
//!     #[strum(to_string = "exponential", serialize = "poisson")]
//!     Exponential,
//! }
//! crate::spec_options::keyword_enum!(Process);
//! // Process::ACCEPTED == "bernoulli, exponential"
//! // Process::parse("poisson") == Some(Process::Exponential)
//! ```

use std::fmt::Display;
use std::ops::RangeInclusive;
use std::str::FromStr;

/// A spec option that cannot be used; the message names the key, the value
/// and what is accepted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    /// A part after the positional ones without `=`.
    #[error("option `{part}` is not key=value")]
    NotKeyValue { part: String },
    /// A key the spec does not take (`accepted` is empty when it takes none).
    #[error("{}", unknown_key(name, key, accepted))]
    UnknownKey {
        name: String,
        key: String,
        accepted: String,
    },
    /// The same key twice.
    #[error("option `{key}` is given twice")]
    Duplicate { key: String },
    /// A value (or a positional part) that does not parse or is out of range.
    #[error("{key} `{value}`; accepted {accepted}")]
    BadValue {
        key: String,
        value: String,
        accepted: String,
    },
}

fn unknown_key(name: &str, key: &str, accepted: &str) -> String {
    if accepted.is_empty() {
        format!("`{name}` takes no options; got `{key}`")
    } else {
        format!("unknown option `{key}` for `{name}`; accepted {accepted}")
    }
}

/// A spec string cut at `:` into its name and the parts after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spec<'a> {
    name: &'a str,
    parts: Vec<&'a str>,
}

impl<'a> Spec<'a> {
    /// `name:a:b=1` → name `name`, parts `a`, `b=1`. Never fails: what the
    /// parts must be is for [`Spec::options`] to check.
    pub fn split(text: &'a str) -> Spec<'a> {
        let mut parts = text.split(':');
        let name = parts.next().unwrap_or("");
        Spec {
            name,
            parts: parts.collect(),
        }
    }

    /// A spec from a name and parts already split.
    pub fn new(name: &'a str, parts: Vec<&'a str>) -> Spec<'a> {
        Spec { name, parts }
    }

    pub fn name(&self) -> &'a str {
        self.name
    }

    /// The first `positional` parts as they are (fewer when the spec has
    /// fewer), then `key=value` options whose keys must be among `keys`,
    /// each given once.
    pub fn options(&self, positional: usize, keys: &[&str]) -> Result<Options<'a>, OptionError> {
        let cut = positional.min(self.parts.len());
        let mut pairs: Vec<(&'a str, &'a str)> = Vec::new();
        for &part in &self.parts[cut..] {
            let unknown = |key: &str| OptionError::UnknownKey {
                name: self.name.to_string(),
                key: key.to_string(),
                accepted: keys.join(", "),
            };
            if keys.is_empty() {
                return Err(unknown(part.split_once('=').map_or(part, |(k, _)| k)));
            }
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| OptionError::NotKeyValue {
                    part: part.to_string(),
                })?;
            if !keys.contains(&k) {
                return Err(unknown(k));
            }
            if pairs.iter().any(|&(seen, _)| seen == k) {
                return Err(OptionError::Duplicate { key: k.to_string() });
            }
            pairs.push((k, v));
        }
        Ok(Options {
            name: self.name,
            positional: self.parts[..cut].to_vec(),
            pairs,
        })
    }
}

/// The checked positional parts and options of a spec, with typed getters.
/// A getter returns `Ok(None)` when the key is absent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options<'a> {
    name: &'a str,
    positional: Vec<&'a str>,
    pairs: Vec<(&'a str, &'a str)>,
}

impl<'a> Options<'a> {
    pub fn name(&self) -> &'a str {
        self.name
    }

    /// Positional part `i` (0 is the first after the name).
    pub fn positional(&self, i: usize) -> Option<&'a str> {
        self.positional.get(i).copied()
    }

    /// Positional part `i` as a keyword; `what` names it in the error (a
    /// missing part is reported as an empty value).
    pub fn positional_keyword<T: Keyword>(&self, i: usize, what: &str) -> Result<T, OptionError> {
        let value = self.positional(i).unwrap_or("");
        T::parse(value).ok_or_else(|| bad(what, value, T::ACCEPTED))
    }

    /// The raw value of `key`.
    pub fn get(&self, key: &str) -> Option<&'a str> {
        self.pairs.iter().find(|&&(k, _)| k == key).map(|&(_, v)| v)
    }

    /// A whole number in `range`.
    pub fn u32(&self, key: &str, range: RangeInclusive<u32>) -> Result<Option<u32>, OptionError> {
        self.whole(key, range, (0, u32::MAX))
    }

    /// A whole number in `range`.
    pub fn u64(&self, key: &str, range: RangeInclusive<u64>) -> Result<Option<u64>, OptionError> {
        self.whole(key, range, (0, u64::MAX))
    }

    /// A number in `range` (NaN is never in it).
    pub fn f64(&self, key: &str, range: RangeInclusive<f64>) -> Result<Option<f64>, OptionError> {
        let accepted = || format!("a number in [{}, {}]", range.start(), range.end());
        self.value(
            key,
            |v| v.parse().ok().filter(|x| range.contains(x)),
            accepted,
        )
    }

    /// One of a keyword enum's names (aliases included).
    pub fn keyword<T: Keyword>(&self, key: &str) -> Result<Option<T>, OptionError> {
        self.value(key, T::parse, || T::ACCEPTED.to_string())
    }

    /// A comma-separated list, e.g. `nodes=0,5,9`; `accepted` describes it
    /// in the error (e.g. "host ids like 0,5,9").
    pub fn list<T: FromStr>(
        &self,
        key: &str,
        accepted: &str,
    ) -> Result<Option<Vec<T>>, OptionError> {
        let parse = |v: &str| v.split(',').map(|x| x.trim().parse().ok()).collect();
        self.value(key, parse, || accepted.to_string())
    }

    /// A whole number of a type whose whole range is `min..=max`.
    fn whole<T>(
        &self,
        key: &str,
        range: RangeInclusive<T>,
        (min, max): (T, T),
    ) -> Result<Option<T>, OptionError>
    where
        T: FromStr + PartialOrd + Display,
    {
        let accepted = || match (*range.start() == min, *range.end() == max) {
            (true, true) => "a whole number".to_string(),
            (false, true) => format!("a whole number from {}", range.start()),
            _ => format!("a whole number in {}..={}", range.start(), range.end()),
        };
        self.value(
            key,
            |v| v.parse().ok().filter(|x| range.contains(x)),
            accepted,
        )
    }

    fn value<T>(
        &self,
        key: &str,
        parse: impl FnOnce(&str) -> Option<T>,
        accepted: impl FnOnce() -> String,
    ) -> Result<Option<T>, OptionError> {
        match self.get(key) {
            None => Ok(None),
            Some(v) => parse(v).map(Some).ok_or_else(|| bad(key, v, &accepted())),
        }
    }
}

fn bad(key: &str, value: &str, accepted: &str) -> OptionError {
    OptionError::BadValue {
        key: key.to_string(),
        value: value.to_string(),
        accepted: accepted.to_string(),
    }
}

/// A keyword enum: the names its variants have in specs, scenario files and
/// on the command line. Implemented by `keyword_enum!`.
pub trait Keyword: Copy + 'static {
    /// The canonical names, comma-separated (for messages).
    const ACCEPTED: &'static str;
    /// A canonical name or an alias.
    fn parse(s: &str) -> Option<Self>;
    /// The canonical name.
    fn as_str(&self) -> &'static str;
}

/// `ALL`, `ACCEPTED`, `parse` and `as_str` (inherent, so callers need no
/// trait in scope) and [`Keyword`] for an enum deriving strum's
/// `EnumString`, `IntoStaticStr`, `VariantNames` and `VariantArray`;
/// `keyword_enum!(Name, Display)` also displays the canonical name.
macro_rules! keyword_enum {
    ($t:ident, Display) => {
        $crate::spec_options::keyword_enum!($t);
        impl ::std::fmt::Display for $t {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
    ($t:ident) => {
        impl $t {
            /// Every variant, in declaration order.
            pub const ALL: [$t; <$t as ::strum::VariantArray>::VARIANTS.len()] =
                $crate::spec_options::to_array(<$t as ::strum::VariantArray>::VARIANTS);
            /// The canonical names, comma-separated (for messages).
            pub const ACCEPTED: &'static str = {
                const NAMES: &[&str] = <$t as ::strum::VariantNames>::VARIANTS;
                const BYTES: [u8; $crate::spec_options::joined_len(NAMES)] =
                    $crate::spec_options::join(NAMES);
                match ::core::str::from_utf8(&BYTES) {
                    Ok(s) => s,
                    Err(_) => panic!("variant names are UTF-8"),
                }
            };
            /// A canonical name or an alias.
            pub fn parse(s: &str) -> Option<$t> {
                <$t as ::core::str::FromStr>::from_str(s).ok()
            }
            /// The canonical name.
            pub fn as_str(&self) -> &'static str {
                <&'static str>::from(*self)
            }
        }
        impl $crate::spec_options::Keyword for $t {
            const ACCEPTED: &'static str = $t::ACCEPTED;
            fn parse(s: &str) -> Option<$t> {
                $t::parse(s)
            }
            fn as_str(&self) -> &'static str {
                $t::as_str(self)
            }
        }
    };
}
pub(crate) use keyword_enum;

/// Length of `names` joined with ", " (for `keyword_enum!`).
#[doc(hidden)]
pub const fn joined_len(names: &[&str]) -> usize {
    let mut len = 0;
    let mut i = 0;
    while i < names.len() {
        len += names[i].len() + if i > 0 { 2 } else { 0 };
        i += 1;
    }
    len
}

/// `names` joined with ", ", as bytes (for `keyword_enum!`).
#[doc(hidden)]
pub const fn join<const N: usize>(names: &[&str]) -> [u8; N] {
    let mut out = [0u8; N];
    let mut at = 0;
    let mut i = 0;
    while i < names.len() {
        if i > 0 {
            out[at] = b',';
            out[at + 1] = b' ';
            at += 2;
        }
        let name = names[i].as_bytes();
        let mut j = 0;
        while j < name.len() {
            out[at] = name[j];
            at += 1;
            j += 1;
        }
        i += 1;
    }
    out
}

/// A slice of `N` copyable values as an array (for `keyword_enum!`).
#[doc(hidden)]
pub const fn to_array<T: Copy, const N: usize>(items: &[T]) -> [T; N] {
    assert!(items.len() == N && N > 0);
    let mut out = [items[0]; N];
    let mut i = 0;
    while i < N {
        out[i] = items[i];
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options<'a>(text: &'a str, positional: usize, keys: &[&str]) -> Result<Options<'a>, String> {
        Spec::split(text)
            .options(positional, keys)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn splits_name_positional_and_options() {
        let o = options("paths:udwm:sa:seed=3:budget=10", 2, &["seed", "budget"]).unwrap();
        assert_eq!(o.name(), "paths");
        assert_eq!(
            (o.positional(0), o.positional(1)),
            (Some("udwm"), Some("sa"))
        );
        assert_eq!(o.positional(2), None);
        assert_eq!(o.u64("seed", 0..=u64::MAX), Ok(Some(3)));
        assert_eq!(o.u64("budget", 0..=u64::MAX), Ok(Some(10)));
        assert_eq!(o.u64("cap", 0..=u64::MAX), Ok(None));
        // Fewer parts than positional ones: the caller reports what is missing.
        let o = options("torus", 1, &["hosts"]).unwrap();
        assert_eq!((o.name(), o.positional(0)), ("torus", None));
    }

    #[test]
    fn reports_malformed_unknown_and_duplicate_options() {
        let keys = &["tie", "classes"];
        assert_eq!(
            options("dor:tie", 0, keys).unwrap_err(),
            "option `tie` is not key=value"
        );
        assert_eq!(
            options("dor:hops=2", 0, keys).unwrap_err(),
            "unknown option `hops` for `dor`; accepted tie, classes"
        );
        assert_eq!(
            options("dor:tie=plus:tie=random", 0, keys).unwrap_err(),
            "option `tie` is given twice"
        );
        assert_eq!(
            options("uniform:foo", 0, &[]).unwrap_err(),
            "`uniform` takes no options; got `foo`"
        );
        assert_eq!(
            options("torus:8x8:", 1, &["hosts"]).unwrap_err(),
            "option `` is not key=value"
        );
    }

    /// The message of a getter's error.
    fn message<T: std::fmt::Debug>(r: Result<Option<T>, OptionError>) -> String {
        r.unwrap_err().to_string()
    }

    #[test]
    fn typed_getters_name_key_value_and_accepted() {
        let keys = &["n", "big", "f", "nan", "l", "bad"];
        let o = options("x:n=70:big=-1:f=1.5:nan=NaN:l=0,5, 9:bad=1,a", 0, keys).unwrap();
        assert_eq!(
            message(o.u32("n", 1..=64)),
            "n `70`; accepted a whole number in 1..=64"
        );
        assert_eq!(o.u32("n", 0..=100), Ok(Some(70)));
        assert_eq!(
            message(o.u32("big", 0..=u32::MAX)),
            "big `-1`; accepted a whole number"
        );
        assert_eq!(
            message(o.u64("big", 2..=u64::MAX)),
            "big `-1`; accepted a whole number from 2"
        );
        assert_eq!(
            message(o.f64("f", 0.0..=1.0)),
            "f `1.5`; accepted a number in [0, 1]"
        );
        assert_eq!(
            message(o.f64("nan", 0.0..=1.0)),
            "nan `NaN`; accepted a number in [0, 1]"
        );
        assert_eq!(o.list::<u32>("l", "ids"), Ok(Some(vec![0, 5, 9])));
        assert_eq!(
            message(o.list::<u32>("bad", "host ids like 0,5,9")),
            "bad `1,a`; accepted host ids like 0,5,9"
        );
        assert_eq!(o.get("l"), Some("0,5, 9"));
        assert_eq!(o.get("missing"), None);
    }

    #[test]
    fn joins_names_at_compile_time() {
        const NAMES: &[&str] = &["saf", "vct", "wormhole"];
        const BYTES: [u8; joined_len(NAMES)] = join(NAMES);
        assert_eq!(std::str::from_utf8(&BYTES), Ok("saf, vct, wormhole"));
        assert_eq!(joined_len(&["one"]), 3);
        assert_eq!(to_array::<u8, 3>(&[1, 2, 3]), [1, 2, 3]);
    }
}
