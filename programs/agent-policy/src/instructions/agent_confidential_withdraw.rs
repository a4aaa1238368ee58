//! `agent_confidential_withdraw` — moves `amount` of the available confidential balance of one
//! of the agent's Token-2022 accounts back to its public balance (Token-2022 confidential
//! `Withdraw` signed by the agent PDA), where the public rules apply to any later spend.
//! Refused while a confidential hold is open.
//!
//! Data (52 bytes): discriminator `sha256("global:agent_confidential_withdraw")[..8]`,
//! `amount: u64`, `new_decryptable_available_balance: [u8; 36]`.
//!
//! Accounts:
//! 0. `authority`      signer — `agent.owner` or `agent.agent_signer`
//! 1. `agent`          `Agent` of this program, active, no confidential hold open
//! 2. `token_account`  writable — Token-2022 account of `mint` owned by the agent PDA, configured
//! 3. `mint`           Token-2022 mint (decimals read from it)
//! 4. `equality_proof` `CiphertextCommitmentEquality` context (161 bytes, proof type 3)
//! 5. `range_proof`    `BatchedRangeProofU64` context (297 bytes, proof type 6)
//! 6. `token_program`  `TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb`
//!
//! Checks: see `confidential_account` (`ConfidentialHoldOpen` included); then both contexts are
//! owned by the ZK ElGamal Proof program with their exact size and proof type
//! (`WrongProofContext`). Their authority is not checked and the program does not close them:
//! Token-2022 verifies their statements against the account's own balance (a replayed context
//! proves a balance that no longer exists), and whoever created them closes them. Emits nothing.

use crate::borsh::Reader;
use crate::error::{PolicyError, ProgramResult};
use crate::instructions::{agent_checks, agent_signer, confidential_account};
use crate::runtime::account::AccountView;
use crate::runtime::cpi::Signer;
use crate::runtime::input::AccountList;
use crate::runtime::Pubkey;
use crate::state::agent::Agent;
use crate::token_confidential::{self, DecryptableBalance, Withdraw};
use crate::zk_context::{self, proof_type};

pub const DATA_LEN: usize = 52;

/// The accounts of one withdrawal, checked.
struct AgentConfidentialWithdrawAccounts<'a> {
    agent: &'a AccountView,
    token_account: &'a AccountView,
    mint: &'a AccountView,
    equality_proof: &'a AccountView,
    range_proof: &'a AccountView,
    agent_state: &'a Agent,
    decimals: u8,
}

impl<'a> AgentConfidentialWithdrawAccounts<'a> {
    /// In order: `NotEnoughAccounts`; the agent and its authority (`confidential_account::authorize`);
    /// no open confidential hold; the agent's token account; its mint; the two contexts' owner,
    /// size and proof type.
    fn unpack(list: &'a AccountList, program_id: &Pubkey) -> Result<Self, PolicyError> {
        let [authority, agent, token_account, mint, equality_proof, range_proof, token_program] = list.first::<7>()?;
        let agent_state = confidential_account::authorize(authority, agent, program_id)?;
        agent_checks::refuse_open_hold(agent_state)?;
        let token = confidential_account::agent_token_account(agent, token_account, token_program)?;
        let decimals = confidential_account::mint_of(&token, mint)?;
        zk_context::check_type(
            equality_proof,
            zk_context::EQUALITY_LEN,
            proof_type::CIPHERTEXT_COMMITMENT_EQUALITY,
        )?;
        zk_context::check_type(range_proof, zk_context::RANGE_LEN, proof_type::BATCHED_RANGE_PROOF_U64)?;
        Ok(Self {
            agent,
            token_account,
            mint,
            equality_proof,
            range_proof,
            agent_state,
            decimals,
        })
    }
}

struct Args<'a> {
    amount: u64,
    new_decryptable_available_balance: &'a DecryptableBalance,
}

fn parse(data: &[u8]) -> Result<Args<'_>, PolicyError> {
    let mut reader = Reader::new(&data[8..]);
    let args = Args {
        amount: reader.u64()?,
        new_decryptable_available_balance: reader.array()?,
    };
    reader.finish()?;
    Ok(args)
}

