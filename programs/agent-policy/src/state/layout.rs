//! How an account layout is declared: once, field by field with its documented offset, and
//! checked at compile time. Integers are stored as little-endian byte arrays ([`U16`], [`U32`],
//! [`U64`], [`I64`]), so every field has alignment 1 and accepts any bytes: a checked account's
//! data can be viewed in place as its struct, with no copy and no invalid value.

/// A little-endian integer field: its bytes as stored, read with `get` and written with `set`.
macro_rules! little_endian {
    ($($(#[$meta:meta])* $name:ident($int:ty)),* $(,)?) => {$(
        $(#[$meta])*
        #[repr(transparent)]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name(pub [u8; core::mem::size_of::<$int>()]);

        impl $name {
            #[inline(always)]
            pub fn get(&self) -> $int {
                <$int>::from_le_bytes(self.0)
            }

            #[inline(always)]
            pub fn set(&mut self, value: $int) {
                self.0 = value.to_le_bytes();
            }
        }
    )*};
}

little_endian! {
    /// `u16` LE.
    U16(u16),
    /// `u32` LE.
    U32(u32),
    /// `u64` LE.
    U64(u64),
    /// `i64` LE.
    I64(i64),
}

/// Declares a layout as its documentation table reads: `offset field: type` per line, after the
/// total size. Expands to a `#[repr(C)]` struct of those public fields and compile-time
/// assertions that each field sits at its offset, that nothing else does (size), and that the
/// struct has alignment 1. `at BASE` declares a part of a larger layout whose first field
/// is at `BASE` (offsets stay the documented, absolute ones).
///
/// Every field type must be a byte array, one of the little-endian integers above, or a struct
/// made of those (alignment 1, no padding, every bit pattern valid): [`super::AccountType`] relies
/// on it.
macro_rules! layout {
    (
        $(#[$meta:meta])*
        pub struct $name:ident ($len:expr) $(at $base:literal)? {
            $($(#[$field_meta:meta])* $offset:literal $field:ident: $ty:ty),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[repr(C)]
        pub struct $name {
            $($(#[$field_meta])* pub $field: $ty,)*
        }

        const _: () = {
            let base: usize = 0 $(+ $base)?;
            assert!(core::mem::size_of::<$name>() == $len);
            assert!(core::mem::align_of::<$name>() == 1);
            $(assert!(base + core::mem::offset_of!($name, $field) == $offset);)*
        };
    };
}

/// [`layout!`] for an account type of this program: the 8-byte discriminator at offset 0, then the
/// fields, and the [`super::AccountType`] implementation that lets `state::load` view it.
macro_rules! account {
    (
        $(#[$meta:meta])*
        pub struct $name:ident ($len:expr, $discriminator:expr) {
            $($fields:tt)*
        }
    ) => {
        $crate::state::layout::layout! {
            $(#[$meta])*
            pub struct $name ($len) {
                0 discriminator: [u8; 8],
                $($fields)*
            }
        }

        // `layout!` asserted alignment 1 and no padding, and its fields are byte types.
        unsafe impl $crate::state::AccountType for $name {
            const DISCRIMINATOR: [u8; 8] = $discriminator;
        }
    };
}

pub(crate) use {account, layout};
