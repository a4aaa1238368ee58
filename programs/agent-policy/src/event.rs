//! Anchor-format events: `sol_log_data(discriminator ++ borsh(fields))`, read by clients and the
//! indexer from `Program data: <base64>` log lines.

use crate::discriminator::event;
use crate::runtime::log::log_data;
use crate::runtime::Pubkey;

/// `ConfigInitialized { admin: pubkey, registrar: pubkey }`
pub fn config_initialized(admin: &Pubkey, registrar: &Pubkey) {
    log_data(&[&event::CONFIG_INITIALIZED, admin, registrar]);
}
