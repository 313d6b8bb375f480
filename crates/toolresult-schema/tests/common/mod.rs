//! What the integration tests share: the JSON Schema Test Suite's files.

use std::path::{Path, PathBuf};

/// The suite's test files under `tests/<under>` (`""`: every draft), sorted;
/// panics when the suite copy is missing, so a test never passes on nothing.
pub fn suite_files(under: &str) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "json") {
                out.push(path);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/conformance/json-schema-test-suite/tests")
        .join(under);
    let mut files = Vec::new();
    walk(&root, &mut files);
    files.sort();
    assert!(
        !files.is_empty(),
        "suite not found under {}",
        root.display()
    );
    files
}
