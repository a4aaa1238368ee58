//! A bounds-checked, zero-copy Borsh reader for instruction arguments (Anchor's wire format).
//!
//! Integers are little-endian; `string` and `bytes` are a `u32` length then the bytes; `Vec<T>` is a
//! `u32` count then the items; `Option<T>` a `0`/`1` tag then the value; an enum a `u8` variant then
//! its payload; `bool` is `0`/`1`. Every read that would run past the end, and every tag outside
//! its range, is `InvalidInstructionData` — the reader never panics and never reads out of bounds.
//! Strings are returned as bytes: every string the program accepts has an ASCII grammar that the
//! caller checks, which is stricter than UTF-8 validation.

use crate::error::PolicyError;

pub type ReadResult<T> = Result<T, PolicyError>;

/// An instruction's arguments: `read` runs on the data after the 8-byte discriminator (the
/// processor checked there are 8), and nothing may be left after it (`Reader::finish`).
#[inline(always)]
pub fn read_args<'a, T>(data: &'a [u8], read: impl FnOnce(&mut Reader<'a>) -> ReadResult<T>) -> ReadResult<T> {
    let mut reader = Reader::new(&data[8..]);
    let args = read(&mut reader)?;
    reader.finish()?;
    Ok(args)
}

/// The data of an instruction without arguments: its discriminator and nothing else.
#[inline(always)]
pub fn no_args(data: &[u8]) -> ReadResult<()> {
    if data.len() != 8 {
        return Err(PolicyError::InvalidInstructionData);
    }
    Ok(())
}

/// The integers Borsh writes little-endian, read by [`Reader::int`].
pub trait Int: Sized {
    fn read(reader: &mut Reader) -> ReadResult<Self>;
}

macro_rules! int {
    ($($int:ty),*) => {$(
        impl Int for $int {
            #[inline(always)]
            fn read(reader: &mut Reader) -> ReadResult<Self> {
                Ok(<$int>::from_le_bytes(*reader.array()?))
            }
        }
    )*};
}

int!(u16, u32, u64, i64);

