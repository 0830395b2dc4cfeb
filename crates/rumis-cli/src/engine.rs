//! `rumis engine`: a line-based text protocol on stdin/stdout in the spirit of GTP.
//! Documented in docs/engine-protocol.md. Every command answers `= <result>` or
//! `? <reason>` followed by an empty line; an error changes nothing.

use std::io::{BufRead, Write};
use std::sync::Arc;

use rumis_ai::{Player, PlayerSpec};
use rumis_core::{record, Colour, Game, Site, StuckRule, Variant};

use crate::text;

const COMMANDS: [&str; 19] = [
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "new_game",
    "clear_board",
    "play",
    "genmove",
    "undo",
    "showboard",
    "legal_moves",
    "to_move",
    "final_score",
    "record",
    "set_level",
    "set_threads",
    "set_seed",
    "quit",
];

struct Engine {
    game: Game,
    player: PlayerSpec,
    threads: usize,
    seed: u64,
    moves_generated: u64,
}

fn default_game() -> Game {
    let board = record::builtin_board("chullpa").expect("built-in");
    Game::new(Arc::new(
        Site::new(board, 2, Variant::Standard, None).expect("a valid setup"),
    ))
}

impl Engine {
    /// Runs one command; Ok(answer) or Err(reason). `quit` is handled by the caller.
    fn command(&mut self, name: &str, args: &[&str]) -> Result<String, String> {
        match name {
            "protocol_version" => Ok("1".into()),
            "name" => Ok("rumis".into()),
            "version" => Ok(env!("CARGO_PKG_VERSION").into()),
            "known_command" => Ok(COMMANDS.contains(&args.first().copied().unwrap_or("")).to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "new_game" => {
                self.game = new_game(args)?;
                Ok(String::new())
            }
            "clear_board" => {
                let site = self.game.site_arc().clone();
                self.game = if site.variant == Variant::Ruinas {
                    Game::with_ruins(site, self.game.ruins()).map_err(|e| e.1.to_string())?
                } else {
                    Game::new(site)
                };
                Ok(String::new())
            }
            "play" => {
                let text = match args {
                    [m] => *m,
                    [c, m] => {
                        self.check_colour(c)?;
                        *m
                    }
                    _ => return Err("usage: play [COLOUR] PLACEMENT".into()),
                };
                let m = self.game.play_text(text).map_err(|e| e.to_string())?;
                Ok(self.game.notation(m))
            }
            "genmove" => {
                match args {
                    [] => {}
                    [c] => self.check_colour(c)?,
                    _ => return Err("usage: genmove [COLOUR]".into()),
                }
                if self.game.is_over() {
                    return Err("the game is over".into());
                }
                self.moves_generated += 1;
                let mut p: Box<dyn Player> = self
                    .player
                    .build(self.seed.wrapping_add(self.moves_generated), self.threads);
                let m = p.choose(&self.game).ok_or("the game is over")?;
                self.game.play(m).map_err(|e| e.to_string())?;
                Ok(self.game.notation(m))
            }
            "undo" => self
                .game
                .undo()
                .map(|m| self.game.notation(m))
                .ok_or_else(|| "there is no move to undo".into()),
            "showboard" => Ok(format!("\n{}", text::show(&self.game))),
            "legal_moves" => Ok(self.game.legal_notations().join(" ")),
            "to_move" => Ok(self
                .game
                .to_move()
                .map(|c| c.to_string())
                .unwrap_or_else(|| "none".into())),
            "final_score" => {
                let score = text::score(&self.game);
                Ok(score.replace('\n', ", "))
            }
            "record" => Ok(format!("\n{}", record::write(&self.game).trim_end())),
            "set_level" => {
                let l = args.first().ok_or("usage: set_level 1..9")?;
                self.player = match PlayerSpec::parse(l)? {
                    PlayerSpec::Level(l) => PlayerSpec::Level(l),
                    _ => return Err(format!("'{l}' is not a level 1..9")),
                };
                Ok(String::new())
            }
            "set_threads" => {
                let n: usize = args
                    .first()
                    .and_then(|s| s.parse().ok())
                    .filter(|&n| (1..=256).contains(&n))
                    .ok_or("usage: set_threads N (1-256)")?;
                self.threads = n;
                Ok(String::new())
            }
            "set_seed" => {
                self.seed = args.first().and_then(|s| s.parse().ok()).ok_or("usage: set_seed N")?;
                self.moves_generated = 0;
                Ok(String::new())
            }
            _ => Err(format!("unknown command '{name}' (list_commands lists them)")),
        }
    }

    fn check_colour(&self, c: &str) -> Result<(), String> {
        let colour = Colour::from_word(c).ok_or_else(|| format!("'{c}' is not a colour (R, Y, G, B)"))?;
        match self.game.to_move() {
            Some(k) if k == colour => Ok(()),
            Some(k) => Err(format!("it is {}'s turn, not {}'s", k.name(), colour.name())),
            None => Err("the game is over".into()),
        }
    }
}

/// `new_game BOARD PLAYERS [VARIANT] [key=value ...]` with keys colors=RY, ruins_seed=S,
/// stuck_rule=out|pass.
fn new_game(args: &[&str]) -> Result<Game, String> {
    let usage = "usage: new_game BOARD PLAYERS [standard|two-player-four-colors|ruinas] [colors=RYGB] [ruins_seed=S] [stuck_rule=out|pass]";
    let (board, players) = match args {
        [b, p, ..] => (*b, *p),
        _ => return Err(usage.into()),
    };
    let board = record::builtin_board(board)?;
    let players: usize = players
        .parse()
        .map_err(|_| format!("'{players}' is not a number of players"))?;
    let mut variant = Variant::Standard;
    let mut colours = None;
    let mut ruins_seed = 0;
    let mut stuck_rule = StuckRule::Out;
    for a in &args[2..] {
        if let Some(v) = Variant::from_name(a) {
            variant = v;
        } else if let Some(c) = a.strip_prefix("colors=") {
            colours = Some(Colour::parse_list(c)?);
        } else if let Some(r) = a.strip_prefix("stuck_rule=") {
            stuck_rule =
                StuckRule::from_name(r).ok_or_else(|| format!("'{r}' is not a stuck-colour rule (out, pass)"))?;
        } else if let Some(s) = a.strip_prefix("ruins_seed=") {
            ruins_seed = s.parse().map_err(|_| format!("'{s}' is not a seed"))?;
        } else {
            return Err(format!("'{a}' is not understood; {usage}"));
        }
    }
    let site = Site::new(board, players, variant, colours).map_err(|e| e.to_string())?;
    let site = Arc::new(site.with_stuck_rule(stuck_rule));
    Ok(if variant == Variant::Ruinas {
        Game::with_random_ruins(site, ruins_seed)
    } else {
        Game::new(site)
    })
}

pub fn run() -> Result<(), String> {
    let mut engine = Engine {
        game: default_game(),
        player: PlayerSpec::Level(5),
        threads: 1,
        seed: 1,
        moves_generated: 0,
    };
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line.map_err(|e| format!("cannot read input: {e}"))?;
        // Comments and blank lines are ignored, as in GTP.
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let mut words: Vec<&str> = line.split_whitespace().collect();
        let id = if words[0].chars().all(|c| c.is_ascii_digit()) {
            Some(words.remove(0))
        } else {
            None
        };
        let id = id.unwrap_or("");
        let Some((&name, args)) = words.split_first() else {
            writeln!(out, "?{id} empty command\n").map_err(|e| e.to_string())?;
            continue;
        };
        if name == "quit" {
            writeln!(out, "={id}\n").map_err(|e| e.to_string())?;
            break;
        }
        let reply = match engine.command(name, args) {
            Ok(answer) if answer.is_empty() => format!("={id}\n"),
            Ok(answer) => format!("={id} {answer}\n"),
            Err(reason) => format!("?{id} {reason}\n"),
        };
        writeln!(out, "{reply}").map_err(|e| e.to_string())?;
        out.flush().map_err(|e| e.to_string())?;
    }
    Ok(())
}
