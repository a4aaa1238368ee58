//! `agent_confidential_transfer` — the agent signer spends confidentially from the agent's
//! Token-2022 account. The program never sees the amount: it checks the prover's limit proofs
//! against ciphertexts it computes itself (`rules::confidential_limits`), then executes
//! Token-2022's confidential `Transfer` signed by the agent PDA, or holds it for the owner.
//!
//! Data (133 bytes): discriminator `sha256("global:agent_confidential_transfer")[..8]`,
//! `transfer_id: [u8; 16]`, `new_source_decryptable_available_balance: [u8; 36]` (AE, for
//! Token-2022), `spend_decryptable: [u8; 36]` (AE of the prover's new total today: stored in the
//! policy when executed, kept as the same-day blob of a hold), `spend_decryptable_next_day: [u8;
//! 36]` (a hold's blob for an approval on a later UTC day: AE of the amount alone; ignored when
//! executed), `request_hold: bool` (0/1; else `InvalidInstructionData`).
//!
//! Accounts:
//! 0. `agent_signer`                 signer — must be `agent.agent_signer`
//! 1. `agent`                        writable — `Agent` of this program, active, no confidential hold open
//! 2. `policy`                       writable — `Policy` with `policy.agent == agent`
//! 3. `source`                       writable — Token-2022 account of `mint` owned by the agent PDA
//! 4. `mint`                         Token-2022 mint
//! 5. `destination`                  writable — Token-2022 account of `mint`
//! 6. `recipient_handle`             optional (program id = none) — `Handle` whose wallet owns `destination`
//! 7. `equality_proof`               writable — Token context, type 3, authority the agent PDA
//! 8. `ciphertext_validity_proof`    writable — Token context, type 12, authority the agent PDA
//! 9. `range_proof`                  writable — Token context, type 7 (U128), authority the agent PDA
//! 10. `limit_equality_transaction`  writable — equality context proving `X_tx`
//! 11. `limit_equality_daily`        writable — equality context proving `X_day`
//! 12. `limit_range_proof`           writable — range context (type 6 or 7) over `[Z_tx, Z_day]`
//! 13. `context_rent_receiver`       writable — gets the rent of the contexts closed here
//! 14. `pending`                     writable — hold only: PDA `["pending", agent, next_hold_nonce LE]`
//! 15. `payer`                       signer, writable — hold only: pays the 544-byte hold's rent
//! 16. `token_program`               `TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb`
//! 17. `zk_elgamal_proof_program`    `ZkE1Gama1Proof11111111111111111111111111111`
//! 18. `system_program`              hold only
//!
//! Checks, in order: data; accounts (`NotEnoughAccounts`); agent and policy (writable, owner,
//! type); `NotAgentSigner`, `MissingSigner`, `AgentNotActive`, policy link (`WrongPda`),
//! `ConfidentialHoldOpen`; token side (`spend::check_accounts`); asset (`MintNotAllowed`),
//! recipient (`RecipientNotAllowed`), active hours (`OutsideActiveHours`); the ZK program
//! (`WrongProgram`), `context_rent_receiver` writable; the six contexts (`AccountNotWritable`,
//! `WrongProofContext`; a limit context that is also a Token one is `WrongProofContext`); the
//! limit statements (`LimitProofMismatch`); today's spend under another key
//! (`ConfidentialKeyMismatch`); `daily_limit - spent_today` (`DailyLimitExceeded`); the limit
//! ciphertexts (`LimitProofMismatch`, or `InvalidCurvePoint`).
//!
//! Bounds: `m = min(per_transaction_limit, hitl_threshold)` to execute, `per_transaction_limit`
//! with `request_hold`; the daily bound is `daily_limit - spent_today - S`.
//!
//! Executes: Token-2022 confidential `Transfer` (auditor ciphertexts from the validity context),
//! stores `S' = S + A`, `spend_pubkey` = the validity context's source key, `spend_decryptable`
//! and the day (`Policy::set_confidential_spend`), closes all six contexts to
//! `context_rent_receiver`, emits `ConfidentialTransferExecuted { from_hold: false }`.
//! Holds: creates `pending` (544 bytes, `confidential = 1`, `amount = 0`, the three Token
//! contexts pinned, the proven limits, `hold_day = max(today, policy.day_index)`: the day whose
//! spend the daily proof counted), sets `agent.confidential_hold`, closes the three limit contexts
//! to `context_rent_receiver`, emits `TransactionHeld`.

