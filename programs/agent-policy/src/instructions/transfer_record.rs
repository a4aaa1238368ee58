//! `transfer_record` — the service records a transfer it made (agent or not, public or
//! confidential) so the indexer watches one program id, and creates the transfer id's `Receipt`:
//! a retried submission of the same id fails on-chain (`AccountAlreadyInitialized`), so one id can
//! never move funds twice when this instruction rides in the transfer's transaction.
//!
//! Data: discriminator `sha256("global:transfer_record")[..8]`, `transfer_id: [u8; 16]`,
//! `confidential: bool`, `memo: bytes` (u32 LE length + bytes, at most 256; encrypted by the
//! client, opaque here).
//!
//! Accounts:
//! 0. `sender`          signer — who records (the event names it; consumers trust the signers
//!                      they know)
//! 1. `receipt`         writable — PDA `["receipt", sender, transfer_id]`, must not exist yet
//!    (the sender in the seeds: nobody else can take a transfer id before the service records it)
//! 2. `payer`           signer, writable — pays the receipt's rent, stored as its `rent_payer`: the
//!                      only account `receipt_close` returns the rent to
//! 3. `source`          Token-2022 account of `mint`
//! 4. `destination`     Token-2022 account of `mint`
//! 5. `mint`            Token-2022 mint
//! 6. `system_program`  `11111111111111111111111111111111`
//!
//! Errors: `MissingSigner`, `AccountNotWritable`, `MemoTooLong`, `WrongTokenAccount`,
//! `WrongProgram`, `WrongPda`, `AccountAlreadyInitialized` (the id was recorded before).
//!
//! Emits `ServiceTransferRecorded { transfer_id, sender, source, destination, mint, confidential,
//! memo }`.

use crate::borsh::read_args;
use crate::error::{PolicyError, ProgramResult};
use crate::event;
use crate::runtime::account::AccountView;
use crate::runtime::input::AccountList;
use crate::runtime::system::create_program_account;
use crate::runtime::{clock, keys_eq, Pubkey, SYSTEM_PROGRAM_ID};
use crate::state::receipt::{self, NewReceipt, Receipt, RECEIPT_SEED};
use crate::state::{find_free_pda, init};
use crate::token;

pub const MAX_MEMO_LEN: usize = 256;

struct Args<'a> {
    transfer_id: &'a [u8; 16],
    confidential: bool,
    memo: &'a [u8],
}

fn parse(data: &[u8]) -> Result<Args<'_>, PolicyError> {
    let args = read_args(data, |reader| {
        Ok(Args {
            transfer_id: reader.array()?,
            confidential: reader.bool()?,
            memo: reader.bytes()?,
        })
    })?;
    if args.memo.len() > MAX_MEMO_LEN {
        return Err(PolicyError::MemoTooLong);
    }
    Ok(args)
}

/// The accounts of one record, checked: the receipt PDA is free.
struct TransferRecordAccounts<'a> {
    sender: &'a AccountView,
    receipt: &'a AccountView,
    payer: &'a AccountView,
    source: &'a AccountView,
    destination: &'a AccountView,
    mint: &'a AccountView,
    system_program: &'a AccountView,
    /// The receipt PDA's bump.
    bump: u8,
}

impl<'a> TransferRecordAccounts<'a> {
    /// In order: `NotEnoughAccounts`; signers; writability; the token accounts' coherence (both
    /// of `mint`); the System program; the receipt PDA (`WrongPda`), not yet created.
    fn unpack(list: &'a AccountList, program_id: &Pubkey, args: &Args) -> Result<Self, PolicyError> {
        let [sender, receipt, payer, source, destination, mint, system_program] = list.first::<7>()?;
        if !sender.is_signer() || !payer.is_signer() {
            return Err(PolicyError::MissingSigner);
        }
        if !payer.is_writable() || !receipt.is_writable() {
            return Err(PolicyError::AccountNotWritable);
        }
        token::mint_decimals(mint)?;
        if !keys_eq(token::token_account(source)?.mint(), mint.key())
            || !keys_eq(token::token_account(destination)?.mint(), mint.key())
        {
            return Err(PolicyError::WrongTokenAccount);
        }
        if !keys_eq(system_program.key(), &SYSTEM_PROGRAM_ID) {
            return Err(PolicyError::WrongProgram);
        }
        let bump = find_free_pda(receipt, &[RECEIPT_SEED, sender.key(), args.transfer_id], program_id)?;
        Ok(Self {
            sender,
            receipt,
            payer,
            source,
            destination,
            mint,
            system_program,
            bump,
        })
    }
}

