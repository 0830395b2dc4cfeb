//! The game's puzzles (issue #53), called "training" in the API (`/api/v1/puzzles` is the
//! cube solitaire's): the puzzles shipped in `puzzles/` (built into the server), the daily
//! puzzle, the next puzzle for a player, and attempts judged and rated.
//!
//! - **The puzzles** are read once at start from the files built in; their ratings move in
//!   the database (store/training.rs), from the files' starting values.
//! - **The daily puzzle** is chosen from the UTC day of the server's time (time.rs), by
//!   `rumis_ai::puzzles::pick::daily`: the same for everyone that day.
//! - **The next puzzle**: one near the player's puzzle rating that they have not tried
//!   (`pick::next`), as a scenario, a player count or a theme filter it.
//! - **An attempt** is judged by `rumis_ai::puzzles::judge` on a thread of the AI's
//!   scheduler (`queue.rs`), under the asker's address like a hint (the endgame solver
//!   values a wrong answer: milliseconds; a searched puzzle's takes two searches).
//!   With a player's key, their first attempt at a puzzle is rated (Glicko-2, both the
//!   player's and the puzzle's rating: `rumis_ai::puzzles::rating`), in one write; later
//!   attempts are judged and counted, not rated. Without a key an attempt is judged only.

use std::collections::HashMap;
use std::sync::Arc;

use rumis_ai::puzzles::judge::{judge, AttemptError, Judgement};
use rumis_ai::puzzles::pick::{self, Candidate, Filter};
use rumis_ai::puzzles::rating::Rating;
use rumis_ai::puzzles::{Puzzle, PuzzleSet, Theme};
use rumis_core::Site;
use rumis_wire as wire;

use super::Games;
use crate::error::GameError;
use crate::game::random_hex;
use crate::store::{FirstAttempt, PlayerRow, Rated, Store, TrainingRatingRow};

/// The shipped puzzle files, one per scenario and player count (docs/puzzles.md).
const FILES: &[&str] = &[
    include_str!("../../../../puzzles/chullpa-2.json"),
    include_str!("../../../../puzzles/chullpa-3.json"),
    include_str!("../../../../puzzles/chullpa-4.json"),
    include_str!("../../../../puzzles/coricancha-2.json"),
    include_str!("../../../../puzzles/coricancha-3.json"),
    include_str!("../../../../puzzles/coricancha-4.json"),
    include_str!("../../../../puzzles/cucho-2.json"),
    include_str!("../../../../puzzles/cucho-3.json"),
    include_str!("../../../../puzzles/cucho-4.json"),
    include_str!("../../../../puzzles/pirka-2.json"),
    include_str!("../../../../puzzles/pirka-3.json"),
    include_str!("../../../../puzzles/pirka-4.json"),
    include_str!("../../../../puzzles/pisac-2.json"),
    include_str!("../../../../puzzles/pisac-3.json"),
    include_str!("../../../../puzzles/pisac-4.json"),
    include_str!("../../../../puzzles/tambo-2.json"),
    include_str!("../../../../puzzles/tambo-3.json"),
    include_str!("../../../../puzzles/tambo-4.json"),
];

/// How long an attempt waits for a thread of the AI's scheduler before `503 busy`.
const JUDGE_WAIT: std::time::Duration = std::time::Duration::from_secs(30);

/// The puzzles, by id, each with its site.
pub struct Catalogue {
    puzzles: HashMap<String, (Arc<Site>, Puzzle)>,
    /// Every puzzle as it is chosen, with its file's rating.
    candidates: Vec<Candidate>,
}

impl Catalogue {
    /// The puzzles of the files built in: read once per process (a megabyte of JSON and
    /// eighteen sites), shared by every server it starts.
    pub fn built_in() -> Result<Arc<Catalogue>, String> {
        static BUILT_IN: std::sync::LazyLock<Result<Arc<Catalogue>, String>> = std::sync::LazyLock::new(|| {
            let sets = FILES
                .iter()
                .map(|text| PuzzleSet::from_json(text))
                .collect::<Result<Vec<_>, _>>()?;
            Catalogue::of(sets).map(Arc::new)
        });
        BUILT_IN.clone()
    }

    pub fn of(sets: Vec<PuzzleSet>) -> Result<Catalogue, String> {
        let mut puzzles = HashMap::new();
        let mut candidates = Vec::new();
        for set in sets {
            let site = set.site()?;
            for p in set.puzzles {
                candidates.push(Candidate {
                    id: p.id.clone(),
                    board: set.board.clone(),
                    players: set.players,
                    rating: p.rating,
                    themes: p.themes.clone(),
                });
                puzzles.insert(p.id.clone(), (site.clone(), p));
            }
        }
        Ok(Catalogue { puzzles, candidates })
    }
}

/// A player's rating as the rating module takes it, from its row (a new player's without).
fn rating_of(row: Option<TrainingRatingRow>, start: Rating) -> Rating {
    row.map_or(start, |r| Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    })
}

