//! Game records (rules §7): tag pairs, then the placements in order of play. Neither an
//! out colour nor (under the house rule, tag `[StuckRule "pass"]`) a pass is written; a
//! colour that *left* the game (resigned, or ran out of time) is, as `Y:out` at the point
//! it left, with its reason in the comment after it (`Y:out {resigned}`): the project's
//! extension of §7, without which such a game would not replay.

use std::fmt;
use std::fmt::Write as _;
use std::sync::Arc;

use crate::board::Board;
use crate::error::SetupError;
// A board of one's own travels in a record's `BoardFile` tag as one escaped line; the
// escaping is part of the record format, so it is published here.
pub use crate::board_file::{escape_line, unescape_line};
use crate::game::Game;
use crate::site::{Site, StuckRule, Variant};
use crate::stone::Colour;

/// A record that cannot be read or replayed, with where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// The line (1-based) at fault.
    pub line: usize,
    /// The move (1-based) at fault, if one is.
    pub move_number: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.move_number {
            Some(n) => write!(f, "line {}, move {n}: {}", self.line, self.message),
            None => write!(f, "line {}: {}", self.line, self.message),
        }
    }
}

impl std::error::Error for RecordError {}

fn error(line: usize, message: impl Into<String>) -> RecordError {
    RecordError {
        line,
        move_number: None,
        message: message.into(),
    }
}

/// A record as read: tags and move texts, each with its line.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Record {
    /// (name, value, line)
    pub tags: Vec<(String, String, usize)>,
    /// (text, line): placements and colours leaving (`Y:out`).
    pub moves: Vec<(String, usize)>,
    /// (number of move texts before it, text): the comments, kept for the reason after a
    /// `Y:out`.
    pub comments: Vec<(usize, String)>,
}

/// A colour leaving the game as written in a record: `Y:out` (any case); `None` when the
/// text is not of that form at all (then it is read as a placement).
fn read_leaving(text: &str) -> Option<Result<Colour, String>> {
    let (who, what) = text.split_once(':')?;
    if !what.eq_ignore_ascii_case("out") {
        return Some(Err(format!(
            "'{text}' is neither a placement nor a colour leaving the game (like Y:out)"
        )));
    }
    Some(Colour::from_word(who).ok_or_else(|| {
        format!("'{text}': '{who}' is not a colour (R, Y, G, B); a colour leaving is written like Y:out")
    }))
}

const KNOWN_TAGS: [&str; 8] = [
    "Board",
    "Players",
    "Variant",
    "StuckRule",
    "Colors",
    "Setup",
    "Result",
    "BoardFile",
];

impl Record {
    /// Reads every record in a text (records follow each other; a tag after moves starts
    /// the next one).
    pub fn parse_all(text: &str) -> Result<Vec<Record>, RecordError> {
        let mut records = Vec::new();
        let mut cur = Record::default();
        let mut comment_from: Option<usize> = None;
        let mut comment = String::new();
        for (i, line) in text.lines().enumerate() {
            let n = i + 1;
            let trimmed = line.trim();
            if comment_from.is_none() && trimmed.starts_with('[') {
                if !cur.moves.is_empty() {
                    records.push(std::mem::take(&mut cur));
                }
                let (name, value) = parse_tag(trimmed).ok_or_else(|| {
                    error(
                        n,
                        format!("'{trimmed}' is not a tag pair like [Board \"Chullpa\"] (truncated?)"),
                    )
                })?;
                if cur.tags.iter().any(|t| t.0 == name) {
                    return Err(error(n, format!("tag {name} is given twice")));
                }
                cur.tags.push((name, value, n));
                continue;
            }
            let mut token = String::new();
            for ch in line.chars() {
                if comment_from.is_some() {
                    if ch == '}' {
                        comment_from = None;
                        let text = comment.split_whitespace().collect::<Vec<_>>().join(" ");
                        cur.comments.push((cur.moves.len(), text));
                        comment.clear();
                    } else {
                        comment.push(ch);
                    }
                    continue;
                }
                match ch {
                    '{' => {
                        push_token(&mut cur, &mut token, n);
                        comment_from = Some(n);
                    }
                    '}' => return Err(error(n, "'}' closes a comment that was never opened")),
                    c if c.is_whitespace() => push_token(&mut cur, &mut token, n),
                    c => token.push(c),
                }
            }
            push_token(&mut cur, &mut token, n);
            if comment_from.is_some() {
                comment.push(' ');
            }
        }
        if let Some(n) = comment_from {
            return Err(error(n, "the comment opened here is never closed (truncated record?)"));
        }
        if !cur.tags.is_empty() || !cur.moves.is_empty() {
            records.push(cur);
        }
        if records.is_empty() {
            return Err(error(
                1,
                "the record is empty: it needs at least [Board \"…\"] and [Players \"…\"]",
            ));
        }
        Ok(records)
    }

