//! Instruction dispatch on the 8-byte Anchor discriminator.

use crate::discriminator::instruction;
use crate::error::{PolicyError, ProgramResult};
use crate::instructions;
use crate::runtime::input::Input;

pub fn process(input: &Input) -> ProgramResult {
    let data = input.data;
    if data.len() < 8 {
        return Err(PolicyError::InvalidInstructionData);
    }
    let accounts = input.accounts();
    match &data[..8] {
        d if d == instruction::CONFIG_INITIALIZE => {
            instructions::config_initialize::process(input.program_id, &accounts, data)
        }
        _ => Err(PolicyError::InvalidInstructionData),
    }
}
