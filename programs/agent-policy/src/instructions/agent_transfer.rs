//! `agent_transfer` — the agent signer spends from an agent-owned Token-2022 account. The policy
//! decides: refuse, execute now (Token-2022 `TransferChecked` signed by the agent PDA), or — above
//! the HITL threshold — hold it in a `PendingTransaction` for the owner.
//!
//! Data (32 bytes): discriminator `sha256("global:agent_transfer")[..8]`, `amount: u64`,
//! `transfer_id: [u8; 16]`.
//!
//! Accounts:
//! 0. `agent_signer`     signer — must be `agent.agent_signer`
//! 1. `agent`            writable — `Agent` of this program, status active
//! 2. `policy`           writable — `Policy` with `policy.agent == agent`
//! 3. `source`           writable — Token-2022 account of `mint` owned by the agent PDA
//! 4. `mint`             Token-2022 mint (decimals read from it)
//! 5. `destination`      writable — Token-2022 account of `mint`
//! 6. `recipient_handle` optional (program id = none) — `Handle` whose wallet owns `destination`
//! 7. `pending`          writable — held path only: PDA `["pending", agent, next_hold_nonce LE]`,
//!    not yet created; not read when the transfer executes
//! 8. `payer`            signer, writable — held path only: pays the pending account's rent
//! 9. `token_program`    `TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb`
//! 10. `system_program`  held path only: `11111111111111111111111111111111`
//!
//! Checks, in order: accounts (signer, agent, policy link, no open confidential hold
//! `ConfidentialHoldOpen`, token side — see `spend`), then the rules: asset (`MintNotAllowed`),
//! recipient (`RecipientNotAllowed`), active hours (`OutsideActiveHours`), no confidential spend
//! counted today (`PublicSpendAfterConfidential`: the program cannot add a public amount to a total
//! it cannot see; held or executed alike), per-transaction, daily (counted on today's UTC day), HITL.
//!
//! Emits `TransferExecuted { from_hold: false }` or `TransactionHeld`. The executing path derives
//! no PDA and hashes nothing: links between accounts are checked on stored keys, and the agent PDA
//! signs with its stored seeds.

use crate::borsh::read_args;
use crate::error::{PolicyError, ProgramResult};
use crate::event;
use crate::instructions::hold::{self, HoldAccounts, NewPending};
use crate::instructions::spend::{self, CheckedSpend, SpendAccounts, Spender};
use crate::rules::{active_hours, limits};
use crate::runtime::input::AccountList;
use crate::runtime::{clock, Pubkey};
use crate::state::agent::Agent;
use crate::state::init;
use crate::state::pending::{self, NewHold, PendingTransaction};
use crate::state::policy::Policy;

pub const DATA_LEN: usize = 32;

/// The accounts of one agent transfer, checked up to the policy rules.
struct AgentTransferAccounts<'a> {
    spend: SpendAccounts<'a>,
    /// Read only on the held path (`hold::create` checks them there).
    hold: HoldAccounts<'a>,
    agent_state: &'a mut Agent,
    policy_state: &'a mut Policy,
    /// What the token-side checks proved.
    checked: CheckedSpend<'a>,
}

impl<'a> AgentTransferAccounts<'a> {
    /// In order: `NotEnoughAccounts`; the spender's loads and checks (`spend::load_spender`:
    /// agent, policy, signer, active, policy link, no open confidential hold); the token side
    /// (`spend::check_accounts`).
    #[inline(always)]
    fn unpack(list: &'a AccountList, program_id: &Pubkey) -> Result<Self, PolicyError> {
        let [agent_signer, agent, policy, source, mint, destination, recipient_handle, pending, payer, token_program, system_program] =
            list.first::<11>()?;
        let Spender {
            agent_state,
            policy_state,
        } = spend::load_spender(agent_signer, agent, policy, program_id)?;
        let spend = SpendAccounts::new([agent, source, mint, destination, recipient_handle, token_program]);
        let checked = spend::check_accounts(&spend, program_id)?;
        Ok(Self {
            spend,
            hold: HoldAccounts {
                pending,
                payer,
                system_program,
            },
            agent_state,
            policy_state,
            checked,
        })
    }
}

struct Args<'a> {
    amount: u64,
    transfer_id: &'a [u8; 16],
}

#[inline(always)]
fn parse(data: &[u8]) -> Result<Args<'_>, PolicyError> {
    read_args(data, |reader| {
        Ok(Args {
            amount: reader.int()?,
            transfer_id: reader.array()?,
        })
    })
}