pub struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    /// A reader at the start of `data` (the instruction data after its discriminator).
    #[inline]
    pub fn new(data: &'a [u8]) -> Self {
        Self { rest: data }
    }

    /// The next `len` bytes.
    #[inline]
    pub fn take(&mut self, len: usize) -> ReadResult<&'a [u8]> {
        if len > self.rest.len() {
            return Err(PolicyError::InvalidInstructionData);
        }
        let (head, tail) = self.rest.split_at(len);
        self.rest = tail;
        Ok(head)
    }

    /// The next `N` bytes as a fixed-size array (a pubkey, a transfer id).
    #[inline]
    pub fn array<const N: usize>(&mut self) -> ReadResult<&'a [u8; N]> {
        let bytes = self.take(N)?;
        // `take` returned exactly N bytes.
        Ok(unsafe { &*(bytes.as_ptr() as *const [u8; N]) })
    }

    /// One byte.
    #[inline]
    pub fn u8(&mut self) -> ReadResult<u8> {
        Ok(self.array::<1>()?[0])
    }

    /// A little-endian integer (`u16`, `u32`, `u64`, `i64`).
    #[inline]
    pub fn int<T: Int>(&mut self) -> ReadResult<T> {
        T::read(self)
    }

    /// `0` -> false, `1` -> true, anything else is malformed (Borsh is canonical).
    #[inline]
    pub fn bool(&mut self) -> ReadResult<bool> {
        match self.u8()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(PolicyError::InvalidInstructionData),
        }
    }

    /// A 32-byte address.
    #[inline]
    pub fn pubkey(&mut self) -> ReadResult<&'a [u8; 32]> {
        self.array()
    }

    /// `bytes` / `Vec<u8>`: a `u32` length, then that many bytes.
    #[inline]
    pub fn bytes(&mut self) -> ReadResult<&'a [u8]> {
        let len = self.int::<u32>()? as usize;
        self.take(len)
    }

    /// `string`: same wire form as `bytes`; see the module doc for why no UTF-8 check.
    #[inline]
    pub fn string(&mut self) -> ReadResult<&'a [u8]> {
        self.bytes()
    }

    /// The item count of a `Vec<T>`; the caller reads the items (and bounds the count first).
    #[inline]
    pub fn vec_len(&mut self) -> ReadResult<usize> {
        Ok(self.int::<u32>()? as usize)
    }

    /// The tag of an `Option<T>`: true when a value follows.
    #[inline]
    pub fn option(&mut self) -> ReadResult<bool> {
        self.bool()
    }

    /// The variant of an enum with `variants` variants.
    #[inline]
    pub fn enum_tag(&mut self, variants: u8) -> ReadResult<u8> {
        let tag = self.u8()?;
        if tag >= variants {
            return Err(PolicyError::InvalidInstructionData);
        }
        Ok(tag)
    }

    /// Bytes not read yet.
    pub fn remaining(&self) -> usize {
        self.rest.len()
    }

    /// Ends the read: trailing bytes mean the client and the program disagree on the layout.
    #[inline]
    pub fn finish(self) -> ReadResult<()> {
        if self.rest.is_empty() {
            Ok(())
        } else {
            Err(PolicyError::InvalidInstructionData)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    const BAD: Result<(), PolicyError> = Err(PolicyError::InvalidInstructionData);

    #[test]
    fn reads_each_type_little_endian_in_order() {
        // Given a Borsh encoding of (u8, u16, u32, u64, i64, bool, pubkey, string, bytes, Some(7u8), None)
        let mut data = vec![0xAB];
        data.extend_from_slice(&0x1234u16.to_le_bytes());
        data.extend_from_slice(&0xDEADBEEFu32.to_le_bytes());
        data.extend_from_slice(&u64::MAX.to_le_bytes());
        data.extend_from_slice(&(-5i64).to_le_bytes());
        data.push(1);
        data.extend_from_slice(&[9; 32]);
        data.extend_from_slice(&3u32.to_le_bytes());
        data.extend_from_slice(b"abc");
        data.extend_from_slice(&0u32.to_le_bytes());
        data.extend_from_slice(&[1, 7, 0]);
        data.push(2);
        // When it is read back
        let mut r = Reader::new(&data);
        // Then every value is what was written, and nothing is left
        assert_eq!(r.u8(), Ok(0xAB));
        assert_eq!(r.int::<u16>(), Ok(0x1234));
        assert_eq!(r.int::<u32>(), Ok(0xDEADBEEF));
        assert_eq!(r.int::<u64>(), Ok(u64::MAX));
        assert_eq!(r.int::<i64>(), Ok(-5));
        assert_eq!(r.bool(), Ok(true));
        assert_eq!(r.pubkey(), Ok(&[9; 32]));
        assert_eq!(r.string(), Ok(&b"abc"[..]));
        assert_eq!(r.bytes(), Ok(&b""[..]));
        assert_eq!(r.option(), Ok(true));
        assert_eq!(r.u8(), Ok(7));
        assert_eq!(r.option(), Ok(false));
        assert_eq!(r.enum_tag(3), Ok(2));
        assert_eq!(r.finish(), Ok(()));
    }

    #[test]
    fn every_read_on_truncated_input_is_invalid_instruction_data() {
        assert_eq!(Reader::new(&[]).u8().map(drop), BAD);
        assert_eq!(Reader::new(&[1]).int::<u16>().map(drop), BAD);
        assert_eq!(Reader::new(&[1, 2, 3]).int::<u32>().map(drop), BAD);
        assert_eq!(Reader::new(&[0; 7]).int::<u64>().map(drop), BAD);
        assert_eq!(Reader::new(&[0; 7]).int::<i64>().map(drop), BAD);
        assert_eq!(Reader::new(&[0; 31]).pubkey().map(drop), BAD);
        assert_eq!(Reader::new(&[0; 15]).array::<16>().map(drop), BAD);
        // A length prefix promising more than is there
        assert_eq!(Reader::new(&[4, 0, 0, 0, b'a', b'b', b'c']).string().map(drop), BAD);
        assert_eq!(Reader::new(&[0xff, 0xff, 0xff, 0xff]).bytes().map(drop), BAD);
        // A truncated length prefix
        assert_eq!(Reader::new(&[1, 0]).vec_len().map(drop), BAD);
        assert_eq!(Reader::new(&[]).option().map(drop), BAD);
        assert_eq!(Reader::new(&[]).enum_tag(3).map(drop), BAD);
    }

    #[test]
    fn a_failed_read_consumes_nothing() {
        let mut r = Reader::new(&[1, 2, 3]);
        assert_eq!(r.int::<u32>().map(drop), BAD);
        assert_eq!(r.remaining(), 3);
        assert_eq!(r.take(3), Ok(&[1u8, 2, 3][..]));
    }

    #[test]
    fn non_canonical_tags_are_refused() {
        assert_eq!(Reader::new(&[2]).bool().map(drop), BAD);
        assert_eq!(Reader::new(&[2]).option().map(drop), BAD);
        assert_eq!(Reader::new(&[3]).enum_tag(3).map(drop), BAD);
    }

    #[test]
    fn trailing_bytes_fail_finish() {
        let mut r = Reader::new(&[1, 2]);
        assert_eq!(r.u8(), Ok(1));
        assert_eq!(r.finish(), BAD);
    }

    #[test]
    fn reads_exactly_to_the_end() {
        let mut r = Reader::new(&[5, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(r.int::<u64>(), Ok(5));
        assert_eq!(r.finish(), Ok(()));
    }
}
