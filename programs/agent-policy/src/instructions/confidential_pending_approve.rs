//! `confidential_pending_approve` — the agent's owner approves a held confidential transfer before
//! it expires. Its limit proofs were verified at hold time against the limits stored in the hold;
//! approval requires the policy in force to be no tighter, re-checks asset and recipient, executes
//! the pinned Token-2022 confidential `Transfer` and counts it toward the day of approval.
//!
//! Data (8 bytes): discriminator `sha256("global:confidential_pending_approve")[..8]`.
//!
//! Accounts:
//! 0. `owner`                      signer — must be `agent.owner`
//! 1. `agent`                      writable — `Agent` of this program; `agent.confidential_hold == pending`
//! 2. `policy`                     writable — `Policy` with `policy.agent == agent`
//! 3. `pending`                    writable — confidential `PendingTransaction` (544 bytes) of this agent
//! 4. `source`                     writable — must be `pending.source`
//! 5. `mint`                       must be `pending.mint`
//! 6. `destination`                writable — must be `pending.destination`
//! 7. `recipient_handle`           optional (program id = none) — `Handle` whose wallet owns `destination`
//! 8. `equality_proof`             writable — the pinned Token context
//! 9. `ciphertext_validity_proof`  writable — the pinned Token context
//! 10. `range_proof`               writable — the pinned Token context
//! 11. `rent_receiver`             writable — must be `pending.rent_payer`: gets the rent of the hold
//!     and of its three contexts
//! 12. `token_program`             `TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb`
//! 13. `zk_elgamal_proof_program`  `ZkE1Gama1Proof11111111111111111111111111111`
//!
//! Checks, in order: data; accounts; agent, policy, pending (writable, owner, type);
//! `NotAgentOwner`, `MissingSigner`, policy link (`WrongPda`); `WrongPendingTransaction` (another
//! agent's hold, a public hold, other source/destination/mint, not the agent's open confidential
//! hold); `rent_receiver` writable and the rent payer (`WrongRentReceiver`); `TransactionExpired`;
//! `AgentNotActive`; the hold's confidential part (`WrongAccountData`); the pinned contexts
//! (`WrongPendingTransaction`); the ZK program (`WrongProgram`); the token side, asset, recipient;
//! `ConfidentialHoldPolicyTightened` (per-transaction or daily limit below the proven one); the
//! Token contexts (`WrongProofContext`); today's spend under another key (`ConfidentialKeyMismatch`).
//!
//! Then: `A` from the pinned validity context, `S' = S + A` (`S` zero when the day rolled), the
//! Token-2022 CPI, `S'` stored with the hold's prover-state blob for the day (`AE(total + a)` on
//! the hold's day, `AE(a)` after), the three contexts and the hold closed to `rent_receiver`,
//! `agent.confidential_hold` cleared, `open_holds - 1`. Emits
//! `ConfidentialTransferExecuted { from_hold: true }` and `TransactionApproved`.

use crate::borsh::no_args;
use crate::error::{PolicyError, ProgramResult};
use crate::instructions::confidential_spend::{self, AgentSeeds, TokenContexts};
use crate::instructions::hold_close::{self, ApprovalAccounts, Approved, Approving, HoldPath};
use crate::instructions::spend::{self, CheckedSpend, SpendAccounts};
use crate::rules::{confidential_limits, limits};
use crate::runtime::account::AccountView;
use crate::runtime::cpi::Signer;
use crate::runtime::input::AccountList;
use crate::runtime::{clock, Pubkey};
use crate::state::agent::Agent;
use crate::state::pending::{self, ConfidentialHold};
use crate::state::policy::{ConfidentialSpend, Policy};

/// The accounts of one confidential approval, checked up to the policy rules. The Token
/// contexts' contents are read (and checked) only after the rules, when the transfer executes.
struct ConfidentialPendingApproveAccounts<'a> {
    spend: SpendAccounts<'a>,
    token_contexts: TokenContexts<'a>,
    pending: &'a AccountView,
    rent_receiver: &'a AccountView,
    agent_state: &'a mut Agent,
    policy_state: &'a mut Policy,
    /// The hold's confidential part (its public view overlaps it and is not kept).
    hold: &'a ConfidentialHold,
    transfer_id: [u8; 16],
    /// What the token-side checks proved.
    checked: CheckedSpend<'a>,
}