use crate::borsh::read_args;
use crate::error::{PolicyError, ProgramResult};
use crate::event;
use crate::instructions::confidential_spend::{self, AgentSeeds, TokenContexts};
use crate::instructions::hold::{self, HoldAccounts, NewPending};
use crate::instructions::spend::{self, CheckedSpend, SpendAccounts, Spender};
use crate::rules::confidential_limits::{self, Ciphertext, LimitCheck, LimitProofs, LIMIT_RANGE_TYPES};
use crate::rules::{active_hours, limits};
use crate::runtime::account::AccountView;
use crate::runtime::cpi::Signer;
use crate::runtime::input::AccountList;
use crate::runtime::{clock, keys_eq, Pubkey};
use crate::state::agent::Agent;
use crate::state::init;
use crate::state::pending::{self, NewConfidentialHold, NewHold, PendingTransaction};
use crate::state::policy::{ConfidentialSpend, Policy};
use crate::token_confidential::DecryptableBalance;
use crate::zk_context::{self, ValidityContext};

pub const DATA_LEN: usize = 8 + 16 + 3 * 36 + 1;

/// The three contexts of the limit proofs.
struct LimitContexts<'a> {
    transaction: &'a AccountView,
    daily: &'a AccountView,
    range: &'a AccountView,
}

impl LimitContexts<'_> {
    fn all(&self) -> [AccountView; 3] {
        [*self.transaction, *self.daily, *self.range]
    }
}

/// The accounts of one confidential agent spend, checked up to the policy rules. The proof
/// contexts, the ZK program and `context_rent_receiver` are checked after the rules (`verify`),
/// and the hold accounts only when a hold is created (`hold::create`).
struct AgentConfidentialTransferAccounts<'a> {
    spend: SpendAccounts<'a>,
    token_contexts: TokenContexts<'a>,
    limit_contexts: LimitContexts<'a>,
    context_rent_receiver: &'a AccountView,
    hold: HoldAccounts<'a>,
    zk_program: &'a AccountView,
    agent_state: &'a mut Agent,
    policy_state: &'a mut Policy,
    /// What the token-side checks proved.
    checked: CheckedSpend<'a>,
}

impl<'a> AgentConfidentialTransferAccounts<'a> {
    /// In order: `NotEnoughAccounts`; the spender's loads and checks (`spend::load_spender`:
    /// agent, policy, signer, active, policy link, no open confidential hold); the token side
    /// (`spend::check_accounts`).
    fn unpack(list: &'a AccountList, program_id: &Pubkey) -> Result<Self, PolicyError> {
        let [agent_signer, agent, policy, source, mint, destination, recipient_handle, equality, validity, range, limit_transaction, limit_daily, limit_range, context_rent_receiver, pending, payer, token_program, zk_program, system_program] =
            list.first::<19>()?;
        let Spender {
            agent_state,
            policy_state,
        } = spend::load_spender(agent_signer, agent, policy, program_id)?;
        let spend = SpendAccounts::new([agent, source, mint, destination, recipient_handle, token_program]);
        let checked = spend::check_accounts(&spend, program_id)?;
        Ok(Self {
            spend,
            token_contexts: TokenContexts {
                equality,
                validity,
                range,
            },
            limit_contexts: LimitContexts {
                transaction: limit_transaction,
                daily: limit_daily,
                range: limit_range,
            },
            context_rent_receiver,
            hold: HoldAccounts {
                pending,
                payer,
                system_program,
            },
            zk_program,
            agent_state,
            policy_state,
            checked,
        })
    }
}