fn row_of(r: Rating, attempts: i64) -> TrainingRatingRow {
    TrainingRatingRow {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
        attempts,
    }
}

/// A puzzle's file rating, as the rating module takes it.
fn start_of(p: &Puzzle) -> Rating {
    Rating {
        rating: p.rating,
        deviation: p.deviation,
        volatility: p.volatility,
    }
}

/// The filter of `GET /training/next`, read from its query's words.
pub fn filter(scenario: Option<&str>, players: Option<usize>, theme: Option<&str>) -> Result<Filter, GameError> {
    let scenario = match scenario.filter(|s| !s.is_empty()) {
        Some(s) if rumis_core::record::builtin_board(s).is_ok() => Some(s.to_string()),
        Some(s) => {
            return Err(GameError::BadFilter(format!(
                "unknown scenario '{}'; the scenarios are {}",
                crate::error::printable(s),
                rumis_core::Board::builtin_names()
            )))
        }
        None => None,
    };
    if players.is_some_and(|p| !(2..=4).contains(&p)) {
        return Err(GameError::BadFilter("players: 2, 3 or 4".into()));
    }
    let theme = match theme.filter(|t| !t.is_empty()) {
        Some(t) => Some(Theme::ALL.into_iter().find(|k| k.key() == t).ok_or_else(|| {
            GameError::BadFilter(format!(
                "unknown theme '{}'; the themes are {}",
                crate::error::printable(t),
                Theme::ALL.map(|k| k.key()).join(", ")
            ))
        })?),
        None => None,
    };
    Ok(Filter {
        scenario,
        players,
        theme,
    })
}

pub struct Training {
    games: Arc<Games>,
    catalogue: Arc<Catalogue>,
}

impl Training {
    pub fn new(games: Arc<Games>, catalogue: Arc<Catalogue>) -> Training {
        Training { games, catalogue }
    }

    fn store(&self) -> &Store {
        self.games.store()
    }

    fn find(&self, id: &str) -> Result<&(Arc<Site>, Puzzle), GameError> {
        self.catalogue
            .puzzles
            .get(id)
            .ok_or_else(|| GameError::UnknownPuzzle(id.to_string()))
    }

    /// The key's player, if a key was sent (a wrong key is refused, not ignored).
    async fn player(&self, key: Option<&str>) -> Result<Option<PlayerRow>, GameError> {
        match key {
            Some(k) => Ok(Some(self.games.player_for_key(Some(k)).await?)),
            None => Ok(None),
        }
    }

    /// A puzzle's answer for `player`.
    async fn answer(
        &self,
        id: &str,
        player: Option<&PlayerRow>,
        daily: Option<String>,
    ) -> Result<wire::TrainingPuzzle, GameError> {
        let (site, p) = self.find(id)?;
        let rating = rating_of(self.store().training_rating(Rated::Puzzle, id).await?, start_of(p)).rating;
        let (you, tried) = match player {
            Some(pl) => {
                let row = self.store().training_rating(Rated::Player, &pl.id).await?;
                let attempts = row.map_or(0, |r| r.attempts);
                let you = wire::training::rating(rating_of(row, Rating::NEW), attempts);
                (Some(you), self.store().training_has_tried(&pl.id, id).await?)
            }
            None => (None, false),
        };
        let (game, _) = p.position(site).map_err(GameError::internal)?;
        Ok(wire::training::puzzle(p, &game, rating, daily, you, tried))
    }

    /// `GET /training/daily`: the puzzle of the UTC day on the server's time.
    pub async fn daily(&self, key: Option<&str>) -> Result<wire::TrainingPuzzle, GameError> {
        let player = self.player(key).await?;
        let day = pick::day_of(self.games.now_ms());
        let c = pick::daily(day, &self.catalogue.candidates)
            .ok_or_else(|| GameError::NoPuzzle("no puzzles ship".into()))?;
        self.answer(&c.id, player.as_ref(), Some(pick::date_of(day))).await
    }

    /// `GET /training/{id}`.
    pub async fn get(&self, id: &str, key: Option<&str>) -> Result<wire::TrainingPuzzle, GameError> {
        self.find(id)?;
        let player = self.player(key).await?;
        self.answer(id, player.as_ref(), None).await
    }

    /// `GET /training/next`: near the player's rating (a new player's without a key), not
    /// tried yet, as the filter says.
    pub async fn next(&self, key: Option<&str>, filter: &Filter) -> Result<wire::TrainingPuzzle, GameError> {
        let player = self.player(key).await?;
        let (rating, tried) = match &player {
            Some(p) => (
                rating_of(self.store().training_rating(Rated::Player, &p.id).await?, Rating::NEW).rating,
                self.store().training_tried(&p.id).await?,
            ),
            None => (Rating::NEW.rating, Vec::new()),
        };
        let now = self.store().training_puzzle_ratings().await?;
        let candidates: Vec<Candidate> = self
            .catalogue
            .candidates
            .iter()
            .map(|c| Candidate {
                rating: now.get(&c.id).copied().unwrap_or(c.rating),
                ..c.clone()
            })
            .collect();
        let seed = u64::from_str_radix(&random_hex(8)?, 16).unwrap_or(0);
        let c = pick::next(&candidates, rating, &tried, filter, seed)
            .ok_or_else(|| GameError::NoPuzzle("no shipped puzzle has that scenario, player count and theme".into()))?;
        self.answer(&c.id.clone(), player.as_ref(), None).await
    }

