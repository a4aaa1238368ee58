//! Closing a hold: the checks and the last steps that `pending_approve`,
//! `confidential_pending_approve`, `pending_reject` and `pending_close_expired` share. Not an
//! instruction (`hold` creates holds).
//!
//! A hold always closes to whoever paid its rent: `rent_receiver` is writable
//! (`AccountNotWritable`) and `pending.rent_payer` (`WrongRentReceiver`). Closing moves every
//! lamport there, zeroes and truncates the data, assigns the account to the System program and
//! counts one open hold fewer on the agent.

use crate::borsh::no_args;
use crate::error::{PolicyError, ProgramResult};
use crate::event;
use crate::instructions::agent_checks;
use crate::instructions::confidential_spend::{self, Release};
use crate::instructions::spend::{self, SpendAccounts};
use crate::runtime::account::AccountView;
use crate::runtime::input::AccountList;
use crate::runtime::{clock, keys_eq, Pubkey};
use crate::state::agent::Agent;
use crate::state::load_mut;
use crate::state::pending::PendingTransaction;
use crate::state::policy::Policy;

/// Which hold an approval closes: a public one (`pending_approve`) or the agent's open
/// confidential one (`confidential_pending_approve`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum HoldPath {
    Public,
    Confidential,
}

/// `rent_receiver` is writable and the hold's rent payer.
#[inline]
fn check_rent_receiver(pending: &PendingTransaction, rent_receiver: &AccountView) -> ProgramResult {
    if !rent_receiver.is_writable() {
        return Err(PolicyError::AccountNotWritable);
    }
    if !keys_eq(&pending.rent_payer, rent_receiver.key()) {
        return Err(PolicyError::WrongRentReceiver);
    }
    Ok(())
}

/// The accounts an approval names, its spend's included.
pub struct ApprovalAccounts<'a, 'b> {
    pub owner: &'a AccountView,
    pub policy: &'a AccountView,
    pub pending: &'a AccountView,
    pub rent_receiver: &'a AccountView,
    pub spend: &'b SpendAccounts<'a>,
    pub path: HoldPath,
}

/// An approval's agent, policy and hold, loaded and checked.
pub struct Approving<'a> {
    pub agent_state: &'a mut Agent,
    pub policy_state: &'a mut Policy,
    pub hold: &'a PendingTransaction,
}

/// What both approvals check first, in this order: agent, policy and pending writable, this
/// program's, of their type; the owner signed (`NotAgentOwner`, `MissingSigner`); the policy is
/// the agent's (`WrongPda`); the hold is this agent's, of this path, and the accounts passed are
/// the held ones (`WrongPendingTransaction`); the rent goes back to its payer; the hold has not
/// expired at `now` (`TransactionExpired`); the agent is active (`AgentNotActive`). Always
/// inlined: measured 20 CU cheaper on `pending_approve`.
#[inline(always)]
pub fn load_approval<'a>(
    accounts: &ApprovalAccounts<'a, '_>,
    program_id: &Pubkey,
    now: i64,
) -> Result<Approving<'a>, PolicyError> {
    let spend = accounts.spend;
    let agent_state = load_mut::<Agent>(spend.agent, program_id)?;
    let policy_state = load_mut::<Policy>(accounts.policy, program_id)?;
    let hold = load_mut::<PendingTransaction>(accounts.pending, program_id)?;
    agent_checks::owner_signs(accounts.owner, agent_state)?;
    let agent_key = spend.agent.key();
    agent_checks::require_policy_of(policy_state, agent_key)?;
    let of_this_path = match accounts.path {
        HoldPath::Public => !hold.is_confidential(),
        HoldPath::Confidential => {
            hold.is_confidential() && keys_eq(&agent_state.confidential_hold, accounts.pending.key())
        }
    };
    if !keys_eq(&hold.agent, agent_key)
        || !keys_eq(&hold.source, spend.source.key())
        || !keys_eq(&hold.destination, spend.destination.key())
        || !keys_eq(&hold.mint, spend.mint.key())
        || !of_this_path
    {
        return Err(PolicyError::WrongPendingTransaction);
    }
    check_rent_receiver(hold, accounts.rent_receiver)?;
    if hold.is_expired(now) {
        return Err(PolicyError::TransactionExpired);
    }
    agent_checks::require_active(agent_state)?;
    Ok(Approving {
        agent_state,
        policy_state,
        hold,
    })
}