struct Args<'a> {
    transfer_id: &'a [u8; 16],
    new_source_decryptable_available_balance: &'a DecryptableBalance,
    spend_decryptable: &'a [u8; 36],
    spend_decryptable_next_day: &'a [u8; 36],
    request_hold: bool,
}

fn parse(data: &[u8]) -> Result<Args<'_>, PolicyError> {
    read_args(data, |reader| {
        Ok(Args {
            transfer_id: reader.array()?,
            new_source_decryptable_available_balance: reader.array()?,
            spend_decryptable: reader.array()?,
            spend_decryptable_next_day: reader.array()?,
            request_hold: reader.bool()?,
        })
    })
}

/// The limit contexts, read and checked; none may be one of the Token contexts (a hold would
/// close what it pins).
fn read_limit_contexts<'a>(
    accounts: &AgentConfidentialTransferAccounts<'a>,
    agent: &Pubkey,
) -> Result<LimitProofs<'a>, PolicyError> {
    let limit = &accounts.limit_contexts;
    let proofs = LimitProofs {
        transaction: zk_context::equality(limit.transaction, agent)?,
        daily: zk_context::equality(limit.daily, agent)?,
        range: zk_context::range(limit.range, agent, &LIMIT_RANGE_TYPES)?,
    };
    let pinned = accounts.token_contexts.all();
    for context in &limit.all() {
        if pinned.iter().any(|token| keys_eq(token.key(), context.key())) {
            return Err(PolicyError::WrongProofContext);
        }
    }
    Ok(proofs)
}

/// Everything after the account checks: the verified transfer, ready to execute or hold.
struct Verified<'a> {
    validity: ValidityContext<'a>,
    /// `S' = S + A`.
    total: Ciphertext,
    today: i64,
}

/// The contexts, the limit statements, the key of today's spend, and the limit ciphertexts.
#[inline(never)]
fn verify<'a>(
    accounts: &AgentConfidentialTransferAccounts<'a>,
    request_hold: bool,
    now: i64,
) -> Result<Verified<'a>, PolicyError> {
    confidential_spend::check_zk_program(accounts.zk_program)?;
    if !accounts.context_rent_receiver.is_writable() {
        return Err(PolicyError::AccountNotWritable);
    }
    let agent_key = accounts.spend.agent.key();
    let validity = confidential_spend::read_token_contexts(&accounts.token_contexts, agent_key)?;
    let proofs = read_limit_contexts(accounts, agent_key)?;
    confidential_limits::check_statements(&proofs, validity.source_pubkey)?;

    let today = limits::day_index(now);
    let policy = &*accounts.policy_state;
    let spend_today = confidential_spend::spend_today(policy, today, validity.source_pubkey)?;
    let policy_limits = policy.limits();
    let daily_remaining = confidential_limits::daily_remaining(policy_limits.daily, policy.daily_spend().on(today))?;
    let transaction_bound = if request_hold {
        policy_limits.per_transaction
    } else {
        policy_limits.per_transaction.min(policy_limits.hitl_threshold)
    };
    let amount = confidential_limits::transfer_amount(&validity)?;
    let total = confidential_limits::check(&LimitCheck {
        amount: &amount,
        spend_today,
        transaction_bound,
        daily_remaining,
        proofs: &proofs,
    })?;
    Ok(Verified { validity, total, today })
}

