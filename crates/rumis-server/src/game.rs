//! A game as the rules see it: stored rows replayed by `rumis_core`, who holds which seat,
//! and a move judged and played with its acknowledgement and events. No SQL and no HTTP
//! here; the game service (`service.rs`) calls these inside its transactions.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use rumis_core::record::Record;
use rumis_core::{BoardSource, Colour, Game, GameSetup, MoveError, Outcome, Ruins, SetupError, Site, Variant};
use sha2::{Digest, Sha256};

use crate::clock::Clock;
use crate::error::{printable, printable_within, GameError};
use crate::events::Event;
use crate::store::{FromPosition, GameStatus, MoveRow, Progress, Seat, SeatKind, Setup, StoredGame};
use rumis_wire::{self as wire, GameEvent};

/// A game read from storage and replayed by the core.
pub struct Loaded {
    pub id: String,
    pub setup: Setup,
    pub seats: Vec<Seat>,
    pub moves: Vec<MoveRow>,
    pub game: Game,
    pub status: GameStatus,
    pub created: i64,
    pub updated: i64,
    /// The game's clock, if it has one.
    pub clock: Option<Clock>,
    pub creator: String,
    /// A game made from a position: where it began.
    pub from_position: Option<FromPosition>,
}

impl Loaded {
    /// The number of the moves the game was given at its creation (a game made from a
    /// position): the moves before it are nobody's here, and no undo takes them back.
    pub(crate) fn given_moves(&self) -> usize {
        self.from_position.as_ref().map_or(0, |f| f.moves.max(0) as usize)
    }

    /// The seat whose time runs now: a human seat to move in a game still played.
    pub(crate) fn clock_seat(&self) -> Option<usize> {
        if self.status != GameStatus::Open {
            return None;
        }
        self.seat_to_move()
            .filter(|s| s.kind == SeatKind::Human)
            .map(|s| s.seat)
    }

    /// The next move's number (1-based).
    pub fn move_number(&self) -> i64 {
        self.game.moves().len() as i64 + 1
    }

    pub fn seat_of(&self, colour: Colour) -> Option<&Seat> {
        self.seats.iter().find(|s| s.colours.contains(&colour))
    }

    /// The seat to move, if the game is not over.
    pub fn seat_to_move(&self) -> Option<&Seat> {
        self.seat_of(self.game.to_move()?)
    }

    /// The seats whose player walked away (left, or ran out of time under "the AI takes
    /// over"): the AI plays them on, and they have forfeited (rules §5.1). An AI seat that
    /// still holds a token's hash is one; a seat that was the AI's from the start never had
    /// one.
    pub(crate) fn walked_away(&self) -> Vec<usize> {
        self.seats
            .iter()
            .filter(|s| s.kind == SeatKind::Ai && !s.token_hash.is_empty())
            .map(|s| s.seat)
            .collect()
    }

    /// The result as the game page, the events and the ratings all state it: the core's
    /// outcome, the seats that walked away counted as forfeited (rules §5.1).
    pub(crate) fn outcome(&self) -> Outcome {
        self.game.outcome_with(&self.walked_away())
    }

    /// The people who play this game: one per token among its human seats (a hot-seat
    /// game's one token is one table), and one per human seat still waiting for a player.
    fn people(&self) -> usize {
        let mut tokens: Vec<&str> = Vec::new();
        let mut waiting = 0;
        for s in self.seats.iter().filter(|s| s.kind == SeatKind::Human) {
            if s.token_hash.is_empty() {
                waiting += 1;
            } else if !tokens.contains(&s.token_hash.as_str()) {
                tokens.push(&s.token_hash);
            }
        }
        tokens.len() + waiting
    }

    /// Fair play: a hint or an analysis of a game is refused, to its players and its
    /// spectators alike, while people play it against each other (more than one person),
    /// and allowed once it is over; a game against the AI alone keeps them.
    pub(crate) fn may_search(&self) -> Result<(), GameError> {
        let over = self.game.is_over() || self.status != GameStatus::Open;
        if !over && self.people() > 1 {
            return Err(GameError::FairPlay);
        }
        Ok(())
    }

