//! The largest boards and structures the engine handles, which the board reader, the
//! evidence reader and the generator's fixed-size tables all obey. (Its own file, below
//! everything.)

/// The most columns (grid cells) a board may have: column indices fit in a byte and the
/// move generator's per-column tables in 128 lanes.
pub const MAX_COLUMNS: usize = 128;
/// The most files: they are named by one letter.
pub const MAX_FILES: usize = 26;
/// The highest level a stone may reach: a column's height fits in four bits.
pub const MAX_LEVEL: u8 = 15;
