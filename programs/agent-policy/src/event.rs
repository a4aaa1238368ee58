//! Anchor-format events: `sol_log_data(discriminator ++ borsh(fields))`, read by clients and the
//! indexer from `Program data: <base64>` log lines. No event carries an amount: public amounts are
//! in the Token-2022 instruction anyway, confidential ones must never appear.
//!
//! Borsh bodies: pubkey = 32 bytes, `[u8; 16]` = 16 bytes, `u32`/`u64`/`i64` little-endian,
//! `bool` = one byte 0/1, `string`/`bytes` = `u32` LE length + bytes.

use crate::discriminator::event;
use crate::runtime::log::{log_bytes, log_data};
use crate::runtime::Pubkey;

#[inline(always)]
fn flag(value: bool) -> &'static [u8] {
    if value {
        &[1]
    } else {
        &[0]
    }
}

/// `ConfigInitialized { admin: pubkey, registrar: pubkey }`
pub fn config_initialized(admin: &Pubkey, registrar: &Pubkey) {
    log_data(&[&event::CONFIG_INITIALIZED, admin, registrar]);
}

/// `HandleRegistered { handle: string, wallet: pubkey, kind: u8 }`
pub fn handle_registered(handle: &[u8], wallet: &Pubkey, kind: u8) {
    log_data(&[
        &event::HANDLE_REGISTERED,
        &(handle.len() as u32).to_le_bytes(),
        handle,
        wallet,
        &[kind],
    ]);
}

/// `AgentCreated { agent, owner, agent_signer, policy: pubkey, handle: string }`
pub struct AgentCreated<'a> {
    pub agent: &'a Pubkey,
    pub owner: &'a Pubkey,
    pub agent_signer: &'a Pubkey,
    pub policy: &'a Pubkey,
    pub handle: &'a [u8],
}

/// Emits `AgentCreated`.
pub fn agent_created(e: &AgentCreated) {
    log_data(&[
        &event::AGENT_CREATED,
        e.agent,
        e.owner,
        e.agent_signer,
        e.policy,
        &(e.handle.len() as u32).to_le_bytes(),
        e.handle,
    ]);
}

/// `PolicyUpdated { agent: pubkey, policy: pubkey, version: u32, updated_at: i64 }`
pub fn policy_updated(agent: &Pubkey, policy: &Pubkey, version: u32, updated_at: i64) {
    log_data(&[
        &event::POLICY_UPDATED,
        agent,
        policy,
        &version.to_le_bytes(),
        &updated_at.to_le_bytes(),
    ]);
}

/// `TransferExecuted { agent, transfer_id: [u8; 16], source, destination, mint, from_hold: bool }`
pub struct TransferExecuted<'a> {
    pub agent: &'a Pubkey,
    pub transfer_id: &'a [u8; 16],
    pub source: &'a Pubkey,
    pub destination: &'a Pubkey,
    pub mint: &'a Pubkey,
    pub from_hold: bool,
}

/// The event's wire bytes as one struct: fixed-size field copies and a single log syscall, no
/// staging buffer (it is emitted on every executed agent transfer).
#[repr(C)]
struct TransferExecutedBytes {
    discriminator: [u8; 8],
    agent: Pubkey,
    transfer_id: [u8; 16],
    source: Pubkey,
    destination: Pubkey,
    mint: Pubkey,
    from_hold: u8,
}

const _: () = assert!(core::mem::size_of::<TransferExecutedBytes>() == 8 + 32 + 16 + 3 * 32 + 1);

/// Emits `TransferExecuted`.
#[inline(always)]
pub fn transfer_executed(e: &TransferExecuted) {
    log_transfer_executed(event::TRANSFER_EXECUTED, e);
}

/// `ConfidentialTransferExecuted { agent, transfer_id: [u8; 16], source, destination, mint,
/// from_hold: bool }` — the same fields as `TransferExecuted`; no amount, not even a ciphertext.
#[inline(never)]
pub fn confidential_transfer_executed(e: &TransferExecuted) {
    log_transfer_executed(event::CONFIDENTIAL_TRANSFER_EXECUTED, e);
}

/// Both events' bytes under `discriminator`, logged with one syscall.
#[inline(always)]
fn log_transfer_executed(discriminator: [u8; 8], e: &TransferExecuted) {
    let bytes = TransferExecutedBytes {
        discriminator,
        agent: *e.agent,
        transfer_id: *e.transfer_id,
        source: *e.source,
        destination: *e.destination,
        mint: *e.mint,
        from_hold: e.from_hold as u8,
    };
    // A #[repr(C)] struct of byte arrays: no padding, every byte initialized.
    let raw = unsafe {
        core::slice::from_raw_parts(
            &bytes as *const TransferExecutedBytes as *const u8,
            core::mem::size_of_val(&bytes),
        )
    };
    log_bytes(raw);
}

/// `TransactionHeld { agent, pending: pubkey, nonce: u64, transfer_id: [u8; 16], expires_at: i64 }`
pub struct TransactionHeld<'a> {
    pub agent: &'a Pubkey,
    pub pending: &'a Pubkey,
    pub nonce: u64,
    pub transfer_id: &'a [u8; 16],
    pub expires_at: i64,
}

/// Emits `TransactionHeld`.
pub fn transaction_held(e: &TransactionHeld) {
    log_data(&[
        &event::TRANSACTION_HELD,
        e.agent,
        e.pending,
        &e.nonce.to_le_bytes(),
        e.transfer_id,
        &e.expires_at.to_le_bytes(),
    ]);
}

/// `TransactionApproved { agent, pending: pubkey, transfer_id: [u8; 16] }`
pub fn transaction_approved(agent: &Pubkey, pending: &Pubkey, transfer_id: &[u8; 16]) {
    log_data(&[&event::TRANSACTION_APPROVED, agent, pending, transfer_id]);
}

/// `TransactionRejected { agent, pending: pubkey, transfer_id: [u8; 16] }`
pub fn transaction_rejected(agent: &Pubkey, pending: &Pubkey, transfer_id: &[u8; 16]) {
    log_data(&[&event::TRANSACTION_REJECTED, agent, pending, transfer_id]);
}

/// `TransactionExpired { agent, pending: pubkey, transfer_id: [u8; 16] }`
pub fn transaction_expired(agent: &Pubkey, pending: &Pubkey, transfer_id: &[u8; 16]) {
    log_data(&[&event::TRANSACTION_EXPIRED, agent, pending, transfer_id]);
}

/// `ServiceTransferRecorded { transfer_id: [u8; 16], sender, source, destination, mint: pubkey,
/// confidential: bool, memo: bytes }`
pub struct ServiceTransferRecorded<'a> {
    pub transfer_id: &'a [u8; 16],
    pub sender: &'a Pubkey,
    pub source: &'a Pubkey,
    pub destination: &'a Pubkey,
    pub mint: &'a Pubkey,
    pub confidential: bool,
    pub memo: &'a [u8],
}

/// Emits `ServiceTransferRecorded` (memo at most 256 bytes, checked by the caller).
pub fn service_transfer_recorded(e: &ServiceTransferRecorded) {
    log_data(&[
        &event::SERVICE_TRANSFER_RECORDED,
        e.transfer_id,
        e.sender,
        e.source,
        e.destination,
        e.mint,
        flag(e.confidential),
        &(e.memo.len() as u32).to_le_bytes(),
        e.memo,
    ]);
}