/// An approved hold whose transfer has been made.
pub struct Approved<'a, 'b> {
    pub spend: &'b SpendAccounts<'a>,
    pub pending: &'a AccountView,
    pub rent_receiver: &'a AccountView,
    /// The hold's transfer id, which may point into the hold itself: copied before it is closed.
    pub transfer_id: &'a [u8; 16],
    /// A confidential hold also clears `agent.confidential_hold` and emits
    /// `ConfidentialTransferExecuted` instead of `TransferExecuted`.
    pub path: HoldPath,
}

/// The tail of both approvals: one open hold fewer, the hold closed to its rent payer, then the
/// transfer's event (`from_hold: true`) and `TransactionApproved`. Closing zeroes the hold: the
/// transfer id is copied first, and the caller has read everything else it needed from it.
#[inline(always)]
pub fn close_approved(approved: &Approved, agent: &mut Agent) -> ProgramResult {
    let transfer_id = *approved.transfer_id;
    let confidential = approved.path == HoldPath::Confidential;
    agent.close_hold()?;
    if confidential {
        agent.clear_confidential_hold();
    }
    approved.pending.close_to(approved.rent_receiver)?;
    let executed = spend::executed(approved.spend, &transfer_id, true);
    if confidential {
        event::confidential_transfer_executed(&executed);
    } else {
        event::transfer_executed(&executed);
    }
    event::transaction_approved(executed.agent, approved.pending.key(), &transfer_id);
    Ok(())
}

/// How a hold ends without moving anything: rejected by the agent's owner before `expires_at`
/// (`pending_reject`), or closed by anyone from it (`pending_close_expired`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    Rejected,
    Expired,
}

/// `pending_reject` and `pending_close_expired`, whose accounts are `[owner, agent, pending,
/// rent_receiver]` (rejected) or `[agent, pending, rent_receiver]` (expired), a confidential
/// hold's four after them. In order: the data (the discriminator only); `NotEnoughAccounts`;
/// agent and pending writable, this program's, of their type; the owner signed (rejected); the
/// hold is this agent's and closes to its rent payer ([`ClosingHold::check_links`]); at the clock's
/// `now`, `TransactionExpired` from `expires_at` (rejected: `pending_close_expired` closes it
/// then) or `TransactionNotExpired` before it (expired). Then [`ClosingHold::release`] and
/// `TransactionRejected` or `TransactionExpired`. Always inlined: `ending` is a constant there.
#[inline(always)]
pub fn end(program_id: &Pubkey, list: &AccountList, data: &[u8], ending: Ending) -> ProgramResult {
    no_args(data)?;
    let (closing, own_accounts) = match ending {
        Ending::Rejected => {
            let [owner, agent, pending, rent_receiver] = list.first::<4>()?;
            let closing = ClosingHold::load(agent, pending, rent_receiver, program_id)?;
            agent_checks::owner_signs(owner, closing.agent_state)?;
            (closing, 4)
        }
        Ending::Expired => {
            let [agent, pending, rent_receiver] = list.first::<3>()?;
            (ClosingHold::load(agent, pending, rent_receiver, program_id)?, 3)
        }
    };
    closing.check_links()?;
    let expired = closing.hold.is_expired(clock::unix_timestamp());
    match ending {
        Ending::Rejected if expired => return Err(PolicyError::TransactionExpired),
        Ending::Expired if !expired => return Err(PolicyError::TransactionNotExpired),
        _ => {}
    }
    let (agent, pending) = (closing.agent, closing.pending);
    let transfer_id = closing.release(program_id, list.rest(own_accounts))?;
    match ending {
        Ending::Rejected => event::transaction_rejected(agent.key(), pending.key(), &transfer_id),
        Ending::Expired => event::transaction_expired(agent.key(), pending.key(), &transfer_id),
    }
    Ok(())
}