/// Runs one agent spend: refuse, execute or hold (see the module doc for data, accounts and checks).
pub fn process(program_id: &Pubkey, list: &AccountList, data: &[u8]) -> ProgramResult {
    let args = parse(data)?;
    let mut accounts = AgentTransferAccounts::unpack(list, program_id)?;
    let policy = &mut *accounts.policy_state;
    spend::check_asset_and_recipient(policy, &accounts.spend, &accounts.checked)?;

    let now = clock::unix_timestamp();
    active_hours::check(policy.active_start_minute.get(), policy.active_end_minute.get(), now)?;
    let today = limits::day_index(now);
    if policy.has_confidential_spend_on(today) {
        return Err(PolicyError::PublicSpendAfterConfidential);
    }
    let decision = limits::evaluate_transfer(&policy.limits(), policy.daily_spend(), args.amount, today)?;
    match decision {
        limits::Decision::Execute(spent) => {
            policy.set_daily_spend(spent);
            spend::execute(
                &accounts.spend,
                accounts.agent_state,
                args.amount,
                accounts.checked.decimals,
            )?;
            event::transfer_executed(&spend::executed(&accounts.spend, args.transfer_id, false));
            Ok(())
        }
        limits::Decision::Hold => hold(&mut Hold {
            program_id,
            accounts: &mut accounts,
            args: &args,
            now,
        }),
    }
}

struct Hold<'a, 'b> {
    program_id: &'b Pubkey,
    accounts: &'b mut AgentTransferAccounts<'a>,
    args: &'b Args<'b>,
    now: i64,
}

