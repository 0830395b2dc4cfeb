//! `rumis engine`: a line-based text protocol on stdin/stdout in the spirit of GTP.
//! Documented in docs/engine-protocol.md. Every command answers `= <result>` or
//! `? <reason>` followed by an empty line; an error changes nothing.

use std::io::{BufRead, Write};
use std::sync::Arc;

use rumis_ai::{Player, PlayerSpec};
use rumis_core::{record, BoardSource, Colour, Game, GameSetup, Ruins, Site, StuckRule, Variant};

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
    let setup = GameSetup::new(BoardSource::Builtin("chullpa".into()), 2);
    setup
        .start_on(site(&setup).expect("a valid setup"))
        .expect("a valid setup")
}

/// The site for a setup, built once per thread and then shared: building one (its move
/// tables) costs far more than any command, and a conversation (or a fuzzer's millions of
/// them) starts games on the same few setups again and again. At most 16 are kept.
fn site(setup: &GameSetup) -> Result<Arc<Site>, String> {
    use std::cell::RefCell;
    use std::collections::HashMap;
    type Key = (BoardSource, usize, Variant, Option<Vec<Colour>>, StuckRule);
    thread_local! {
        static SITES: RefCell<HashMap<Key, Arc<Site>>> = RefCell::new(HashMap::new());
    }
    let key = (
        setup.board.clone(),
        setup.players,
        setup.variant,
        setup.colours.clone(),
        setup.stuck_rule,
    );
    if let Some(site) = SITES.with(|s| s.borrow().get(&key).cloned()) {
        return Ok(site);
    }
    let site = Arc::new(setup.site().map_err(|e| e.to_string())?);
    SITES.with(|s| {
        let mut sites = s.borrow_mut();
        if sites.len() >= 16 {
            sites.clear();
        }
        sites.insert(key, site.clone());
    });
    Ok(site)
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
                self.game = if site.variant() == Variant::Ruinas {
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
    // The core reads and checks the setup (its messages are every front end's).
    let mut setup = GameSetup::from_settings([("board", board), ("players", players)]).map_err(|e| e.to_string())?;
    for a in &args[2..] {
        if let Some(v) = Variant::from_name(a) {
            setup.variant = v;
            continue;
        }
        match a.split_once('=') {
            Some((key @ ("colors" | "ruins_seed" | "stuck_rule"), value)) => {
                setup.set(key, value).map_err(|e| e.to_string())?
            }
            _ => return Err(format!("'{a}' is not understood; {usage}")),
        }
    }
    // The protocol's default: a Ruinas game without a seed places its ruins from seed 0.
    if setup.variant == Variant::Ruinas && setup.ruins.is_none() {
        setup.ruins = Some(Ruins::Seed(0));
    }
    setup.start_on(site(&setup)?).map_err(|e| e.to_string())
}

/// Frames one answer: `={id} result` or `?{id} reason`, then an empty line. So that the
/// empty line ends an answer and nothing else, every line of a multi-line answer after
/// the first is dot-stuffed (as in SMTP): a line that is empty or begins with `.` gets
/// one `.` in front. A reader removes one leading `.` from each such line.
pub fn frame(status: char, id: &str, text: &str) -> String {
    let mut lines = text.split('\n');
    let first = lines.next().unwrap_or("");
    let mut out = String::with_capacity(text.len() + 8);
    out.push(status);
    out.push_str(id);
    if !first.is_empty() {
        out.push(' ');
        out.push_str(first);
    }
    for line in lines {
        out.push('\n');
        if line.is_empty() || line.starts_with('.') {
            out.push('.');
        }
        out.push_str(line);
    }
    out.push_str("\n\n");
    out
}

pub fn run() -> Result<(), String> {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    converse(stdin.lock(), &mut out).map_err(|e| format!("cannot talk: {e}"))
}

/// A whole conversation: commands from `input`, framed answers to `out`, until `quit` or
/// the end of the input.
pub fn converse(input: impl BufRead, out: &mut impl Write) -> std::io::Result<()> {
    let mut engine = Engine {
        game: default_game(),
        player: PlayerSpec::Level(5),
        threads: 1,
        seed: 1,
        moves_generated: 0,
    };
    for line in input.lines() {
        let line = line?;
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
            out.write_all(frame('?', id, "empty command").as_bytes())?;
            continue;
        };
        if name == "quit" {
            out.write_all(frame('=', id, "").as_bytes())?;
            break;
        }
        let reply = match engine.command(name, args) {
            Ok(answer) => frame('=', id, &answer),
            Err(reason) => frame('?', id, &reason),
        };
        out.write_all(reply.as_bytes())?;
        out.flush()?;
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small seeded generator (xorshift64*), so that a failing conversation can be
    /// replayed from its number.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
        fn pick<'a>(&mut self, list: &[&'a str]) -> &'a str {
            list[self.below(list.len())]
        }
    }

    /// One answer read back under the documented framing: status, id and unstuffed text.
    #[derive(Debug)]
    struct Answer {
        ok: bool,
        id: String,
        text: String,
    }

    /// Reads answers as docs/engine-protocol.md says a client must: lines up to an empty
    /// line; the first is `=`/`?`, the id, and a space before the first line of text; each
    /// later line loses one leading `.`.
    fn parse(out: &str) -> Result<Vec<Answer>, String> {
        let mut answers = Vec::new();
        let mut lines = out.split('\n');
        while let Some(first) = lines.next() {
            if first.is_empty() {
                // Only the end of the output may follow the last answer's empty line.
                return if lines.all(str::is_empty) {
                    Ok(answers)
                } else {
                    Err(format!("a stray empty line in {out:?}"))
                };
            }
            let ok = match first.as_bytes()[0] {
                b'=' => true,
                b'?' => false,
                _ => return Err(format!("an answer begins with {first:?}")),
            };
            let rest = &first[1..];
            let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
            let (id, after) = rest.split_at(digits);
            let mut text = match after {
                "" => String::new(),
                a if a.starts_with(' ') => a[1..].to_string(),
                a => return Err(format!("no space after the id in {a:?}")),
            };
            loop {
                match lines.next() {
                    None => return Err(format!("an answer without its empty line: {first:?}")),
                    Some("") => break,
                    Some(l) => {
                        text.push('\n');
                        text.push_str(l.strip_prefix('.').unwrap_or(l));
                    }
                }
            }
            answers.push(Answer {
                ok,
                id: id.to_string(),
                text,
            });
        }
        Ok(answers)
    }

    #[test]
    fn framing_stuffs_empty_and_dotted_lines_and_reads_back() {
        assert_eq!(frame('=', "3", ""), "=3\n\n");
        assert_eq!(frame('=', "", "a\n\n.b\nc"), "= a\n.\n..b\nc\n\n");
        let a = parse(&frame('?', "12", "x\n\n..y")).unwrap();
        assert_eq!(
            (a[0].ok, a[0].id.as_str(), a[0].text.as_str()),
            (false, "12", "x\n\n..y")
        );
    }

    /// The commands the random conversations draw from besides `new_game` and `genmove`:
    /// each command once, and malformed ones.
    const FIXED_COMMANDS: &[&str] = &[
        "showboard",
        "record",
        "legal_moves",
        "to_move",
        "final_score",
        "undo",
        "clear_board",
        "list_commands",
        "name",
        "version",
        "protocol_version",
        "known_command record",
        "known_command frob",
        "frobnicate",
        "play",
        "play R",
        "play L4@a1,a2,a3,b1",
        "play Y D2@c1,d1",
        "play .",
        "genmove",
        "genmove R",
        "set_level 1",
        "set_level 0",
        "set_seed 7",
        "set_threads 0",
        "new_game",
        "# a comment",
        "",
        "   ",
        ".",
    ];

    /// 1 500 random conversations: every command gets exactly one answer that parses under
    /// the documented framing, with its id; a `record` answer is a record the core reads
    /// back, and a `showboard` answer keeps its blank lines.
    #[test]
    fn random_conversations_parse_under_the_framing() {
        let boards = ["chullpa", "tambo", "coricancha", "nowhere"];
        let mut records = 0;
        let mut boards_shown = 0;
        for n in 0..1500u64 {
            let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ (n + 1));
            let mut input = String::from("set_level 1\n");
            let mut asked: Vec<(String, String)> = vec![(String::new(), "set_level".into())];
            for _ in 0..(5 + rng.below(20)) {
                let command = match rng.below(8) {
                    0 => format!(
                        "new_game {} {}{}",
                        rng.pick(&boards),
                        2 + rng.below(4),
                        rng.pick(&[
                            "",
                            " ruinas",
                            " two-player-four-colors",
                            " standard ruins_seed=3",
                            " colors=RY"
                        ])
                    ),
                    1..=3 => "genmove".to_string(),
                    _ => rng.pick(FIXED_COMMANDS).to_string(),
                };
                let id = if rng.below(3) == 0 {
                    format!("{} ", rng.below(1000))
                } else {
                    String::new()
                };
                input.push_str(&format!("{id}{command}\n"));
                let words: Vec<&str> = command.split('#').next().unwrap().split_whitespace().collect();
                if let Some(&name) = words.first() {
                    asked.push((id.trim().to_string(), name.to_string()));
                } else if !id.is_empty() {
                    asked.push((id.trim().to_string(), String::new()));
                }
            }
            if rng.below(2) == 0 {
                input.push_str("quit\n");
                asked.push((String::new(), "quit".into()));
            }
            let mut out = Vec::new();
            converse(input.as_bytes(), &mut out).unwrap();
            let out = String::from_utf8(out).unwrap();
            let answers = parse(&out).unwrap_or_else(|e| panic!("conversation {n}: {e}\n{input}"));
            assert_eq!(
                answers.len(),
                asked.len(),
                "conversation {n}: one answer a command\n{input}\n{out}"
            );
            for (a, (id, name)) in answers.iter().zip(&asked) {
                assert_eq!(&a.id, id, "conversation {n}: the id is echoed\n{out}");
                if !a.ok {
                    continue;
                }
                match name.as_str() {
                    "record" => {
                        let text = a.text.strip_prefix('\n').expect("a record starts on its own line");
                        record::read_game(text).unwrap_or_else(|e| panic!("conversation {n}: {e:?}\n{text}"));
                        if text.contains("1. ") {
                            assert!(text.contains("\n\n"), "a blank line between tags and moves");
                        }
                        records += 1;
                    }
                    "showboard" => {
                        assert!(a.text.starts_with('\n') && a.text.len() > 20, "{}", a.text);
                        boards_shown += 1;
                    }
                    _ => {}
                }
            }
        }
        assert!(
            records > 200 && boards_shown > 200,
            "{records} records, {boards_shown} boards"
        );
    }
}
