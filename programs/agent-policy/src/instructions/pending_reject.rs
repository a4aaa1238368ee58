//! `pending_reject` — the agent's owner discards a held spend before it expires: nothing moves,
//! the hold is closed and its rent returns to whoever paid it.
//!
//! Data (8 bytes): discriminator `sha256("global:pending_reject")[..8]`.
//!
//! Accounts:
//! 0. `owner`          signer — must be `agent.owner`
//! 1. `agent`          writable — `Agent` of this program (its open-hold count drops)
//! 2. `pending`        writable — `PendingTransaction` with `pending.agent == agent`
//! 3. `rent_receiver`  writable — must be `pending.rent_payer`
//!
//! A confidential hold takes four more (a public hold ignores them: absent, or anything):
//! 4. `equality_proof`             writable — the pinned Token context
//! 5. `ciphertext_validity_proof`  writable — the pinned Token context
//! 6. `range_proof`                writable — the pinned Token context
//! 7. `zk_elgamal_proof_program`   `ZkE1Gama1Proof11111111111111111111111111111`
//!
//! The contexts are closed to `rent_receiver` and `agent.confidential_hold` is cleared (see
//! `hold_close::ClosingHold::release` and `confidential_spend::release`: `NotEnoughAccounts`,
//! `WrongPendingTransaction`, `AccountNotWritable`, `WrongProgram`; `WrongAccountData` for a
//! confidential flag on a 416-byte account).
//!
//! Errors: `NotAgentOwner`, `MissingSigner`, `WrongPendingTransaction`, `WrongRentReceiver`,
//! `TransactionExpired` (now >= expires_at: use `pending_close_expired`).
//!
//! Emits `TransactionRejected`.

use crate::error::ProgramResult;
use crate::instructions::hold_close::{self, Ending};
use crate::runtime::input::AccountList;
use crate::runtime::Pubkey;

/// Rejects one hold (see the module doc for data and accounts, and `hold_close::end` for the checks).
pub fn process(program_id: &Pubkey, list: &AccountList, data: &[u8]) -> ProgramResult {
    hold_close::end(program_id, list, data, Ending::Rejected)
}

#[cfg(test)]
mod tests {
    use crate::discriminator::{event as event_disc, instruction};
    use crate::error::PolicyError;
    use crate::instructions::test_fixtures::*;

    /// The owner rejecting the hold of 80 at PENDING, one open hold.
    fn rejection() -> Call {
        Call::new(
            &instruction::PENDING_REJECT,
            vec![
                signer(wallet(OWNER)),
                writable(account(AGENT, PROGRAM, agent_with_one_hold())),
                writable(account(PENDING, PROGRAM, pending_data(80))),
                writable(wallet(PAYER)),
            ],
        )
    }

    #[test]
    fn the_owner_rejects_nothing_moves_and_the_rent_goes_back() {
        let run = rejection().at(NOON + 3599).run();
        assert_eq!(run.result, Ok(()));
        assert!(run.invocations.is_empty());
        assert_eq!(
            (run.views[2].lamports(), run.views[2].data_len(), *run.views[2].owner()),
            (0, 0, SYSTEM)
        );
        assert_eq!(run.views[3].lamports(), 2_000_000);
        assert_eq!(u32::from_le_bytes(run.data(1)[180..184].try_into().unwrap()), 0);
        assert_eq!(run.events.len(), 1);
        assert_eq!(run.events[0][..8], event_disc::TRANSACTION_REJECTED);
    }

    #[test]
    fn rejecting_fails_from_expires_at_and_for_anyone_but_the_owner() {
        rejection().at(NOON + 3600).refused(PolicyError::TransactionExpired);
        refuses_each(
            rejection,
            &[
                (0, |o| o.key = SIGNER, PolicyError::NotAgentOwner),
                (3, |r| r.key = OWNER, PolicyError::WrongRentReceiver),
                (1, |a| a.is_writable = false, PolicyError::AccountNotWritable),
            ],
        );
    }