    /// Reads a text holding exactly one record.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let mut all = Record::parse_all(text)?;
        if all.len() > 1 {
            return Err(error(
                all[1].first_line(),
                format!("the text holds {} records, not one", all.len()),
            ));
        }
        Ok(all.remove(0))
    }

    fn first_line(&self) -> usize {
        self.tags
            .first()
            .map(|t| t.2)
            .or(self.moves.first().map(|m| m.1))
            .unwrap_or(1)
    }

    /// The value of a tag, by name (any case).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| t.0.eq_ignore_ascii_case(name))
            .map(|t| t.1.as_str())
    }

    fn tag_line(&self, name: &str) -> usize {
        self.tags
            .iter()
            .find(|t| t.0.eq_ignore_ascii_case(name))
            .map(|t| t.2)
            .unwrap_or(1)
    }

    /// The board the record carries in its `BoardFile` tag (rules §7), if it has one.
    pub fn board_file(&self) -> Result<Option<Board>, RecordError> {
        let Some(value) = self.tag("BoardFile") else {
            return Ok(None);
        };
        let line = self.tag_line("BoardFile");
        let text = unescape_line(value).map_err(|e| error(line, format!("the BoardFile tag cannot be read: {e}")))?;
        Board::from_toml("BoardFile", &text)
            .map(Some)
            .map_err(|e| error(line, format!("the board in the BoardFile tag is refused: {e}")))
    }

    /// Sets up the game the record describes and replays its moves. `board` finds a board
    /// by the name in the Board tag.
    pub fn to_game<E: fmt::Display>(&self, board: impl Fn(&str) -> Result<Board, E>) -> Result<Game, RecordError> {
        let name = self
            .tag("Board")
            .ok_or_else(|| error(self.first_line(), "the record has no [Board \"…\"] tag"))?;
        // A board of one's own travels in the record (rules §7); a built-in one by name.
        let board = match self.board_file()? {
            Some(b) if b.is_called(name) => b,
            Some(b) => {
                return Err(error(
                    self.tag_line("BoardFile"),
                    format!(
                        "the BoardFile tag describes board '{}' but the Board tag says '{name}'",
                        b.name
                    ),
                ))
            }
            None => board(name).map_err(|e| error(self.tag_line("Board"), e.to_string()))?,
        };
        let mut game = self.set_up(board)?;
        self.play_moves(&mut game)?;
        self.check_result(&game)?;
        game.tags = self
            .tags
            .iter()
            .filter(|t| !KNOWN_TAGS.iter().any(|k| k.eq_ignore_ascii_case(&t.0)))
            .map(|t| (t.0.clone(), t.1.clone()))
            .collect();
        Ok(game)
    }

    /// The number of players, from the Players tag.
    fn players(&self) -> Result<usize, RecordError> {
        let players_text = self
            .tag("Players")
            .ok_or_else(|| error(self.first_line(), "the record has no [Players \"…\"] tag"))?;
        players_text
            .trim()
            .parse()
            .ok()
            .filter(|p| (2..=4).contains(p))
            .ok_or_else(|| {
                error(
                    self.tag_line("Players"),
                    format!("Players must be 2, 3 or 4, not '{players_text}'"),
                )
            })
    }

    /// The site the tags describe: players, variant, colours, the stuck-colour rule.
    fn site(&self, board: Board) -> Result<(Site, Variant), RecordError> {
        let players = self.players()?;
        let variant = match self.tag("Variant") {
            None => Variant::Standard,
            Some(v) => Variant::from_name(v).ok_or_else(|| {
                error(
                    self.tag_line("Variant"),
                    format!("unknown variant '{v}' (standard, two-player-four-colors, ruinas)"),
                )
            })?,
        };
        let colours = match self.tag("Colors") {
            None => None,
            Some(text) => Some(Colour::parse_list(text).map_err(|e| error(self.tag_line("Colors"), e.to_string()))?),
        };
        // Absent means the rulebooks' rule, so records written before the option replay.
        let stuck_rule = match self.tag("StuckRule") {
            None => StuckRule::Out,
            Some(v) => StuckRule::from_name(v).ok_or_else(|| {
                error(
                    self.tag_line("StuckRule"),
                    format!("unknown stuck-colour rule '{v}' (out, pass)"),
                )
            })?,
        };
        let site = Site::new(board, players, variant, colours)
            .map_err(|e| error(self.tag_line("Players"), e.to_string()))?
            .with_stuck_rule(stuck_rule);
        Ok((site, variant))
    }

    /// The game before its first move: the site, and a Ruinas game's ruins.
    fn set_up(&self, board: Board) -> Result<Game, RecordError> {
        let (site, variant) = self.site(board)?;
        let site = Arc::new(site);
        match (variant, self.tag("Setup")) {
            (Variant::Ruinas, Some(setup)) => {
                let ruins: Vec<&str> = setup.split_whitespace().collect();
                Game::with_ruin_texts(site, &ruins).map_err(|e| error(self.tag_line("Setup"), e.to_string()))
            }
            (Variant::Ruinas, None) => Err(error(
                self.first_line(),
                "a Ruinas record needs a [Setup \"…\"] tag with the ruin placements",
            )),
            (_, Some(_)) => Err(error(
                self.tag_line("Setup"),
                "a Setup tag (ruins) belongs only to a Ruinas game",
            )),
            (_, None) => Ok(Game::new(site)),
        }
    }

    /// Plays the record's moves and leavings on `game`, in order, as reading a whole record
    /// does after its setup: for a game set up elsewhere (a server's game made from a
    /// position: its own setup, the moves so far in this notation). The first move refused
    /// (unreadable, illegal there, or after the end of the game) is the error, with its
    /// number and line; `game` then holds the moves before it.
    pub fn play_moves(&self, game: &mut Game) -> Result<(), RecordError> {
        for (i, (text, line)) in self.moves.iter().enumerate() {
            let number = game.moves().len() + 1;
            let at = |message: String| RecordError {
                line: *line,
                move_number: Some(number),
                message,
            };
            if game.is_over() {
                return Err(at(format!("'{text}' comes after the end of the game")));
            }
            match read_leaving(text) {
                Some(colour) => {
                    let colour = colour.map_err(at)?;
                    // The comment right after it, with no move between, is its reason.
                    let reason = self.comments.iter().find(|c| c.0 == i + 1).map(|c| c.1.as_str());
                    game.retire(colour, reason).map_err(|e| at(format!("'{text}': {e}")))?;
                }
                None => {
                    game.play_text(text).map_err(|e| at(format!("'{text}': {e}")))?;
                }
            }
        }
        Ok(())
    }

    /// A Result tag, if given, must be what the moves give.
    fn check_result(&self, game: &Game) -> Result<(), RecordError> {
        let Some(result) = self.tag("Result") else {
            return Ok(());
        };
        let line = self.tag_line("Result");
        if !game.is_over() {
            return Err(error(
                line,
                "the Result tag is given but the moves do not reach the end of the game (truncated record?)",
            ));
        }
        let actual = result_text(game);
        if normalise_result(result) != normalise_result(&actual) {
            return Err(error(
                line,
                format!("the Result tag says \"{result}\" but the moves give \"{actual}\""),
            ));
        }
        Ok(())
    }
}

