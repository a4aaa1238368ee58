//! `pending_approve` — the agent's owner approves a held spend before it expires. The policy in
//! force is re-checked (per-transaction, daily counted on the day of approval, asset, recipient;
//! not active hours nor HITL — the owner is the human in the loop), the transfer executes, and the
//! hold is closed with its rent returned to whoever paid it.
//!
//! Data (8 bytes): discriminator `sha256("global:pending_approve")[..8]`.
//!
//! Accounts:
//! 0. `owner`            signer — must be `agent.owner` (never the agent signer: enforced at creation)
//! 1. `agent`            writable — `Agent` of this program
//! 2. `policy`           writable — `Policy` with `policy.agent == agent`
//! 3. `pending`          writable — `PendingTransaction` with `pending.agent == agent`
//! 4. `source`           writable — must be `pending.source` (and still the agent's, of `mint`)
//! 5. `mint`             must be `pending.mint`
//! 6. `destination`      writable — must be `pending.destination`
//! 7. `recipient_handle` optional (program id = none) — `Handle` whose wallet owns `destination`;
//!    proves the recipient for name/suffix patterns as in `agent_transfer`
//! 8. `rent_receiver`    writable — must be `pending.rent_payer`
//! 9. `token_program`    `TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb`
//!
//! Errors beyond the account checks: `WrongPendingTransaction` (another agent's hold, other
//! accounts than the held ones, a confidential hold: `confidential_pending_approve`),
//! `TransactionExpired` (now >= expires_at), `WrongRentReceiver`, `AgentNotActive`,
//! `ConfidentialHoldOpen` (the agent has an open confidential hold), then the rules' own errors,
//! with `PublicSpendAfterConfidential` (a confidential spend counts today) before the limits.
//!
//! Emits `TransferExecuted { from_hold: true }` and `TransactionApproved`.

use crate::borsh::no_args;
use crate::error::{PolicyError, ProgramResult};
use crate::instructions::agent_checks;
use crate::instructions::hold_close::{self, ApprovalAccounts, Approved, Approving, HoldPath};
use crate::instructions::spend::{self, CheckedSpend, SpendAccounts};
use crate::rules::limits;
use crate::runtime::account::AccountView;
use crate::runtime::input::AccountList;
use crate::runtime::{clock, Pubkey};
use crate::state::agent::Agent;
use crate::state::pending::PendingTransaction;
use crate::state::policy::Policy;

/// The accounts of one approval, checked up to the policy rules.
struct PendingApproveAccounts<'a> {
    spend: SpendAccounts<'a>,
    pending: &'a AccountView,
    rent_receiver: &'a AccountView,
    agent_state: &'a mut Agent,
    policy_state: &'a mut Policy,
    hold: &'a PendingTransaction,
    /// What the token-side checks proved.
    checked: CheckedSpend<'a>,
}

impl<'a> PendingApproveAccounts<'a> {
    /// In order: `NotEnoughAccounts`; the approval's loads and checks at `now`
    /// (`hold_close::load_approval`: agent, policy, pending, owner, policy link, a public hold of
    /// this agent over these accounts, rent receiver, not expired, agent active); no open
    /// confidential hold; the token side (`spend::check_accounts`).
    fn unpack(list: &'a AccountList, program_id: &Pubkey, now: i64) -> Result<Self, PolicyError> {
        let [owner, agent, policy, pending, source, mint, destination, recipient_handle, rent_receiver, token_program] =
            list.first::<10>()?;
        let spend = SpendAccounts::new([agent, source, mint, destination, recipient_handle, token_program]);
        let Approving {
            agent_state,
            policy_state,
            hold,
        } = hold_close::load_approval(
            &ApprovalAccounts {
                owner,
                policy,
                pending,
                rent_receiver,
                spend: &spend,
                path: HoldPath::Public,
            },
            program_id,
            now,
        )?;
        agent_checks::refuse_open_hold(agent_state)?;
        let checked = spend::check_accounts(&spend, program_id)?;
        Ok(Self {
            spend,
            pending,
            rent_receiver,
            agent_state,
            policy_state,
            hold,
            checked,
        })
    }
}