    mod confidential {
        use super::*;
        use crate::instructions::confidential_spend::test_support::*;
        use crate::runtime::ZK_ELGAMAL_PROOF_PROGRAM_ID;

        /// Rejecting the confidential hold at PENDING: the four accounts and the trailing ones.
        fn rejection() -> Call {
            let [equality, validity, range] = token_contexts();
            Call::new(
                &instruction::PENDING_REJECT,
                vec![
                    signer(wallet(OWNER)),
                    writable(account(AGENT, PROGRAM, agent_holding())),
                    writable(account(PENDING, PROGRAM, confidential_pending_data())),
                    writable(wallet(PAYER)),
                    equality,
                    validity,
                    range,
                    zk_program(),
                ],
            )
        }

        #[test]
        fn rejecting_closes_the_pinned_contexts_to_the_payer_and_frees_the_agent() {
            let run = rejection().at(NOON + 60).run();
            assert_eq!(run.result, Ok(()));
            let closed: Vec<_> = run
                .invocations
                .iter()
                .map(|cpi| (cpi.program_id, cpi.data.clone(), cpi.accounts.clone()))
                .collect();
            let expected: Vec<_> = [EQUALITY, VALIDITY, RANGE]
                .into_iter()
                .map(|context| {
                    (
                        ZK_ELGAMAL_PROOF_PROGRAM_ID,
                        vec![0],
                        vec![(context, true, false), (PAYER, true, false), (AGENT, false, true)],
                    )
                })
                .collect();
            assert_eq!(closed, expected);
            assert_eq!(
                run.invocations[0].signer_seeds,
                vec![vec![b"agent".to_vec(), HANDLE_HASH.to_vec(), vec![AGENT_BUMP]]]
            );
            assert!(
                run.data(1)[192..224].iter().all(|b| *b == 0),
                "confidential_hold cleared"
            );
            assert_eq!(u32::from_le_bytes(run.data(1)[180..184].try_into().unwrap()), 0);
            assert_eq!((run.views[2].data_len(), *run.views[2].owner()), (0, SYSTEM));
            assert_eq!(run.events.len(), 1);
            assert_eq!(run.events[0][..8], event_disc::TRANSACTION_REJECTED);
        }

        #[test]
        fn a_context_already_gone_is_skipped() {
            let run = rejection().with(5, |v| *v = writable(wallet(VALIDITY))).run();
            assert_eq!(run.result, Ok(()));
            assert_eq!(run.invocations.len(), 2);
        }

        #[test]
        fn the_trailing_accounts_are_required_pinned_and_writable() {
            let mut short = rejection();
            short.accounts.truncate(7);
            short.refused(PolicyError::NotEnoughAccounts);
            for index in 4..=6 {
                let refusals: [Refusal; 2] = [
                    (index, |c| c.key = [0x31; 32], PolicyError::WrongPendingTransaction),
                    (index, |c| c.is_writable = false, PolicyError::AccountNotWritable),
                ];
                refuses_each(rejection, &refusals);
            }
            refuses_each(
                rejection,
                &[
                    (7, |z| z.key = [0x66; 32], PolicyError::WrongProgram),
                    (
                        2,
                        |p| {
                            p.data = pending_data(0);
                            p.data[202] = 1;
                        },
                        PolicyError::WrongAccountData,
                    ),
                ],
            );
            rejection().at(NOON + 3600).refused(PolicyError::TransactionExpired);
        }

        #[test]
        fn a_public_hold_ignores_whatever_trails() {
            let run = rejection()
                .with(2, |p| *p = writable(account(PENDING, PROGRAM, pending_data(80))))
                .with(4, |c| c.key = [0x31; 32])
                .with(7, |z| *z = wallet(OWNER))
                .run();
            assert_eq!(run.result, Ok(()));
            assert!(run.invocations.is_empty());
        }
    }
}