impl<'a> ConfidentialPendingApproveAccounts<'a> {
    /// In order: `NotEnoughAccounts`; the approval's loads and checks at `now`
    /// (`hold_close::load_approval`: agent, policy, pending, owner, policy link, the agent's open
    /// confidential hold over these accounts, rent receiver, not expired, agent active); the
    /// hold's confidential part (`WrongAccountData`); the pinned contexts
    /// (`WrongPendingTransaction`); the ZK program (`WrongProgram`); the token side.
    fn unpack(list: &'a AccountList, program_id: &Pubkey, now: i64) -> Result<Self, PolicyError> {
        let [owner, agent, policy, pending, source, mint, destination, recipient_handle, equality, validity, range, rent_receiver, token_program, zk_program] =
            list.first::<14>()?;
        let spend = SpendAccounts::new([agent, source, mint, destination, recipient_handle, token_program]);
        let Approving {
            agent_state,
            policy_state,
            hold: public,
        } = hold_close::load_approval(
            &ApprovalAccounts {
                owner,
                policy,
                pending,
                rent_receiver,
                spend: &spend,
                path: HoldPath::Confidential,
            },
            program_id,
            now,
        )?;
        // The last use of the public view: the confidential one overlaps its reserved bytes.
        let transfer_id = public.transfer_id;
        let hold = pending::confidential_hold_mut(pending, program_id)?;
        let token_contexts = TokenContexts {
            equality,
            validity,
            range,
        };
        if !token_contexts.are_pinned_in(hold) {
            return Err(PolicyError::WrongPendingTransaction);
        }
        confidential_spend::check_zk_program(zk_program)?;
        let checked = spend::check_accounts(&spend, program_id)?;
        Ok(Self {
            spend,
            token_contexts,
            pending,
            rent_receiver,
            agent_state,
            policy_state,
            hold,
            transfer_id,
            checked,
        })
    }
}

/// `ConfidentialHoldPolicyTightened` when the policy in force is tighter than the limits the
/// hold's proofs were made against (the owner rejects it and the agent resubmits).
#[inline]
fn check_not_tightened(policy: &Policy, hold: &ConfidentialHold) -> ProgramResult {
    let in_force = policy.limits();
    if in_force.per_transaction < hold.proven_per_transaction_limit.get()
        || in_force.daily < hold.proven_daily_limit.get()
    {
        return Err(PolicyError::ConfidentialHoldPolicyTightened);
    }
    Ok(())
}

/// Approves and executes one confidential hold (see the module doc for data, accounts and checks).
pub fn process(program_id: &Pubkey, list: &AccountList, data: &[u8]) -> ProgramResult {
    no_args(data)?;
    let now = clock::unix_timestamp();
    let mut accounts = ConfidentialPendingApproveAccounts::unpack(list, program_id, now)?;
    spend::check_asset_and_recipient(accounts.policy_state, &accounts.spend, &accounts.checked)?;
    check_not_tightened(accounts.policy_state, accounts.hold)?;
    execute_hold(&mut accounts, limits::day_index(now))
}

/// The pinned transfer: `S'`, the CPI, the policy write, the closes and the events.
#[inline(never)]
fn execute_hold(accounts: &mut ConfidentialPendingApproveAccounts, today: i64) -> ProgramResult {
    let agent_key = accounts.spend.agent.key();
    let validity = confidential_spend::read_token_contexts(&accounts.token_contexts, agent_key)?;
    let spend_today = confidential_spend::spend_today(accounts.policy_state, today, validity.source_pubkey)?;
    let amount = confidential_limits::transfer_amount(&validity)?;
    let total = confidential_limits::add_spend(spend_today, &amount)?;

    let seeds = AgentSeeds::of(accounts.agent_state);
    let seeds = seeds.seeds();
    let signer = Signer::new(&seeds);
    let hold = accounts.hold;
    confidential_spend::execute(
        &accounts.spend,
        &accounts.token_contexts,
        &validity,
        &hold.new_source_decryptable_available_balance,
        &signer,
    )?;
    accounts.policy_state.set_confidential_spend(&ConfidentialSpend {
        today,
        ciphertext: &total,
        pubkey: validity.source_pubkey,
        decryptable: hold.spend_decryptable_on(today),
    });
    confidential_spend::close_all(
        &accounts.token_contexts.all(),
        [accounts.rent_receiver, accounts.spend.agent],
        &signer,
    )?;
    // Last: closing zeroes the hold (its blobs, read above).
    hold_close::close_approved(
        &Approved {
            spend: &accounts.spend,
            pending: accounts.pending,
            rent_receiver: accounts.rent_receiver,
            transfer_id: &accounts.transfer_id,
            path: HoldPath::Confidential,
        },
        accounts.agent_state,
    )
}

#[cfg(test)]
mod tests {
    //! Every check before the curve math (see `agent_confidential_transfer`'s tests): reaching it
    //! panics on the host, which proves the checks passed.
    use super::*;
    use crate::discriminator::instruction;
    use crate::instructions::confidential_spend::test_support::*;
    use crate::instructions::test_fixtures::*;
    use crate::runtime::TOKEN_2022_PROGRAM_ID;

    /// The owner approving the confidential hold at PENDING (14 accounts).
    fn approval() -> Call {
        let [equality, validity, range] = token_contexts();
        Call::new(
            &instruction::CONFIDENTIAL_PENDING_APPROVE,
            vec![
                signer(wallet(OWNER)),
                writable(account(AGENT, PROGRAM, agent_holding())),
                writable(account(POLICY, PROGRAM, policy_data())),
                writable(account(PENDING, PROGRAM, confidential_pending_data())),
                writable(token(SOURCE, token_account_data(MINT, AGENT, 0))),
                token(MINT, mint_data(6)),
                writable(token(DESTINATION, token_account_data(MINT, DESTINATION_OWNER, 0))),
                program_account(PROGRAM),
                equality,
                validity,
                range,
                writable(wallet(PAYER)),
                program_account(TOKEN_2022_PROGRAM_ID),
                zk_program(),
            ],
        )
    }

