//! Positions, boards and scores as text.

use std::fmt::Write as _;

use rumis_core::{Board, Colour, Cube, Game, Site, StuckRule, Variant};

/// The scenarios as a table.
pub fn boards_table(boards: &[Board]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<11} {:>5} {:>8}  {:<10} {:<24} provenance",
        "board", "size", "columns", "Hmax 2/3/4", "frames"
    );
    for b in boards {
        let cols: Vec<String> = (2..=4).map(|p| b.column_count(p).to_string()).collect();
        let frames: Vec<String> = (2..=4)
            .filter_map(|p| b.frame(p).map(|f| format!("{p}p {f}")))
            .collect();
        let _ = writeln!(
            s,
            "{:<11} {:>5} {:>8}  {:<10} {:<24} {}",
            b.name,
            format!("{}x{}", b.files, b.ranks),
            cols.join("/"),
            format!("{}/{}/{}", b.hmax[0], b.hmax[1], b.hmax[2]),
            if frames.is_empty() {
                "-".to_string()
            } else {
                frames.join(", ")
            },
            b.provenance.as_str(),
        );
        if !b.aliases.is_empty() {
            let _ = writeln!(s, "{:<11} aliases: {}", "", b.aliases.join(", "));
        }
        if !b.source.is_empty() {
            let _ = writeln!(s, "{:<11} {}", "", b.source);
        }
        if b.evidence.is_empty() {
            let _ = writeln!(s, "{:<11} evidence: none found", "");
        }
        for e in &b.evidence {
            let _ = writeln!(s, "{:<11} evidence: {} [{}]", "", e.fact, e.source);
            if !e.constraints.is_empty() {
                // Every constraint was checked when the file was read (a board that
                // contradicts its evidence does not load), so each one holds here.
                let checks: Vec<String> = e.constraints.iter().map(|c| format!("{c} (holds)")).collect();
                let _ = writeln!(s, "{:<11}   checks: {}", "", checks.join("; "));
            }
        }
    }
    s.pop();
    s
}

fn grid(site: &Site, cell: impl Fn(usize) -> String) -> String {
    let files = site.board().files;
    let mut s = String::new();
    let _ = write!(s, "    ");
    for x in 0..files {
        let _ = write!(s, " {:<2}", (b'a' + x as u8) as char);
    }
    s.truncate(s.trim_end().len());
    s.push('\n');
    for y in (0..site.board().ranks).rev() {
        let _ = write!(s, "{:>3} ", y + 1);
        for x in 0..files {
            let _ = write!(s, " {:<2}", cell(x + y * files));
        }
        s.truncate(s.trim_end().len());
        s.push('\n');
    }
    s
}

/// The top view: height and top colour of each column ("3R"), "0" empty, blank off the
/// footprint; back rank first.
pub fn top_view(game: &Game) -> String {
    let (site, pos) = (game.site(), game.position());
    grid(site, |c| {
        if !site.is_buildable(c) {
            return String::new();
        }
        match pos.top(c) {
            Some(cube) => format!("{}{}", pos.height(c), cube.letter()),
            None => "0".into(),
        }
    })
}

fn header(game: &Game) -> String {
    let site = game.site();
    let order: Vec<String> = site.order().iter().map(|c| c.to_string()).collect();
    let state = match game.to_move() {
        Some(c) => format!("{} ({}) to move", c.name(), c),
        None => "game over".into(),
    };
    let mut s = format!(
        "{}, {} players, {} (order {}), {} placements played; {}",
        site.board().name,
        site.players(),
        site.variant(),
        order.join(" "),
        game.moves().len(),
        state
    );
    if site.stuck_rule() == StuckRule::Pass {
        s.push_str("\nhouse rule: a colour that cannot place passes");
    }
    if let Some(r) = site.ruin_colour() {
        let _ = write!(s, "\nruins ({} colour): {} stones", r.name(), game.ruins().len());
    }
    s
}

/// The whole position as text.
pub fn show(game: &Game) -> String {
    let (site, pos) = (game.site(), game.position());
    let mut s = header(game);
    s.push_str("\n\nHeight limits:\n");
    s.push_str(&grid(site, |c| {
        if site.is_buildable(c) {
            site.limits()[c].to_string()
        } else {
            String::new()
        }
    }));
    s.push_str("\nTop view (height and top colour):\n");
    s.push_str(&top_view(game));
    let top = site.footprint().map(|c| pos.height(c)).max().unwrap_or(0);
    for level in 1..=top {
        let _ = writeln!(s, "\nLevel {level}:");
        s.push_str(&grid(site, |c| {
            if !site.is_buildable(c) {
                String::new()
            } else {
                pos.cube(c, level)
                    .map(|k: Cube| k.letter().to_string())
                    .unwrap_or_else(|| ".".into())
            }
        }));
    }
    s.push_str("\nStones left:\n");
    for &c in site.order() {
        let left: Vec<&str> = pos.stones_left(c).iter().map(|s| s.code()).collect();
        let out = if pos.is_out(c) {
            " (out)"
        } else if site.stuck_rule() == StuckRule::Pass && game.to_move() != Some(c) && pos.count_moves_for(site, c) == 0
        {
            // No placement now: it passes unless one opens before its turn.
            " (stuck)"
        } else {
            ""
        };
        let _ = writeln!(
            s,
            "  {c}{out}: {}",
            if left.is_empty() {
                "none".to_string()
            } else {
                left.join(" ")
            }
        );
    }
    s.push_str("\nScores:\n");
    s.push_str(&score(game));
    s
}

fn colours(cs: &[Colour]) -> String {
    cs.iter().map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
}

/// One line per colour in order of play, a line per colour that forfeited, then the
/// winner once the game is over.
pub fn score(game: &Game) -> String {
    let site = game.site();
    let outcome = game.outcome();
    let mut lines: Vec<String> = outcome.scores.iter().map(|(c, v)| format!("{c} {v}")).collect();
    if site.variant() == Variant::TwoPlayerFourColors {
        for p in 0..2 {
            lines.push(format!(
                "player {} ({}) {}",
                p + 1,
                colours(&site.colours_of(p)),
                outcome.players[p]
            ));
        }
    }
    // Forfeits (rules §5.1): who left, when and why; they rank last whatever the scores.
    for r in game.retirements() {
        let why = r.reason.as_deref().unwrap_or("left");
        lines.push(format!("forfeited: {} ({why} after move {})", r.colour, r.after));
    }
    if game.is_over() {
        let winners: Vec<String> = match site.variant() {
            Variant::TwoPlayerFourColors => outcome.winners.iter().map(|p| format!("player{}", p + 1)).collect(),
            _ => outcome.winners.iter().map(|&p| site.order()[p].to_string()).collect(),
        };
        lines.push(format!("winner: {}", winners.join(" ")));
    }
    lines.join("\n")
}
