//! Token-2022 confidential-transfer CPIs on an account owned by the agent PDA (which signs each
//! one through `signer`, see `instructions::agent_signer`). Token-2022 re-checks the owner, the
//! account's confidential state, the proofs' contexts and every balance itself; the callee is
//! always the Token-2022 id (a constant), and each caller has checked its `token_program` account.
//!
//! Instruction data (Token-2022 v11, `ConfidentialTransferExtension` = 27 then a sub-tag; a
//! `DecryptableBalance` is a 36-byte AE ciphertext, an `EncryptedBalance` a 64-byte ElGamal one;
//! proof offsets are `i8`, 0 = "read the context account"):
//!
//! | CPI | data | accounts |
//! |---|---|---|
//! | `Reallocate` | 29, extension types u16 LE: `[5]` (ConfidentialTransferAccount) | token (w), payer (w,s), system_program, owner (s) |
//! | `ConfigureAccount` | 27, 2, decryptable_zero_balance 36, maximum_pending_balance_credit_counter u64, proof_instruction_offset i8 = 1 | token (w), mint, instructions sysvar, owner (s) |
//! | `Deposit` | 27, 5, amount u64, decimals u8 | token (w), mint, owner (s) |
//! | `Withdraw` | 27, 6, amount u64, decimals u8, new_decryptable_available_balance 36, equality offset 0, range offset 0 | token (w), mint, equality context, range context, owner (s) |
//! | `Transfer` | 27, 7, new_source_decryptable_available_balance 36, auditor_ciphertext_lo 64, auditor_ciphertext_hi 64, offsets 0, 0, 0 | source (w), mint, destination (w), equality context, validity context, range context, owner (s) |
//! | `ApplyPendingBalance` | 27, 8, expected_pending_balance_credit_counter u64, new_decryptable_available_balance 36 | token (w), owner (s) |
//!
//! With every proof offset 0 Token-2022 takes no instructions sysvar: the context accounts follow
//! the accounts before them directly ("omitted" optional accounts).

use crate::error::PolicyError;
use crate::runtime::account::AccountView;
use crate::runtime::cpi::{invoke_signed_by, CallData, CpiAccount, Signer};
use crate::runtime::TOKEN_2022_PROGRAM_ID;

/// A 36-byte AE ciphertext of a balance (`DecryptableBalance`).
pub type DecryptableBalance = [u8; 36];
/// A 64-byte twisted ElGamal ciphertext (`EncryptedBalance`).
pub type ElGamalCiphertext = [u8; 64];

const REALLOCATE: u8 = 29;
const CONFIDENTIAL_TRANSFER_EXTENSION: u8 = 27;
const CONFIGURE_ACCOUNT: u8 = 2;
const DEPOSIT: u8 = 5;
const WITHDRAW: u8 = 6;
const TRANSFER: u8 = 7;
const APPLY_PENDING_BALANCE: u8 = 8;
/// `ExtensionType::ConfidentialTransferAccount`.
const CONFIDENTIAL_TRANSFER_ACCOUNT: u16 = 5;
/// `ConfigureAccount` reads its `PubkeyValidity` proof from the next top-level instruction.
const NEXT_INSTRUCTION: u8 = 1;
/// A proof offset of 0: the proof is read from its context account.
const FROM_CONTEXT_ACCOUNT: u8 = 0;

/// One Token-2022 call signed by `signer`.
#[inline(always)]
fn invoke(accounts: &[CpiAccount], data: &[u8], signer: &Signer) -> Result<(), PolicyError> {
    invoke_signed_by(&TOKEN_2022_PROGRAM_ID, accounts, data, signer)
}

