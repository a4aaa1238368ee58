//! The program's constants against the IDL, the contract every client is generated from.
//!
//! Reads `idl/agent_policy.layout.tsv` (generated from `idl/agent_policy.json` by
//! `npm run generate:client`, drift-checked there) so no JSON parser is needed on the Rust side:
//! instruction/account/event discriminators, account sizes, and every error's code, name and message.

use crate::discriminator::{account, event, instruction};
use crate::error::ALL_ERRORS;
use crate::state;

const LAYOUT: &str = include_str!("../../../idl/agent_policy.layout.tsv");

fn rows(kind: &str) -> Vec<Vec<&'static str>> {
    LAYOUT
        .lines()
        .filter(|line| !line.starts_with('#'))
        .map(|line| line.split('\t').collect::<Vec<_>>())
        .filter(|cells| cells[0] == kind)
        .collect()
}

fn bytes(cell: &str) -> [u8; 8] {
    let parsed: Vec<u8> = cell.split(',').map(|b| b.parse().unwrap()).collect();
    parsed.try_into().unwrap()
}

#[test]
fn instruction_discriminators_match_the_idl() {
    let expected = [
        ("config_initialize", instruction::CONFIG_INITIALIZE),
        ("handle_register", instruction::HANDLE_REGISTER),
        ("agent_create", instruction::AGENT_CREATE),
        ("policy_update", instruction::POLICY_UPDATE),
        ("agent_transfer", instruction::AGENT_TRANSFER),
        ("pending_approve", instruction::PENDING_APPROVE),
        ("pending_reject", instruction::PENDING_REJECT),
        ("pending_close_expired", instruction::PENDING_CLOSE_EXPIRED),
        ("transfer_record", instruction::TRANSFER_RECORD),
        ("agent_confidential_configure", instruction::AGENT_CONFIDENTIAL_CONFIGURE),
        ("agent_confidential_deposit", instruction::AGENT_CONFIDENTIAL_DEPOSIT),
        ("agent_confidential_apply", instruction::AGENT_CONFIDENTIAL_APPLY),
        ("agent_confidential_withdraw", instruction::AGENT_CONFIDENTIAL_WITHDRAW),
        ("agent_confidential_close_contexts", instruction::AGENT_CONFIDENTIAL_CLOSE_CONTEXTS),
        ("agent_confidential_transfer", instruction::AGENT_CONFIDENTIAL_TRANSFER),
        ("confidential_pending_approve", instruction::CONFIDENTIAL_PENDING_APPROVE),
        ("receipt_close", instruction::RECEIPT_CLOSE),
    ];
    let idl = rows("instruction");
    assert_eq!(idl.len(), expected.len(), "instruction count");
    for (row, (name, disc)) in idl.iter().zip(expected) {
        assert_eq!(row[1], name);
        assert_eq!(bytes(row[2]), disc, "{name}");
    }
}

#[test]
fn account_discriminators_and_sizes_match_the_idl() {
    let expected = [
        ("Config", account::CONFIG, state::config::LEN),
        ("Handle", account::HANDLE, state::handle::LEN),
        ("Agent", account::AGENT, state::agent::LEN),
        ("Policy", account::POLICY, state::policy::LEN),
        ("PendingTransaction", account::PENDING_TRANSACTION, state::pending::LEN),
        ("Receipt", account::RECEIPT, state::receipt::LEN),
    ];
    let idl = rows("account");
    assert_eq!(idl.len(), expected.len(), "account count");
    for (name, disc, len) in expected {
        let row = idl
            .iter()
            .find(|row| row[1] == name)
            .unwrap_or_else(|| panic!("{name} missing from the IDL"));
        assert_eq!(bytes(row[2]), disc, "{name}");
        assert_eq!(row[3].parse::<usize>().unwrap(), len, "{name} LEN");
    }
}

#[test]
fn event_discriminators_match_the_idl() {
    let expected = [
        ("ConfigInitialized", event::CONFIG_INITIALIZED),
        ("HandleRegistered", event::HANDLE_REGISTERED),
        ("AgentCreated", event::AGENT_CREATED),
        ("PolicyUpdated", event::POLICY_UPDATED),
        ("TransferExecuted", event::TRANSFER_EXECUTED),
        ("TransactionHeld", event::TRANSACTION_HELD),
        ("TransactionApproved", event::TRANSACTION_APPROVED),
        ("TransactionRejected", event::TRANSACTION_REJECTED),
        ("TransactionExpired", event::TRANSACTION_EXPIRED),
        ("ServiceTransferRecorded", event::SERVICE_TRANSFER_RECORDED),
        ("ConfidentialTransferExecuted", event::CONFIDENTIAL_TRANSFER_EXECUTED),
    ];
    let idl = rows("event");
    assert_eq!(idl.len(), expected.len(), "event count");
    for (name, disc) in expected {
        let row = idl
            .iter()
            .find(|row| row[1] == name)
            .unwrap_or_else(|| panic!("{name} missing from the IDL"));
        assert_eq!(bytes(row[2]), disc, "{name}");
    }
}

#[test]
fn every_error_matches_the_idl_in_code_name_and_message() {
    let idl = rows("error");
    assert_eq!(idl.len(), ALL_ERRORS.len(), "error count");
    for (row, error) in idl.iter().zip(ALL_ERRORS) {
        assert_eq!(row[1].parse::<u64>().unwrap(), error.code());
        assert_eq!(row[2], error.name());
        assert_eq!(row[3], error.message(), "{}", error.name());
    }
}
