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
    match std::env::var(name) {
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

    /// The parsing itself, through a variable no other test sets (tests
    /// run in threads of one process, so the model's own knobs are left
    /// alone).
    #[test]
    fn knobs_take_defaults_accept_values_and_name_what_they_refuse() {
        const NAME: &str = "ROUTELAB_TEST_KNOB_ONLY_HERE";
        let read_num = || read(NAME, "a number", |v| v.parse::<u32>().ok());
        // SAFETY (edition 2024 marks these unsafe): no other test reads or
        // writes this variable.
        #[allow(unsafe_code)]
        unsafe {
            std::env::remove_var(NAME);
        }
        assert_eq!(read_num(), Ok(None));
        #[allow(unsafe_code)]
        unsafe {
            std::env::set_var(NAME, " ");
        }
        assert_eq!(read_num(), Ok(None));
        #[allow(unsafe_code)]
        unsafe {
            std::env::set_var(NAME, "12");
        }
        assert_eq!(read_num(), Ok(Some(12)));
        #[allow(unsafe_code)]
        unsafe {
            std::env::set_var(NAME, "twelve");
        }
        let e = read_num().unwrap_err();
        assert!(
            e.contains(NAME) && e.contains("\"twelve\"") && e.contains("a number"),
            "{e}"
        );
        #[allow(unsafe_code)]
        unsafe {
            std::env::remove_var(NAME);
        }
    }
}