/// `Reallocate([ConfidentialTransferAccount])` on accounts `[token, payer, system_program,
/// owner]`: grows `token` for the extension, `payer` paying the rent (a no-op when the extension
/// is there already).
#[inline(never)]
pub fn reallocate(
    [token, payer, system_program, owner]: [&AccountView; 4],
    signer: &Signer,
) -> Result<(), PolicyError> {
    let data = CallData::<3>::new()
        .put(&[REALLOCATE])
        .put(&CONFIDENTIAL_TRANSFER_ACCOUNT.to_le_bytes());
    let accounts = [
        CpiAccount::writable(token),
        CpiAccount::writable_signing(payer),
        CpiAccount::readonly(system_program),
        CpiAccount::signing(owner),
    ];
    invoke(&accounts, data.bytes(), signer)
}

/// `ConfigureAccount` on accounts `[token, mint, instructions_sysvar, owner]`: turns on
/// confidential transfers for `token`, the `PubkeyValidity` proof of its ElGamal key being the
/// next top-level instruction.
#[inline(never)]
pub fn configure_account(
    [token, mint, instructions_sysvar, owner]: [&AccountView; 4],
    decryptable_zero_balance: &DecryptableBalance,
    maximum_pending_balance_credit_counter: u64,
    signer: &Signer,
) -> Result<(), PolicyError> {
    let data = CallData::<47>::new()
        .put(&[CONFIDENTIAL_TRANSFER_EXTENSION, CONFIGURE_ACCOUNT])
        .put(decryptable_zero_balance)
        .put(&maximum_pending_balance_credit_counter.to_le_bytes())
        .put(&[NEXT_INSTRUCTION]);
    let accounts = [
        CpiAccount::writable(token),
        CpiAccount::readonly(mint),
        CpiAccount::readonly(instructions_sysvar),
        CpiAccount::signing(owner),
    ];
    invoke(&accounts, data.bytes(), signer)
}

/// `Deposit` on accounts `[token, mint, owner]`: `amount` of `token`'s public balance into its
/// pending confidential balance.
#[inline(never)]
pub fn deposit(
    [token, mint, owner]: [&AccountView; 3],
    amount: u64,
    decimals: u8,
    signer: &Signer,
) -> Result<(), PolicyError> {
    let data = CallData::<11>::new()
        .put(&[CONFIDENTIAL_TRANSFER_EXTENSION, DEPOSIT])
        .put(&amount.to_le_bytes())
        .put(&[decimals]);
    let accounts = [
        CpiAccount::writable(token),
        CpiAccount::readonly(mint),
        CpiAccount::signing(owner),
    ];
    invoke(&accounts, data.bytes(), signer)
}

/// `ApplyPendingBalance` on accounts `[token, owner]`: moves `token`'s pending balance into its
/// available balance.
#[inline(never)]
pub fn apply_pending_balance(
    [token, owner]: [&AccountView; 2],
    expected_pending_balance_credit_counter: u64,
    new_decryptable_available_balance: &DecryptableBalance,
    signer: &Signer,
) -> Result<(), PolicyError> {
    let data = CallData::<46>::new()
        .put(&[CONFIDENTIAL_TRANSFER_EXTENSION, APPLY_PENDING_BALANCE])
        .put(&expected_pending_balance_credit_counter.to_le_bytes())
        .put(new_decryptable_available_balance);
    invoke(
        &[CpiAccount::writable(token), CpiAccount::signing(owner)],
        data.bytes(),
        signer,
    )
}

/// What `Withdraw` moves: `amount` (of a mint with `decimals`), and the account's new available
/// balance as its owner can decrypt it.
pub struct Withdrawal<'a> {
    pub amount: u64,
    pub decimals: u8,
    pub new_decryptable_available_balance: &'a DecryptableBalance,
}

/// `Withdraw` on accounts `[token, mint, equality_proof, range_proof, owner]`: `amount` of
/// `token`'s available confidential balance back to its public balance, proved by an equality and
/// a U64 range context.
#[inline(never)]
pub fn withdraw(
    [token, mint, equality_proof, range_proof, owner]: [&AccountView; 5],
    withdrawal: &Withdrawal,
    signer: &Signer,
) -> Result<(), PolicyError> {
    let data = CallData::<49>::new()
        .put(&[CONFIDENTIAL_TRANSFER_EXTENSION, WITHDRAW])
        .put(&withdrawal.amount.to_le_bytes())
        .put(&[withdrawal.decimals])
        .put(withdrawal.new_decryptable_available_balance)
        .put(&[FROM_CONTEXT_ACCOUNT; 2]);
    let accounts = [
        CpiAccount::writable(token),
        CpiAccount::readonly(mint),
        CpiAccount::readonly(equality_proof),
        CpiAccount::readonly(range_proof),
        CpiAccount::signing(owner),
    ];
    invoke(&accounts, data.bytes(), signer)
}

