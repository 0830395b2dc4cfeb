//! The checked-in protocol is what the protocol's types write: a change to a request or an
//! answer type that is not written out fails here, naming the file and the command that
//! writes it.

use rumis_wasm::protocol::contract::{typescript, TYPESCRIPT_FILE, WRITE_COMMAND};

#[test]
fn typescript_types_are_written_from_the_protocol_types() {
    rumis_wire::contract::check(TYPESCRIPT_FILE, &typescript(), WRITE_COMMAND);
}