/// Approves and executes one hold (see the module doc for data, accounts and checks).
pub fn process(program_id: &Pubkey, list: &AccountList, data: &[u8]) -> ProgramResult {
    no_args(data)?;
    let now = clock::unix_timestamp();
    let accounts = PendingApproveAccounts::unpack(list, program_id, now)?;
    let policy = accounts.policy_state;
    spend::check_asset_and_recipient(policy, &accounts.spend, &accounts.checked)?;
    let amount = accounts.hold.amount.get();
    let today = limits::day_index(now);
    if policy.has_confidential_spend_on(today) {
        return Err(PolicyError::PublicSpendAfterConfidential);
    }
    let spent = limits::evaluate_approval(&policy.limits(), policy.daily_spend(), amount, today)?;

    policy.set_daily_spend(spent);
    spend::execute(&accounts.spend, accounts.agent_state, amount, accounts.checked.decimals)?;
    hold_close::close_approved(
        &Approved {
            spend: &accounts.spend,
            pending: accounts.pending,
            rent_receiver: accounts.rent_receiver,
            transfer_id: &accounts.hold.transfer_id,
            path: HoldPath::Public,
        },
        accounts.agent_state,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discriminator::{event as event_disc, instruction};
    use crate::instructions::test_fixtures::*;
    use crate::runtime::TOKEN_2022_PROGRAM_ID;

    /// The owner approving the hold of 80 (above the HITL threshold of 50) at PENDING, one open
    /// hold (10 accounts).
    fn approval() -> Call {
        Call::new(
            &instruction::PENDING_APPROVE,
            vec![
                signer(wallet(OWNER)),
                writable(account(AGENT, PROGRAM, agent_with_one_hold())),
                writable(account(POLICY, PROGRAM, policy_data())),
                writable(account(PENDING, PROGRAM, pending_data(80))),
                writable(token(SOURCE, token_account_data(MINT, AGENT, 1_000))),
                token(MINT, mint_data(6)),
                writable(token(DESTINATION, token_account_data(MINT, DESTINATION_OWNER, 0))),
                program_account(PROGRAM),
                writable(wallet(PAYER)),
                program_account(TOKEN_2022_PROGRAM_ID),
            ],
        )
    }

    /// The approval on the day after the hold's, the hold's window long enough to reach it.
    fn next_day(approval: Call) -> Call {
        approval
            .with_data_of(3, |p| p[160..168].copy_from_slice(&(NOON + 86_400 * 2).to_le_bytes()))
            .at(NOON + 86_400)
    }

    #[test]
    fn the_owner_approves_a_hold_it_executes_and_the_hold_is_closed_to_its_payer() {
        let run = approval().at(NOON + 60).run();
        assert_eq!(run.result, Ok(()));
        // The held amount moved, from the held accounts
        let [cpi] = &run.invocations[..] else {
            panic!("expected one CPI")
        };
        assert_eq!(cpi.data[1..9], 80u64.to_le_bytes());
        assert_eq!(cpi.accounts[0].0, SOURCE);
        assert_eq!(cpi.accounts[2].0, DESTINATION);
        // It counts towards today, the hold count drops
        assert_eq!(u64_at(run.data(2), 88), 80);
        assert_eq!(u32::from_le_bytes(run.data(1)[180..184].try_into().unwrap()), 0);
        // The pending account is closed: lamports to the payer, no data, System-owned
        let pending = run.views[3];
        assert_eq!(
            (pending.lamports(), pending.data_len(), *pending.owner()),
            (0, 0, SYSTEM)
        );
        assert_eq!(run.views[8].lamports(), 2_000_000);
        // TransferExecuted { from_hold: true } then TransactionApproved
        assert_eq!(run.events.len(), 2);
        assert_eq!(run.events[0][..8], event_disc::TRANSFER_EXECUTED);
        assert_eq!(run.events[0].last(), Some(&1));
        let mut approved = event_disc::TRANSACTION_APPROVED.to_vec();
        approved.extend_from_slice(&AGENT);
        approved.extend_from_slice(&PENDING);
        approved.extend_from_slice(&[0x77; 16]);
        assert_eq!(run.events[1], approved);
    }

    #[test]
    fn approval_is_possible_strictly_before_expires_at() {
        assert_eq!(approval().at(NOON + 3599).run().result, Ok(()));
        approval().at(NOON + 3600).refused(PolicyError::TransactionExpired);
    }

    #[test]
    fn the_agent_signer_or_a_stranger_cannot_approve() {
        refuses_each(
            approval,
            &[
                (0, |o| o.key = SIGNER, PolicyError::NotAgentOwner),
                (0, |o| o.key = PAYER, PolicyError::NotAgentOwner),
                (0, |o| o.is_signer = false, PolicyError::MissingSigner),
            ],
        );
    }

    #[test]
    fn the_accounts_must_be_the_held_ones() {
        refuses_each(
            approval,
            &[
                // Another agent's, another destination, another mint
                (
                    3,
                    |p| p.data[8..40].copy_from_slice(&[0x31; 32]),
                    PolicyError::WrongPendingTransaction,
                ),
                (
                    3,
                    |p| p.data[80..112].copy_from_slice(&[0x31; 32]),
                    PolicyError::WrongPendingTransaction,
                ),
                (
                    3,
                    |p| p.data[112..144].copy_from_slice(&[0x31; 32]),
                    PolicyError::WrongPendingTransaction,
                ),
                // A confidential hold
                (3, |p| p.data[202] = 1, PolicyError::WrongPendingTransaction),
                (8, |r| r.key = OWNER, PolicyError::WrongRentReceiver),
                (8, |r| r.is_writable = false, PolicyError::AccountNotWritable),
            ],
        );
    }

    #[test]
    fn limits_are_rechecked_against_the_policy_in_force_on_the_day_of_approval() {
        // 171 spent today: 80 more is over 250
        let spent = |p: &mut Vec<u8>| p[88..96].copy_from_slice(&171u64.to_le_bytes());
        refuses_each(
            approval,
            &[
                // A per-transaction limit lowered below the held amount
                (
                    2,
                    |p| p.data[48..56].copy_from_slice(&79u64.to_le_bytes()),
                    PolicyError::PerTransactionLimitExceeded,
                ),
                (
                    2,
                    |p| p.data[88..96].copy_from_slice(&171u64.to_le_bytes()),
                    PolicyError::DailyLimitExceeded,
                ),
                // A mint removed from the policy since the hold
                (2, |p| p.data[76] = 0, PolicyError::MintNotAllowed),
            ],
        );
        // The same, approved the next day (within the window's reach of a longer window)
        let run = next_day(approval().with_data_of(2, spent)).run();
        assert_eq!(run.result, Ok(()));
        assert_eq!(u64_at(run.data(2), 88), 80);
    }

    #[test]
    fn an_open_confidential_hold_or_a_confidential_spend_today_refuses_the_approval() {
        let spent_confidentially = |p: &mut Vec<u8>| p[1288..1352].copy_from_slice(&[0x33; 64]);
        refuses_each(
            approval,
            &[
                (
                    1,
                    |a| a.data[192..224].copy_from_slice(&[0x51; 32]),
                    PolicyError::ConfidentialHoldOpen,
                ),
                (
                    2,
                    |p| p.data[1288..1352].copy_from_slice(&[0x33; 64]),
                    PolicyError::PublicSpendAfterConfidential,
                ),
            ],
        );
        // The next day (a longer window) the stale S is ignored and cleared by the public write
        let run = next_day(approval().with_data_of(2, spent_confidentially)).run();
        assert_eq!(run.result, Ok(()));
        assert!(run.data(2)[1288..1352].iter().all(|b| *b == 0));
    }
}