/// The ciphertexts a confidential `Transfer` carries: the source's new available balance (AE)
/// and the amount's halves under the auditor key, which must be the validity context's (handle
/// 2), see `zk_context::ValidityContext::auditor_ciphertext_lo`.
pub struct TransferCiphertexts<'a> {
    pub new_source_decryptable_available_balance: &'a DecryptableBalance,
    pub auditor_ciphertext_lo: &'a ElGamalCiphertext,
    pub auditor_ciphertext_hi: &'a ElGamalCiphertext,
}

/// Confidential `Transfer` (no fee) on accounts `[source, mint, destination, equality_proof,
/// ciphertext_validity_proof, range_proof, authority]`, proved by the three contexts.
#[inline(never)]
pub fn transfer(
    [source, mint, destination, equality_proof, ciphertext_validity_proof, range_proof, authority]: [&AccountView; 7],
    ciphertexts: &TransferCiphertexts,
    signer: &Signer,
) -> Result<(), PolicyError> {
    let data = CallData::<169>::new()
        .put(&[CONFIDENTIAL_TRANSFER_EXTENSION, TRANSFER])
        .put(ciphertexts.new_source_decryptable_available_balance)
        .put(ciphertexts.auditor_ciphertext_lo)
        .put(ciphertexts.auditor_ciphertext_hi)
        .put(&[FROM_CONTEXT_ACCOUNT; 3]);
    let accounts = [
        CpiAccount::writable(source),
        CpiAccount::readonly(mint),
        CpiAccount::writable(destination),
        CpiAccount::readonly(equality_proof),
        CpiAccount::readonly(ciphertext_validity_proof),
        CpiAccount::readonly(range_proof),
        CpiAccount::signing(authority),
    ];
    invoke(&accounts, data.bytes(), signer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::cpi::Seed;
    use crate::runtime::syscalls::record;
    use crate::runtime::Pubkey;
    use crate::state::test_support::HostAccount;

    const AGENT: Pubkey = [3; 32];
    /// (writable, signer) of a CPI account.
    const W: (bool, bool) = (true, false);
    const R: (bool, bool) = (false, false);
    const WS: (bool, bool) = (true, true);

    /// Runs `call` on `count` accounts keyed 0x30, 0x31, ... (only keys and flags reach the
    /// recorded CPI) with the agent as owner and the agent's seeds, and returns the one recorded
    /// Token-2022 invocation.
    fn recorded(
        count: u8,
        call: impl FnOnce(&[AccountView], &AccountView, &Signer) -> Result<(), PolicyError>,
    ) -> record::Invocation {
        let mut hosts: Vec<HostAccount> = (0..count)
            .map(|i| HostAccount::new([0x30 + i; 32], [0; 32], vec![], false))
            .collect();
        let views: Vec<AccountView> = hosts.iter_mut().map(|h| h.view()).collect();
        let mut owner = HostAccount::new(AGENT, [0xAA; 32], vec![], false);
        let bump = [254];
        let seeds = [Seed::new(b"agent"), Seed::new(&[12; 32]), Seed::new(&bump)];
        record::reset(None);
        assert_eq!(call(&views, &owner.view(), &Signer::new(&seeds)), Ok(()));
        let [cpi] = &record::invocations()[..] else {
            panic!("expected one CPI")
        };
        assert_eq!(cpi.program_id, TOKEN_2022_PROGRAM_ID);
        assert_eq!(cpi.signer_seeds, vec![vec![b"agent".to_vec(), vec![12; 32], vec![254]]]);
        cpi.clone()
    }

    /// The accounts 0x30, 0x31, ... with these (writable, signer) flags, then the agent signing.
    fn then_the_agent(flags: &[(bool, bool)]) -> Vec<(Pubkey, bool, bool)> {
        let mut accounts: Vec<_> = (0u8..)
            .zip(flags)
            .map(|(i, (writable, signer))| ([0x30 + i; 32], *writable, *signer))
            .collect();
        accounts.push((AGENT, false, true));
        accounts
    }

    #[test]
    fn reallocate_asks_for_the_confidential_transfer_account_extension() {
        let cpi = recorded(3, |views, owner, signer| {
            reallocate([&views[0], &views[1], &views[2], owner], signer)
        });
        assert_eq!(cpi.data, vec![29, 5, 0]);
        assert_eq!(cpi.accounts, then_the_agent(&[W, WS, R]));
    }

    #[test]
    fn configure_account_reads_its_proof_from_the_next_instruction() {
        let cpi = recorded(3, |views, owner, signer| {
            configure_account([&views[0], &views[1], &views[2], owner], &[0x5A; 36], 65_536, signer)
        });
        let expected = [&[27, 2][..], &[0x5A; 36], &65_536u64.to_le_bytes(), &[1]].concat();
        assert_eq!(cpi.data, expected);
        assert_eq!(cpi.accounts, then_the_agent(&[W, R, R]));
    }

    #[test]
    fn deposit_carries_amount_and_decimals() {
        let cpi = recorded(2, |views, owner, signer| {
            deposit([&views[0], &views[1], owner], 1_234_567, 6, signer)
        });
        assert_eq!(cpi.data, [&[27, 5][..], &1_234_567u64.to_le_bytes(), &[6]].concat());
        assert_eq!(cpi.accounts, then_the_agent(&[W, R]));
    }

    #[test]
    fn apply_pending_balance_carries_the_counter_and_the_new_decryptable_balance() {
        let cpi = recorded(1, |views, owner, signer| {
            apply_pending_balance([&views[0], owner], 3, &[0x6B; 36], signer)
        });
        assert_eq!(cpi.data, [&[27, 8][..], &3u64.to_le_bytes(), &[0x6B; 36]].concat());
        assert_eq!(cpi.accounts, then_the_agent(&[W]));
    }

    #[test]
    fn withdraw_reads_both_proofs_from_context_accounts() {
        let cpi = recorded(4, |views, owner, signer| {
            let withdrawal = Withdrawal {
                amount: 42,
                decimals: 9,
                new_decryptable_available_balance: &[0x7C; 36],
            };
            withdraw([&views[0], &views[1], &views[2], &views[3], owner], &withdrawal, signer)
        });
        let expected = [&[27, 6][..], &42u64.to_le_bytes(), &[9], &[0x7C; 36], &[0, 0]].concat();
        assert_eq!(cpi.data, expected);
        assert_eq!(cpi.accounts, then_the_agent(&[W, R, R, R]));
    }

    #[test]
    fn transfer_carries_the_auditor_ciphertexts_and_three_context_accounts() {
        let cpi = recorded(6, |views, authority, signer| {
            let ciphertexts = TransferCiphertexts {
                new_source_decryptable_available_balance: &[0x11; 36],
                auditor_ciphertext_lo: &[0x22; 64],
                auditor_ciphertext_hi: &[0x33; 64],
            };
            let [source, mint, destination, equality, validity, range] = [0, 1, 2, 3, 4, 5].map(|i| &views[i]);
            transfer(
                [source, mint, destination, equality, validity, range, authority],
                &ciphertexts,
                signer,
            )
        });
        let expected = [&[27, 7][..], &[0x11; 36], &[0x22; 64], &[0x33; 64], &[0, 0, 0]].concat();
        assert_eq!(cpi.data, expected);
        assert_eq!(cpi.accounts, then_the_agent(&[W, R, W, R, R, R]));
    }
}