    /// `POST /training/{id}/attempt`: the placement judged; with a key, rated if it is the
    /// player's first attempt at the puzzle. A malformed or illegal placement, an unknown
    /// puzzle or a wrong key changes nothing.
    pub async fn attempt(
        self: &Arc<Self>,
        id: &str,
        key: Option<&str>,
        placement: &str,
        asker: &str,
    ) -> Result<wire::TrainingResult, GameError> {
        let (site, p) = self.find(id)?.clone();
        let player = self.player(key).await?;
        let text = placement.to_string();
        let (site2, p2) = (site.clone(), p.clone());
        // On a thread of the AI's scheduler, with the asker's share, as a hint: a searched
        // puzzle's wrong answer costs two searches, and a client sending many must not
        // take the threads from the games.
        let slot = tokio::time::timeout(JUDGE_WAIT, self.games.queue().admit(asker, false))
            .await
            .map_err(|_| GameError::Busy("the server is busy with other searches; try again later".into()))?
            .ok_or_else(|| GameError::internal("the AI's scheduler is gone"))?;
        let judged = tokio::task::spawn_blocking(move || {
            let j = judge(&site2, &p2, &text);
            drop(slot);
            j
        })
        .await
        .map_err(|e| GameError::internal(format!("the judgement failed: {e}")))?;
        let j = judged.map_err(|e| match e {
            AttemptError::Malformed(s) => GameError::MalformedMove(s),
            AttemptError::Illegal(s) => GameError::IllegalMove(crate::error::printable(&s)),
            AttemptError::Puzzle(s) => GameError::internal(s),
        })?;
        let Some(player) = player else {
            let puzzle = rating_of(self.store().training_rating(Rated::Puzzle, id).await?, start_of(&p));
            return Ok(wire::training::result(&p, &j, false, None, (puzzle, puzzle)));
        };
        let this = self.clone();
        self.games
            .detached("puzzle attempt", move |games| async move {
                this.write_attempt(&games, &player, &p, j).await
            })
            .await
    }

    async fn write_attempt(
        &self,
        games: &Games,
        player: &PlayerRow,
        p: &Puzzle,
        j: Judgement,
    ) -> Result<wire::TrainingResult, GameError> {
        let now = games.now_ms();
        let placement = j.game.notation(j.played.placement);
        let (j, placement) = (&j, &placement);
        games
            .retrying(|left| async move {
                let mut w = self.store().begin_write(left).await?;
                let start = Store::training_rating_in(&mut w.tx, Rated::Player, &player.id).await?;
                let before = rating_of(start, Rating::NEW);
                let first = Store::insert_first_attempt_in(
                    &mut w.tx,
                    &FirstAttempt {
                        player: &player.id,
                        puzzle: &p.id,
                        placement,
                        solved: j.solved,
                        before: before.rating,
                        now,
                    },
                )
                .await?;
                let result = if first {
                    let me = Store::lock_training_rating_in(
                        &mut w.tx,
                        Rated::Player,
                        &player.id,
                        row_of(Rating::NEW, 0),
                        now,
                    )
                    .await?;
                    let it =
                        Store::lock_training_rating_in(&mut w.tx, Rated::Puzzle, &p.id, row_of(start_of(p), 0), now)
                            .await?;
                    let (me_before, it_before) = (rating_of(Some(me), Rating::NEW), rating_of(Some(it), start_of(p)));
                    let (me_after, it_after) = wire::training::rate(me_before, it_before, j.solved, true);
                    Store::set_training_rating_in(
                        &mut w.tx,
                        Rated::Player,
                        &player.id,
                        row_of(me_after, me.attempts + 1),
                        false,
                    )
                    .await?;
                    Store::set_training_rating_in(
                        &mut w.tx,
                        Rated::Puzzle,
                        &p.id,
                        row_of(it_after, it.attempts + 1),
                        j.solved,
                    )
                    .await?;
                    Store::set_first_attempt_after_in(&mut w.tx, &player.id, &p.id, me_after.rating).await?;
                    wire::training::result(
                        p,
                        j,
                        true,
                        Some((me_before, me_after, me.attempts + 1)),
                        (it_before, it_after),
                    )
                } else {
                    let it = Store::training_rating_in(&mut w.tx, Rated::Puzzle, &p.id).await?;
                    let it = rating_of(it, start_of(p));
                    let attempts = start.map_or(0, |r| r.attempts);
                    wire::training::result(p, j, false, Some((before, before, attempts)), (it, it))
                };
                Store::touch_player_in(&mut w.tx, &player.id, now).await?;
                w.tx.commit().await?;
                Ok(result)
            })
            .await
    }
}
