//! The tape parser (what the JSON Schema engine validates) is exactly as
//! strict as the Value parser: the same value, or the same issue at the same
//! path with the same message; and a tape built from a Value matches.
#![no_main]

use libfuzzer_sys::fuzz_target;
use toolresult::json::{parse_str_exact, ParseLimits};
use toolresult::json::{parse_tape, Tape};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let limits = ParseLimits::new(1 << 20, 64);
    match (parse_str_exact(text, limits), parse_tape(text, limits)) {
        (Ok(value), Ok(tape)) => {
            assert_eq!(tape.to_value(0), value);
            assert_eq!(tape.skip(0), tape.entries().len());
            assert_eq!(Tape::from_value(&value).entries(), tape.entries());
        }
        (Err(a), Err(b)) => assert_eq!((a.code, a.path, a.message), (b.code, b.path, b.message)),
        (a, b) => panic!(
            "parsers disagree: {:?} vs {:?}",
            a.map(|_| ()),
            b.map(|_| ())
        ),
    }
});