/// A hold being rejected or closed after expiry, and the accounts it closes with.
pub struct ClosingHold<'a> {
    pub agent: &'a AccountView,
    pub pending: &'a AccountView,
    pub rent_receiver: &'a AccountView,
    pub agent_state: &'a mut Agent,
    pub hold: &'a PendingTransaction,
}

impl<'a> ClosingHold<'a> {
    /// Agent and pending writable, this program's, of their type.
    #[inline]
    pub fn load(
        agent: &'a AccountView,
        pending: &'a AccountView,
        rent_receiver: &'a AccountView,
        program_id: &Pubkey,
    ) -> Result<Self, PolicyError> {
        Ok(Self {
            agent,
            pending,
            rent_receiver,
            agent_state: load_mut::<Agent>(agent, program_id)?,
            hold: load_mut::<PendingTransaction>(pending, program_id)?,
        })
    }

    /// The hold is this agent's (`WrongPendingTransaction`) and its rent goes back to its payer.
    #[inline]
    pub fn check_links(&self) -> ProgramResult {
        if !keys_eq(&self.hold.agent, self.agent.key()) {
            return Err(PolicyError::WrongPendingTransaction);
        }
        check_rent_receiver(self.hold, self.rent_receiver)
    }

    /// The tail of rejecting and closing after expiry: a confidential hold's contexts, from
    /// `trailing` (the accounts after the instruction's own), are closed and the agent's
    /// `confidential_hold` cleared (`confidential_spend::release`); then one open hold fewer and
    /// the hold closed to its rent payer. Returns the hold's transfer id for the caller's event.
    #[inline]
    pub fn release(self, program_id: &Pubkey, trailing: &[AccountView]) -> Result<[u8; 16], PolicyError> {
        let transfer_id = self.hold.transfer_id;
        if self.hold.is_confidential() {
            // Built here, not before: handing `self` out of line would keep it in memory on the
            // public path too (measured 15 CU on `pending_reject`).
            confidential_spend::release(&mut Release {
                program_id,
                agent: self.agent,
                pending: self.pending,
                rent_receiver: self.rent_receiver,
                agent_state: self.agent_state,
                trailing,
            })?;
        }
        self.agent_state.close_hold()?;
        self.pending.close_to(self.rent_receiver)?;
        Ok(transfer_id)
    }
}

#[cfg(test)]
mod tests {
    //! `pending_reject` and `pending_close_expired`, through the program's dispatch.
    use super::Ending;
    use crate::discriminator::{event as event_disc, instruction};
    use crate::error::PolicyError;
    use crate::instructions::confidential_spend::test_support::*;
    use crate::instructions::test_fixtures::*;

    /// The hold at PENDING (one open hold: of 80, or the agent's confidential one) ended as
    /// `ending`: by the owner at NOON, or by anyone at its `expires_at`; a confidential hold's four
    /// accounts follow the instruction's own.
    fn ending(ending: Ending, confidential: bool) -> Call {
        let (data, now, mut accounts) = match ending {
            Ending::Rejected => (instruction::PENDING_REJECT, NOON, vec![signer(wallet(OWNER))]),
            Ending::Expired => (instruction::PENDING_CLOSE_EXPIRED, NOON + 3600, vec![]),
        };
        let (agent, pending) = match confidential {
            false => (agent_with_one_hold(), pending_data(80)),
            true => (agent_holding(), confidential_pending_data()),
        };
        accounts.extend([
            writable(account(AGENT, PROGRAM, agent)),
            writable(account(PENDING, PROGRAM, pending)),
            writable(wallet(PAYER)),
        ]);
        if confidential {
            accounts.extend(token_contexts());
            accounts.push(zk_program());
        }
        Call::new(&data, accounts).at(now)
    }

