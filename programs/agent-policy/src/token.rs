//! Token-2022: the base account and mint layouts the program reads, and `TransferChecked`.
//!
//! Token account (base, 165 bytes): `mint` 0..32, `owner` 32..64, `amount` 64..72, delegate
//! 72..108, `state` 108 (0 uninitialized, 1 initialized, 2 frozen), then is_native, delegated
//! amount, close authority. Mint (base, 82 bytes): mint authority 0..36, supply 36..44, `decimals`
//! 44, `is_initialized` 45, freeze authority 46..82. With extensions, either is padded to 165 bytes
//! and byte 165 is the account type (1 mint, 2 account) followed by the TLV extensions; a 355-byte
//! account is a multisig. Every failure here is `WrongTokenAccount`.

use crate::error::PolicyError;
use crate::runtime::account::AccountView;
use crate::runtime::cpi::{invoke_signed_by, CpiAccount, Signer};
use crate::runtime::{keys_eq, Pubkey, TOKEN_2022_PROGRAM_ID};

pub const ACCOUNT_LEN: usize = 165;
pub const MINT_LEN: usize = 82;
const MULTISIG_LEN: usize = 355;
const ACCOUNT_TYPE_OFFSET: usize = 165;
const ACCOUNT_TYPE_MINT: u8 = 1;
const ACCOUNT_TYPE_ACCOUNT: u8 = 2;
const STATE_OFFSET: usize = 108;
const STATE_INITIALIZED: u8 = 1;
const DECIMALS_OFFSET: usize = 44;
const MINT_INITIALIZED_OFFSET: usize = 45;
const TRANSFER_CHECKED: u8 = 12;

/// The base fields of a checked token account.
pub struct TokenAccount<'a>(&'a [u8; ACCOUNT_LEN]);

impl<'a> TokenAccount<'a> {
    #[inline]
    pub fn mint(&self) -> &'a Pubkey {
        unsafe { &*(self.0.as_ptr() as *const Pubkey) }
    }

    #[inline]
    pub fn owner(&self) -> &'a Pubkey {
        unsafe { &*(self.0.as_ptr().add(32) as *const Pubkey) }
    }

    #[inline]
    pub fn amount(&self) -> u64 {
        u64::from_le_bytes(unsafe { *(self.0.as_ptr().add(64) as *const [u8; 8]) })
    }
}

/// Layout rules for a token account's bytes: 165 bytes, or longer with account type 2 (and not a
/// multisig); initialized and not frozen.
pub fn parse_token_account(data: &[u8]) -> Result<TokenAccount<'_>, PolicyError> {
    let len = data.len();
    let shaped = len == ACCOUNT_LEN
        || (len > ACCOUNT_LEN && len != MULTISIG_LEN && data[ACCOUNT_TYPE_OFFSET] == ACCOUNT_TYPE_ACCOUNT);
    if !shaped || data[STATE_OFFSET] != STATE_INITIALIZED {
        return Err(PolicyError::WrongTokenAccount);
    }
    Ok(TokenAccount(unsafe { &*(data.as_ptr() as *const [u8; ACCOUNT_LEN]) }))
}

/// Layout rules for a mint's bytes: 82 bytes, or longer with account type 1 (and not a multisig);
/// initialized. Returns the decimals.
pub fn parse_mint(data: &[u8]) -> Result<u8, PolicyError> {
    let len = data.len();
    let shaped =
        len == MINT_LEN || (len > ACCOUNT_LEN && len != MULTISIG_LEN && data[ACCOUNT_TYPE_OFFSET] == ACCOUNT_TYPE_MINT);
    if !shaped || data[MINT_INITIALIZED_OFFSET] != 1 {
        return Err(PolicyError::WrongTokenAccount);
    }
    Ok(data[DECIMALS_OFFSET])
}

/// A Token-2022 token account (owner program checked first).
#[inline]
pub fn token_account(account: &AccountView) -> Result<TokenAccount<'_>, PolicyError> {
    if !keys_eq(account.owner(), &TOKEN_2022_PROGRAM_ID) {
        return Err(PolicyError::WrongTokenAccount);
    }
    parse_token_account(account.data())
}

/// The decimals of a Token-2022 mint (owner program checked first).
#[inline]
pub fn mint_decimals(account: &AccountView) -> Result<u8, PolicyError> {
    if !keys_eq(account.owner(), &TOKEN_2022_PROGRAM_ID) {
        return Err(PolicyError::WrongTokenAccount);
    }
    parse_mint(account.data())
}

