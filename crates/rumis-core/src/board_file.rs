//! A board written back as the file `Board::from_toml` reads (rules §3), and that file
//! escaped onto one line for a record's `BoardFile` tag (rules §7): a game on a board of
//! one's own is replayable from its record alone.

use std::fmt::Write as _;

use crate::board::Board;
use crate::evidence::Constraint;

/// A TOML basic string: quotes, backslashes and control characters escaped.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `{ 2 = 4, 3 = 6 }` from (player count, value) pairs.
fn inline(pairs: &[(usize, String)]) -> String {
    let items: Vec<String> = pairs.iter().map(|(p, v)| format!("{p} = {v}")).collect();
    format!("{{ {} }}", items.join(", "))
}

impl Board {
    /// The board as a board file: reading it back gives an equal board. Comments of the
    /// file it was read from are not kept.
    pub fn to_toml(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "name = {}", quote(&self.name));
        if !self.aliases.is_empty() {
            let aliases: Vec<String> = self.aliases.iter().map(|a| quote(a)).collect();
            let _ = writeln!(out, "aliases = [{}]", aliases.join(", "));
        }
        let _ = writeln!(out, "provenance = {}", quote(self.provenance.as_str()));
        if !self.source.is_empty() {
            let _ = writeln!(out, "source = {}", quote(&self.source));
        }
        let hmax: Vec<(usize, String)> = (2..=4).map(|p| (p, self.hmax(p).to_string())).collect();
        let _ = writeln!(out, "hmax = {}", inline(&hmax));
        let frames: Vec<(usize, String)> = (2..=4)
            .filter_map(|p| self.frame(p).map(|f| (p, quote(&f.to_string()))))
            .collect();
        if !frames.is_empty() {
            let _ = writeln!(out, "frames = {}", inline(&frames));
        }
        out.push_str("grid = \"\"\"\n");
        for y in (0..self.ranks).rev() {
            for x in 0..self.files {
                out.push(match self.cell(x, y) {
                    None => '.',
                    Some(0) => '#',
                    Some(h) => (b'0' + h) as char,
                });
            }
            out.push('\n');
        }
        out.push_str("\"\"\"\n");
        for e in &self.evidence {
            let _ = write!(
                out,
                "\n[[evidence]]\nfact = {}\nsource = {}\n",
                quote(&e.fact),
                quote(&e.source)
            );
            // Grouped by kind in the order the reader lists them, so the round trip keeps
            // the constraints' order.
            let mut min_cells = Vec::new();
            let mut hmax = Vec::new();
            let mut reaches = Vec::new();
            for c in &e.constraints {
                match c {
                    Constraint::MinCells { players, cells } => min_cells.push((*players, cells.to_string())),
                    Constraint::Hmax { players, height } => hmax.push((*players, height.to_string())),
                    Constraint::ReachesLevel { players, level } => reaches.push((*players, level.to_string())),
                    Constraint::FramesFor(_) => {}
                }
            }
            for (key, pairs) in [("min_cells", min_cells), ("hmax", hmax), ("reaches_level", reaches)] {
                if !pairs.is_empty() {
                    let _ = writeln!(out, "{key} = {}", inline(&pairs));
                }
            }
            for c in &e.constraints {
                if let Constraint::FramesFor(counts) = c {
                    let counts: Vec<String> = counts.iter().map(|c| c.to_string()).collect();
                    let _ = writeln!(out, "frames_for = [{}]", counts.join(", "));
                }
            }
        }
        out
    }

    /// Whether this board is a built-in scenario exactly (not only by name): a record of a
    /// game on it needs no `BoardFile` tag.
    pub fn is_builtin(&self) -> bool {
        Board::builtin(&self.name).is_some_and(|b| b == self)
    }
}

/// A board file as one line for a record's tag value: `\` as `\\`, `"` as `\"`, line feed
/// as `\n`, carriage return as `\r`, tab as `\t`.
pub fn escape_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out
}

/// The text [`escape_line`] wrote; an unknown escape or a lone `\` at the end is an error.
pub fn unescape_line(line: &str) -> Result<String, String> {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        out.push(match chars.next() {
            Some('\\') => '\\',
            Some('"') => '"',
            Some('n') => '\n',
            Some('r') => '\r',
            Some('t') => '\t',
            Some(other) => return Err(format!("'\\{other}' is not an escape (\\\\, \\\", \\n, \\r, \\t)")),
            None => return Err("it ends in a lone '\\'".into()),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_board_reads_back_equal() {
        for b in Board::builtins() {
            let text = b.to_toml();
            let back = Board::from_toml("written.toml", &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(&back, b, "{text}");
            assert!(b.is_builtin());
        }
    }

    #[test]
    fn an_own_board_with_frames_printed_heights_and_odd_text_reads_back_equal() {
        let text =
            "name = \"Mine \\\"quoted\\\" \\\\ \\t\"\naliases = [\"m\", \"x y\"]\nprovenance = \"reconstruction\"\n\
                    source = \"line one\\nline two\"\nhmax = { 2 = 3, 3 = 4, 4 = 5 }\nframes = { 2 = \"a1:b2\" }\n\
                    grid = \"\"\"\n.#3\n##9\n#.#\n\"\"\"\n\n[[evidence]]\nfact = \"f\"\nsource = \"s\"\n\
                    min_cells = { 3 = 7 }\nhmax = { 2 = 3 }\nreaches_level = { 4 = 5 }\nframes_for = [2]\n";
        let b = Board::from_toml("mine.toml", text).unwrap();
        let back = Board::from_toml("written.toml", &b.to_toml()).unwrap();
        assert_eq!(back, b);
        assert!(!b.is_builtin());
        // Same name as a scenario, other cells: not that scenario.
        let fake = Board::from_toml(
            "f.toml",
            "name = \"Chullpa\"\nprovenance = \"reconstruction\"\nhmax = { 2 = 2, 3 = 2, 4 = 2 }\ngrid = \"##\"\n",
        )
        .unwrap();
        assert!(!fake.is_builtin());
    }

    #[test]
    fn escaping_round_trips_and_stays_on_one_line() {
        let text = "a \"b\" \\ c\nd\r\n\te";
        let line = escape_line(text);
        assert!(!line.contains('\n') && !line.contains('\r'));
        assert_eq!(unescape_line(&line).unwrap(), text);
        assert_eq!(
            unescape_line("ab\\q").unwrap_err(),
            "'\\q' is not an escape (\\\\, \\\", \\n, \\r, \\t)"
        );
        assert_eq!(unescape_line("ab\\").unwrap_err(), "it ends in a lone '\\'");
    }
}
