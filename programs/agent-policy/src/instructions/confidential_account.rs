//! The part the agent's confidential-account instructions share (`agent_confidential_configure`,
//! `_deposit`, `_apply`, `_withdraw`, `_close_contexts`): who may drive the agent's confidential
//! balance, and which token account. None of them moves funds out of the agent's account, so
//! either of the agent's keys may: the owner or the agent signer. Not an instruction.
//!
//! Checks, in this order:
//! - `agent`: an `Agent` of this program (`WrongAccountOwner` / `WrongAccountData`), read-only;
//! - `authority` is `agent.owner` or `agent.agent_signer` (`NotAgentSigner`) and signs
//!   (`MissingSigner`); the agent is active (`AgentNotActive`);
//! - where the balance the held proofs were made against could change (apply, withdraw, closing
//!   contexts), no confidential hold is open (`ConfidentialHoldOpen`, `agent_checks`);
//! - `token_program` is Token-2022 (`WrongProgram`); `token_account` writable
//!   (`AccountNotWritable`), an initialized, unfrozen Token-2022 account owned by the agent PDA
//!   (`WrongTokenAccount`); `mint`, where passed, an initialized Token-2022 mint and the account's
//!   (`WrongTokenAccount`).

use crate::error::PolicyError;
use crate::instructions::{agent_checks, agent_signer};
use crate::runtime::account::AccountView;
use crate::runtime::cpi::Seed;
use crate::runtime::{keys_eq, Pubkey, TOKEN_2022_PROGRAM_ID};
use crate::state::agent::Agent;
use crate::state::load;
use crate::token::{self, TokenAccount};

/// The agent, after its own checks and the authority's.
#[inline]
pub fn authorize<'a>(
    authority: &AccountView,
    agent: &'a AccountView,
    program_id: &Pubkey,
) -> Result<&'a Agent, PolicyError> {
    let loaded = load::<Agent>(agent, program_id)?;
    agent_checks::owner_or_agent_signer_signs(authority, loaded)?;
    agent_checks::require_active(loaded)?;
    Ok(loaded)
}

/// Whether an open confidential hold refuses the instruction: it does where the balance the
/// held proofs were made against could change.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum WhileHolding {
    Allowed,
    Refused,
}

/// What `agent_confidential_configure`, `_deposit`, `_apply` and `_withdraw` check first: the
/// agent (kept for its seeds) and the agent's Token-2022 account (kept for its mint).
pub struct AgentTokenAccount<'a> {
    pub agent_state: &'a Agent,
    token: TokenAccount<'a>,
}

impl<'a> AgentTokenAccount<'a> {
    /// In order: the agent and its authority ([`authorize`]); no open confidential hold where
    /// `holding` refuses one; `token_program` is Token-2022 (`WrongProgram`); `token_account`
    /// writable (`AccountNotWritable`), an initialized, unfrozen Token-2022 account owned by the
    /// agent PDA (`WrongTokenAccount`).
    #[inline]
    pub fn unpack(
        [authority, agent, token_account, token_program]: [&'a AccountView; 4],
        program_id: &Pubkey,
        holding: WhileHolding,
    ) -> Result<Self, PolicyError> {
        let agent_state = authorize(authority, agent, program_id)?;
        if holding == WhileHolding::Refused {
            agent_checks::refuse_open_hold(agent_state)?;
        }
        if !keys_eq(token_program.key(), &TOKEN_2022_PROGRAM_ID) {
            return Err(PolicyError::WrongProgram);
        }
        if !token_account.is_writable() {
            return Err(PolicyError::AccountNotWritable);
        }
        let token = token::token_account(token_account)?;
        if !keys_eq(token.owner(), agent.key()) {
            return Err(PolicyError::WrongTokenAccount);
        }
        Ok(Self { agent_state, token })
    }

    /// The decimals of `mint`, which must be an initialized Token-2022 mint and the token
    /// account's (`WrongTokenAccount`).
    #[inline]
    pub fn mint_decimals(&self, mint: &AccountView) -> Result<u8, PolicyError> {
        let decimals = token::mint_decimals(mint)?;
        if !keys_eq(self.token.mint(), mint.key()) {
            return Err(PolicyError::WrongTokenAccount);
        }
        Ok(decimals)
    }

    /// The agent PDA's seeds, to sign the Token-2022 call (see `agent_signer`).
    #[inline]
    pub fn signer_seeds(&self) -> [Seed; 3] {
        agent_signer::seeds(self.agent_state)
    }
}

#[cfg(test)]
pub(crate) mod test_support {
    //! What the confidential-account instruction tests share.
    use crate::instructions::test_fixtures::*;
    use crate::runtime::input::test_support::TestAccount;
    use crate::runtime::syscalls::record::Invocation;

    /// The agent with an open confidential hold (its `confidential_hold` set to PENDING).
    pub fn agent_with_hold() -> Vec<u8> {
        let mut data = agent_data();
        data[192..224].copy_from_slice(&PENDING);
        data
    }

