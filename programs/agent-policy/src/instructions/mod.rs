//! One file per instruction, named `<resource>_<verb>`; each documents its data layout and accounts,
//! validates every account before use, then acts. `policy_args` and `spend` are shared parts.

pub mod agent_create;
pub mod agent_transfer;
pub mod config_initialize;
pub mod handle_register;
pub mod pending_approve;
pub mod pending_close_expired;
pub mod pending_reject;
pub mod policy_args;
pub mod policy_update;
pub mod spend;
pub mod transfer_record;

#[cfg(test)]
pub(crate) mod test_fixtures;