/// Creates the `PendingTransaction` at `["pending", agent, next_hold_nonce]` (see `hold`) and
/// fills it. Off the hot path.
#[inline(never)]
fn hold(hold: &mut Hold) -> ProgramResult {
    let Hold {
        program_id,
        ref mut accounts,
        args,
        now,
    } = *hold;
    let spend = &accounts.spend;
    let agent_key = spend.agent.key();
    let created = hold::create(
        &NewPending {
            program_id,
            agent_key,
            accounts: &accounts.hold,
            space: pending::LEN,
            approval_window_seconds: accounts.policy_state.approval_window_seconds.get(),
            now,
        },
        accounts.agent_state,
    )?;
    init::<PendingTransaction>(accounts.hold.pending).write_new(&NewHold {
        agent: agent_key,
        nonce: created.nonce,
        source: spend.source.key(),
        destination: spend.destination.key(),
        mint: spend.mint.key(),
        amount: args.amount,
        requested_at: now,
        expires_at: created.expires_at,
        rent_payer: accounts.hold.payer.key(),
        recipient_handle: accounts.checked.recipient_handle.unwrap_or(&[]),
        bump: created.bump,
        transfer_id: args.transfer_id,
    });
    event::transaction_held(&event::TransactionHeld {
        agent: agent_key,
        pending: accounts.hold.pending.key(),
        nonce: created.nonce,
        transfer_id: args.transfer_id,
        expires_at: created.expires_at,
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discriminator::{event as event_disc, instruction};
    use crate::instructions::test_fixtures::*;
    use crate::rules::limits::day_index;
    use crate::rules::recipients::{KIND_ADDRESS, KIND_NAME, KIND_SUFFIX};
    use crate::runtime::input::test_support::TestAccount;
    use crate::runtime::TOKEN_2022_PROGRAM_ID;

    fn data(amount: u64) -> Vec<u8> {
        let mut data = instruction::AGENT_TRANSFER.to_vec();
        data.extend_from_slice(&amount.to_le_bytes());
        data.extend_from_slice(&[0x42; 16]);
        data
    }

    /// A valid transfer of `amount` from the agent to DESTINATION_OWNER's account (11 accounts).
    fn transfer(amount: u64) -> Call {
        Call::new(
            &data(amount),
            vec![
                signer(wallet(SIGNER)),
                writable(account(AGENT, PROGRAM, agent_data())),
                writable(account(POLICY, PROGRAM, policy_data())),
                writable(token(SOURCE, token_account_data(MINT, AGENT, 1_000))),
                token(MINT, mint_data(6)),
                writable(token(DESTINATION, token_account_data(MINT, DESTINATION_OWNER, 0))),
                program_account(PROGRAM),
                writable(wallet(PENDING)),
                signer(writable(wallet(PAYER))),
                program_account(TOKEN_2022_PROGRAM_ID),
                program_account(SYSTEM),
            ],
        )
    }

    /// The recipient slot holding a `Handle` of `handle` whose wallet is `wallet`.
    fn recipient(handle: &[u8], wallet: Pubkey) -> impl FnOnce(&mut TestAccount) + '_ {
        move |slot| *slot = account(HANDLE, PROGRAM, handle_data(handle, wallet, 0))
    }

    #[test]
    fn an_amount_at_the_hitl_threshold_executes_a_transfer_checked_signed_by_the_agent() {
        // When the agent signer sends exactly the HITL threshold
        let run = transfer(50).run();
        // Then one TransferChecked CPI moves it, signed with the agent's stored seeds
        assert_eq!(run.result, Ok(()));
        let [cpi] = &run.invocations[..] else {
            panic!("expected one CPI")
        };
        assert_eq!(cpi.program_id, TOKEN_2022_PROGRAM_ID);
        let mut expected_data = vec![12];
        expected_data.extend_from_slice(&50u64.to_le_bytes());
        expected_data.push(6);
        assert_eq!(cpi.data, expected_data);
        assert_eq!(
            cpi.accounts,
            vec![
                (SOURCE, true, false),
                (MINT, false, false),
                (DESTINATION, true, false),
                (AGENT, false, true)
            ]
        );
        assert_eq!(
            cpi.signer_seeds,
            vec![vec![b"agent".to_vec(), HANDLE_HASH.to_vec(), vec![AGENT_BUMP]]]
        );
        // And today's spend is counted
        assert_eq!(u64_at(run.data(2), 88), 50);
        assert_eq!(i64_at(run.data(2), 80), day_index(NOON));
        // And TransferExecuted { agent, transfer_id, source, destination, mint, from_hold: false } is emitted
        let mut expected_event = event_disc::TRANSFER_EXECUTED.to_vec();
        for part in [&AGENT[..], &[0x42; 16], &SOURCE, &DESTINATION, &MINT, &[0]] {
            expected_event.extend_from_slice(part);
        }
        assert_eq!(run.events, vec![expected_event]);
    }

    #[test]
    fn per_transaction_limit_boundaries() {
        let over_hitl = |policy: &mut Vec<u8>| policy[64..72].copy_from_slice(&1_000u64.to_le_bytes());
        assert_eq!(transfer(99).with_data_of(2, over_hitl).run().result, Ok(()));
        assert_eq!(transfer(100).with_data_of(2, over_hitl).run().result, Ok(()));
        refused(
            &transfer(101).with_data_of(2, over_hitl).run(),
            PolicyError::PerTransactionLimitExceeded,
        );
    }

    #[test]
    fn daily_limit_boundaries_on_the_same_day() {
        let spent_200 = |policy: &mut Vec<u8>| policy[88..96].copy_from_slice(&200u64.to_le_bytes());
        assert_eq!(u64_at(transfer(49).with_data_of(2, spent_200).run().data(2), 88), 249);
        assert_eq!(u64_at(transfer(50).with_data_of(2, spent_200).run().data(2), 88), 250);
        refused(
            &transfer(51).with_data_of(2, spent_200).run(),
            PolicyError::DailyLimitExceeded,
        );
    }

    #[test]
    fn the_daily_spend_resets_at_utc_midnight() {
        // Given 250 of 250 spent on the day before NOON's
        let yesterday = |policy: &mut Vec<u8>| {
            policy[80..88].copy_from_slice(&(day_index(NOON) - 1).to_le_bytes());
            policy[88..96].copy_from_slice(&250u64.to_le_bytes());
        };
        let midnight = day_index(NOON) * 86_400;
        // Then at 23:59:59 nothing more passes, and at 00:00:00 the full limit is available again
        refused(
            &transfer(1).with_data_of(2, yesterday).at(midnight - 1).run(),
            PolicyError::DailyLimitExceeded,
        );
        let run = transfer(50).with_data_of(2, yesterday).at(midnight).run();
        assert_eq!(run.result, Ok(()));
        assert_eq!(
            (i64_at(run.data(2), 80), u64_at(run.data(2), 88)),
            (day_index(midnight), 50)
        );
    }

    #[test]
    #[should_panic(expected = "sol_try_find_program_address")]
    fn an_amount_above_the_hitl_threshold_goes_to_the_hold_path() {
        // The hold path derives the pending PDA, a syscall the host does not have: reaching it
        // proves the decision (the LiteSVM suite covers the creation itself).
        let _ = transfer(51).run();
    }

    #[test]
    fn active_hours_are_checked_against_the_cluster_clock() {
        // 09:00-17:00 UTC
        let office = |policy: &mut Vec<u8>| {
            policy[44..46].copy_from_slice(&540u16.to_le_bytes());
            policy[46..48].copy_from_slice(&1020u16.to_le_bytes());
        };
        let day_start = day_index(NOON) * 86_400;
        refused(
            &transfer(1).with_data_of(2, office).at(day_start + 9 * 3600 - 1).run(),
            PolicyError::OutsideActiveHours,
        );
        assert_eq!(
            transfer(1)
                .with_data_of(2, office)
                .at(day_start + 9 * 3600)
                .run()
                .result,
            Ok(())
        );
        assert_eq!(
            transfer(1)
                .with_data_of(2, office)
                .at(day_start + 17 * 3600 - 1)
                .run()
                .result,
            Ok(())
        );
        refused(
            &transfer(1).with_data_of(2, office).at(day_start + 17 * 3600).run(),
            PolicyError::OutsideActiveHours,
        );
    }

    #[test]
    fn only_the_agent_signer_may_spend_and_must_sign() {
        refuses_each(
            || transfer(1),
            &[
                (0, |a| a.key = OWNER, PolicyError::NotAgentSigner),
                (0, |a| a.is_signer = false, PolicyError::MissingSigner),
            ],
        );
    }

    #[test]
    fn the_agent_and_policy_must_be_this_programs_and_linked() {
        use crate::discriminator::account::POLICY as POLICY_DISCRIMINATOR;
        refuses_each(
            || transfer(1),
            &[
                (1, |a| a.owner = [0x99; 32], PolicyError::WrongAccountOwner),
                (1, |a| a.is_writable = false, PolicyError::AccountNotWritable),
                (
                    1,
                    |a| a.data[..8].copy_from_slice(&POLICY_DISCRIMINATOR),
                    PolicyError::WrongAccountData,
                ),
                (1, |a| a.data[106] = 0, PolicyError::AgentNotActive),
                (2, |p| p.data[8..40].copy_from_slice(&[0x31; 32]), PolicyError::WrongPda),
                // The agent's account passed as its policy
                (2, |p| p.data = agent_data(), PolicyError::WrongAccountData),
            ],
        );
    }

    #[test]
    fn the_token_side_must_be_token_2022_accounts_of_the_mint_owned_by_the_agent() {
        refuses_each(
            || transfer(1),
            &[
                (9, |p| p.key = [0x66; 32], PolicyError::WrongProgram),
                (
                    3,
                    |s| s.data[32..64].copy_from_slice(&OWNER),
                    PolicyError::WrongTokenAccount,
                ),
                (3, |s| s.owner = [0x99; 32], PolicyError::WrongTokenAccount),
                (
                    3,
                    |s| s.data[..32].copy_from_slice(&[0x13; 32]),
                    PolicyError::WrongTokenAccount,
                ),
                (3, |s| s.is_writable = false, PolicyError::AccountNotWritable),
                // frozen
                (5, |d| d.data[108] = 2, PolicyError::WrongTokenAccount),
                (
                    5,
                    |d| d.data[..32].copy_from_slice(&[0x13; 32]),
                    PolicyError::WrongTokenAccount,
                ),
                (4, |m| m.owner = [0x99; 32], PolicyError::WrongTokenAccount),
                (4, |m| m.data[45] = 0, PolicyError::WrongTokenAccount),
            ],
        );
    }

    #[test]
    fn the_mint_must_be_allowed() {
        refused(
            &transfer(1).with_data_of(2, |p| p[76] = 0).run(),
            PolicyError::MintNotAllowed,
        );
        refused(
            &transfer(1)
                .with_data_of(2, |p| p[104..136].copy_from_slice(&[0x13; 32]))
                .run(),
            PolicyError::MintNotAllowed,
        );
    }

    #[test]
    fn a_suffix_pattern_needs_a_handle_of_the_destination_owner_under_it() {
        let star_acme = |p: &mut Vec<u8>| *p = with_patterns(p.clone(), &[(KIND_SUFFIX, b"acme")]);
        assert_eq!(
            transfer(1)
                .with_data_of(2, star_acme)
                .with(6, recipient(b"pay.acme", DESTINATION_OWNER))
                .run()
                .result,
            Ok(())
        );
        assert_eq!(
            transfer(1)
                .with_data_of(2, star_acme)
                .with(6, recipient(b"x.pay.acme", DESTINATION_OWNER))
                .run()
                .result,
            Ok(())
        );
        refused(
            &transfer(1)
                .with_data_of(2, star_acme)
                .with(6, recipient(b"acme", DESTINATION_OWNER))
                .run(),
            PolicyError::RecipientNotAllowed,
        );
        refused(
            &transfer(1)
                .with_data_of(2, star_acme)
                .with(6, recipient(b"xacme", DESTINATION_OWNER))
                .run(),
            PolicyError::RecipientNotAllowed,
        );
        refused(
            &transfer(1).with_data_of(2, star_acme).run(),
            PolicyError::RecipientNotAllowed,
        );
        // A handle that is not the destination owner's proves nothing
        refused(
            &transfer(1)
                .with_data_of(2, star_acme)
                .with(6, recipient(b"pay.acme", OWNER))
                .run(),
            PolicyError::WrongTokenAccount,
        );
        // A look-alike handle account of another program
        let forged = transfer(1)
            .with_data_of(2, star_acme)
            .with(6, recipient(b"pay.acme", DESTINATION_OWNER))
            .with(6, |h| h.owner = [0x99; 32]);
        refused(&forged.run(), PolicyError::WrongAccountOwner);
    }

    #[test]
    fn name_and_address_patterns() {
        let name_bob = |p: &mut Vec<u8>| *p = with_patterns(p.clone(), &[(KIND_NAME, b"bob")]);
        assert_eq!(
            transfer(1)
                .with_data_of(2, name_bob)
                .with(6, recipient(b"bob", DESTINATION_OWNER))
                .run()
                .result,
            Ok(())
        );
        refused(
            &transfer(1)
                .with_data_of(2, name_bob)
                .with(6, recipient(b"pay.bob", DESTINATION_OWNER))
                .run(),
            PolicyError::RecipientNotAllowed,
        );
        let owner_address = |p: &mut Vec<u8>| *p = with_patterns(p.clone(), &[(KIND_ADDRESS, &DESTINATION_OWNER)]);
        assert_eq!(transfer(1).with_data_of(2, owner_address).run().result, Ok(()));
        let account_address = |p: &mut Vec<u8>| *p = with_patterns(p.clone(), &[(KIND_ADDRESS, &DESTINATION)]);
        assert_eq!(transfer(1).with_data_of(2, account_address).run().result, Ok(()));
        let other_address = |p: &mut Vec<u8>| *p = with_patterns(p.clone(), &[(KIND_ADDRESS, &[0x13; 32])]);
        refused(
            &transfer(1).with_data_of(2, other_address).run(),
            PolicyError::RecipientNotAllowed,
        );
    }

    #[test]
    fn an_open_confidential_hold_refuses_every_public_spend() {
        refused(
            &transfer(1)
                .with(1, |a| a.data[192..224].copy_from_slice(&[0x51; 32]))
                .run(),
            PolicyError::ConfidentialHoldOpen,
        );
        // Even one that would be held
        refused(
            &transfer(51).with(1, |a| a.data[223] = 1).run(),
            PolicyError::ConfidentialHoldOpen,
        );
    }

    #[test]
    fn a_confidential_spend_today_refuses_public_spends_until_the_next_utc_day() {
        // Given a confidential spend S counted on NOON's day
        let spent_confidentially = |policy: &mut Vec<u8>| policy[1288..1352].copy_from_slice(&[0x33; 64]);
        refused(
            &transfer(1).with_data_of(2, spent_confidentially).run(),
            PolicyError::PublicSpendAfterConfidential,
        );
        refused(
            &transfer(51).with_data_of(2, spent_confidentially).run(),
            PolicyError::PublicSpendAfterConfidential,
        );
        // A clock stepped back keeps the day's S
        let midnight = day_index(NOON) * 86_400;
        refused(
            &transfer(1).with_data_of(2, spent_confidentially).at(midnight - 1).run(),
            PolicyError::PublicSpendAfterConfidential,
        );
        // The identity pair (all zero) is no spend
        assert_eq!(transfer(1).run().result, Ok(()));
        // On the next day the stale S is ignored, and the public write of the new day clears it
        let run = transfer(1)
            .with_data_of(2, |p| {
                spent_confidentially(p);
                p[1352..1384].copy_from_slice(&[0x34; 32]);
                p[1384..1420].copy_from_slice(&[0x35; 36]);
            })
            .at(midnight + 86_400)
            .run();
        assert_eq!(run.result, Ok(()));
        assert_eq!(i64_at(run.data(2), 80), day_index(NOON) + 1);
        assert!(run.data(2)[1288..1420].iter().all(|b| *b == 0));
    }

    #[test]
    fn malformed_instructions_are_refused_before_anything_is_read() {
        let mut short = transfer(1);
        short.accounts.truncate(10);
        short.refused(PolicyError::NotEnoughAccounts);
        let mut trailing = transfer(1);
        trailing.data.push(0);
        trailing.refused(PolicyError::InvalidInstructionData);
        let mut truncated = transfer(1);
        truncated.data.pop();
        truncated.refused(PolicyError::InvalidInstructionData);
    }
}