    /// Whether a hint now assists a player: the game is still played (by one person
    /// against the AI, as [`Loaded::may_search`] allows).
    pub(crate) fn hint_assists(&self) -> bool {
        self.status == GameStatus::Open && !self.game.is_over()
    }

    pub fn has_human(&self) -> bool {
        self.seats.iter().any(|s| s.kind == SeatKind::Human)
    }

    /// Whether an AI seat is to move in a game still played.
    pub(crate) fn ai_to_move(&self) -> bool {
        self.status == GameStatus::Open && self.seat_to_move().is_some_and(|s| s.kind == SeatKind::Ai)
    }

    pub(crate) fn progress(&self) -> Progress {
        let over = self.game.is_over();
        Progress {
            status: if over { GameStatus::Finished } else { GameStatus::Open },
            to_move: self.game.to_move(),
            move_count: self.game.moves().len() as i64,
            ai_to_move: !over && self.seat_to_move().is_some_and(|s| s.kind == SeatKind::Ai),
        }
    }
}

pub(crate) fn random_hex(n: usize) -> Result<String, GameError> {
    let mut bytes = vec![0u8; n];
    getrandom::fill(&mut bytes).map_err(|e| GameError::internal(format!("no randomness: {e}")))?;
    Ok(hex(&bytes))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

pub fn hash_token(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Compares two hashes in time independent of where they differ.
fn same_hash(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A stored setup as the core's [`GameSetup`]: the board by name or its own file (read
/// again, so a restart rebuilds it from the stored text), and a Ruinas game's ruins as
/// the placements stored when it was created.
fn core_setup(setup: &Setup) -> GameSetup {
    let board = match &setup.board_file {
        Some(text) => BoardSource::File {
            name: crate::boards::INLINE_FILE.into(),
            text: text.clone(),
        },
        None => BoardSource::Builtin(setup.board.clone()),
    };
    GameSetup {
        board,
        players: setup.players,
        variant: setup.variant,
        colours: Some(setup.colours.clone()),
        ruins: (setup.variant == Variant::Ruinas || !setup.ruins.is_empty())
            .then(|| Ruins::Placements(setup.ruins.clone())),
        stuck_rule: setup.stuck_rule,
    }
}

/// The bytes of prepared sites kept ([`site_for`]): boards of one's own are any number,
/// and a large one is a few megabytes (400 distinct boards took the server from 28 to 614
/// MB when the cache counted entries).
pub const SITE_CACHE_BYTES: usize = 64 * 1024 * 1024;

/// Prepared sites, shared, keyed by the setup without its ruins (they are placed on the
/// site, not part of it).
#[derive(Default)]
struct Sites {
    map: HashMap<GameSetup, (Arc<Site>, usize, u64)>,
    /// The bytes of the sites in `map` (`Site::memory_bytes`).
    bytes: usize,
    /// A counter that orders uses: the least recently used site goes first.
    clock: u64,
}

impl Sites {
    fn get(&mut self, key: &GameSetup) -> Option<Arc<Site>> {
        self.clock += 1;
        let now = self.clock;
        self.map.get_mut(key).map(|(site, _, used)| {
            *used = now;
            site.clone()
        })
    }

    /// Keeps `site`, dropping the least recently used ones while over `budget` bytes
    /// (one site bigger than the budget is not kept).
    fn insert(&mut self, key: GameSetup, site: Arc<Site>, budget: usize) {
        let size = site.memory_bytes();
        if size > budget {
            return;
        }
        self.clock += 1;
        if let Some((_, old, _)) = self.map.insert(key, (site, size, self.clock)) {
            self.bytes -= old;
        }
        self.bytes += size;
        while self.bytes > budget {
            let Some(oldest) = self.map.iter().min_by_key(|(_, v)| v.2).map(|(k, _)| k.clone()) else {
                break;
            };
            if let Some((_, size, _)) = self.map.remove(&oldest) {
                self.bytes -= size;
            }
        }
    }
}

/// Prepared sites, shared: a site is immutable and costly to enumerate. At most
/// [`SITE_CACHE_BYTES`] of them are kept, the least recently used dropped first.
fn site_for(setup: &GameSetup) -> Result<Arc<Site>, SetupError> {
    static SITES: OnceLock<Mutex<Sites>> = OnceLock::new();
    let key = GameSetup {
        ruins: None,
        ..setup.clone()
    };
    let sites = SITES.get_or_init(Default::default);
    if let Some(s) = sites.lock().unwrap_or_else(|e| e.into_inner()).get(&key) {
        return Ok(s);
    }
    let site = Arc::new(setup.site()?);
    sites
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key, site.clone(), SITE_CACHE_BYTES);
    Ok(site)
}

/// The game before its first move.
pub fn start_game(setup: &Setup) -> Result<Game, SetupError> {
    let setup = core_setup(setup);
    setup.start_on(site_for(&setup)?)
}

/// A new game's setup as a client asked for it: the request's words, not yet checked.
#[derive(Clone, Copy, Debug, Default)]
pub struct AskedSetup<'a> {
    /// A scenario by name; beside `board_file`, that board's own name.
    pub board: Option<&'a str>,
    /// A board of one's own: its file's text.
    pub board_file: Option<&'a str>,
    pub players: usize,
    pub variant: Option<&'a str>,
    /// The order of play, a colour per word.
    pub colours: Option<&'a [String]>,
    /// Ruinas: the seed its ruins are placed from (at random without one).
    pub ruins_seed: Option<u64>,
    /// Ruinas: the ruins as placements, in the order they are placed (instead of a seed).
    pub ruins: Option<&'a [String]>,
    pub stuck_rule: Option<&'a str>,
    pub hot_seat: bool,
}

/// Checks a new game's setup by the core ([`GameSetup`]: its checks, its errors) and
/// settles what chance decides (a Ruinas game's ruins): the setup to store.
pub fn new_setup(asked: &AskedSetup) -> Result<Setup, GameError> {
    let board = match (asked.board, asked.board_file) {
        (_, Some(text)) => BoardSource::File {
            name: crate::boards::INLINE_FILE.into(),
            text: text.to_string(),
        },
        (Some(name), None) => BoardSource::Builtin(name.to_string()),
        (None, None) => {
            return Err(GameError::BadSetup(
                "say which board: board (a scenario's name) or board_file (a board file's text)".into(),
            ))
        }
    };
    let mut setup = GameSetup::new(board, asked.players);
    setup.set_given([("stuck_rule", asked.stuck_rule), ("variant", asked.variant)])?;
    if let Some(words) = asked.colours {
        // One colour per word of the list (a word is never split into letters here).
        setup.colours = Some(
            words
                .iter()
                .map(|w| Colour::from_word(w).ok_or_else(|| SetupError::NotAColour(w.clone())))
                .collect::<Result<_, _>>()?,
        );
    }
    setup.ruins = match (asked.ruins, asked.ruins_seed) {
        (Some(_), Some(_)) => {
            return Err(GameError::BadSetup(
                "give ruins (their placements) or ruins_seed, not both".into(),
            ))
        }
        // The core places them and says why one does not fit (or that the variant has none).
        (Some(list), None) => Some(Ruins::Placements(list.to_vec())),
        (None, Some(seed)) => Some(Ruins::Seed(seed)),
        (None, None) if setup.variant == Variant::Ruinas => Some(Ruins::Seed(
            getrandom::u64().map_err(|e| GameError::internal(format!("no randomness: {e}")))?,
        )),
        (None, None) => None,
    };
    let site = site_for(&setup)?;
    if let (Some(name), Some(_)) = (asked.board, asked.board_file) {
        if !site.board().is_called(name) {
            return Err(GameError::BadSetup(format!(
                "board is '{}' but the board file describes '{}'; give one of them",
                printable(name),
                printable(&site.board().name)
            )));
        }
    }
    let game = setup.start_on(site.clone())?;
    Ok(Setup {
        board: site.board().name.clone(),
        players: asked.players,
        variant: setup.variant,
        colours: site.order().to_vec(),
        ruins: game.ruins().iter().map(|&m| game.notation(m)).collect(),
        hot_seat: asked.hot_seat,
        board_file: asked.board_file.map(String::from),
        stuck_rule: setup.stuck_rule,
    })
}

/// Plays a position's moves on a game just set up: `text` is written as a record's moves
/// (rules §7: placements and colours leaving, move numbers and comments optional), and the
/// core reads and judges each in turn ([`Record::play_moves`]). The first one refused is
/// the error, with its number; a text that is no record's moves at all is malformed.
pub(crate) fn play_given(game: &mut Game, text: &str) -> Result<(), GameError> {
    if text.trim().is_empty() {
        return Ok(());
    }
    let record = Record::parse(text).map_err(|e| GameError::MalformedMove(format!("moves: {}", e.message)))?;
    if !record.tags.is_empty() {
        return Err(GameError::MalformedMove(
            "moves: give the moves of a record without its tags; the setup is the request's own \
             fields (board, players, variant, ...)"
                .into(),
        ));
    }
    record.play_moves(game).map_err(|e| match e.move_number {
        Some(n) => GameError::RefusedMove {
            move_number: n as i64,
            reason: format!("moves: move {n}: {}", printable_within(&e.message, 300)),
        },
        None => GameError::MalformedMove(format!("moves: {}", printable_within(&e.message, 300))),
    })
}

/// Checks that `game` is `source`'s position after as many moves (the game `id` it is said
/// to come from): the same setup — board, players, variant, order of play, ruins,
/// stuck-colour rule —, the same placements, and the same colours left at the same points.
pub(crate) fn same_start(source: &Game, id: &str, game: &Game) -> Result<(), GameError> {
    let (a, b) = (source.site(), game.site());
    let refused = |why: String| Err(GameError::BadSetup(format!("from_game: {why}")));
    if a.board() != b.board()
        || a.players() != b.players()
        || a.variant() != b.variant()
        || a.order() != b.order()
        || a.stuck_rule() != b.stuck_rule()
    {
        return refused(format!(
            "game {id} is set up otherwise (its board, players, variant, order of play or stuck-colour \
             rule); give its setup"
        ));
    }
    let notation = |g: &Game, list: &[rumis_core::Move]| list.iter().map(|&m| g.notation(m)).collect::<Vec<_>>();
    if notation(source, source.ruins()) != notation(game, game.ruins()) {
        return refused(format!("game {id} has other ruins"));
    }
    let n = game.moves().len();
    if source.moves().len() < n {
        return refused(format!("game {id} has {} moves, not {n}", source.moves().len()));
    }
    let there = source.after(n);
    let (theirs, ours) = (notation(&there, there.moves()), notation(game, game.moves()));
    if let Some(i) = (0..n).find(|&i| theirs[i] != ours[i]) {
        return refused(format!(
            "move {} of game {id} is {}, not {}",
            i + 1,
            theirs[i],
            printable(&ours[i])
        ));
    }
    let left = |g: &Game| g.retirements().iter().map(|r| (r.after, r.colour)).collect::<Vec<_>>();
    if left(&there) != left(game) {
        return refused(format!("in game {id} other colours had left the game by move {n}"));
    }
    Ok(())
}

/// Replays stored rows with the core.
pub(crate) fn replay(s: StoredGame) -> Result<Loaded, GameError> {
    let id = s.id;
    let mut game = start_game(&s.setup).map_err(|e| GameError::internal(format!("stored game {id}: {e}")))?;
    // Colours leave at their point among the moves: before move `after_move + 1`.
    let mut leavings = s.retirements.iter().peekable();
    let mut leave_until = |game: &mut Game, played: i64| -> Result<(), GameError> {
        while let Some(r) = leavings.next_if(|r| r.after_move <= played) {
            game.retire(r.colour, Some(&r.reason)).map_err(|e| {
                GameError::internal(format!(
                    "stored game {id}: {} leaving after move {}: {e}",
                    r.colour, r.after_move
                ))
            })?;
        }
        Ok(())
    };
    let mut moves = s.moves;
    for (i, m) in moves.iter().enumerate() {
        leave_until(&mut game, i as i64)?;
        // A game stored before forfeits ended it (rules §5.1) may go on after a two-player
        // resignation: it reads as it ends now, at the forfeit, rather than not at all.
        if game.is_over() && !game.retirements().is_empty() {
            tracing::warn!(game = %id, "moves after the game ended by a forfeit are not replayed (from {})", m.number);
            moves.truncate(i);
            break;
        }
        if m.number != i as i64 + 1 {
            return Err(GameError::internal(format!(
                "stored game {id}: move {} is missing",
                i + 1
            )));
        }
        game.play_text(&m.placement).map_err(|e| {
            GameError::internal(format!(
                "stored game {id}: move {} '{}' does not replay: {e}",
                m.number, m.placement
            ))
        })?;
    }
    leave_until(&mut game, i64::MAX)?;
    Ok(Loaded {
        id,
        setup: s.setup,
        seats: s.seats,
        moves,
        game,
        status: s.status,
        created: s.created,
        updated: s.updated,
        clock: s.clock,
        creator: s.creator,
        from_position: s.from_position,
    })
}

/// The seats a token holds.
pub(crate) fn authorise(loaded: &Loaded, token: Option<&str>) -> Result<Vec<usize>, GameError> {
    let token = token.ok_or(GameError::MissingToken)?;
    let hash = hash_token(token);
    let held: Vec<usize> = loaded
        .seats
        .iter()
        .filter(|s| s.kind == SeatKind::Human && same_hash(&s.token_hash, &hash))
        .map(|s| s.seat)
        .collect();
    if held.is_empty() {
        return Err(GameError::WrongToken);
    }
    Ok(held)
}

/// Plays `text` for the colour to move (checked by the core); the acknowledgement, and the
/// events it makes.
/// `walked_away`: the seats counted as forfeited in the result ([`Loaded::walked_away`]).
pub(crate) fn play(
    game: &mut Game,
    id: &str,
    text: &str,
    by: SeatKind,
    walked_away: &[usize],
) -> Result<(wire::MoveAck, Vec<Event>), GameError> {
    let number = game.moves().len() as i64 + 1;
    let colour = game.to_move().ok_or(GameError::GameOver)?;
    let order = game.site().order().to_vec();
    let out_before: Vec<Colour> = order.iter().copied().filter(|&c| game.position().is_out(c)).collect();
    let m = game.play_text(text).map_err(|e| match e {
        MoveError::Syntax(s) => GameError::MalformedMove(s),
        MoveError::Illegal(i) => GameError::IllegalMove(format!("{}: {i}", printable(text))),
    })?;
    let placement = game.notation(m);
    let newly_out: Vec<Colour> = order
        .iter()
        .copied()
        .filter(|&c| game.position().is_out(c) && !out_before.contains(&c))
        .collect();
    let passed: Vec<String> = passed_after(game, number as usize - 1)
        .iter()
        .map(|c| c.to_string())
        .collect();
    let to_move = game.to_move().map(|c| c.to_string());
    let ack = wire::MoveAck {
        number,
        colour: colour.to_string(),
        placement: placement.clone(),
        move_number: number + 1,
        to_move: to_move.clone(),
        out: newly_out.iter().map(|c| c.to_string()).collect(),
        passed: passed.clone(),
        over: game.is_over(),
    };
    let mut events = vec![event(
        id,
        Some(number),
        GameEvent::Move {
            game: id.into(),
            number,
            colour: colour.to_string(),
            placement,
            by: by.name().into(),
            move_number: number + 1,
            to_move,
            passed,
        },
    )];
    for c in &newly_out {
        events.push(event(
            id,
            Some(number),
            GameEvent::Out {
                game: id.into(),
                colour: c.to_string(),
                after_move: number,
            },
        ));
    }
    if game.is_over() {
        let outcome = game.outcome_with(walked_away);
        events.push(event(id, Some(number), wire::game::game_over(id, number, outcome)));
    }
    Ok((ack, events))
}

pub use rumis_wire::game::passed_after;

pub(crate) fn event(game: &str, after_move: Option<i64>, body: GameEvent) -> Event {
    Event::new(game, after_move, body)
}

/// The acknowledgement of move `number` if `text` is that very move, made by a seat in
/// `held`: a client that did not see the answer to its move sends it again.
pub(crate) fn repeated(loaded: &Loaded, held: &[usize], number: i64, text: &str) -> Option<wire::MoveAck> {
    let index = usize::try_from(number - 1).ok()?;
    let stored = loaded.moves.get(index)?;
    let mut game = loaded.game.clone();
    while game.moves().len() > index {
        game.undo();
    }
    let seat = loaded.seat_of(game.to_move()?)?;
    if !held.contains(&seat.seat) {
        return None;
    }
    let (ack, _) = play(&mut game, &loaded.id, text, seat.kind, &loaded.walked_away()).ok()?;
    (ack.placement == stored.placement).then_some(ack)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(board: &str, players: usize) -> GameSetup {
        GameSetup {
            board: BoardSource::Builtin(board.into()),
            players,
            variant: Variant::Standard,
            colours: None,
            ruins: None,
            stuck_rule: Default::default(),
        }
    }

    /// The cache of sites stays within its bytes, dropping the least recently used.
    #[test]
    fn the_site_cache_keeps_to_its_bytes_least_recently_used_first() {
        let keys = [
            setup("chullpa", 2),
            setup("chullpa", 3),
            setup("pisac", 2),
            setup("tambo", 4),
        ];
        let sites: Vec<Arc<Site>> = keys.iter().map(|k| Arc::new(k.site().unwrap())).collect();
        let sizes: Vec<usize> = sites.iter().map(|s| s.memory_bytes()).collect();
        assert!(sizes.iter().all(|&b| b > 10_000), "{sizes:?}");
        // Room for the first two and not a third.
        let budget = sizes[0] + sizes[1] + sizes[2].min(sizes[3]) - 1;
        let mut cache = Sites::default();
        cache.insert(keys[0].clone(), sites[0].clone(), budget);
        cache.insert(keys[1].clone(), sites[1].clone(), budget);
        assert_eq!(cache.bytes, sizes[0] + sizes[1]);
        // The first is used again: the second is the least recently used.
        assert!(cache.get(&keys[0]).is_some());
        cache.insert(keys[2].clone(), sites[2].clone(), budget);
        assert!(cache.bytes <= budget, "{} > {budget}", cache.bytes);
        assert!(cache.get(&keys[1]).is_none(), "the least recently used went");
        assert!(cache.get(&keys[0]).is_some());
        assert_eq!(cache.bytes, cache.map.values().map(|v| v.1).sum::<usize>());
        // A site bigger than the whole budget is not kept.
        let mut small = Sites::default();
        small.insert(keys[3].clone(), sites[3].clone(), sizes[3] - 1);
        assert_eq!((small.map.len(), small.bytes), (0, 0));
    }

    /// A game stored before forfeits ended games (rules §5.1), where Yellow resigned after
    /// move 3 and Red moved on alone, still reads: as it ends now, at the resignation.
    #[test]
    fn a_game_stored_on_after_a_resignation_reads_to_the_forfeit() {
        use crate::store::{MoveRow, RetireRow, StoredGame};
        let setup = Setup {
            board: "Chullpa".into(),
            players: 2,
            variant: Variant::Standard,
            colours: vec![Colour::Red, Colour::Yellow],
            ruins: Vec::new(),
            hot_seat: true,
            board_file: None,
            stuck_rule: Default::default(),
        };
        let mut game = start_game(&setup).unwrap();
        let mut texts = Vec::new();
        for _ in 0..3 {
            let m = game.legal_moves()[0];
            texts.push(game.notation(m));
            game.play(m).unwrap();
        }
        // The old rule: Yellow out, Red plays on.
        let mut old = game.clone();
        let red = old.legal_moves()[0];
        let _ = old.play(red);
        texts.push(old.notation(red));
        let stored = StoredGame {
            id: "0123456789abcdef".into(),
            setup,
            seats: Vec::new(),
            moves: texts
                .iter()
                .enumerate()
                .map(|(i, t)| MoveRow {
                    number: i as i64 + 1,
                    placement: t.clone(),
                    created: 0,
                })
                .collect(),
            status: GameStatus::Finished,
            created: 0,
            updated: 0,
            clock: None,
            from_position: None,
            called_off: None,
            retirements: vec![RetireRow {
                after_move: 3,
                colour: Colour::Yellow,
                reason: "resigned".into(),
            }],
            creator: String::new(),
        };
        let loaded = replay(stored).unwrap();
        assert_eq!(loaded.game.moves().len(), 3);
        assert_eq!(loaded.moves.len(), 3);
        assert!(loaded.game.is_over());
        assert_eq!(loaded.game.outcome().winners, vec![0]);
    }
}
