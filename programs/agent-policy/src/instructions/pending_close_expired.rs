//! `pending_close_expired` — anyone closes a hold at or after its `expires_at`: nothing moves, the
//! rent returns to whoever paid it (so a hold can never lock the payer's lamports for good).
//!
//! Data (8 bytes): discriminator `sha256("global:pending_close_expired")[..8]`.
//!
//! Accounts:
//! 0. `agent`          writable — `Agent` of this program (its open-hold count drops)
//! 1. `pending`        writable — `PendingTransaction` with `pending.agent == agent`
//! 2. `rent_receiver`  writable — must be `pending.rent_payer`
//!
//! A confidential hold takes four more (a public hold ignores them: absent, or anything):
//! 3. `equality_proof`             writable — the pinned Token context
//! 4. `ciphertext_validity_proof`  writable — the pinned Token context
//! 5. `range_proof`                writable — the pinned Token context
//! 6. `zk_elgamal_proof_program`   `ZkE1Gama1Proof11111111111111111111111111111`
//!
//! The contexts are closed to `rent_receiver` and `agent.confidential_hold` is cleared, as in
//! `pending_reject` (see `hold_close::ClosingHold::release`).
//!
//! Errors: `WrongPendingTransaction`, `WrongRentReceiver`, `TransactionNotExpired`
//! (now < expires_at).
//!
//! Emits `TransactionExpired`.

use crate::error::ProgramResult;
use crate::instructions::hold_close::{self, Ending};
use crate::runtime::input::AccountList;
use crate::runtime::Pubkey;

/// Closes one expired hold (see the module doc for data and accounts, and `hold_close::end` for the checks).
pub fn process(program_id: &Pubkey, list: &AccountList, data: &[u8]) -> ProgramResult {
    hold_close::end(program_id, list, data, Ending::Expired)
}

#[cfg(test)]
mod tests {
    use crate::discriminator::{event as event_disc, instruction};
    use crate::error::PolicyError;
    use crate::instructions::test_fixtures::*;

    /// Anyone closing the hold of 80 at PENDING, one open hold, at its `expires_at`.
    fn closing() -> Call {
        Call::new(
            &instruction::PENDING_CLOSE_EXPIRED,
            vec![
                writable(account(AGENT, PROGRAM, agent_with_one_hold())),
                writable(account(PENDING, PROGRAM, pending_data(80))),
                writable(wallet(PAYER)),
            ],
        )
        .at(NOON + 3600)
    }

    #[test]
    fn anyone_closes_a_hold_from_expires_at_with_the_rent_to_its_payer() {
        closing().at(NOON + 3599).refused(PolicyError::TransactionNotExpired);
        let run = closing().run();
        assert_eq!(run.result, Ok(()));
        assert_eq!(
            (run.views[1].lamports(), run.views[1].data_len(), *run.views[1].owner()),
            (0, 0, SYSTEM)
        );
        assert!(run.data(1).is_empty());
        assert_eq!(run.views[2].lamports(), 2_000_000);
        assert_eq!(u32::from_le_bytes(run.data(0)[180..184].try_into().unwrap()), 0);
        assert_eq!(run.events[0][..8], event_disc::TRANSACTION_EXPIRED);
    }

    #[test]
    fn the_rent_goes_only_to_the_payer_and_the_hold_must_be_the_agents() {
        refuses_each(
            closing,
            &[
                (2, |r| r.key = OWNER, PolicyError::WrongRentReceiver),
                (
                    1,
                    |p| p.data[8..40].copy_from_slice(&[0x31; 32]),
                    PolicyError::WrongPendingTransaction,
                ),
                // A closed (System-owned, empty) account cannot be closed again
                (1, |p| *p = writable(wallet(PENDING)), PolicyError::WrongAccountOwner),
            ],
        );
    }

    mod confidential {
        use super::*;
        use crate::instructions::confidential_spend::test_support::*;

        fn closing() -> Call {
            let [equality, validity, range] = token_contexts();
            Call::new(
                &instruction::PENDING_CLOSE_EXPIRED,
                vec![
                    writable(account(AGENT, PROGRAM, agent_holding())),
                    writable(account(PENDING, PROGRAM, confidential_pending_data())),
                    writable(wallet(PAYER)),
                    equality,
                    validity,
                    range,
                    zk_program(),
                ],
            )
            .at(NOON + 3600)
        }

        #[test]
        fn anyone_closes_an_expired_confidential_hold_and_its_contexts() {
            closing().at(NOON + 3599).refused(PolicyError::TransactionNotExpired);
            let run = closing().run();
            assert_eq!(run.result, Ok(()));
            let contexts: Vec<_> = run
                .invocations
                .iter()
                .map(|cpi| (cpi.accounts[0].0, cpi.accounts[1].0))
                .collect();
            assert_eq!(contexts, vec![(EQUALITY, PAYER), (VALIDITY, PAYER), (RANGE, PAYER)]);
            assert!(run.data(0)[192..224].iter().all(|b| *b == 0));
            assert_eq!(u32::from_le_bytes(run.data(0)[180..184].try_into().unwrap()), 0);
            assert_eq!(run.events[0][..8], event_disc::TRANSACTION_EXPIRED);
        }

        #[test]
        fn the_trailing_accounts_are_required_and_pinned() {
            let mut short = closing();
            short.accounts.truncate(3);
            short.refused(PolicyError::NotEnoughAccounts);
            refuses_each(
                closing,
                &[(5, |c| c.key = [0x31; 32], PolicyError::WrongPendingTransaction)],
            );
        }
    }
}
