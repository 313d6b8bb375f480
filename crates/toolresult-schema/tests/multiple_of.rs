//! `multipleOf` with a fractional divisor, where the decimal shortcut cannot
//! answer (an operand past `i128` in its decimal reading): the patched
//! jsonschema-value answers without big integers (crates/vendor/PATCHES.md,
//! patch 8). Its answer must be the one of the `BigFraction` division it
//! replaces, for every pair of `f64`s: special values, the `f64` range's
//! edges, decimals, and pseudo-random bit patterns.

use fraction::{BigFraction, One};
use jsonschema_value::numeric::quotient_is_integer;

/// What jsonschema-value 0.60.2 computed (`is_multiple_of_float`'s fallback).
fn by_fraction(value: f64, multiple: f64) -> bool {
    (BigFraction::from(value) / BigFraction::from(multiple))
        .denom()
        .is_none_or(One::is_one)
}

fn check(value: f64, multiple: f64) {
    assert_eq!(
        quotient_is_integer(value, multiple),
        by_fraction(value, multiple),
        "{value:e} / {multiple:e}"
    );
}

mod rng;
use rng::Rng;

/// Values as the tests need them, from the shared generator.
trait Values {
    fn any_finite(&mut self) -> f64;
    fn decimal(&mut self) -> f64;
}

impl Values for Rng {
    /// A finite `f64` of any magnitude (sign, exponent and mantissa at random).
    fn any_finite(&mut self) -> f64 {
        loop {
            let x = f64::from_bits(self.next());
            if x.is_finite() {
                return x;
            }
        }
    }

    /// A short decimal `digits * 10^exponent`, as a schema or an instance writes it.
    fn decimal(&mut self) -> f64 {
        let digits = self.next() % 100_000;
        let exponent = (self.next() % 80) as i32 - 40;
        let sign = if self.next().is_multiple_of(4) {
            "-"
        } else {
            ""
        };
        format!("{sign}{digits}e{exponent}").parse().unwrap()
    }
}

#[test]
fn special_values_and_edges() {
    let values = [
        0.0,
        -0.0,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::MIN_POSITIVE,
        -f64::MIN_POSITIVE,
        5e-324,
        -5e-324,
        2.2e-308,
        f64::EPSILON,
        f64::MAX,
        f64::MIN,
        1e308,
        -1e308,
        1e300,
        -1e300,
        1e-300,
        -1e-300,
        1e-20,
        -1e-20,
        1e-5,
        -1e-5,
        0.1,
        0.3,
        0.5,
        0.01,
        0.0075,
        1.0,
        2.0,
        3.0,
        7.0,
        10.0,
        1e15,
        9_007_199_254_740_992.0,
        9_007_199_254_740_993.0,
        1.797_693_134_862_315_7e300,
        123_456_789.123_456_78,
        1_070_468.14,
        4.940_656_458_412_465_4e-300,
    ];
    for &value in &values {
        for &multiple in &values {
            check(value, multiple);
        }
    }
}

#[test]
fn decimals() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for _ in 0..60_000 {
        let (value, multiple) = (rng.decimal(), rng.decimal());
        check(value, multiple);
        // A multiple by construction, then read back through `f64`.
        let factor = (rng.next() % 1_000_000) as f64;
        check(multiple * factor, multiple);
    }
}

#[test]
fn random_bit_patterns() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    for _ in 0..20_000 {
        let (value, multiple) = (rng.any_finite(), rng.any_finite());
        check(value, multiple);
        check(value, rng.decimal());
        check(rng.decimal(), multiple);
    }
}
