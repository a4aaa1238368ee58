//! Active hours: minutes of the UTC day during which the agent may spend. Start inclusive, end
//! exclusive; `start > end` wraps midnight (`22:00-06:00` = 1320..360); `start == end` is all day.

use crate::error::PolicyError;

use super::limits::SECONDS_PER_DAY;

pub const MINUTES_PER_DAY: u16 = 1440;

/// Minute of the UTC day, 0..1440 (`rem_euclid`, so negative timestamps count back from midnight).
/// Non-negative timestamps take native unsigned arithmetic (see `limits::day_index`).
#[inline]
pub fn minute_of_day(unix_timestamp: i64) -> u16 {
    let second_of_day = if unix_timestamp >= 0 {
        unix_timestamp as u64 % SECONDS_PER_DAY as u64
    } else {
        unix_timestamp.rem_euclid(SECONDS_PER_DAY) as u64
    };
    (second_of_day / 60) as u16
}

/// Whether `minute` lies in the window `[start, end)` (wrapping past midnight when `start > end`).
#[inline]
pub fn is_active(start: u16, end: u16, minute: u16) -> bool {
    if start == end {
        true
    } else if start < end {
        start <= minute && minute < end
    } else {
        minute >= start || minute < end
    }
}

/// The active-hours rule at `unix_timestamp`: `OutsideActiveHours` outside `[start, end)`.
#[inline]
pub fn check(start: u16, end: u16, unix_timestamp: i64) -> Result<(), PolicyError> {
    if is_active(start, end, minute_of_day(unix_timestamp)) {
        Ok(())
    } else {
        Err(PolicyError::OutsideActiveHours)
    }
}

/// Both minutes must be minutes of a day.
pub fn validate(start: u16, end: u16) -> Result<(), PolicyError> {
    if start >= MINUTES_PER_DAY || end >= MINUTES_PER_DAY {
        return Err(PolicyError::InvalidActiveHours);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn hm(hours: u16, minutes: u16) -> u16 {
        hours * 60 + minutes
    }

    /// 2024-01-02T00:00:00Z
    const MIDNIGHT: i64 = 1_704_153_600;

    #[test]
    fn minute_of_day_uses_the_utc_day() {
        assert_eq!(minute_of_day(MIDNIGHT), 0);
        assert_eq!(minute_of_day(MIDNIGHT + 59), 0);
        assert_eq!(minute_of_day(MIDNIGHT + 60), 1);
        assert_eq!(minute_of_day(MIDNIGHT - 1), hm(23, 59));
        assert_eq!(minute_of_day(MIDNIGHT + 9 * 3600 + 30 * 60), hm(9, 30));
        // Negative timestamps count back from midnight: -1 s is 23:59 on 1969-12-31
        assert_eq!(minute_of_day(-1), hm(23, 59));
        assert_eq!(minute_of_day(-60), hm(23, 59));
        assert_eq!(minute_of_day(-61), hm(23, 58));
    }

    #[test]
    fn a_plain_window_includes_its_start_and_excludes_its_end() {
        let (start, end) = (hm(9, 0), hm(17, 0));
        assert!(!is_active(start, end, hm(8, 59)));
        assert!(is_active(start, end, hm(9, 0)));
        assert!(is_active(start, end, hm(9, 1)));
        assert!(is_active(start, end, hm(16, 59)));
        assert!(!is_active(start, end, hm(17, 0)));
        assert!(!is_active(start, end, hm(17, 1)));
        assert!(!is_active(start, end, 0));
    }

    #[test]
    fn a_wrapped_window_spans_midnight() {
        // 22:00-06:00
        let (start, end) = (hm(22, 0), hm(6, 0));
        assert!(!is_active(start, end, hm(21, 59)));
        assert!(is_active(start, end, hm(22, 0)));
        assert!(is_active(start, end, hm(23, 59)));
        assert!(is_active(start, end, 0));
        assert!(is_active(start, end, hm(5, 59)));
        assert!(!is_active(start, end, hm(6, 0)));
        assert!(!is_active(start, end, hm(12, 0)));
    }

    #[test]
    fn equal_start_and_end_is_all_day() {
        for minute in [0, 1, hm(12, 0), hm(23, 59)] {
            assert!(is_active(0, 0, minute));
            assert!(is_active(hm(9, 0), hm(9, 0), minute));
        }
    }

    #[test]
    fn edge_windows_at_the_ends_of_the_day() {
        // 00:00-00:01: only the first minute
        assert!(is_active(0, 1, 0));
        assert!(!is_active(0, 1, 1));
        // 23:59-00:00 wraps: only the last minute
        assert!(is_active(hm(23, 59), 0, hm(23, 59)));
        assert!(!is_active(hm(23, 59), 0, 0));
        assert!(!is_active(hm(23, 59), 0, hm(23, 58)));
    }

    #[test]
    fn check_reads_the_clock_second_by_second() {
        // 09:00-17:00, at 08:59:59 / 09:00:00 / 16:59:59 / 17:00:00
        let (start, end) = (hm(9, 0), hm(17, 0));
        assert_eq!(
            check(start, end, MIDNIGHT + 9 * 3600 - 1),
            Err(PolicyError::OutsideActiveHours)
        );
        assert_eq!(check(start, end, MIDNIGHT + 9 * 3600), Ok(()));
        assert_eq!(check(start, end, MIDNIGHT + 17 * 3600 - 1), Ok(()));
        assert_eq!(
            check(start, end, MIDNIGHT + 17 * 3600),
            Err(PolicyError::OutsideActiveHours)
        );
    }

    #[test]
    fn minutes_must_be_below_1440() {
        assert_eq!(validate(0, 1439), Ok(()));
        assert_eq!(validate(1439, 0), Ok(()));
        assert_eq!(validate(1440, 0), Err(PolicyError::InvalidActiveHours));
        assert_eq!(validate(0, 1440), Err(PolicyError::InvalidActiveHours));
        assert_eq!(validate(u16::MAX, u16::MAX), Err(PolicyError::InvalidActiveHours));
    }
}