/// Records one service transfer and its receipt (see the module doc for data, accounts and checks).
pub fn process(program_id: &Pubkey, list: &AccountList, data: &[u8]) -> ProgramResult {
    let args = parse(data)?;
    let accounts = TransferRecordAccounts::unpack(list, program_id, &args)?;
    let bump = accounts.bump;
    create_program_account(
        [accounts.payer, accounts.receipt, accounts.system_program],
        &[RECEIPT_SEED, accounts.sender.key(), args.transfer_id, &[bump]],
        receipt::LEN,
        program_id,
    )?;
    let (recorded_slot, recorded_at) = clock::slot_and_unix_timestamp();
    init::<Receipt>(accounts.receipt).write_new(&NewReceipt {
        transfer_id: args.transfer_id,
        sender: accounts.sender.key(),
        rent_payer: accounts.payer.key(),
        recorded_at,
        recorded_slot,
        bump,
    });
    event::service_transfer_recorded(&event::ServiceTransferRecorded {
        transfer_id: args.transfer_id,
        sender: accounts.sender.key(),
        source: accounts.source.key(),
        destination: accounts.destination.key(),
        mint: accounts.mint.key(),
        confidential: args.confidential,
        memo: args.memo,
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instructions::test_fixtures::*;
    use crate::runtime::input::test_support::TestAccount;

    fn data(memo_len: usize) -> Vec<u8> {
        let mut data = crate::discriminator::instruction::TRANSFER_RECORD.to_vec();
        data.extend_from_slice(&[0x42; 16]);
        data.push(1);
        data.extend_from_slice(&(memo_len as u32).to_le_bytes());
        data.extend_from_slice(&vec![7; memo_len]);
        data
    }

    fn accounts() -> Vec<TestAccount> {
        vec![
            signer(wallet(OWNER)),
            writable(wallet([17; 32])),
            signer(writable(wallet(PAYER))),
            token(SOURCE, token_account_data(MINT, OWNER, 10)),
            token(DESTINATION, token_account_data(MINT, DESTINATION_OWNER, 0)),
            token(MINT, mint_data(6)),
            program_account(SYSTEM),
        ]
    }

    #[test]
    fn refuses_long_memos_unsigned_records_and_incoherent_token_accounts() {
        assert_eq!(run(accounts(), &data(257), NOON).result, Err(PolicyError::MemoTooLong));
        let mut unsigned = accounts();
        unsigned[0].is_signer = false;
        assert_eq!(run(unsigned, &data(0), NOON).result, Err(PolicyError::MissingSigner));
        let mut other_mint = accounts();
        other_mint[4].data[..32].copy_from_slice(&[0x13; 32]);
        assert_eq!(
            run(other_mint, &data(0), NOON).result,
            Err(PolicyError::WrongTokenAccount)
        );
        let mut not_a_mint = accounts();
        not_a_mint[5].owner = [0x99; 32];
        assert_eq!(
            run(not_a_mint, &data(0), NOON).result,
            Err(PolicyError::WrongTokenAccount)
        );
        let mut bad_flag = data(0);
        bad_flag[24] = 2;
        assert_eq!(
            run(accounts(), &bad_flag, NOON).result,
            Err(PolicyError::InvalidInstructionData)
        );
    }

    #[test]
    #[should_panic(expected = "sol_try_find_program_address")]
    fn a_256_byte_memo_reaches_the_receipt_derivation() {
        let _ = run(accounts(), &data(256), NOON);
    }
}