    #[test]
    #[should_panic(expected = "syscall sol_curve_group_op is only available on-chain")]
    fn an_approval_that_passes_every_check_recomputes_the_amount_ciphertext() {
        let _ = approval().at(NOON + 60).run();
    }

    #[test]
    #[should_panic(expected = "syscall sol_curve_group_op is only available on-chain")]
    fn a_looser_policy_than_the_proven_one_is_fine() {
        let _ = approval()
            .with_data_of(2, |p| {
                p[48..56].copy_from_slice(&1_000u64.to_le_bytes());
                p[56..64].copy_from_slice(&10_000u64.to_le_bytes());
            })
            .run();
    }

    #[test]
    fn only_the_owner_approves() {
        refuses_each(
            approval,
            &[
                (0, |o| o.key = SIGNER, PolicyError::NotAgentOwner),
                (0, |o| o.is_signer = false, PolicyError::MissingSigner),
                (2, |p| p.data[8..40].copy_from_slice(&[0x31; 32]), PolicyError::WrongPda),
            ],
        );
        let mut extra = approval();
        extra.data.push(0);
        extra.refused(PolicyError::InvalidInstructionData);
        let mut short = approval();
        short.accounts.truncate(13);
        short.refused(PolicyError::NotEnoughAccounts);
    }

    #[test]
    fn the_hold_must_be_the_agents_open_confidential_hold_with_its_accounts() {
        refuses_each(
            approval,
            &[
                // A public hold
                (3, |p| p.data = pending_data(80), PolicyError::WrongPendingTransaction),
                // Flagged confidential but only 416 bytes
                (
                    3,
                    |p| {
                        p.data = pending_data(0);
                        p.data[202] = 1;
                    },
                    PolicyError::WrongAccountData,
                ),
                // Not the agent's open confidential hold
                (
                    1,
                    |a| a.data[192..224].copy_from_slice(&[0x31; 32]),
                    PolicyError::WrongPendingTransaction,
                ),
                (
                    3,
                    |p| p.data[8..40].copy_from_slice(&[0x31; 32]),
                    PolicyError::WrongPendingTransaction,
                ),
                (6, |d| d.key = [0x31; 32], PolicyError::WrongPendingTransaction),
                // Contexts other than the pinned ones
                (8, |c| c.key = [0x31; 32], PolicyError::WrongPendingTransaction),
                (9, |c| c.key = [0x31; 32], PolicyError::WrongPendingTransaction),
                (10, |c| c.key = [0x31; 32], PolicyError::WrongPendingTransaction),
            ],
        );
    }

    #[test]
    fn rent_expiry_and_programs() {
        refuses_each(
            approval,
            &[
                (11, |r| r.key = OWNER, PolicyError::WrongRentReceiver),
                (11, |r| r.is_writable = false, PolicyError::AccountNotWritable),
                (1, |a| a.data[106] = 0, PolicyError::AgentNotActive),
                (13, |z| z.key = [0x66; 32], PolicyError::WrongProgram),
                (12, |t| t.key = [0x66; 32], PolicyError::WrongProgram),
            ],
        );
        approval().at(NOON + 3600).refused(PolicyError::TransactionExpired);
    }

    #[test]
    fn asset_and_recipient_are_rechecked() {
        refuses_each(
            approval,
            &[
                (2, |p| p.data[76] = 0, PolicyError::MintNotAllowed),
                (
                    2,
                    |p| p.data = with_patterns(p.data.clone(), &[(crate::rules::recipients::KIND_NAME, b"bob")]),
                    PolicyError::RecipientNotAllowed,
                ),
            ],
        );
    }

    #[test]
    fn a_policy_tightened_since_the_hold_refuses() {
        refuses_each(
            approval,
            &[
                (
                    2,
                    |p| p.data[48..56].copy_from_slice(&99u64.to_le_bytes()),
                    PolicyError::ConfidentialHoldPolicyTightened,
                ),
                (
                    2,
                    |p| p.data[56..64].copy_from_slice(&249u64.to_le_bytes()),
                    PolicyError::ConfidentialHoldPolicyTightened,
                ),
            ],
        );
    }

    #[test]
    fn the_pinned_contexts_are_read_as_the_agents() {
        for index in 8..=10 {
            let refusals: [Refusal; 2] = [
                (
                    index,
                    |c| c.data[..32].copy_from_slice(&SIGNER),
                    PolicyError::WrongProofContext,
                ),
                (index, |c| c.owner = [0x99; 32], PolicyError::WrongProofContext),
            ];
            refuses_each(approval, &refusals);
        }
    }

    #[test]
    fn todays_confidential_spend_must_be_under_the_source_key() {
        approval()
            .with_data_of(2, |p| {
                p[1288..1352].copy_from_slice(&[0x66; 64]);
                p[1352..1384].copy_from_slice(&[0x99; 32]);
            })
            .refused(PolicyError::ConfidentialKeyMismatch);
    }
}
