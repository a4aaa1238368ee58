//! Amount rules: per-transaction limit, daily limit on the UTC calendar day, and the human-in-the-
//! loop (HITL) threshold. All amounts are u64 base units; nothing here can wrap.
//!
//! - per-transaction: `amount > per_transaction_limit` -> `PerTransactionLimitExceeded`;
//! - daily: a spend stored for another day counts as 0 today; `spent_today + amount >
//!   daily_limit` -> `DailyLimitExceeded` (a sum that overflows u64 is above every u64 limit, so it
//!   is the same error, never a wrap);
//! - HITL: `amount > hitl_threshold` -> hold; `amount == hitl_threshold` executes.

use crate::error::PolicyError;

pub const SECONDS_PER_DAY: i64 = 86_400;

/// The UTC day of a unix timestamp. `div_euclid`, so 1969-12-31T23:59:59Z (-1) is day -1, not 0.
/// Non-negative timestamps (every real clock) take one native unsigned division; SBF has no signed
/// division, which the toolchain lowers to several instructions.
#[inline]
pub fn day_index(unix_timestamp: i64) -> i64 {
    if unix_timestamp >= 0 {
        (unix_timestamp as u64 / SECONDS_PER_DAY as u64) as i64
    } else {
        unix_timestamp.div_euclid(SECONDS_PER_DAY)
    }
}

/// The policy's three amount limits.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub per_transaction: u64,
    pub daily: u64,
    pub hitl_threshold: u64,
}

/// What the policy stores about today's spend: the day it was counted on and the total.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DailySpend {
    pub day_index: i64,
    pub spent: u64,
}

impl DailySpend {
    /// The spend that counts on `today`: a total stored for an earlier day is stale. A stored day
    /// after `today` can only come from a cluster clock that stepped backwards; that total is kept
    /// (never reset), so a clock step back across midnight cannot grant a second daily allowance.
    #[inline]
    pub fn on(self, today: i64) -> u64 {
        if today > self.day_index {
            0
        } else {
            self.spent
        }
    }
}

/// What `agent_transfer` does with a spend that passes the limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Transfer now and store this as the day's spend.
    Execute(DailySpend),
    /// Above the HITL threshold: hold for the owner; the day's spend is unchanged until approval.
    Hold,
}

/// The per-transaction rule: `amount > per_transaction_limit` is `PerTransactionLimitExceeded`.
#[inline]
pub fn check_per_transaction(amount: u64, per_transaction_limit: u64) -> Result<(), PolicyError> {
    if amount > per_transaction_limit {
        return Err(PolicyError::PerTransactionLimitExceeded);
    }
    Ok(())
}

/// The day's spend after `amount` on `today`, or `DailyLimitExceeded`. Always inlined (here and
/// below): a by-value `DailySpend` takes two argument registers, and with the returned `Result`
/// an outlined call would need six (SBF has five).
#[inline(always)]
pub fn add_daily(stored: DailySpend, amount: u64, daily_limit: u64, today: i64) -> Result<DailySpend, PolicyError> {
    let spent = stored
        .on(today)
        .checked_add(amount)
        .ok_or(PolicyError::DailyLimitExceeded)?;
    if spent > daily_limit {
        return Err(PolicyError::DailyLimitExceeded);
    }
    Ok(DailySpend {
        // Never move the counted day backwards (see `DailySpend::on`).
        day_index: if today > stored.day_index {
            today
        } else {
            stored.day_index
        },
        spent,
    })
}

/// The HITL rule: strictly above the threshold is held; at the threshold it executes.
#[inline]
pub fn needs_approval(amount: u64, hitl_threshold: u64) -> bool {
    amount > hitl_threshold
}

/// `agent_transfer`'s amount rules, in order: per-transaction, daily, then HITL. A spend that
/// would break a limit is refused outright rather than held (the owner could not approve it today).
#[inline(always)]
pub fn evaluate_transfer(
    limits: &Limits,
    stored: DailySpend,
    amount: u64,
    today: i64,
) -> Result<Decision, PolicyError> {
    check_per_transaction(amount, limits.per_transaction)?;
    let after = add_daily(stored, amount, limits.daily, today)?;
    if needs_approval(amount, limits.hitl_threshold) {
        return Ok(Decision::Hold);
    }
    Ok(Decision::Execute(after))
}

