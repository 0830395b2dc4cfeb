//! The checked-in contract is what the wire types write: a change to a wire type that is not
//! written out fails here, naming the file and the command that writes it.

use std::path::PathBuf;

/// The workspace's root (this crate is `crates/rumis-wire`).
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Compares `written` with the checked-in `file`, or writes it with `UPDATE_CONTRACT=1`.
fn check(file: &str, written: &str) {
    let path = root().join(file);
    if std::env::var_os("UPDATE_CONTRACT").is_some_and(|v| v == "1") {
        std::fs::write(&path, written).unwrap_or_else(|e| panic!("writing {file}: {e}"));
        return;
    }
    let held = std::fs::read_to_string(&path).unwrap_or_default();
    if held != written {
        // The first line that differs, as the file has it and as the types write it.
        let (line, (has, writes)) = held
            .lines()
            .map(Some)
            .chain(std::iter::repeat(None))
            .zip(written.lines().map(Some).chain(std::iter::repeat(None)))
            .take(held.lines().count().max(written.lines().count()))
            .enumerate()
            .find(|(_, (a, b))| a != b)
            .unwrap_or((0, (None, None)));
        panic!(
            "{file} is not what the wire types write: at line {}\n  the file has:    {}\n  the types write: {}\n\
             Write it again and commit it:\n    UPDATE_CONTRACT=1 cargo test --profile test-run -p rumis-wire --test contract",
            line + 1,
            has.unwrap_or("(the end of the file)"),
            writes.unwrap_or("(the end of the file)"),
        );
    }
}

#[test]
fn typescript_types_are_written_from_the_wire_types() {
    check(
        rumis_wire::contract::TYPESCRIPT_FILE,
        &rumis_wire::contract::typescript(),
    );
}
