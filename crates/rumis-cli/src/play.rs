//! `rumis play`: a game in the terminal, hot-seat or against the AI (`--vs level:5`). The
//! rules are the core's (placements read and checked by `Game::play_text`); the AI is
//! `rumis-ai`'s player of the spec given, as in `rumis match`.

use std::io::{BufRead, Write};

use clap::Args;
use rumis_ai::{Player, PlayerSpec};
use rumis_core::{Colour, Game, Stone};

use crate::source::Source;
use crate::text;

#[derive(Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub source: Source,
    /// Play against the AI: every seat but yours (`--seat`) is this player: `level:1` to
    /// `level:9`, `greedy`, `random` or `mcts:SIMS`. Without it every seat is typed in
    /// (hot-seat).
    #[arg(long, value_name = "PLAYER")]
    pub vs: Option<String>,
    /// Your seat (1 = the first player), with `--vs`; give it again for more people at the
    /// keyboard (`--seat 1 --seat 3`). In two-player four-colour a seat plays two colours.
    #[arg(long = "seat", value_name = "N", requires = "vs")]
    pub seats: Vec<usize>,
    /// Seed of the AI's choices (the same seed and moves give the same game).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Threads of the AI's search.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

const HELP: &str = "\
Commands:
  a placement      e.g. L4@a1,a2,a3,b1 (stone@cells; cells a1x2 = a1 twice, on top)
  moves [STONE]    the legal placements (of one stone, e.g. `moves L4`), in columns
  stones           the stones' shapes, and which the colour to move still has
  show             the whole position; `record` the game's record so far
  undo             take back the last placement (against the AI: back to your turn)
  help             this list;  quit  end the game";

/// A seat's AI: its name (the spec) and the player.
type Ai = (String, Box<dyn Player>);

/// Who plays each seat: `None` for people at the keyboard.
fn seat_players(game: &Game, args: &PlayArgs) -> Result<Vec<Option<Ai>>, String> {
    let players = game.site().players();
    let Some(vs) = &args.vs else {
        return Ok((0..players).map(|_| None).collect());
    };
    let spec = PlayerSpec::parse(vs)?;
    let humans = if args.seats.is_empty() {
        vec![1]
    } else {
        args.seats.clone()
    };
    if let Some(bad) = humans.iter().find(|&&s| s == 0 || s > players) {
        return Err(format!("--seat {bad}: this game has seats 1 to {players}"));
    }
    if !(1..=256).contains(&args.threads) {
        return Err(format!("--threads {} must be 1 to 256", args.threads));
    }
    Ok((0..players)
        .map(|p| {
            (!humans.contains(&(p + 1))).then(|| {
                (
                    spec.to_string(),
                    spec.build(args.seed.wrapping_add(p as u64), args.threads),
                )
            })
        })
        .collect())
}

/// The game, played to its end (or until `quit` or the end of the input).
pub fn run(args: &PlayArgs) -> Result<(), String> {
    let mut game = args.source.game()?;
    let mut seats = seat_players(&game, args)?;
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    println!("{}", text::show(&game));
    for (p, seat) in seats.iter().enumerate() {
        let colours: Vec<&str> = game.site().colours_of(p).iter().map(|c| c.name()).collect();
        let who = seat
            .as_ref()
            .map_or("you play".to_string(), |(name, _)| format!("the AI ({name}) plays"));
        println!("seat {}: {} {}", p + 1, who, colours.join(" and "));
    }
    println!("Type a placement (e.g. L4@a1,a2,a3,b1) or `help`.");
    loop {
        let Some(colour) = game.to_move() else {
            println!("{}", text::score(&game));
            println!("{}", rumis_core::record::write(&game));
            return Ok(());
        };
        let seat = game.site().player_of(colour).unwrap_or(0);
        if let Some((name, player)) = seats.get_mut(seat).and_then(Option::as_mut) {
            let m = player
                .choose(&game)
                .ok_or("the AI found no placement in a game that is not over")?;
            game.play(m)
                .map_err(|e| format!("the AI chose an illegal placement: {e}"))?;
            println!(
                "{} (AI {name}) plays {}\n{}",
                colour.name(),
                game.notation(m),
                text::top_view(&game)
            );
            continue;
        }
        print!("{} to move> ", colour.name());
        let _ = std::io::stdout().flush();
        let Some(line) = lines.next() else {
            println!();
            return Ok(());
        };
        let line = line.map_err(|e| format!("cannot read input: {e}"))?;
        let (command, rest) = line.trim().split_once(' ').unwrap_or((line.trim(), ""));
        match command {
            "" => {}
            "quit" | "q" => return Ok(()),
            "help" | "?" => println!("{HELP}"),
            "moves" => println!("{}", moves(&game, rest.trim())?),
            "stones" => println!("{}", stones(&game, colour)),
            "show" => println!("{}", text::show(&game)),
            "record" => println!("{}", rumis_core::record::write(&game)),
            "undo" => undo(&mut game, &seats),
            _ => match game.play_text(line.trim()) {
                Ok(m) => println!(
                    "{} plays {}\n{}",
                    colour.name(),
                    game.notation(m),
                    text::top_view(&game)
                ),
                Err(e) => println!("? {e} (type `help` for the commands)"),
            },
        }
    }
}

