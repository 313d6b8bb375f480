pub mod value_truncation;