/// Invokes Token-2022 `TransferChecked { amount, decimals }` (tag 12) on accounts `[source (w),
/// mint, destination (w), authority (s)]`, the authority a PDA of this program signing through
/// `signer`. The token program re-checks balances, mints, decimals and the authority itself.
///
/// The callee is always the Token-2022 id (a constant, never an account's key); the only caller,
/// `spend::execute`, runs after `spend::check_accounts` proved the instruction's `token_program`
/// is Token-2022 (`WrongProgram` otherwise).
#[inline]
pub fn transfer_checked(
    [source, mint, destination, authority]: [&AccountView; 4],
    amount: u64,
    decimals: u8,
    signer: &Signer,
) -> Result<(), PolicyError> {
    let mut data = [0u8; 10];
    data[0] = TRANSFER_CHECKED;
    data[1..9].copy_from_slice(&amount.to_le_bytes());
    data[9] = decimals;
    let accounts = [
        CpiAccount::writable(source),
        CpiAccount::readonly(mint),
        CpiAccount::writable(destination),
        CpiAccount::signing(authority),
    ];
    invoke_signed_by(&TOKEN_2022_PROGRAM_ID, &accounts, &data, signer)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn account(len: usize, state: u8) -> Vec<u8> {
        let mut data = vec![0u8; len];
        data[..32].copy_from_slice(&[1; 32]);
        data[32..64].copy_from_slice(&[2; 32]);
        data[64..72].copy_from_slice(&500u64.to_le_bytes());
        data[STATE_OFFSET] = state;
        if len > ACCOUNT_LEN {
            data[ACCOUNT_TYPE_OFFSET] = ACCOUNT_TYPE_ACCOUNT;
        }
        data
    }

    fn mint(len: usize, decimals: u8) -> Vec<u8> {
        let mut data = vec![0u8; len];
        data[DECIMALS_OFFSET] = decimals;
        data[MINT_INITIALIZED_OFFSET] = 1;
        if len > ACCOUNT_LEN {
            data[ACCOUNT_TYPE_OFFSET] = ACCOUNT_TYPE_MINT;
        }
        data
    }

    #[test]
    fn reads_mint_owner_and_amount_of_an_initialized_account() {
        for len in [ACCOUNT_LEN, 170, 300] {
            let data = account(len, STATE_INITIALIZED);
            let parsed = parse_token_account(&data).unwrap();
            assert_eq!(
                (parsed.mint(), parsed.owner(), parsed.amount()),
                (&[1; 32], &[2; 32], 500)
            );
        }
    }

    #[test]
    fn refuses_frozen_uninitialized_and_misshaped_accounts() {
        assert!(parse_token_account(&account(ACCOUNT_LEN, 2)).is_err()); // frozen
        assert!(parse_token_account(&account(ACCOUNT_LEN, 0)).is_err()); // uninitialized
        assert!(parse_token_account(&account(ACCOUNT_LEN - 1, 1)).is_err());
        assert!(parse_token_account(&mint(MINT_LEN, 6)).is_err());
        assert!(parse_token_account(&mint(300, 6)).is_err()); // a mint with extensions
        assert!(parse_token_account(&account(MULTISIG_LEN, 1)).is_err());
        assert!(parse_token_account(&[]).is_err());
    }

    #[test]
    fn reads_decimals_of_an_initialized_mint() {
        assert_eq!(parse_mint(&mint(MINT_LEN, 6)), Ok(6));
        assert_eq!(parse_mint(&mint(234, 9)), Ok(9)); // USDG: ConfidentialTransferMint extension
        let mut uninitialized = mint(MINT_LEN, 6);
        uninitialized[MINT_INITIALIZED_OFFSET] = 0;
        assert_eq!(parse_mint(&uninitialized), Err(PolicyError::WrongTokenAccount));
        assert_eq!(
            parse_mint(&account(ACCOUNT_LEN, 1)),
            Err(PolicyError::WrongTokenAccount)
        );
        assert_eq!(parse_mint(&account(300, 1)), Err(PolicyError::WrongTokenAccount));
        assert_eq!(parse_mint(&mint(MULTISIG_LEN, 6)), Err(PolicyError::WrongTokenAccount));
        assert_eq!(parse_mint(&[0; 100]), Err(PolicyError::WrongTokenAccount));
    }
}