/// Takes back placements until a person is to move again (against the AI, the AI's replies
/// go with yours); says what went.
fn undo(game: &mut Game, seats: &[Option<Ai>]) {
    let human = |g: &Game| {
        g.to_move()
            .and_then(|c| g.site().player_of(c))
            .is_some_and(|p| seats.get(p).is_some_and(Option::is_none))
    };
    let mut taken = Vec::new();
    while let Some(m) = game.undo() {
        taken.push(game.notation(m));
        if human(game) {
            break;
        }
    }
    if taken.is_empty() {
        println!("nothing to undo");
    } else {
        println!("took back {}", taken.join(", "));
    }
}

/// The legal placements, of one stone if asked, in columns of equal width.
fn moves(game: &Game, stone: &str) -> Result<String, String> {
    let all = game.legal_notations();
    let list: Vec<&String> = if stone.is_empty() {
        all.iter().collect()
    } else {
        let Some(s) = Stone::from_code(&stone.to_ascii_uppercase()) else {
            return Ok(format!(
                "? no stone '{stone}' (the stones: {})",
                Stone::ALL.map(Stone::code).join(" ")
            ));
        };
        all.iter().filter(|n| n.split('@').next() == Some(s.code())).collect()
    };
    if list.is_empty() {
        return Ok("no legal placement".into());
    }
    let width = list.iter().map(|n| n.len()).max().unwrap_or(0) + 2;
    let per_line = (100 / width).max(1);
    let mut out = format!(
        "{} legal placement{}:\n",
        list.len(),
        if list.len() == 1 { "" } else { "s" }
    );
    for row in list.chunks(per_line) {
        let line: String = row.iter().map(|n| format!("{n:<width$}")).collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out.pop();
    Ok(out)
}

/// Each stone drawn level by level from above (`#` a cube), with its size, and whether the
/// colour to move still has it.
pub fn stones(game: &Game, colour: Colour) -> String {
    let left = game.position().stones_left(colour);
    let mut out = format!(
        "{}'s stones (level 1 is the lowest; * = still to place):\n",
        colour.name()
    );
    for stone in Stone::ALL {
        let mark = if left.contains(&stone) { "*" } else { " " };
        out.push_str(&format!("{mark}{} ({} cubes)\n", stone.code(), stone.size()));
        for line in picture(stone) {
            out.push_str(&format!("    {line}\n"));
        }
    }
    out.pop();
    out
}

/// A stone's levels side by side, each a grid seen from above.
fn picture(stone: Stone) -> Vec<String> {
    let cells = stone.cells();
    let lo = |f: fn(&(i8, i8, i8)) -> i8| cells.iter().map(f).min().unwrap_or(0);
    let hi = |f: fn(&(i8, i8, i8)) -> i8| cells.iter().map(f).max().unwrap_or(0);
    let (x0, x1, y0, y1, z0, z1) = (
        lo(|c| c.0),
        hi(|c| c.0),
        lo(|c| c.1),
        hi(|c| c.1),
        lo(|c| c.2),
        hi(|c| c.2),
    );
    let width = (x1 - x0 + 1) as usize;
    let mut rows = vec![String::new(); (y1 - y0 + 2) as usize];
    for z in z0..=z1 {
        let label = format!("level {}", z - z0 + 1);
        let column = width.max(label.len()) + 3;
        rows[0].push_str(&format!("{label:<column$}"));
        // The far rank on top, as the board is drawn.
        for (i, y) in (y0..=y1).rev().enumerate() {
            let line: String = (x0..=x1)
                .map(|x| if cells.contains(&(x, y, z)) { '#' } else { '.' })
                .collect();
            rows[i + 1].push_str(&format!("{line:<column$}"));
        }
    }
    rows.into_iter().map(|r| r.trim_end().to_string()).collect()
}