    /// The agent's Token-2022 account of MINT.
    pub fn agent_token() -> TestAccount {
        writable(token(SOURCE, token_account_data(MINT, AGENT, 1_000)))
    }

    /// The agent signer (the authority), the agent and its token account of MINT, then `rest`:
    /// how the calls of the agent's token-account instructions start.
    pub fn agent_token_call(rest: impl IntoIterator<Item = TestAccount>) -> Vec<TestAccount> {
        let mut accounts = vec![
            signer(wallet(SIGNER)),
            account(AGENT, PROGRAM, agent_data()),
            agent_token(),
        ];
        accounts.extend(rest);
        accounts
    }

    /// Runs the call `accounts` and `data` make once signed by the agent signer and once by the
    /// owner (either may drive the agent's confidential balance): each run succeeds, emits
    /// nothing and signs every CPI with the agent's seeds. Returns each run's CPIs.
    pub fn cpis_by_each_authority(accounts: impl Fn() -> Vec<TestAccount>, data: &[u8]) -> Vec<Vec<Invocation>> {
        [SIGNER, OWNER]
            .into_iter()
            .map(|authority| {
                let run = Call::new(data, accounts()).with(0, |a| a.key = authority).run();
                assert_eq!(run.result, Ok(()));
                assert!(run.events.is_empty());
                for cpi in &run.invocations {
                    assert_eq!(cpi.signer_seeds, agent_seeds());
                }
                run.invocations
            })
            .collect()
    }

    /// The agent's seeds as the recorded CPI carries them.
    pub fn agent_seeds() -> Vec<Vec<Vec<u8>>> {
        vec![vec![b"agent".to_vec(), HANDLE_HASH.to_vec(), vec![AGENT_BUMP]]]
    }
}

#[cfg(test)]
mod tests {
    //! The refusals the agent's confidential-account instructions share, as one table: each
    //! refusal is applied to each instruction it concerns, starting from that instruction's own
    //! valid call (the `accounts()` and `data()` of its tests), and must refuse with nothing
    //! invoked and nothing emitted.
    use super::test_support::agent_with_hold;
    use crate::discriminator::instruction as discriminator;
    use crate::error::PolicyError;
    use crate::instructions::test_fixtures::*;
    use crate::instructions::{
        agent_confidential_apply as apply, agent_confidential_close_contexts as close_contexts,
        agent_confidential_configure as configure, agent_confidential_deposit as deposit,
        agent_confidential_withdraw as withdraw,
    };
    use crate::runtime::input::test_support::TestAccount;

    /// One instruction as the table drives it. Every one takes `authority` first and `agent` second.
    struct Instruction {
        name: &'static str,
        accounts: fn() -> Vec<TestAccount>,
        data: fn() -> Vec<u8>,
        /// How many accounts it needs at the least.
        required_accounts: usize,
        /// Where its token account, mint and token program are, if it has them.
        token_account: Option<usize>,
        mint: Option<usize>,
        token_program: Option<usize>,
        /// An open confidential hold refuses what would change the balance its proofs were made
        /// against (apply, withdraw) or close its pinned contexts.
        refused_while_holding: bool,
    }

    fn instructions() -> [Instruction; 5] {
        [
            Instruction {
                name: "agent_confidential_configure",
                accounts: configure::tests::accounts,
                data: configure::tests::data,
                required_accounts: 8,
                token_account: Some(2),
                mint: Some(3),
                token_program: Some(6),
                refused_while_holding: false,
            },
            Instruction {
                name: "agent_confidential_deposit",
                accounts: deposit::tests::accounts,
                data: || deposit::tests::data(700),
                required_accounts: 5,
                token_account: Some(2),
                mint: Some(3),
                token_program: Some(4),
                refused_while_holding: false,
            },
            Instruction {
                name: "agent_confidential_apply",
                accounts: apply::tests::accounts,
                data: apply::tests::data,
                required_accounts: 4,
                token_account: Some(2),
                mint: None,
                token_program: Some(3),
                refused_while_holding: true,
            },
            Instruction {
                name: "agent_confidential_withdraw",
                accounts: withdraw::tests::accounts,
                data: || withdraw::tests::data(42),
                required_accounts: 7,
                token_account: Some(2),
                mint: Some(3),
                token_program: Some(6),
                refused_while_holding: true,
            },
            Instruction {
                name: "agent_confidential_close_contexts",
                accounts: || close_contexts::tests::accounts(3),
                data: || discriminator::AGENT_CONFIDENTIAL_CLOSE_CONTEXTS.to_vec(),
                required_accounts: 5,
                token_account: None,
                mint: None,
                token_program: None,
                refused_while_holding: true,
            },
        ]
    }

