//! `receipt_close` — the account that paid a `Receipt`'s rent takes it back once the record is
//! old enough: the receipt is closed and every lamport goes to its `rent_payer`, which must sign.
//! Nobody else can close a receipt or send its rent anywhere else.
//!
//! Closing a receipt frees its transfer id for that sender again, so the receipt must outlive
//! every signed transaction that could still replay the transfer (see `MIN_AGE_SLOTS`), and the
//! payer (the service) closes only transfers it will never resubmit.
//!
//! Data (8 bytes): discriminator `sha256("global:receipt_close")[..8]`.
//!
//! Accounts:
//! 0. `receipt`        writable — `Receipt` of this program at PDA `["receipt", sender,
//!                     transfer_id]` (re-derived from its stored sender, id and bump)
//! 1. `rent_receiver`  signer, writable — must be `receipt.rent_payer`
//!
//! Errors: `AccountNotWritable`, `WrongAccountOwner` (not this program's: another program's
//! account, or a receipt already closed), `WrongAccountData` (not a `Receipt`, or a 72-byte one
//! from before `rent_payer` existed), `MissingSigner`, `WrongRentReceiver`, `ReceiptTooRecent`
//! (fewer than `MIN_AGE_SLOTS` slots since `recorded_slot`), `WrongPda`.

use crate::borsh::no_args;
use crate::error::{PolicyError, ProgramResult};
use crate::runtime::account::AccountView;
use crate::runtime::input::AccountList;
use crate::runtime::{clock, keys_eq, pda, Pubkey};
use crate::state::load_mut;
use crate::state::receipt::{Receipt, RECEIPT_SEED};

/// Slots a receipt must have existed before it can be closed. Two things must hold by then:
/// - the recording is final: a block is rooted once 32 more confirmed blocks vote on top of it
///   (Solana's `MAX_LOCKOUT_HISTORY`; `finalized` trails `confirmed` by ~32 slots), so the record
///   and its event can no longer be rolled back;
/// - no signed copy of the transfer can still land: a transaction signed before the record landed
///   carries a blockhash no newer than the recording slot and expires 150 blocks after it
///   (`MAX_PROCESSING_AGE`). 150 blocks span at least 150 slots, more when leaders skip slots.
///
/// 1,000 slots (~400 s at 400 ms a slot) covers both even if 4 slots in 5 were skipped
/// (150 x 5 + 32 = 782). A transaction built on a durable nonce never expires by blockhash:
/// whoever uses one must not close its receipt while the nonce is unadvanced.
pub const MIN_AGE_SLOTS: u64 = 1_000;

/// The accounts of one receipt close, checked.
struct ReceiptCloseAccounts<'a> {
    receipt: &'a AccountView,
    rent_receiver: &'a AccountView,
}

impl<'a> ReceiptCloseAccounts<'a> {
    /// In order: `NotEnoughAccounts`; the receipt (writable, this program's, of its type); the
    /// receiver signed, is writable and the receipt's rent payer; the receipt is old enough at
    /// `now_slot`; the receipt is at its PDA (checked last: the derivation is the costly part).
    fn unpack(list: &'a AccountList, program_id: &Pubkey, now_slot: u64) -> Result<Self, PolicyError> {
        let [receipt, rent_receiver] = list.first::<2>()?;
        let receipt_state = load_mut::<Receipt>(receipt, program_id)?;
        if !rent_receiver.is_signer() {
            return Err(PolicyError::MissingSigner);
        }
        if !rent_receiver.is_writable() {
            return Err(PolicyError::AccountNotWritable);
        }
        if !keys_eq(&receipt_state.rent_payer, rent_receiver.key()) {
            return Err(PolicyError::WrongRentReceiver);
        }
        // A slot before the recording (never on a real cluster) counts as too recent.
        match now_slot.checked_sub(receipt_state.recorded_slot.get()) {
            Some(age) if age >= MIN_AGE_SLOTS => {}
            _ => return Err(PolicyError::ReceiptTooRecent),
        }
        let expected = pda::create_program_address(
            &[
                RECEIPT_SEED,
                &receipt_state.sender,
                &receipt_state.transfer_id,
                &[receipt_state.bump],
            ],
            program_id,
        )?;
        if !keys_eq(receipt.key(), &expected) {
            return Err(PolicyError::WrongPda);
        }
        Ok(Self { receipt, rent_receiver })
    }
}

