//! One file per instruction, named `<resource>_<verb>`; each documents its data layout and accounts,
//! unpacks its accounts into a named struct whose `unpack` checks every account before use, then
//! acts. `agent_checks`, `agent_signer`, `policy_args`, `spend`, `hold`, `hold_close`,
//! `confidential_account` and `confidential_spend` are shared parts: the four agent-token-account
//! instructions unpack the same `confidential_account::AgentTokenAccount`, and `pending_reject` and
//! `pending_close_expired` are both `hold_close::end` (tested there). Instruction tests start from
//! a valid `test_fixtures::Call` and change it account by account (`refuses_each`).

pub mod agent_checks;
pub mod agent_confidential_apply;
pub mod agent_confidential_close_contexts;
pub mod agent_confidential_configure;
pub mod agent_confidential_deposit;
pub mod agent_confidential_transfer;
pub mod agent_confidential_withdraw;
pub mod agent_create;
pub mod agent_signer;
pub mod agent_transfer;
pub mod confidential_account;
pub mod confidential_pending_approve;
pub mod confidential_spend;
pub mod config_initialize;
pub mod handle_register;
pub mod hold;
pub mod hold_close;
pub mod pending_approve;
pub mod pending_close_expired;
pub mod pending_reject;
pub mod policy_args;
pub mod policy_update;
pub mod receipt_close;
pub mod spend;
pub mod transfer_record;

#[cfg(test)]
pub(crate) mod test_fixtures;