    /// What a refusal changes in a valid call.
    enum Change {
        Authority(fn(&mut TestAccount)),
        Agent(fn(&mut TestAccount)),
        TokenAccount(fn(&mut TestAccount)),
        TokenAccountOfAnotherMint,
        Mint(fn(&mut TestAccount)),
        TokenProgram(fn(&mut TestAccount)),
        /// One account fewer than the instruction needs.
        MissingAccount,
        TrailingDataByte,
        MissingDataByte,
    }

    struct Refusal {
        what: &'static str,
        change: Change,
        error: PolicyError,
    }

    fn refusals() -> Vec<Refusal> {
        use Change::*;
        use PolicyError::*;
        let refusal = |what, change, error| Refusal { what, change, error };
        vec![
            refusal("a stranger signs", Authority(|a| a.key = PAYER), NotAgentSigner),
            refusal(
                "the authority does not sign",
                Authority(|a| a.is_signer = false),
                MissingSigner,
            ),
            refusal("the agent is not active", Agent(|a| a.data[106] = 0), AgentNotActive),
            refusal(
                "another program's agent",
                Agent(|a| a.owner = [0x99; 32]),
                WrongAccountOwner,
            ),
            refusal("not an agent", Agent(|a| a.data = policy_data()), WrongAccountData),
            refusal(
                "another token program",
                TokenProgram(|p| p.key = [0x66; 32]),
                WrongProgram,
            ),
            refusal(
                "a read-only token account",
                TokenAccount(|t| t.is_writable = false),
                AccountNotWritable,
            ),
            refusal(
                "someone else's token account",
                TokenAccount(|t| t.data[32..64].copy_from_slice(&OWNER)),
                WrongTokenAccount,
            ),
            refusal(
                "not a Token-2022 account",
                TokenAccount(|t| t.owner = [0x99; 32]),
                WrongTokenAccount,
            ),
            refusal(
                "a frozen token account",
                TokenAccount(|t| t.data[108] = 2),
                WrongTokenAccount,
            ),
            refusal(
                "a token account of another mint",
                TokenAccountOfAnotherMint,
                WrongTokenAccount,
            ),
            refusal(
                "not a Token-2022 mint",
                Mint(|m| m.owner = [0x99; 32]),
                WrongTokenAccount,
            ),
            refusal("an uninitialized mint", Mint(|m| m.data[45] = 0), WrongTokenAccount),
            refusal("an account missing", MissingAccount, NotEnoughAccounts),
            refusal("a byte after the arguments", TrailingDataByte, InvalidInstructionData),
            refusal("the arguments one byte short", MissingDataByte, InvalidInstructionData),
        ]
    }

    /// The instruction's valid call with `change` applied; `None` when the change concerns an
    /// account the instruction does not have.
    fn changed(instruction: &Instruction, change: &Change) -> Option<(Vec<TestAccount>, Vec<u8>)> {
        let mut accounts = (instruction.accounts)();
        let mut data = (instruction.data)();
        match change {
            Change::Authority(edit) => edit(&mut accounts[0]),
            Change::Agent(edit) => edit(&mut accounts[1]),
            Change::TokenAccount(edit) => edit(&mut accounts[instruction.token_account?]),
            Change::TokenAccountOfAnotherMint => {
                // Only where the instruction names the mint: apply takes the account's own.
                instruction.mint?;
                accounts[instruction.token_account?].data[..32].copy_from_slice(&[0x13; 32]);
            }
            Change::Mint(edit) => edit(&mut accounts[instruction.mint?]),
            Change::TokenProgram(edit) => edit(&mut accounts[instruction.token_program?]),
            Change::MissingAccount => accounts.truncate(instruction.required_accounts - 1),
            Change::TrailingDataByte => data.push(0),
            Change::MissingDataByte => {
                data.pop();
            }
        }
        Some((accounts, data))
    }

    #[test]
    fn every_shared_refusal_refuses_every_instruction_it_concerns() {
        for instruction in instructions() {
            let name = instruction.name;
            let valid = run((instruction.accounts)(), &(instruction.data)(), NOON);
            assert_eq!(valid.result, Ok(()), "{name}: its valid call");
            for Refusal { what, change, error } in refusals() {
                let Some((accounts, data)) = changed(&instruction, &change) else {
                    continue;
                };
                let run = run(accounts, &data, NOON);
                assert_eq!(run.result, Err(error), "{name}: {what}");
                assert!(run.invocations.is_empty(), "{name}: {what}: nothing may be invoked");
                assert!(run.events.is_empty(), "{name}: {what}: nothing may be emitted");
            }
            let mut holding = (instruction.accounts)();
            holding[1].data = agent_with_hold();
            let expected = if instruction.refused_while_holding {
                Err(PolicyError::ConfidentialHoldOpen)
            } else {
                Ok(())
            };
            assert_eq!(
                run(holding, &(instruction.data)(), NOON).result,
                expected,
                "{name}: an open confidential hold"
            );
        }
    }
}
