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

use crate::borsh::no_args;
use crate::error::{PolicyError, ProgramResult};
use crate::event;
use crate::instructions::agent_checks;
use crate::instructions::hold_close::ClosingHold;
use crate::runtime::input::AccountList;
use crate::runtime::{clock, Pubkey};

/// A confidential hold's four accounts follow these.
const OWN_ACCOUNTS: usize = 4;

/// The accounts of one rejection, checked.
struct PendingRejectAccounts<'a> {
    closing: ClosingHold<'a>,
}

impl<'a> PendingRejectAccounts<'a> {
    /// In order: `NotEnoughAccounts`; agent and pending writable, this program's, of their type;
    /// the owner signed; the hold is this agent's and closes to its rent payer; not expired at
    /// `now` (`TransactionExpired`: `pending_close_expired` closes it then).
    fn unpack(list: &'a AccountList, program_id: &Pubkey, now: i64) -> Result<Self, PolicyError> {
        let [owner, agent, pending, rent_receiver] = list.first::<OWN_ACCOUNTS>()?;
        let closing = ClosingHold::load(agent, pending, rent_receiver, program_id)?;
        agent_checks::owner_signs(owner, closing.agent_state)?;
        closing.check_links()?;
        if closing.hold.is_expired(now) {
            return Err(PolicyError::TransactionExpired);
        }
        Ok(Self { closing })
    }
}

/// Rejects one hold (see the module doc for data, accounts and checks).
pub fn process(program_id: &Pubkey, list: &AccountList, data: &[u8]) -> ProgramResult {
    no_args(data)?;
    let closing = PendingRejectAccounts::unpack(list, program_id, clock::unix_timestamp())?.closing;
    let (agent, pending) = (closing.agent, closing.pending);
    let transfer_id = closing.release(program_id, list.rest(OWN_ACCOUNTS))?;
    event::transaction_rejected(agent.key(), pending.key(), &transfer_id);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discriminator::{event as event_disc, instruction};
    use crate::instructions::test_fixtures::*;
    use crate::runtime::input::test_support::TestAccount;

    fn accounts() -> Vec<TestAccount> {
        vec![
            signer(wallet(OWNER)),
            writable(account(AGENT, PROGRAM, agent_with_one_hold())),
            writable(account(PENDING, PROGRAM, pending_data(80))),
            writable(wallet(PAYER)),
        ]
    }

    fn reject(accounts: Vec<TestAccount>, now: i64) -> Run {
        run(accounts, &instruction::PENDING_REJECT, now)
    }

    #[test]
    fn the_owner_rejects_nothing_moves_and_the_rent_goes_back() {
        let run = reject(accounts(), NOON + 3599);
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
        assert_eq!(
            reject(accounts(), NOON + 3600).result,
            Err(PolicyError::TransactionExpired)
        );
        let mut by_signer = accounts();
        by_signer[0].key = SIGNER;
        assert_eq!(reject(by_signer, NOON).result, Err(PolicyError::NotAgentOwner));
        let mut to_owner = accounts();
        to_owner[3].key = OWNER;
        assert_eq!(reject(to_owner, NOON).result, Err(PolicyError::WrongRentReceiver));
        let mut read_only_agent = accounts();
        read_only_agent[1].is_writable = false;
        assert_eq!(
            reject(read_only_agent, NOON).result,
            Err(PolicyError::AccountNotWritable)
        );
    }

    mod confidential {
        use super::*;
        use crate::instructions::confidential_spend::test_support::*;
        use crate::runtime::ZK_ELGAMAL_PROOF_PROGRAM_ID;

        /// Rejecting the confidential hold at PENDING: the four accounts and the trailing ones.
        fn accounts() -> Vec<TestAccount> {
            let [equality, validity, range] = token_contexts();
            vec![
                signer(wallet(OWNER)),
                writable(account(AGENT, PROGRAM, agent_holding())),
                writable(account(PENDING, PROGRAM, confidential_pending_data())),
                writable(wallet(PAYER)),
                equality,
                validity,
                range,
                zk_program(),
            ]
        }

        fn with(index: usize, change: impl FnOnce(&mut TestAccount)) -> Vec<TestAccount> {
            changed(accounts(), index, change)
        }

        #[test]
        fn rejecting_closes_the_pinned_contexts_to_the_payer_and_frees_the_agent() {
            let run = reject(accounts(), NOON + 60);
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
            let run = reject(with(5, |v| *v = writable(wallet(VALIDITY))), NOON);
            assert_eq!(run.result, Ok(()));
            assert_eq!(run.invocations.len(), 2);
        }

        #[test]
        fn the_trailing_accounts_are_required_pinned_and_writable() {
            let mut short = accounts();
            short.truncate(7);
            assert_eq!(reject(short, NOON).result, Err(PolicyError::NotEnoughAccounts));
            for index in 4..=6 {
                assert_eq!(
                    reject(with(index, |c| c.key = [0x31; 32]), NOON).result,
                    Err(PolicyError::WrongPendingTransaction)
                );
                assert_eq!(
                    reject(with(index, |c| c.is_writable = false), NOON).result,
                    Err(PolicyError::AccountNotWritable)
                );
            }
            assert_eq!(
                reject(with(7, |z| z.key = [0x66; 32]), NOON).result,
                Err(PolicyError::WrongProgram)
            );
            let mut short_hold = pending_data(0);
            short_hold[202] = 1;
            assert_eq!(
                reject(with(2, |p| p.data = short_hold), NOON).result,
                Err(PolicyError::WrongAccountData)
            );
            assert_eq!(
                reject(accounts(), NOON + 3600).result,
                Err(PolicyError::TransactionExpired)
            );
        }

        #[test]
        fn a_public_hold_ignores_whatever_trails() {
            let mut public = accounts();
            public[2] = writable(account(PENDING, PROGRAM, pending_data(80)));
            public[4].key = [0x31; 32];
            public[7] = wallet(OWNER);
            let run = reject(public, NOON);
            assert_eq!(run.result, Ok(()));
            assert!(run.invocations.is_empty());
        }
    }
}
