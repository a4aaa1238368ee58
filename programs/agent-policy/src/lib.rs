//! agent-policy: spend policies for agent accounts, enforced on-chain.
//!
//! `no_std`, zero crates, Anchor wire format (instruction/account/event discriminators are
//! `sha256("<namespace>:<name>")[..8]`, custom errors from 6000). The IDL in `idl/agent_policy.json`
//! is the contract with every client. Built offline by `programs/toolchain` into
//! `target/deploy/agent_policy.so`; the pure logic is unit-tested on the host with `cargo test`.
// no_std only on the chain: host builds (cargo test, tooling) link std normally.
#![cfg_attr(target_arch = "bpf", no_std)]

pub mod borsh;
pub mod discriminator;
pub mod error;
pub mod event;
pub mod instructions;
pub mod processor;
pub mod rules;
pub mod runtime;
pub mod sha256_const;
pub mod state;
pub mod token;
pub mod token_confidential;
pub mod zk_context;

#[cfg(test)]
mod idl_contract;

#[cfg(target_arch = "bpf")]
mod entrypoint;