/// Closes one receipt to its rent payer (see the module doc for data, accounts and checks).
pub fn process(program_id: &Pubkey, list: &AccountList, data: &[u8]) -> ProgramResult {
    no_args(data)?;
    let accounts = ReceiptCloseAccounts::unpack(list, program_id, clock::slot())?;
    accounts.receipt.close_to(accounts.rent_receiver)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discriminator::{account as account_disc, instruction};
    use crate::instructions::test_fixtures::*;
    use crate::state::receipt::LEN;

    const RECEIPT: Pubkey = [0x52; 32];
    const RECORDED_SLOT: u64 = 5_000;

    fn receipt_data() -> Vec<u8> {
        let mut data = vec![0u8; LEN];
        data[..8].copy_from_slice(&account_disc::RECEIPT);
        data[8..24].copy_from_slice(&[0x42; 16]);
        data[24..56].copy_from_slice(&OWNER);
        data[64] = 255;
        data[72..104].copy_from_slice(&PAYER);
        data[104..112].copy_from_slice(&RECORDED_SLOT.to_le_bytes());
        data
    }

    const OLD_ENOUGH: u64 = RECORDED_SLOT + MIN_AGE_SLOTS;

    /// The rent payer closing the receipt at the first slot it is old enough.
    fn closing() -> Call {
        Call::new(
            &instruction::RECEIPT_CLOSE,
            vec![
                writable(account(RECEIPT, PROGRAM, receipt_data())),
                signer(writable(wallet(PAYER))),
            ],
        )
        .at_slot(OLD_ENOUGH)
    }

    #[test]
    fn refuses_a_receipt_younger_than_the_minimum_age() {
        for slot in [OLD_ENOUGH - 1, RECORDED_SLOT, RECORDED_SLOT - 1] {
            closing().at_slot(slot).refused(PolicyError::ReceiptTooRecent);
        }
    }

    #[test]
    #[should_panic(expected = "sol_create_program_address")]
    fn an_old_enough_receipt_reaches_the_pda_check() {
        let _ = closing().run();
    }

    #[test]
    fn only_the_signing_rent_payer_takes_the_rent() {
        refuses_each(
            closing,
            &[
                (1, |r| r.key = OWNER, PolicyError::WrongRentReceiver),
                (1, |r| r.is_signer = false, PolicyError::MissingSigner),
                (1, |r| r.is_writable = false, PolicyError::AccountNotWritable),
            ],
        );
    }

    #[test]
    fn refuses_anything_but_a_writable_receipt_of_this_program() {
        refuses_each(
            closing,
            &[
                (0, |r| r.owner = [0x99; 32], PolicyError::WrongAccountOwner),
                // Closed already
                (0, |r| *r = writable(wallet(RECEIPT)), PolicyError::WrongAccountOwner),
                (0, |r| r.data = pending_data(80), PolicyError::WrongAccountData),
                // The 72-byte layout from before `rent_payer`
                (0, |r| r.data.truncate(72), PolicyError::WrongAccountData),
                (0, |r| r.is_writable = false, PolicyError::AccountNotWritable),
            ],
        );
    }

    #[test]
    fn takes_exactly_the_discriminator() {
        let mut trailing = closing();
        trailing.data.push(0);
        trailing.refused(PolicyError::InvalidInstructionData);
        let mut short = closing();
        short.accounts.truncate(1);
        short.refused(PolicyError::NotEnoughAccounts);
    }
}