/// `pending_approve`'s amount rules: per-transaction and daily against the policy in force,
/// counted on the day of approval (the owner's approval replaces the HITL rule).
#[inline(always)]
pub fn evaluate_approval(
    limits: &Limits,
    stored: DailySpend,
    amount: u64,
    today: i64,
) -> Result<DailySpend, PolicyError> {
    check_per_transaction(amount, limits.per_transaction)?;
    add_daily(stored, amount, limits.daily, today)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: Limits = Limits {
        per_transaction: 100,
        daily: 250,
        hitl_threshold: 50,
    };
    const DAY: i64 = 20_000;

    fn fresh() -> DailySpend {
        DailySpend {
            day_index: DAY,
            spent: 0,
        }
    }

    #[test]
    fn per_transaction_limit_allows_the_limit_and_refuses_one_more() {
        assert_eq!(check_per_transaction(99, 100), Ok(()));
        assert_eq!(check_per_transaction(100, 100), Ok(()));
        assert_eq!(
            check_per_transaction(101, 100),
            Err(PolicyError::PerTransactionLimitExceeded)
        );
        assert_eq!(check_per_transaction(0, 0), Ok(()));
        assert_eq!(
            check_per_transaction(1, 0),
            Err(PolicyError::PerTransactionLimitExceeded)
        );
        assert_eq!(check_per_transaction(u64::MAX, u64::MAX), Ok(()));
    }

    #[test]
    fn daily_limit_allows_reaching_it_exactly_and_refuses_one_more() {
        // Given 200 of 250 already spent today
        let spent = DailySpend {
            day_index: DAY,
            spent: 200,
        };
        // Then 49 and 50 fit, 51 does not
        assert_eq!(
            add_daily(spent, 49, 250, DAY),
            Ok(DailySpend {
                day_index: DAY,
                spent: 249
            })
        );
        assert_eq!(
            add_daily(spent, 50, 250, DAY),
            Ok(DailySpend {
                day_index: DAY,
                spent: 250
            })
        );
        assert_eq!(add_daily(spent, 51, 250, DAY), Err(PolicyError::DailyLimitExceeded));
    }

    #[test]
    fn a_sum_beyond_u64_is_refused_never_wrapped() {
        // Given a daily limit of u64::MAX with u64::MAX - 1 spent
        let spent = DailySpend {
            day_index: DAY,
            spent: u64::MAX - 1,
        };
        // Then 1 more reaches the limit exactly, and 2 more (which would wrap to 0) is refused
        assert_eq!(add_daily(spent, 1, u64::MAX, DAY).map(|s| s.spent), Ok(u64::MAX));
        assert_eq!(add_daily(spent, 2, u64::MAX, DAY), Err(PolicyError::DailyLimitExceeded));
        assert_eq!(
            add_daily(spent, u64::MAX, u64::MAX, DAY),
            Err(PolicyError::DailyLimitExceeded)
        );
    }

    #[test]
    fn the_day_resets_at_00_00_00_utc_not_at_23_59_59() {
        // 2024-01-01T23:59:59Z and 2024-01-02T00:00:00Z
        let last_second = 1_704_153_599;
        let midnight = 1_704_153_600;
        assert_eq!(day_index(midnight) - day_index(last_second), 1);
        assert_eq!(day_index(last_second), 19_723);
        // Given the limit was used up on 2024-01-01
        let stored = DailySpend {
            day_index: day_index(last_second),
            spent: 250,
        };
        // Then one more unit at 23:59:59 is refused, and a full limit at 00:00:00 is allowed
        assert_eq!(
            add_daily(stored, 1, 250, day_index(last_second)),
            Err(PolicyError::DailyLimitExceeded)
        );
        assert_eq!(
            add_daily(stored, 250, 250, day_index(midnight)),
            Ok(DailySpend {
                day_index: day_index(midnight),
                spent: 250
            })
        );
    }

    #[test]
    fn negative_timestamps_use_the_calendar_day_not_truncation() {
        assert_eq!(day_index(0), 0);
        assert_eq!(day_index(-1), -1); // 1969-12-31T23:59:59Z; `/` would say 0
        assert_eq!(day_index(-86_400), -1);
        assert_eq!(day_index(-86_401), -2);
        assert_eq!(day_index(86_399), 0);
        assert_eq!(day_index(i64::MIN), i64::MIN.div_euclid(86_400));
        assert_eq!(day_index(i64::MAX), i64::MAX / 86_400);
    }

    #[test]
    fn a_total_from_an_earlier_day_counts_as_zero() {
        let stored = DailySpend {
            day_index: DAY,
            spent: 250,
        };
        assert_eq!(stored.on(DAY), 250);
        assert_eq!(stored.on(DAY + 1), 0);
        assert_eq!(stored.on(DAY + 1000), 0);
    }

    #[test]
    fn hitl_holds_only_above_the_threshold() {
        assert!(!needs_approval(49, 50));
        assert!(!needs_approval(50, 50));
        assert!(needs_approval(51, 50));
    }

    #[test]
    fn a_transfer_at_the_threshold_executes_and_above_it_is_held() {
        assert_eq!(
            evaluate_transfer(&LIMITS, fresh(), 50, DAY),
            Ok(Decision::Execute(DailySpend {
                day_index: DAY,
                spent: 50
            }))
        );
        assert_eq!(evaluate_transfer(&LIMITS, fresh(), 51, DAY), Ok(Decision::Hold));
    }

    #[test]
    fn limits_are_checked_before_holding() {
        // Above the per-transaction limit: refused, not held
        assert_eq!(
            evaluate_transfer(&LIMITS, fresh(), 101, DAY),
            Err(PolicyError::PerTransactionLimitExceeded)
        );
        // Held-size amount that would break today's limit: refused, not held
        let spent = DailySpend {
            day_index: DAY,
            spent: 200,
        };
        assert_eq!(
            evaluate_transfer(&LIMITS, spent, 60, DAY),
            Err(PolicyError::DailyLimitExceeded)
        );
        // The same amount on the next day is held
        assert_eq!(evaluate_transfer(&LIMITS, spent, 60, DAY + 1), Ok(Decision::Hold));
    }

    #[test]
    fn approval_counts_on_the_day_of_approval_and_rechecks_limits() {
        // Given a hold of 80 requested on DAY, when yesterday's 250 is stale
        let stored = DailySpend {
            day_index: DAY,
            spent: 250,
        };
        assert_eq!(
            evaluate_approval(&LIMITS, stored, 80, DAY + 1),
            Ok(DailySpend {
                day_index: DAY + 1,
                spent: 80
            })
        );
        // Approving on a day already used up is refused
        assert_eq!(
            evaluate_approval(&LIMITS, stored, 80, DAY),
            Err(PolicyError::DailyLimitExceeded)
        );
        // A per-transaction limit lowered since the hold applies
        let lowered = Limits {
            per_transaction: 79,
            ..LIMITS
        };
        assert_eq!(
            evaluate_approval(&lowered, fresh(), 80, DAY),
            Err(PolicyError::PerTransactionLimitExceeded)
        );
    }

    #[test]
    fn a_clock_stepping_back_across_midnight_grants_no_second_allowance() {
        // Given 200 of a 250 limit spent on day 10
        let stored = DailySpend {
            day_index: 10,
            spent: 200,
        };
        // When the clock reads day 9 (stepped back), Then the day-10 total still counts
        assert_eq!(stored.on(9), 200);
        assert_eq!(add_daily(stored, 51, 250, 9), Err(PolicyError::DailyLimitExceeded));
        // And a spend that fits is stored on day 10, not moved back to day 9
        assert_eq!(
            add_daily(stored, 50, 250, 9),
            Ok(DailySpend {
                day_index: 10,
                spent: 250
            })
        );
        // While day 11 starts afresh
        assert_eq!(stored.on(11), 0);
        assert_eq!(
            add_daily(stored, 250, 250, 11),
            Ok(DailySpend {
                day_index: 11,
                spent: 250
            })
        );
    }
}