/// Runs one confidential agent spend (see the module doc for data, accounts and checks).
pub fn process(program_id: &Pubkey, list: &AccountList, data: &[u8]) -> ProgramResult {
    let args = parse(data)?;
    let mut accounts = AgentConfidentialTransferAccounts::unpack(list, program_id)?;
    let policy = &*accounts.policy_state;
    spend::check_asset_and_recipient(policy, &accounts.spend, &accounts.checked)?;
    let now = clock::unix_timestamp();
    active_hours::check(policy.active_start_minute.get(), policy.active_end_minute.get(), now)?;
    let verified = verify(&accounts, args.request_hold, now)?;
    let mut context = Context {
        program_id,
        accounts: &mut accounts,
        args: &args,
        verified: &verified,
        now,
    };
    if args.request_hold {
        hold_transfer(&mut context)
    } else {
        execute_transfer(&mut context)
    }
}

struct Context<'a, 'b> {
    program_id: &'b Pubkey,
    accounts: &'b mut AgentConfidentialTransferAccounts<'a>,
    args: &'b Args<'b>,
    verified: &'b Verified<'b>,
    now: i64,
}

/// Transfers now, stores `S'` and closes the six contexts.
#[inline(never)]
fn execute_transfer(context: &mut Context) -> ProgramResult {
    let Context {
        ref mut accounts,
        args,
        verified,
        ..
    } = *context;
    let seeds = AgentSeeds::of(accounts.agent_state);
    let seeds = seeds.seeds();
    let signer = Signer::new(&seeds);
    confidential_spend::execute(
        &accounts.spend,
        &accounts.token_contexts,
        &verified.validity,
        args.new_source_decryptable_available_balance,
        &signer,
    )?;
    accounts.policy_state.set_confidential_spend(&ConfidentialSpend {
        today: verified.today,
        ciphertext: &verified.total,
        pubkey: verified.validity.source_pubkey,
        decryptable: args.spend_decryptable,
    });
    let token = accounts.token_contexts.all();
    let limit = accounts.limit_contexts.all();
    close_contexts(
        accounts,
        &[token[0], token[1], token[2], limit[0], limit[1], limit[2]],
        &signer,
    )?;
    event::confidential_transfer_executed(&spend::executed(&accounts.spend, args.transfer_id, false));
    Ok(())
}

#[inline(always)]
fn close_contexts(
    accounts: &AgentConfidentialTransferAccounts,
    contexts: &[AccountView],
    signer: &Signer,
) -> ProgramResult {
    confidential_spend::close_all(contexts, [accounts.context_rent_receiver, accounts.spend.agent], signer)
}

