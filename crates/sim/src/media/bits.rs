//! An MSB-first bit writer with the Exp-Golomb codes H.264 headers use.

#[derive(Default)]
pub struct BitWriter {
    bytes: Vec<u8>,
    /// Bits already used in the last byte (0 when the writer is byte-aligned).
    used: u8,
}

impl BitWriter {
    pub fn new() -> BitWriter {
        BitWriter::default()
    }

    pub fn bit(&mut self, on: bool) {
        if self.used == 0 {
            self.bytes.push(0);
        }
        if on {
            let last = self.bytes.len() - 1;
            self.bytes[last] |= 0x80 >> self.used;
        }
        self.used = (self.used + 1) % 8;
    }

    /// The low `n` bits of `value`, most significant first.
    pub fn bits(&mut self, n: u32, value: u64) {
        for i in (0..n).rev() {
            self.bit(value >> i & 1 == 1);
        }
    }

    /// Unsigned Exp-Golomb, `ue(v)`.
    pub fn ue(&mut self, value: u32) {
        let code = u64::from(value) + 1;
        let len = 64 - code.leading_zeros();
        self.bits(len - 1, 0);
        self.bits(len, code);
    }

    /// Signed Exp-Golomb, `se(v)`.
    pub fn se(&mut self, value: i32) {
        let mapped = if value > 0 {
            2 * value.unsigned_abs() - 1
        } else {
            2 * value.unsigned_abs()
        };
        self.ue(mapped);
    }

    pub fn is_aligned(&self) -> bool {
        self.used == 0
    }

    /// Zero bits up to the next byte boundary.
    pub fn align_zero(&mut self) {
        while !self.is_aligned() {
            self.bit(false);
        }
    }

    /// A whole byte; the writer must be aligned.
    pub fn byte(&mut self, b: u8) {
        debug_assert!(self.is_aligned());
        self.bytes.push(b);
    }

    /// `rbsp_trailing_bits`: a one bit, then zeros to the byte boundary.
    pub fn trailing(&mut self) {
        self.bit(true);
        self.align_zero();
    }

    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exp_golomb_codes_match_the_standards_table() {
        // ue: 0 → 1, 1 → 010, 2 → 011, 3 → 00100; se: 1 → 010, -1 → 011.
        let mut w = BitWriter::new();
        w.ue(0);
        w.ue(1);
        w.ue(2);
        w.ue(3);
        w.se(1);
        w.se(-1);
        w.align_zero();
        // 1 010 011 00100 010 011 → 1010 0110 0100 0100 11(00 0000)
        assert_eq!(w.into_bytes(), vec![0b1010_0110, 0b0100_0100, 0b1100_0000]);
    }
}
