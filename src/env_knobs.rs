//! Settings read from the environment for measuring and for tests: the
//! speed knobs of the input-queued model (`ROUTELAB_PREFETCH`,
//! `ROUTELAB_ARRIVAL_BLOCK`, docs/performance.md) and the interval of the
//! CLI's progress lines (`ROUTELAB_PROGRESS_INTERVAL_MS`). None of them is
//! part of a scenario and none changes a result, only how fast a run goes
//! or how often it speaks.
//!
//! A knob that is unset (or set to the empty string) takes its default; a
//! knob set to anything it does not accept is an error naming the variable,
//! its value and the accepted values, so that a mistyped knob is not
//! measured as if it had worked. (On the web there is no environment: every
//! knob is unset.)

/// `ROUTELAB_PREFETCH`: `1` prefetches always, `0` never; unset, the
/// input-queued model decides by the network's size.
pub const PREFETCH: &str = "ROUTELAB_PREFETCH";

/// `ROUTELAB_ARRIVAL_BLOCK`: switches per arrival block of the
/// input-queued model (a power of two), `0` for none; unset, it decides by
/// the network's size.
pub const ARRIVAL_BLOCK: &str = "ROUTELAB_ARRIVAL_BLOCK";

/// `ROUTELAB_PROGRESS_INTERVAL_MS`: milliseconds between the CLI's
/// progress lines (at least 1); unset, 10 000.
pub const PROGRESS_INTERVAL_MS: &str = "ROUTELAB_PROGRESS_INTERVAL_MS";

/// Knob `name`'s value as `parse` reads it: `Ok(None)` when unset or
/// empty, an error naming `accepted` when `parse` refuses the value (or it
/// is not UTF-8).
pub fn read<T>(
    name: &str,
    accepted: &str,
    parse: impl FnOnce(&str) -> Option<T>,
) -> Result<Option<T>, String> {
    interpret(name, accepted, std::env::var(name), parse)
}

/// [`read`]'s rule on `value`, the variable as [`std::env::var`] gave it.
fn interpret<T>(
    name: &str,
    accepted: &str,
    value: Result<String, std::env::VarError>,
    parse: impl FnOnce(&str) -> Option<T>,
) -> Result<Option<T>, String> {
    match value {
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(v)) => Err(format!(
            "{name}={} is not accepted: {accepted}",
            v.to_string_lossy()
        )),
        Ok(v) if v.trim().is_empty() => Ok(None),
        Ok(v) => parse(v.trim())
            .map(Some)
            .ok_or_else(|| format!("{name}={v:?} is not accepted: {accepted}")),
    }
}

/// [`PREFETCH`]: `Some(true)` for `1`, `Some(false)` for `0`.
pub fn prefetch() -> Result<Option<bool>, String> {
    read(PREFETCH, "1 (always prefetch) or 0 (never)", |v| match v {
        "1" => Some(true),
        "0" => Some(false),
        _ => None,
    })
}

/// [`ARRIVAL_BLOCK`]: switches per block, 0 for none.
pub fn arrival_block() -> Result<Option<usize>, String> {
    read(
        ARRIVAL_BLOCK,
        "a power of two up to 2^20 (switches per arrival block) or 0 (no blocks)",
        |v| {
            let n: usize = v.parse().ok()?;
            (n == 0 || (n.is_power_of_two() && n <= 1 << 20)).then_some(n)
        },
    )
}

/// The interval between progress lines when [`PROGRESS_INTERVAL_MS`] is
/// unset: issue 24's "within 10 s of starting and every 10 s after".
pub const DEFAULT_PROGRESS_INTERVAL: std::time::Duration = std::time::Duration::from_secs(10);

/// [`PROGRESS_INTERVAL_MS`]: the interval between progress lines
/// ([`DEFAULT_PROGRESS_INTERVAL`] when unset).
pub fn progress_interval() -> Result<std::time::Duration, String> {
    let ms = read(
        PROGRESS_INTERVAL_MS,
        "a whole number of milliseconds from 1 to 86400000 (a day)",
        |v| {
            let ms: u64 = v.parse().ok()?;
            (1..=86_400_000)
                .contains(&ms)
                .then(|| std::time::Duration::from_millis(ms))
        },
    )?;
    Ok(ms.unwrap_or(DEFAULT_PROGRESS_INTERVAL))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::env::VarError;

    /// The rule itself, on values given directly (the process environment
    /// is left alone: tests run in threads of one process).
    #[test]
    fn knobs_take_defaults_accept_values_and_name_what_they_refuse() {
        let num = |v: Result<String, VarError>| {
            interpret("KNOB", "a number", v, |v| v.parse::<u32>().ok())
        };
        assert_eq!(num(Err(VarError::NotPresent)), Ok(None));
        assert_eq!(num(Ok(" ".into())), Ok(None));
        assert_eq!(num(Ok("12".into())), Ok(Some(12)));
        assert_eq!(num(Ok(" 12 ".into())), Ok(Some(12)));
        let e = num(Ok("twelve".into())).unwrap_err();
        assert!(
            e.contains("KNOB") && e.contains("\"twelve\"") && e.contains("a number"),
            "{e}"
        );
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStringExt;
            let bad = std::ffi::OsString::from_vec(vec![0xff]);
            let e = num(Err(VarError::NotUnicode(bad))).unwrap_err();
            assert!(e.contains("KNOB=") && e.contains("a number"), "{e}");
        }
    }
}
