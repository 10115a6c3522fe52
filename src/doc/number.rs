//! Numbers: kept as their input text, read and written as serde_json reads
//! and writes them. serde_json (without `arbitrary_precision`) keeps a
//! `u64`, a negative `i64` or an `f64` and writes that back, so `1.0`, `1e5`,
//! `-0` and integers past 64 bits come out in its float form (`1.0`,
//! `100000.0`, `-0.0`, `1.2345678901234568e29`). A number whose text is
//! already that form (every integer that fits) is copied; the others are
//! flagged at parse time and reformatted when written.
use super::parse::{Code, Parser};
use super::{Doc, Str};
use crate::error::Result;

impl Parser<'_> {
    /// serde: `parse_integer`, `parse_decimal`, `parse_exponent` and their
    /// long forms. The text is kept; the span's flag says serde_json would
    /// write it differently (`Doc::write_number`).
    pub(super) fn number(&mut self) -> Result<Str> {
        let start = self.i;
        let negative = self.peek() == Some(b'-');
        if negative {
            self.i += 1;
        }
        let int_start = self.i;
        let Some(first) = self.peek() else { return Err(self.error(Code::EofValue)) };
        self.i += 1;
        match first {
            b'0' => {
                if self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    return Err(self.peek_error(Code::InvalidNumber));
                }
            }
            b'1'..=b'9' => {
                while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.i += 1;
                }
            }
            _ => return Err(self.error(Code::InvalidNumber)),
        }
        let int_digits = self.i - int_start;
        let mut integer = true;
        let mut nonzero = self.b[int_start..self.i].iter().any(|&c| c != b'0');
        if self.peek() == Some(b'.') {
            integer = false;
            self.i += 1;
            let frac = self.i;
            while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                self.i += 1;
            }
            if self.i == frac {
                return Err(self.peek_error(if self.peek().is_some() { Code::InvalidNumber } else { Code::EofValue }));
            }
            nonzero |= self.b[frac..self.i].iter().any(|&c| c != b'0');
        }
        let mut exponent = false;
        if matches!(self.peek(), Some(b'e' | b'E')) {
            integer = false;
            exponent = true;
            self.i += 1;
            let positive_exp = match self.peek() {
                Some(b'+') => {
                    self.i += 1;
                    true
                }
                Some(b'-') => {
                    self.i += 1;
                    false
                }
                _ => true,
            };
            let Some(c) = self.peek() else { return Err(self.error(Code::EofValue)) };
            self.i += 1;
            if !c.is_ascii_digit() {
                return Err(self.error(Code::InvalidNumber));
            }
            let mut exp = (c - b'0') as i32;
            while let Some(c @ b'0'..=b'9') = self.peek() {
                self.i += 1;
                let digit = (c - b'0') as i32;
                if exp >= i32::MAX / 10 && (exp > i32::MAX / 10 || digit > i32::MAX % 10) {
                    // serde: `parse_exponent_overflow`: infinite is an error
                    // here, zero (or a huge negative exponent) reads as 0.
                    if nonzero && positive_exp {
                        return Err(self.error(Code::NumberOutOfRange));
                    }
                    while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                        self.i += 1;
                    }
                    break;
                }
                exp = exp * 10 + digit;
            }
        }
        let text = &self.src[start..self.i];
        // Finite unless there is an exponent or more integer digits than
        // f64's largest value has (309); serde_json refuses infinity.
        if (exponent || int_digits > 300) && text.parse::<f64>().map_or(true, f64::is_infinite) {
            return Err(self.error(Code::NumberOutOfRange));
        }
        let as_written = integer && fits_integer(&self.b[int_start..self.i], negative);
        Ok(Str::new(start, self.i - start, !as_written, false))
    }
}

impl Doc<'_> {
    /// A number as serde_json writes the `u64`, `i64` or `f64` it parses
    /// from the text. The flag marks the texts that differ (fractions,
    /// exponents, `-0`, integers past 64 bits): those are read as an `f64`
    /// and written by serde_json's own float formatting, the one cost of
    /// matching it byte for byte. `number_text` is the text as written, the
    /// alternative should the output keep numbers as their input has them.
    pub(super) fn write_number(&self, s: Str, out: &mut String) {
        let text = self.raw(s);
        if !s.reformat() {
            out.push_str(text);
            return;
        }
        match text.parse::<f64>().ok().and_then(serde_json::Number::from_f64) {
            Some(n) => out.push_str(&n.to_string()),
            // Not reachable from a parse (it refuses infinity), nor from the
            // builders (they refuse non-finite numbers); serde_json's choice.
            None => out.push_str("null"),
        }
    }
}

/// Does integer text (digits, no sign) read back the same from serde_json,
/// which keeps a `u64` (or a negative `i64`, not zero) and writes it with
/// `itoa`? Anything else becomes an `f64`.
fn fits_integer(digits: &[u8], negative: bool) -> bool {
    let (limit, n) = if negative { (&b"9223372036854775808"[..], 19) } else { (&b"18446744073709551615"[..], 20) };
    if negative && digits == b"0" {
        return false;
    }
    digits.len() < n || (digits.len() == n && digits <= limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_that_serde_json_keeps_as_written() {
        assert!(fits_integer(b"18446744073709551615", false));
        assert!(!fits_integer(b"18446744073709551616", false));
        assert!(fits_integer(b"9223372036854775808", true));
        assert!(!fits_integer(b"9223372036854775809", true));
        assert!(!fits_integer(b"0", true));
        assert!(fits_integer(b"0", false));
    }
}