    mod rejected {
        use super::*;

        #[test]
        fn the_owner_rejects_nothing_moves_and_the_rent_goes_back() {
            let run = ending(Ending::Rejected, false).at(NOON + 3599).run();
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
            ending(Ending::Rejected, false)
                .at(NOON + 3600)
                .refused(PolicyError::TransactionExpired);
            refuses_each(
                || ending(Ending::Rejected, false),
                &[
                    (0, |o| o.key = SIGNER, PolicyError::NotAgentOwner),
                    (3, |r| r.key = OWNER, PolicyError::WrongRentReceiver),
                    (1, |a| a.is_writable = false, PolicyError::AccountNotWritable),
                ],
            );
        }

        mod confidential {
            use super::*;
            use crate::runtime::ZK_ELGAMAL_PROOF_PROGRAM_ID;

            #[test]
            fn rejecting_closes_the_pinned_contexts_to_the_payer_and_frees_the_agent() {
                let run = ending(Ending::Rejected, true).at(NOON + 60).run();
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
                            then_the_agent(&[(context, W), (PAYER, W)]),
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
                let run = ending(Ending::Rejected, true)
                    .with(5, |v| *v = writable(wallet(VALIDITY)))
                    .run();
                assert_eq!(run.result, Ok(()));
                assert_eq!(run.invocations.len(), 2);
            }

            #[test]
            fn the_trailing_accounts_are_required_pinned_and_writable() {
                let mut short = ending(Ending::Rejected, true);
                short.accounts.truncate(7);
                short.refused(PolicyError::NotEnoughAccounts);
                for index in 4..=6 {
                    let refusals: [Refusal; 2] = [
                        (index, |c| c.key = [0x31; 32], PolicyError::WrongPendingTransaction),
                        (index, |c| c.is_writable = false, PolicyError::AccountNotWritable),
                    ];
                    refuses_each(|| ending(Ending::Rejected, true), &refusals);
                }
                refuses_each(
                    || ending(Ending::Rejected, true),
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
                ending(Ending::Rejected, true)
                    .at(NOON + 3600)
                    .refused(PolicyError::TransactionExpired);
            }

            #[test]
            fn a_public_hold_ignores_whatever_trails() {
                let run = ending(Ending::Rejected, true)
                    .with(2, |p| *p = writable(account(PENDING, PROGRAM, pending_data(80))))
                    .with(4, |c| c.key = [0x31; 32])
                    .with(7, |z| *z = wallet(OWNER))
                    .run();
                assert_eq!(run.result, Ok(()));
                assert!(run.invocations.is_empty());
            }
        }
    }

    mod expired {
        use super::*;

        #[test]
        fn anyone_closes_a_hold_from_expires_at_with_the_rent_to_its_payer() {
            ending(Ending::Expired, false)
                .at(NOON + 3599)
                .refused(PolicyError::TransactionNotExpired);
            let run = ending(Ending::Expired, false).run();
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
                || ending(Ending::Expired, false),
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

        #[test]
        fn anyone_closes_an_expired_confidential_hold_and_its_contexts() {
            let confidential = || ending(Ending::Expired, true);
            confidential()
                .at(NOON + 3599)
                .refused(PolicyError::TransactionNotExpired);
            let run = confidential().run();
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
            let mut short = ending(Ending::Expired, true);
            short.accounts.truncate(3);
            short.refused(PolicyError::NotEnoughAccounts);
            refuses_each(
                || ending(Ending::Expired, true),
                &[(5, |c| c.key = [0x31; 32], PolicyError::WrongPendingTransaction)],
            );
        }
    }
}
