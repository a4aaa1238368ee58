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

    /// The 11 accounts of a valid transfer from the agent to DESTINATION_OWNER's account.
    struct Fixture {
        accounts: Vec<TestAccount>,
    }

    impl Fixture {
        fn new() -> Self {
            Self {
                accounts: vec![
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
            }
        }

        fn with(mut self, index: usize, change: impl FnOnce(&mut TestAccount)) -> Self {
            change(&mut self.accounts[index]);
            self
        }

        fn policy(self, change: impl FnOnce(&mut Vec<u8>)) -> Self {
            self.with(2, |policy| change(&mut policy.data))
        }

        fn handle(self, handle: &[u8], wallet: Pubkey) -> Self {
            let data = handle_data(handle, wallet, 0);
            self.with(6, |slot| *slot = account(HANDLE, PROGRAM, data))
        }

        fn run(self, amount: u64) -> Run {
            run(self.accounts, &data(amount), NOON)
        }

        fn run_at(self, amount: u64, now: i64) -> Run {
            run(self.accounts, &data(amount), now)
        }
    }

    #[test]
    fn an_amount_at_the_hitl_threshold_executes_a_transfer_checked_signed_by_the_agent() {
        // When the agent signer sends exactly the HITL threshold
        let run = Fixture::new().run(50);
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
        assert_eq!(Fixture::new().policy(over_hitl).run(99).result, Ok(()));
        assert_eq!(Fixture::new().policy(over_hitl).run(100).result, Ok(()));
        refused(
            &Fixture::new().policy(over_hitl).run(101),
            PolicyError::PerTransactionLimitExceeded,
        );
    }

    #[test]
    fn daily_limit_boundaries_on_the_same_day() {
        let spent_200 = |policy: &mut Vec<u8>| policy[88..96].copy_from_slice(&200u64.to_le_bytes());
        assert_eq!(u64_at(Fixture::new().policy(spent_200).run(49).data(2), 88), 249);
        assert_eq!(u64_at(Fixture::new().policy(spent_200).run(50).data(2), 88), 250);
        refused(
            &Fixture::new().policy(spent_200).run(51),
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
            &Fixture::new().policy(yesterday).run_at(1, midnight - 1),
            PolicyError::DailyLimitExceeded,
        );
        let run = Fixture::new().policy(yesterday).run_at(50, midnight);
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
        let _ = Fixture::new().run(51);
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
            &Fixture::new().policy(office).run_at(1, day_start + 9 * 3600 - 1),
            PolicyError::OutsideActiveHours,
        );
        assert_eq!(
            Fixture::new().policy(office).run_at(1, day_start + 9 * 3600).result,
            Ok(())
        );
        assert_eq!(
            Fixture::new()
                .policy(office)
                .run_at(1, day_start + 17 * 3600 - 1)
                .result,
            Ok(())
        );
        refused(
            &Fixture::new().policy(office).run_at(1, day_start + 17 * 3600),
            PolicyError::OutsideActiveHours,
        );
    }

    #[test]
    fn only_the_agent_signer_may_spend_and_must_sign() {
        refused(
            &Fixture::new().with(0, |a| a.key = OWNER).run(1),
            PolicyError::NotAgentSigner,
        );
        refused(
            &Fixture::new().with(0, |a| a.is_signer = false).run(1),
            PolicyError::MissingSigner,
        );
    }

    #[test]
    fn the_agent_and_policy_must_be_this_programs_and_linked() {
        refused(
            &Fixture::new().with(1, |a| a.owner = [0x99; 32]).run(1),
            PolicyError::WrongAccountOwner,
        );
        refused(
            &Fixture::new().with(1, |a| a.is_writable = false).run(1),
            PolicyError::AccountNotWritable,
        );
        refused(
            &Fixture::new()
                .with(1, |a| {
                    a.data[..8].copy_from_slice(&crate::discriminator::account::POLICY)
                })
                .run(1),
            PolicyError::WrongAccountData,
        );
        refused(
            &Fixture::new().with(1, |a| a.data[106] = 0).run(1),
            PolicyError::AgentNotActive,
        );
        refused(
            &Fixture::new().policy(|p| p[8..40].copy_from_slice(&[0x31; 32])).run(1),
            PolicyError::WrongPda,
        );
        // The agent's account passed as its policy
        let agent = agent_data();
        refused(
            &Fixture::new().with(2, |p| p.data = agent).run(1),
            PolicyError::WrongAccountData,
        );
    }

    #[test]
    fn the_token_side_must_be_token_2022_accounts_of_the_mint_owned_by_the_agent() {
        refused(
            &Fixture::new().with(9, |p| p.key = [0x66; 32]).run(1),
            PolicyError::WrongProgram,
        );
        refused(
            &Fixture::new()
                .with(3, |s| s.data[32..64].copy_from_slice(&OWNER))
                .run(1),
            PolicyError::WrongTokenAccount,
        );
        refused(
            &Fixture::new().with(3, |s| s.owner = [0x99; 32]).run(1),
            PolicyError::WrongTokenAccount,
        );
        refused(
            &Fixture::new()
                .with(3, |s| s.data[..32].copy_from_slice(&[0x13; 32]))
                .run(1),
            PolicyError::WrongTokenAccount,
        );
        refused(
            &Fixture::new().with(3, |s| s.is_writable = false).run(1),
            PolicyError::AccountNotWritable,
        );
        refused(
            &Fixture::new().with(5, |d| d.data[108] = 2).run(1),
            PolicyError::WrongTokenAccount,
        ); // frozen
        refused(
            &Fixture::new()
                .with(5, |d| d.data[..32].copy_from_slice(&[0x13; 32]))
                .run(1),
            PolicyError::WrongTokenAccount,
        );
        refused(
            &Fixture::new().with(4, |m| m.owner = [0x99; 32]).run(1),
            PolicyError::WrongTokenAccount,
        );
        refused(
            &Fixture::new().with(4, |m| m.data[45] = 0).run(1),
            PolicyError::WrongTokenAccount,
        );
    }

    #[test]
    fn the_mint_must_be_allowed() {
        refused(
            &Fixture::new().policy(|p| p[76] = 0).run(1),
            PolicyError::MintNotAllowed,
        );
        refused(
            &Fixture::new()
                .policy(|p| p[104..136].copy_from_slice(&[0x13; 32]))
                .run(1),
            PolicyError::MintNotAllowed,
        );
    }

    #[test]
    fn a_suffix_pattern_needs_a_handle_of_the_destination_owner_under_it() {
        let star_acme = |p: &mut Vec<u8>| *p = with_patterns(p.clone(), &[(KIND_SUFFIX, b"acme")]);
        assert_eq!(
            Fixture::new()
                .policy(star_acme)
                .handle(b"pay.acme", DESTINATION_OWNER)
                .run(1)
                .result,
            Ok(())
        );
        assert_eq!(
            Fixture::new()
                .policy(star_acme)
                .handle(b"x.pay.acme", DESTINATION_OWNER)
                .run(1)
                .result,
            Ok(())
        );
        refused(
            &Fixture::new()
                .policy(star_acme)
                .handle(b"acme", DESTINATION_OWNER)
                .run(1),
            PolicyError::RecipientNotAllowed,
        );
        refused(
            &Fixture::new()
                .policy(star_acme)
                .handle(b"xacme", DESTINATION_OWNER)
                .run(1),
            PolicyError::RecipientNotAllowed,
        );
        refused(
            &Fixture::new().policy(star_acme).run(1),
            PolicyError::RecipientNotAllowed,
        );
        // A handle that is not the destination owner's proves nothing
        refused(
            &Fixture::new().policy(star_acme).handle(b"pay.acme", OWNER).run(1),
            PolicyError::WrongTokenAccount,
        );
        // A look-alike handle account of another program
        let forged = Fixture::new()
            .policy(star_acme)
            .handle(b"pay.acme", DESTINATION_OWNER)
            .with(6, |h| h.owner = [0x99; 32]);
        refused(&forged.run(1), PolicyError::WrongAccountOwner);
    }

    #[test]
    fn name_and_address_patterns() {
        let name_bob = |p: &mut Vec<u8>| *p = with_patterns(p.clone(), &[(KIND_NAME, b"bob")]);
        assert_eq!(
            Fixture::new()
                .policy(name_bob)
                .handle(b"bob", DESTINATION_OWNER)
                .run(1)
                .result,
            Ok(())
        );
        refused(
            &Fixture::new()
                .policy(name_bob)
                .handle(b"pay.bob", DESTINATION_OWNER)
                .run(1),
            PolicyError::RecipientNotAllowed,
        );
        let owner_address = |p: &mut Vec<u8>| *p = with_patterns(p.clone(), &[(KIND_ADDRESS, &DESTINATION_OWNER)]);
        assert_eq!(Fixture::new().policy(owner_address).run(1).result, Ok(()));
        let account_address = |p: &mut Vec<u8>| *p = with_patterns(p.clone(), &[(KIND_ADDRESS, &DESTINATION)]);
        assert_eq!(Fixture::new().policy(account_address).run(1).result, Ok(()));
        let other_address = |p: &mut Vec<u8>| *p = with_patterns(p.clone(), &[(KIND_ADDRESS, &[0x13; 32])]);
        refused(
            &Fixture::new().policy(other_address).run(1),
            PolicyError::RecipientNotAllowed,
        );
    }

    #[test]
    fn an_open_confidential_hold_refuses_every_public_spend() {
        refused(
            &Fixture::new()
                .with(1, |a| a.data[192..224].copy_from_slice(&[0x51; 32]))
                .run(1),
            PolicyError::ConfidentialHoldOpen,
        );
        // Even one that would be held
        refused(
            &Fixture::new().with(1, |a| a.data[223] = 1).run(51),
            PolicyError::ConfidentialHoldOpen,
        );
    }

    #[test]
    fn a_confidential_spend_today_refuses_public_spends_until_the_next_utc_day() {
        // Given a confidential spend S counted on NOON's day
        let spent_confidentially = |policy: &mut Vec<u8>| policy[1288..1352].copy_from_slice(&[0x33; 64]);
        refused(
            &Fixture::new().policy(spent_confidentially).run(1),
            PolicyError::PublicSpendAfterConfidential,
        );
        refused(
            &Fixture::new().policy(spent_confidentially).run(51),
            PolicyError::PublicSpendAfterConfidential,
        );
        // A clock stepped back keeps the day's S
        let midnight = day_index(NOON) * 86_400;
        refused(
            &Fixture::new().policy(spent_confidentially).run_at(1, midnight - 1),
            PolicyError::PublicSpendAfterConfidential,
        );
        // The identity pair (all zero) is no spend
        assert_eq!(Fixture::new().run(1).result, Ok(()));
        // On the next day the stale S is ignored, and the public write of the new day clears it
        let run = Fixture::new()
            .policy(|p| {
                spent_confidentially(p);
                p[1352..1384].copy_from_slice(&[0x34; 32]);
                p[1384..1420].copy_from_slice(&[0x35; 36]);
            })
            .run_at(1, midnight + 86_400);
        assert_eq!(run.result, Ok(()));
        assert_eq!(i64_at(run.data(2), 80), day_index(NOON) + 1);
        assert!(run.data(2)[1288..1420].iter().all(|b| *b == 0));
    }

    #[test]
    fn malformed_instructions_are_refused_before_anything_is_read() {
        let mut short = Fixture::new();
        short.accounts.truncate(10);
        refused(&short.run(1), PolicyError::NotEnoughAccounts);
        let mut trailing = data(1);
        trailing.push(0);
        refused(
            &run(Fixture::new().accounts, &trailing, NOON),
            PolicyError::InvalidInstructionData,
        );
        refused(
            &run(Fixture::new().accounts, &data(1)[..31], NOON),
            PolicyError::InvalidInstructionData,
        );
    }
}
