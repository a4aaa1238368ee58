//! The agent PDA's signature on a CPI: its stored seeds `["agent", handle_hash, bump]`. No
//! derivation and no hashing: the runtime checks that the seeds produce the signing address, so
//! a forged `Agent` can never sign for another address. Not an instruction.
//!
//! Use: `let seeds = agent_signer::seeds(agent); let signer = Signer::new(&seeds);` then pass
//! `&signer` to the CPI helper (`token::transfer_checked`, `token_confidential::*`,
//! `zk_context::close_context`).

use crate::runtime::cpi::Seed;
use crate::state::agent::{Agent, AGENT_SEED};

/// The agent PDA's seeds, bump included. The `Seed`s point into `agent` (its `handle_hash` and
/// `bump` bytes), so they are valid as long as the account data is, i.e. the whole instruction.
#[inline(always)]
pub fn seeds(agent: &Agent) -> [Seed; 3] {
    [
        Seed::new(AGENT_SEED),
        Seed::new(&agent.handle_hash),
        Seed::new(core::slice::from_ref(&agent.bump)),
    ]
}
