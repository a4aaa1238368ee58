//! Anchor discriminators, computed at compile time from their names.
//!
//! instruction: `sha256("global:<snake_case_name>")[..8]`, account: `sha256("account:<TypeName>")[..8]`,
//! event: `sha256("event:<EventName>")[..8]`. The IDL test checks these against idl/agent_policy.json.

use crate::sha256_const::sha256;

/// First 8 bytes of `sha256(preimage)`.
pub const fn discriminator(preimage: &[u8]) -> [u8; 8] {
    let hash = sha256(preimage);
    [hash[0], hash[1], hash[2], hash[3], hash[4], hash[5], hash[6], hash[7]]
}

/// A discriminator as the little-endian `u64` the dispatcher matches on (one compare, not eight).
pub const fn as_u64(discriminator: [u8; 8]) -> u64 {
    u64::from_le_bytes(discriminator)
}

pub mod instruction {
    use super::discriminator;
    pub const CONFIG_INITIALIZE: [u8; 8] = discriminator(b"global:config_initialize");
    pub const HANDLE_REGISTER: [u8; 8] = discriminator(b"global:handle_register");
    pub const AGENT_CREATE: [u8; 8] = discriminator(b"global:agent_create");
    pub const POLICY_UPDATE: [u8; 8] = discriminator(b"global:policy_update");
    pub const AGENT_TRANSFER: [u8; 8] = discriminator(b"global:agent_transfer");
    pub const PENDING_APPROVE: [u8; 8] = discriminator(b"global:pending_approve");
    pub const PENDING_REJECT: [u8; 8] = discriminator(b"global:pending_reject");
    pub const PENDING_CLOSE_EXPIRED: [u8; 8] = discriminator(b"global:pending_close_expired");
    pub const TRANSFER_RECORD: [u8; 8] = discriminator(b"global:transfer_record");
    pub const AGENT_CONFIDENTIAL_CONFIGURE: [u8; 8] = discriminator(b"global:agent_confidential_configure");
    pub const AGENT_CONFIDENTIAL_DEPOSIT: [u8; 8] = discriminator(b"global:agent_confidential_deposit");
    pub const AGENT_CONFIDENTIAL_APPLY: [u8; 8] = discriminator(b"global:agent_confidential_apply");
    pub const AGENT_CONFIDENTIAL_WITHDRAW: [u8; 8] = discriminator(b"global:agent_confidential_withdraw");
    pub const AGENT_CONFIDENTIAL_CLOSE_CONTEXTS: [u8; 8] = discriminator(b"global:agent_confidential_close_contexts");
    pub const AGENT_CONFIDENTIAL_TRANSFER: [u8; 8] = discriminator(b"global:agent_confidential_transfer");
    pub const CONFIDENTIAL_PENDING_APPROVE: [u8; 8] = discriminator(b"global:confidential_pending_approve");
    pub const RECEIPT_CLOSE: [u8; 8] = discriminator(b"global:receipt_close");

    pub const ALL: [[u8; 8]; 17] = [
        CONFIG_INITIALIZE,
        HANDLE_REGISTER,
        AGENT_CREATE,
        POLICY_UPDATE,
        AGENT_TRANSFER,
        PENDING_APPROVE,
        PENDING_REJECT,
        PENDING_CLOSE_EXPIRED,
        TRANSFER_RECORD,
        AGENT_CONFIDENTIAL_CONFIGURE,
        AGENT_CONFIDENTIAL_DEPOSIT,
        AGENT_CONFIDENTIAL_APPLY,
        AGENT_CONFIDENTIAL_WITHDRAW,
        AGENT_CONFIDENTIAL_CLOSE_CONTEXTS,
        AGENT_CONFIDENTIAL_TRANSFER,
        CONFIDENTIAL_PENDING_APPROVE,
        RECEIPT_CLOSE,
    ];
}

pub mod account {
    use super::discriminator;
    pub const CONFIG: [u8; 8] = discriminator(b"account:Config");
    pub const HANDLE: [u8; 8] = discriminator(b"account:Handle");
    pub const AGENT: [u8; 8] = discriminator(b"account:Agent");
    pub const POLICY: [u8; 8] = discriminator(b"account:Policy");
    pub const PENDING_TRANSACTION: [u8; 8] = discriminator(b"account:PendingTransaction");
    pub const RECEIPT: [u8; 8] = discriminator(b"account:Receipt");

    pub const ALL: [[u8; 8]; 6] = [CONFIG, HANDLE, AGENT, POLICY, PENDING_TRANSACTION, RECEIPT];
}

pub mod event {
    use super::discriminator;
    pub const CONFIG_INITIALIZED: [u8; 8] = discriminator(b"event:ConfigInitialized");
    pub const HANDLE_REGISTERED: [u8; 8] = discriminator(b"event:HandleRegistered");
    pub const AGENT_CREATED: [u8; 8] = discriminator(b"event:AgentCreated");
    pub const POLICY_UPDATED: [u8; 8] = discriminator(b"event:PolicyUpdated");
    pub const TRANSFER_EXECUTED: [u8; 8] = discriminator(b"event:TransferExecuted");
    pub const TRANSACTION_HELD: [u8; 8] = discriminator(b"event:TransactionHeld");
    pub const TRANSACTION_APPROVED: [u8; 8] = discriminator(b"event:TransactionApproved");
    pub const TRANSACTION_REJECTED: [u8; 8] = discriminator(b"event:TransactionRejected");
    pub const TRANSACTION_EXPIRED: [u8; 8] = discriminator(b"event:TransactionExpired");
    pub const SERVICE_TRANSFER_RECORDED: [u8; 8] = discriminator(b"event:ServiceTransferRecorded");
    pub const CONFIDENTIAL_TRANSFER_EXECUTED: [u8; 8] = discriminator(b"event:ConfidentialTransferExecuted");

    pub const ALL: [[u8; 8]; 11] = [
        CONFIG_INITIALIZED,
        HANDLE_REGISTERED,
        AGENT_CREATED,
        POLICY_UPDATED,
        TRANSFER_EXECUTED,
        TRANSACTION_HELD,
        TRANSACTION_APPROVED,
        TRANSACTION_REJECTED,
        TRANSACTION_EXPIRED,
        SERVICE_TRANSFER_RECORDED,
        CONFIDENTIAL_TRANSFER_EXECUTED,
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instruction_discriminator_matches_anchor_for_a_known_name() {
        // Anchor's `initialize` instruction: sha256("global:initialize")[..8], a widely published value.
        assert_eq!(
            discriminator(b"global:initialize"),
            [175, 175, 109, 31, 13, 152, 155, 237]
        );
    }

    #[test]
    fn namespaces_give_distinct_discriminators() {
        assert_ne!(instruction::CONFIG_INITIALIZE, account::CONFIG);
        assert_ne!(account::CONFIG, event::CONFIG_INITIALIZED);
    }

    #[test]
    fn every_discriminator_is_distinct_across_all_namespaces() {
        // The dispatcher matches on the u64 form, so distinct arrays must give distinct words.
        let all: Vec<u64> = instruction::ALL
            .iter()
            .chain(&account::ALL)
            .chain(&event::ALL)
            .map(|d| as_u64(*d))
            .collect();
        for (i, a) in all.iter().enumerate() {
            assert!(all[i + 1..].iter().all(|b| a != b), "duplicate discriminator {a:#x}");
        }
    }
}
