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

use crate::borsh::{read_args, Reader};
use crate::error::ProgramResult;
use crate::instructions::confidential_account::{AgentTokenAccount, WhileHolding};
use crate::runtime::cpi::Signer;
use crate::runtime::input::AccountList;
use crate::runtime::Pubkey;
use crate::token_confidential::{self, Withdrawal};
use crate::zk_context::{self, proof_type};

pub const DATA_LEN: usize = 52;

/// Withdraws from the agent account's confidential balance to its public one (see the module
/// doc). Checks, in order: the data, `NotEnoughAccounts`, the agent, its authority, no open
/// confidential hold and its token account (`AgentTokenAccount::unpack`), the mint, then the two
/// contexts' owner, size and proof type.
pub fn process(program_id: &Pubkey, list: &AccountList, data: &[u8]) -> ProgramResult {
    let (amount, new_decryptable_available_balance) =
        read_args(data, |reader: &mut Reader| Ok((reader.int()?, reader.array()?)))?;
    let [authority, agent, token_account, mint, equality_proof, range_proof, token_program] = list.first::<7>()?;
    let account = AgentTokenAccount::unpack(
        [authority, agent, token_account, token_program],
        program_id,
        WhileHolding::Refused,
    )?;
    let decimals = account.mint_decimals(mint)?;
    zk_context::check_type(
        equality_proof,
        zk_context::EQUALITY_LEN,
        proof_type::CIPHERTEXT_COMMITMENT_EQUALITY,
    )?;
    zk_context::check_type(range_proof, zk_context::RANGE_LEN, proof_type::BATCHED_RANGE_PROOF_U64)?;
    let seeds = account.signer_seeds();
    token_confidential::withdraw(
        [token_account, mint, equality_proof, range_proof, agent],
        &Withdrawal {
            amount,
            decimals,
            new_decryptable_available_balance,
        },
        &Signer::new(&seeds),
    )
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::discriminator::instruction;
    use crate::error::PolicyError;
    use crate::instructions::confidential_account::test_support::*;
    use crate::instructions::test_fixtures::*;
    use crate::runtime::input::test_support::TestAccount;
    use crate::runtime::{Pubkey, TOKEN_2022_PROGRAM_ID, ZK_ELGAMAL_PROOF_PROGRAM_ID};

    const EQUALITY: Pubkey = [0x21; 32];
    const RANGE: Pubkey = [0x23; 32];

    /// The data of a valid withdrawal (the table of shared refusals in `confidential_account`
    /// starts from it and from [`accounts`]).
    pub(crate) fn data(amount: u64) -> Vec<u8> {
        [
            &instruction::AGENT_CONFIDENTIAL_WITHDRAW[..],
            &amount.to_le_bytes(),
            &[0x7C; 36],
        ]
        .concat()
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
        agent_token_call([
            token(MINT, mint_data(6)),
            context(EQUALITY, 161, 3),
            context(RANGE, 297, 6),
            program_account(TOKEN_2022_PROGRAM_ID),
        ])
    }

    fn withdrawal() -> Call {
        Call::new(&data(42), accounts())
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
                then_the_agent(&[(SOURCE, W), (MINT, R), (EQUALITY, R), (RANGE, R)])
            );
        }
    }

    #[test]
    fn the_contexts_must_be_an_equality_and_a_u64_range_context() {
        refuses_each(
            withdrawal,
            &[
                (4, |c| c.owner = [0x99; 32], PolicyError::WrongProofContext),
                (4, |c| c.data[32] = 6, PolicyError::WrongProofContext),
                (4, |c| c.data.push(0), PolicyError::WrongProofContext),
                // U128
                (5, |c| c.data[32] = 7, PolicyError::WrongProofContext),
                (
                    5,
                    |c| {
                        c.data.pop();
                    },
                    PolicyError::WrongProofContext,
                ),
                (5, |c| c.owner = [0x99; 32], PolicyError::WrongProofContext),
            ],
        );
        // The two swapped
        let mut swapped = withdrawal();
        swapped.accounts.swap(4, 5);
        swapped.refused(PolicyError::WrongProofContext);
    }
}