fn push_token(rec: &mut Record, token: &mut String, line: usize) {
    if token.is_empty() {
        return;
    }
    // Move numbers ("12." or "12...") are optional and ignored, also when glued to a move.
    let t = token.trim_start_matches(|c: char| c.is_ascii_digit());
    let rest = if t.len() < token.len() && t.starts_with('.') {
        t.trim_start_matches('.')
    } else {
        token.as_str()
    };
    if !rest.is_empty() {
        rec.moves.push((rest.to_string(), line));
    }
    token.clear();
}

fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let (name, rest) = inner.split_once(char::is_whitespace)?;
    let rest = rest.trim();
    let value = rest.strip_prefix('"')?.strip_suffix('"')?;
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') || has_bare_quote(value) {
        return None;
    }
    Some((name.to_string(), value.to_string()))
}

/// Whether a tag value holds a `"` not escaped as `\"` (the BoardFile tag escapes its
/// quotes; rules §7).
fn has_bare_quote(value: &str) -> bool {
    let mut escaped = false;
    for c in value.chars() {
        match c {
            '"' if !escaped => return true,
            '\\' => escaped = !escaped,
            _ => escaped = false,
        }
    }
    false
}

fn normalise_result(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ").to_ascii_uppercase()
}

/// The Result tag's text: the final scores in order of play, e.g. "R 7, Y 5, G 4, B 3".
pub fn result_text(game: &Game) -> String {
    game.outcome()
        .scores
        .iter()
        .map(|(c, s)| format!("{c} {s}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Writes a game as a record.
pub fn write(game: &Game) -> String {
    let site = game.site();
    let mut out = String::new();
    let _ = writeln!(out, "[Board \"{}\"]", site.board.name);
    if !site.board.is_builtin() {
        let file = escape_line(&site.board.to_toml());
        let _ = writeln!(out, "[BoardFile \"{file}\"]");
    }
    let _ = writeln!(out, "[Players \"{}\"]", site.players);
    let _ = writeln!(out, "[Variant \"{}\"]", site.variant);
    // Written only for the house rule: a record of the rulebooks' game reads as before.
    if site.stuck_rule != StuckRule::Out {
        let _ = writeln!(out, "[StuckRule \"{}\"]", site.stuck_rule);
    }
    let colours: Vec<String> = site.order.iter().map(|c| c.to_string()).collect();
    let _ = writeln!(out, "[Colors \"{}\"]", colours.join(" "));
    if site.variant == Variant::Ruinas {
        let ruins: Vec<String> = game.ruins().iter().map(|&m| site.notation(m)).collect();
        let _ = writeln!(out, "[Setup \"{}\"]", ruins.join(" "));
    }
    if game.is_over() {
        let _ = writeln!(out, "[Result \"{}\"]", result_text(game));
    }
    for (name, value) in &game.tags {
        let _ = writeln!(out, "[{name} \"{}\"]", value.replace('"', "'"));
    }
    out.push('\n');
    let mut line = String::new();
    let leaving = |k: usize| {
        game.retirements()
            .iter()
            .filter(move |r| r.after == k)
            .map(|r| match &r.reason {
                Some(why) => format!("{}:out {{{why}}}", r.colour),
                None => format!("{}:out", r.colour),
            })
    };
    let items = game
        .moves()
        .iter()
        .enumerate()
        .flat_map(|(i, &m)| leaving(i).chain(std::iter::once(format!("{}. {}", i + 1, site.notation(m)))))
        .chain(leaving(game.moves().len()));
    for item in items {
        if !line.is_empty() && line.len() + 1 + item.len() > 78 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&item);
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// Finds a built-in board by name, or says which exist.
pub fn builtin_board(name: &str) -> Result<Board, SetupError> {
    Board::builtin(name)
        .cloned()
        .ok_or_else(|| SetupError::UnknownBoard(name.to_string()))
}

/// Reads one record and replays it on the built-in boards.
pub fn read_game(text: &str) -> Result<Game, RecordError> {
    Record::parse(text)?.to_game(builtin_board)
}
