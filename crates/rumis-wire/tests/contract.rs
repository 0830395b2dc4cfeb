//! The checked-in contract is what the wire types write: a change to a wire type that is not
//! written out fails here, naming the file and the command that writes it.

#[test]
fn typescript_types_are_written_from_the_wire_types() {
    rumis_wire::contract::check(
        rumis_wire::contract::TYPESCRIPT_FILE,
        &rumis_wire::contract::typescript(),
        "UPDATE_CONTRACT=1 cargo test --profile test-run -p rumis-wire --test contract",
    );
}
