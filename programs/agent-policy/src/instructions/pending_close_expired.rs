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

use crate::borsh::no_args;
use crate::error::{PolicyError, ProgramResult};
use crate::event;
use crate::instructions::hold_close::ClosingHold;
use crate::runtime::input::AccountList;
use crate::runtime::{clock, Pubkey};

/// A confidential hold's four accounts follow these.
const OWN_ACCOUNTS: usize = 3;

/// The accounts of one close after expiry, checked.
struct PendingCloseExpiredAccounts<'a> {
    closing: ClosingHold<'a>,
}

impl<'a> PendingCloseExpiredAccounts<'a> {
    /// In order: `NotEnoughAccounts`; agent and pending writable, this program's, of their type;
    /// the hold is this agent's and closes to its rent payer; expired at `now`
    /// (`TransactionNotExpired`). Nobody needs to sign.
    fn unpack(list: &'a AccountList, program_id: &Pubkey, now: i64) -> Result<Self, PolicyError> {
        let [agent, pending, rent_receiver] = list.first::<OWN_ACCOUNTS>()?;
        let closing = ClosingHold::load(agent, pending, rent_receiver, program_id)?;
        closing.check_links()?;
        if !closing.hold.is_expired(now) {
            return Err(PolicyError::TransactionNotExpired);
        }
        Ok(Self { closing })
    }
}

/// Closes one expired hold (see the module doc for data, accounts and checks).
pub fn process(program_id: &Pubkey, list: &AccountList, data: &[u8]) -> ProgramResult {
    no_args(data)?;
    let closing = PendingCloseExpiredAccounts::unpack(list, program_id, clock::unix_timestamp())?.closing;
    let (agent, pending) = (closing.agent, closing.pending);
    let transfer_id = closing.release(program_id, list.rest(OWN_ACCOUNTS))?;
    event::transaction_expired(agent.key(), pending.key(), &transfer_id);
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
            writable(account(AGENT, PROGRAM, agent_with_one_hold())),
            writable(account(PENDING, PROGRAM, pending_data(80))),
            writable(wallet(PAYER)),
        ]
    }

    fn close(accounts: Vec<TestAccount>, now: i64) -> Run {
        run(accounts, &instruction::PENDING_CLOSE_EXPIRED, now)
    }

    #[test]
    fn anyone_closes_a_hold_from_expires_at_with_the_rent_to_its_payer() {
        assert_eq!(
            close(accounts(), NOON + 3599).result,
            Err(PolicyError::TransactionNotExpired)
        );
        let run = close(accounts(), NOON + 3600);
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
        let mut elsewhere = accounts();
        elsewhere[2].key = OWNER;
        assert_eq!(
            close(elsewhere, NOON + 3600).result,
            Err(PolicyError::WrongRentReceiver)
        );
        let mut other_agent = accounts();
        other_agent[1].data[8..40].copy_from_slice(&[0x31; 32]);
        assert_eq!(
            close(other_agent, NOON + 3600).result,
            Err(PolicyError::WrongPendingTransaction)
        );
        // A closed (System-owned, empty) account cannot be closed again
        let mut closed = accounts();
        closed[1] = writable(wallet(PENDING));
        assert_eq!(close(closed, NOON + 3600).result, Err(PolicyError::WrongAccountOwner));
    }

    mod confidential {
        use super::*;
        use crate::instructions::confidential_spend::test_support::*;

        fn accounts() -> Vec<TestAccount> {
            let [equality, validity, range] = token_contexts();
            vec![
                writable(account(AGENT, PROGRAM, agent_holding())),
                writable(account(PENDING, PROGRAM, confidential_pending_data())),
                writable(wallet(PAYER)),
                equality,
                validity,
                range,
                zk_program(),
            ]
        }

        #[test]
        fn anyone_closes_an_expired_confidential_hold_and_its_contexts() {
            assert_eq!(
                close(accounts(), NOON + 3599).result,
                Err(PolicyError::TransactionNotExpired)
            );
            let run = close(accounts(), NOON + 3600);
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
            let mut short = accounts();
            short.truncate(3);
            assert_eq!(close(short, NOON + 3600).result, Err(PolicyError::NotEnoughAccounts));
            let mut other = accounts();
            other[5].key = [0x31; 32];
            assert_eq!(
                close(other, NOON + 3600).result,
                Err(PolicyError::WrongPendingTransaction)
            );
        }
    }
}
