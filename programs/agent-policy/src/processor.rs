//! Instruction dispatch on the 8-byte Anchor discriminator (one `u64` compare per arm, the hot
//! `agent_transfer` first).

use crate::discriminator::{as_u64, instruction};
use crate::error::{PolicyError, ProgramResult};
use crate::instructions;
use crate::runtime::input::Input;

const AGENT_TRANSFER: u64 = as_u64(instruction::AGENT_TRANSFER);
const PENDING_APPROVE: u64 = as_u64(instruction::PENDING_APPROVE);
const TRANSFER_RECORD: u64 = as_u64(instruction::TRANSFER_RECORD);
const PENDING_REJECT: u64 = as_u64(instruction::PENDING_REJECT);
const PENDING_CLOSE_EXPIRED: u64 = as_u64(instruction::PENDING_CLOSE_EXPIRED);
const POLICY_UPDATE: u64 = as_u64(instruction::POLICY_UPDATE);
const AGENT_CREATE: u64 = as_u64(instruction::AGENT_CREATE);
const HANDLE_REGISTER: u64 = as_u64(instruction::HANDLE_REGISTER);
const CONFIG_INITIALIZE: u64 = as_u64(instruction::CONFIG_INITIALIZE);

/// Routes the instruction to its handler by the first 8 bytes of data; anything shorter or
/// unknown is `InvalidInstructionData`.
pub fn process(input: &Input) -> ProgramResult {
    let data = input.data;
    if data.len() < 8 {
        return Err(PolicyError::InvalidInstructionData);
    }
    let discriminator = unsafe { core::ptr::read_unaligned(data.as_ptr() as *const u64) };
    let accounts = input.accounts();
    let program_id = input.program_id;
    // The hot path skips the compare tree the match compiles to.
    if discriminator == AGENT_TRANSFER {
        return instructions::agent_transfer::process(program_id, &accounts, data);
    }
    match discriminator {
        PENDING_APPROVE => instructions::pending_approve::process(program_id, &accounts, data),
        TRANSFER_RECORD => instructions::transfer_record::process(program_id, &accounts, data),
        PENDING_REJECT => instructions::pending_reject::process(program_id, &accounts, data),
        PENDING_CLOSE_EXPIRED => instructions::pending_close_expired::process(program_id, &accounts, data),
        POLICY_UPDATE => instructions::policy_update::process(program_id, &accounts, data),
        AGENT_CREATE => instructions::agent_create::process(program_id, &accounts, data),
        HANDLE_REGISTER => instructions::handle_register::process(program_id, &accounts, data),
        CONFIG_INITIALIZE => instructions::config_initialize::process(program_id, &accounts, data),
        _ => Err(PolicyError::InvalidInstructionData),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instructions::test_fixtures::{run, NOON};

    #[test]
    fn short_data_and_unknown_discriminators_are_invalid_instruction_data() {
        assert_eq!(run(vec![], &[], NOON).result, Err(PolicyError::InvalidInstructionData));
        assert_eq!(
            run(vec![], &instruction::AGENT_TRANSFER[..7], NOON).result,
            Err(PolicyError::InvalidInstructionData)
        );
        assert_eq!(
            run(vec![], &[0; 8], NOON).result,
            Err(PolicyError::InvalidInstructionData)
        );
        // An account discriminator is not an instruction
        assert_eq!(
            run(vec![], &crate::discriminator::account::AGENT, NOON).result,
            Err(PolicyError::InvalidInstructionData)
        );
    }

    #[test]
    fn every_instruction_dispatches_and_reports_its_missing_accounts() {
        for discriminator in instruction::ALL {
            let mut data = discriminator.to_vec();
            data.resize(200, 0);
            let result = run(vec![], &data, NOON).result;
            assert!(
                matches!(
                    result,
                    Err(PolicyError::NotEnoughAccounts | PolicyError::InvalidInstructionData)
                ),
                "{discriminator:?}: {result:?}"
            );
        }
    }
}
