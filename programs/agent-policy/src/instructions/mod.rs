//! One file per instruction, named `<resource>_<verb>`; each documents its data layout and accounts,
//! validates every account before use, then acts.

pub mod config_initialize;