/// Withdraws from the agent account's confidential balance to its public one (see the module doc).
pub fn process(program_id: &Pubkey, list: &AccountList, data: &[u8]) -> ProgramResult {
    let args = parse(data)?;
    let accounts = AgentConfidentialWithdrawAccounts::unpack(list, program_id)?;
    let seeds = agent_signer::seeds(accounts.agent_state);
    token_confidential::withdraw(&Withdraw {
        token: accounts.token_account,
        mint: accounts.mint,
        equality_proof: accounts.equality_proof,
        range_proof: accounts.range_proof,
        owner: accounts.agent,
        amount: args.amount,
        decimals: accounts.decimals,
        new_decryptable_available_balance: args.new_decryptable_available_balance,
        signer: &Signer::new(&seeds),
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::discriminator::instruction;
    use crate::instructions::confidential_account::test_support::*;
    use crate::instructions::test_fixtures::*;
    use crate::runtime::input::test_support::TestAccount;
    use crate::runtime::{TOKEN_2022_PROGRAM_ID, ZK_ELGAMAL_PROOF_PROGRAM_ID};

    const EQUALITY: Pubkey = [0x21; 32];
    const RANGE: Pubkey = [0x23; 32];

    /// The data of a valid withdrawal (the table of shared refusals in `confidential_account` starts
    /// from it and from [`accounts`]).
    pub(crate) fn data(amount: u64) -> Vec<u8> {
        let mut data = instruction::AGENT_CONFIDENTIAL_WITHDRAW.to_vec();
        data.extend_from_slice(&amount.to_le_bytes());
        data.extend_from_slice(&[0x7C; 36]);
        data
    }

    /// A context of the ZK program of `len` bytes and `kind`, its authority someone else's.
    fn context(key: Pubkey, len: usize, kind: u8) -> TestAccount {
        let mut data = vec![0u8; len];
        data[..32].copy_from_slice(&[0x44; 32]);
        data[32] = kind;
        account(key, ZK_ELGAMAL_PROOF_PROGRAM_ID, data)
    }

    /// The accounts of a valid withdrawal.
    pub(crate) fn accounts() -> Vec<TestAccount> {
        vec![
            signer(wallet(SIGNER)),
            account(AGENT, PROGRAM, agent_data()),
            agent_token(),
            token(MINT, mint_data(6)),
            context(EQUALITY, 161, 3),
            context(RANGE, 297, 6),
            program_account(TOKEN_2022_PROGRAM_ID),
        ]
    }

    fn with(index: usize, change: impl FnOnce(&mut TestAccount)) -> Vec<TestAccount> {
        changed(accounts(), index, change)
    }

    fn withdraw(accounts: Vec<TestAccount>) -> Run {
        run(accounts, &data(42), NOON)
    }

    #[test]
    fn withdraws_with_both_contexts_signed_by_the_agent() {
        for cpis in cpis_by_each_authority(accounts, &data(42)) {
            let [cpi] = &cpis[..] else {
                panic!("expected one CPI: the contexts are not closed here")
            };
            let expected = [&[27, 6][..], &42u64.to_le_bytes(), &[6], &[0x7C; 36], &[0, 0]].concat();
            assert_eq!(cpi.program_id, TOKEN_2022_PROGRAM_ID);
            assert_eq!(cpi.data, expected);
            assert_eq!(
                cpi.accounts,
                vec![
                    (SOURCE, true, false),
                    (MINT, false, false),
                    (EQUALITY, false, false),
                    (RANGE, false, false),
                    (AGENT, false, true)
                ]
            );
        }
    }

    #[test]
    fn the_contexts_must_be_an_equality_and_a_u64_range_context() {
        refused(
            &withdraw(with(4, |c| c.owner = [0x99; 32])),
            PolicyError::WrongProofContext,
        );
        refused(&withdraw(with(4, |c| c.data[32] = 6)), PolicyError::WrongProofContext);
        refused(&withdraw(with(4, |c| c.data.push(0))), PolicyError::WrongProofContext);
        refused(&withdraw(with(5, |c| c.data[32] = 7)), PolicyError::WrongProofContext); // U128
        refused(
            &withdraw(with(5, |c| {
                c.data.pop();
            })),
            PolicyError::WrongProofContext,
        );
        refused(
            &withdraw(with(5, |c| c.owner = [0x99; 32])),
            PolicyError::WrongProofContext,
        );
        // The two swapped
        let mut swapped = accounts();
        swapped.swap(4, 5);
        refused(&withdraw(swapped), PolicyError::WrongProofContext);
    }
}