/// Creates the 544-byte confidential hold, pins the Token contexts, closes the limit ones.
#[inline(never)]
fn hold_transfer(context: &mut Context) -> ProgramResult {
    let Context {
        program_id,
        ref mut accounts,
        args,
        verified,
        now,
    } = *context;
    let agent_key = accounts.spend.agent.key();
    let policy = &*accounts.policy_state;
    let created = hold::create(
        &NewPending {
            program_id,
            agent_key,
            accounts: &accounts.hold,
            space: pending::CONFIDENTIAL_LEN,
            approval_window_seconds: policy.approval_window_seconds.get(),
            now,
        },
        accounts.agent_state,
    )?;
    let pending_account = accounts.hold.pending;
    let held = init::<PendingTransaction>(pending_account);
    held.write_new(&NewHold {
        agent: agent_key,
        nonce: created.nonce,
        source: accounts.spend.source.key(),
        destination: accounts.spend.destination.key(),
        mint: accounts.spend.mint.key(),
        amount: 0,
        requested_at: now,
        expires_at: created.expires_at,
        rent_payer: accounts.hold.payer.key(),
        recipient_handle: accounts.checked.recipient_handle.unwrap_or(&[]),
        bump: created.bump,
        transfer_id: args.transfer_id,
    });
    held.confidential = 1;
    let policy_limits = policy.limits();
    let counted_day = policy.daily_spend().day_index.max(verified.today);
    pending::confidential_hold_mut(pending_account, program_id)?.write_new(&NewConfidentialHold {
        equality_proof: accounts.token_contexts.equality.key(),
        ciphertext_validity_proof: accounts.token_contexts.validity.key(),
        range_proof: accounts.token_contexts.range.key(),
        new_source_decryptable_available_balance: args.new_source_decryptable_available_balance,
        spend_decryptable_same_day: args.spend_decryptable,
        spend_decryptable_next_day: args.spend_decryptable_next_day,
        proven_per_transaction_limit: policy_limits.per_transaction,
        proven_daily_limit: policy_limits.daily,
        hold_day: counted_day,
    });
    let seeds = AgentSeeds::of(accounts.agent_state);
    let seeds = seeds.seeds();
    close_contexts(accounts, &accounts.limit_contexts.all(), &Signer::new(&seeds))?;
    accounts.agent_state.set_confidential_hold(pending_account.key());
    event::transaction_held(&event::TransactionHeld {
        agent: agent_key,
        pending: pending_account.key(),
        nonce: created.nonce,
        transfer_id: args.transfer_id,
        expires_at: created.expires_at,
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    //! Every check before the curve math. Reaching the math (the host has no curve syscall, so it
    //! panics there) proves the checks passed; the math, the CPI and the hold creation run in the
    //! LiteSVM suites with real proofs.
    use super::*;
    use crate::discriminator::instruction;
    use crate::instructions::confidential_spend::test_support::*;
    use crate::instructions::test_fixtures::*;
    use crate::rules::limits::day_index;
    use crate::rules::recipients::KIND_NAME;
    use crate::runtime::TOKEN_2022_PROGRAM_ID;

    const CURVE: &str = "syscall sol_curve_group_op is only available on-chain";

    fn data(request_hold: u8) -> Vec<u8> {
        let mut data = instruction::AGENT_CONFIDENTIAL_TRANSFER.to_vec();
        data.extend_from_slice(&[0x42; 16]);
        data.extend_from_slice(&[0x43; 36]);
        data.extend_from_slice(&[0x44; 36]);
        data.extend_from_slice(&[0x45; 36]);
        data.push(request_hold);
        assert_eq!(data.len(), DATA_LEN);
        data
    }

    /// A valid confidential transfer, held when `request_hold` is 1 (19 accounts).
    fn transfer(request_hold: u8) -> Call {
        let [equality, validity, range] = token_contexts();
        let [limit_tx, limit_day, limit_range] = limit_contexts();
        Call::new(
            &data(request_hold),
            vec![
                signer(wallet(SIGNER)),
                writable(account(AGENT, PROGRAM, agent_data())),
                writable(account(POLICY, PROGRAM, policy_data())),
                writable(token(SOURCE, token_account_data(MINT, AGENT, 0))),
                token(MINT, mint_data(6)),
                writable(token(DESTINATION, token_account_data(MINT, DESTINATION_OWNER, 0))),
                program_account(PROGRAM),
                equality,
                validity,
                range,
                limit_tx,
                limit_day,
                limit_range,
                writable(wallet(CONTEXT_RECEIVER)),
                writable(wallet(PENDING)),
                signer(writable(wallet(PAYER))),
                program_account(TOKEN_2022_PROGRAM_ID),
                zk_program(),
                program_account(SYSTEM),
            ],
        )
    }

    /// A confidential spend stored today under `key`.
    fn spent_today_under(key: Pubkey) -> impl FnOnce(&mut Vec<u8>) {
        move |policy: &mut Vec<u8>| {
            policy[1288..1352].copy_from_slice(&[0x66; 64]);
            policy[1352..1384].copy_from_slice(&key);
        }
    }

    #[test]
    #[should_panic(expected = "syscall sol_curve_group_op is only available on-chain")]
    fn a_transfer_that_passes_every_check_reaches_the_limit_math() {
        let _ = transfer(0).run();
    }

    #[test]
    #[should_panic(expected = "syscall sol_curve_group_op is only available on-chain")]
    fn a_hold_request_that_passes_every_check_reaches_the_limit_math() {
        let _ = transfer(1).run();
    }

    #[test]
    #[should_panic(expected = "syscall sol_curve_group_op is only available on-chain")]
    fn a_u128_limit_range_proof_is_accepted() {
        let _ = transfer(0)
            .with(12, |r| *r = range(LIMIT_RANGE, 7, &[Z_TX, Z_DAY]))
            .run();
    }

    #[test]
    #[should_panic(expected = "syscall sol_curve_group_op is only available on-chain")]
    fn a_spend_under_another_key_on_an_earlier_day_is_stale_and_ignored() {
        let _ = transfer(0)
            .with_data_of(2, |p| {
                spent_today_under([0x99; 32])(p);
                p[80..88].copy_from_slice(&(day_index(NOON) - 1).to_le_bytes());
            })
            .run();
    }

    #[test]
    fn malformed_instructions_are_refused_before_anything_is_read() {
        let mut short = transfer(0);
        short.accounts.truncate(18);
        short.refused(PolicyError::NotEnoughAccounts);
        let mut trailing = transfer(0);
        trailing.data.push(0);
        trailing.refused(PolicyError::InvalidInstructionData);
        let mut truncated = transfer(0);
        truncated.data.truncate(DATA_LEN - 1);
        truncated.refused(PolicyError::InvalidInstructionData);
        // request_hold neither 0 nor 1
        transfer(2).refused(PolicyError::InvalidInstructionData);
    }

    #[test]
    fn only_the_active_agents_signer_spends_and_never_with_a_confidential_hold_open() {
        refuses_each(
            || transfer(0),
            &[
                (0, |a| a.key = OWNER, PolicyError::NotAgentSigner),
                (0, |a| a.is_signer = false, PolicyError::MissingSigner),
                (1, |a| a.data[106] = 0, PolicyError::AgentNotActive),
                (2, |p| p.data[8..40].copy_from_slice(&[0x31; 32]), PolicyError::WrongPda),
                (1, |a| a.is_writable = false, PolicyError::AccountNotWritable),
                (2, |a| a.owner = [0x99; 32], PolicyError::WrongAccountOwner),
            ],
        );
        refuses_each(
            || transfer(1),
            &[(
                1,
                |a| a.data[192..224].copy_from_slice(&[0x51; 32]),
                PolicyError::ConfidentialHoldOpen,
            )],
        );
    }

    #[test]
    fn the_token_side_and_the_rules_of_agent_transfer_apply() {
        refuses_each(
            || transfer(0),
            &[
                (16, |p| p.key = [0x66; 32], PolicyError::WrongProgram),
                (
                    3,
                    |s| s.data[32..64].copy_from_slice(&OWNER),
                    PolicyError::WrongTokenAccount,
                ),
                (2, |p| p.data[76] = 0, PolicyError::MintNotAllowed),
                (
                    2,
                    |p| p.data = with_patterns(p.data.clone(), &[(KIND_NAME, b"bob")]),
                    PolicyError::RecipientNotAllowed,
                ),
                // 09:00-10:00 UTC, NOON outside
                (
                    2,
                    |p| {
                        p.data[44..46].copy_from_slice(&540u16.to_le_bytes());
                        p.data[46..48].copy_from_slice(&600u16.to_le_bytes());
                    },
                    PolicyError::OutsideActiveHours,
                ),
            ],
        );
    }

    #[test]
    fn the_zk_program_and_the_context_rent_receiver_are_checked() {
        refuses_each(
            || transfer(0),
            &[
                (17, |z| z.key = [0x66; 32], PolicyError::WrongProgram),
                (13, |r| r.is_writable = false, PolicyError::AccountNotWritable),
            ],
        );
    }

    #[test]
    fn every_context_must_be_a_verified_one_of_the_agent_of_its_type() {
        for index in 7..=12 {
            let refusals: [Refusal; 5] = [
                (index, |c| c.owner = [0x99; 32], PolicyError::WrongProofContext),
                (
                    index,
                    |c| c.data[..32].copy_from_slice(&SIGNER),
                    PolicyError::WrongProofContext,
                ),
                (index, |c| c.data[32] = 1, PolicyError::WrongProofContext),
                (index, |c| c.data.push(0), PolicyError::WrongProofContext),
                (index, |c| c.is_writable = false, PolicyError::AccountNotWritable),
            ];
            refuses_each(|| transfer(0), &refusals);
        }
        refuses_each(
            || transfer(0),
            &[
                // Token-2022's Transfer takes a U128 range proof only
                (
                    9,
                    |r| *r = range(RANGE, 6, &[[0x58; 32]]),
                    PolicyError::WrongProofContext,
                ),
                // U256 (same size) is no limit range proof
                (
                    12,
                    |r| *r = range(LIMIT_RANGE, 8, &[Z_TX, Z_DAY]),
                    PolicyError::WrongProofContext,
                ),
            ],
        );
    }

    #[test]
    fn a_limit_context_may_not_be_one_of_the_token_contexts() {
        // The Token equality context passed again as the per-transaction limit proof
        let token_equality = equality(EQUALITY, SOURCE_ELGAMAL, Z_TX);
        refused(
            &transfer(0)
                .with(7, |e| *e = equality(EQUALITY, SOURCE_ELGAMAL, Z_TX))
                .with(10, |l| *l = token_equality)
                .run(),
            PolicyError::WrongProofContext,
        );
    }

    #[test]
    fn the_limit_proofs_must_be_about_the_transfer_key_and_each_others_commitments() {
        refused(
            &transfer(0)
                .with(10, |e| *e = equality(LIMIT_TX, [0x77; 32], Z_TX))
                .run(),
            PolicyError::LimitProofMismatch,
        );
        refused(
            &transfer(0)
                .with(11, |e| *e = equality(LIMIT_DAY, [0x77; 32], Z_DAY))
                .run(),
            PolicyError::LimitProofMismatch,
        );
        refused(
            &transfer(0)
                .with(12, |r| *r = range(LIMIT_RANGE, 6, &[Z_DAY, Z_TX]))
                .run(),
            PolicyError::LimitProofMismatch,
        );
        refused(
            &transfer(0).with(12, |r| *r = range(LIMIT_RANGE, 6, &[Z_TX])).run(),
            PolicyError::LimitProofMismatch,
        );
    }

    #[test]
    fn todays_confidential_spend_binds_the_source_key() {
        refused(
            &transfer(0).with_data_of(2, spent_today_under([0x99; 32])).run(),
            PolicyError::ConfidentialKeyMismatch,
        );
        refused(
            &transfer(1).with_data_of(2, spent_today_under([0x99; 32])).run(),
            PolicyError::ConfidentialKeyMismatch,
        );
    }

    #[test]
    #[should_panic(expected = "syscall sol_curve_group_op is only available on-chain")]
    fn todays_confidential_spend_under_the_same_key_goes_on_to_the_math() {
        let _ = transfer(0).with_data_of(2, spent_today_under(SOURCE_ELGAMAL)).run();
    }

    #[test]
    fn a_daily_limit_below_todays_public_spend_refuses() {
        refused(
            &transfer(0)
                .with_data_of(2, |p| p[88..96].copy_from_slice(&251u64.to_le_bytes()))
                .run(),
            PolicyError::DailyLimitExceeded,
        );
        // Reaching the limit exactly leaves 0: the math decides (any amount above 0 fails there)
        let panic = std::panic::catch_unwind(|| {
            transfer(0)
                .with_data_of(2, |p| p[88..96].copy_from_slice(&250u64.to_le_bytes()))
                .run()
                .result
        })
        .expect_err("reaches the curve math");
        let message = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        assert!(message.contains(CURVE), "{message}");
    }
}
