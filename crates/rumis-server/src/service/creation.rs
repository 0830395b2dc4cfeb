//! A game's creation: its setup and seats checked, its seats' tokens (only their hashes
//! stored), its rows written in one transaction within the caps on AI-only games, and its
//! first AI turn queued.

use std::sync::Arc;

use rumis_core::{Game, Site, Variant};

use super::position::Given;
use super::{AskedPosition, Games, NewSeat};
use crate::clock::{self, Clock};
use crate::error::GameError;
use crate::game::{hash_token, random_hex, start_game};
use crate::queue::Job;
use crate::store::{GameStatus, NewGame, Progress, SeatKind, Setup, Store};
use rumis_wire as wire;

/// A new game's setup and seats, checked: its game before the first move.
fn check_new_game(setup: &Setup, seats: &[NewSeat], clock: bool) -> Result<Game, GameError> {
    if clock && setup.hot_seat {
        return Err(GameError::BadClock(
            "a hot-seat game has no clock: everyone plays on one device".into(),
        ));
    }
    if clock && !seats.iter().any(|s| s.kind == SeatKind::Human) {
        return Err(GameError::BadClock("a game of AI seats only has no clock".into()));
    }
    let game = start_game(setup)?;
    let player_count = match setup.variant {
        Variant::TwoPlayerFourColors => 2,
        _ => setup.players,
    };
    if seats.len() != player_count {
        return Err(GameError::BadSetup(format!(
            "this game has {player_count} players, so it needs {player_count} seats, not {}",
            seats.len()
        )));
    }
    Ok(game)
}

/// Each seat's token: none for the AI, one shared by a hot-seat game's human seats, else
/// one a seat.
fn seat_tokens(setup: &Setup, seats: &[NewSeat]) -> Result<Vec<Option<String>>, GameError> {
    let shared = if setup.hot_seat { Some(random_hex(16)?) } else { None };
    seats
        .iter()
        .map(|s| {
            Ok(match (s.kind, &shared) {
                (SeatKind::Ai, _) => None,
                (SeatKind::Human, Some(t)) => Some(t.clone()),
                (SeatKind::Human, None) => Some(random_hex(16)?),
            })
        })
        .collect()
}

/// The answer to a game's creation: its seats with their tokens, and where to follow it.
fn created(id: &str, setup: &Setup, seats: &[NewSeat], site: &Site, tokens: &[Option<String>]) -> wire::Created {
    wire::Created {
        id: id.to_string(),
        hot_seat: setup.hot_seat,
        seats: seats
            .iter()
            .enumerate()
            .map(|(i, s)| wire::CreatedSeat {
                seat: i,
                colours: site.colours_of(i).iter().map(|c| c.to_string()).collect(),
                kind: s.kind.name().into(),
                level: (s.kind == SeatKind::Ai).then_some(s.level),
                token: tokens[i].clone(),
            })
            .collect(),
        ruins: setup.ruins.clone(),
        state_url: format!("/api/v1/games/{id}"),
        events_url: format!("/api/v1/games/{id}/events"),
        record_url: format!("/api/v1/games/{id}/record"),
    }
}

impl Games {
    /// Creates a game for `creator` (an address): the tokens of its human seats are in the
    /// answer, and only their hashes are stored.
    #[allow(dead_code)] // The API creates through `create_timed`; kept for callers without a clock.
    pub async fn create(
        self: &Arc<Self>,
        setup: Setup,
        seats: Vec<NewSeat>,
        creator: &str,
    ) -> Result<wire::Created, GameError> {
        self.create_timed(setup, seats, creator, None, None).await
    }

    /// [`Games::create`] with a clock (checked by [`clock::Rule::from_asked`]): time runs
    /// from the creation for the human seat to move; and from a position if one is given
    /// (its moves played by the core, the new game beginning after them). Runs in a task of
    /// its own, like a move (see the module's comment).
    pub async fn create_timed(
        self: &Arc<Self>,
        setup: Setup,
        seats: Vec<NewSeat>,
        creator: &str,
        clock: Option<clock::Rule>,
        position: Option<AskedPosition>,
    ) -> Result<wire::Created, GameError> {
        let creator = creator.to_string();
        self.detached("creation", move |this| async move {
            this.write_game(setup, seats, &creator, clock, position).await
        })
        .await
    }

    async fn write_game(
        &self,
        setup: Setup,
        seats: Vec<NewSeat>,
        creator: &str,
        clock: Option<clock::Rule>,
        position: Option<AskedPosition>,
    ) -> Result<wire::Created, GameError> {
        let mut game = check_new_game(&setup, &seats, clock.is_some())?;
        let given = match position {
            Some(asked) => Some(self.play_position(&mut game, asked).await?),
            None => None,
        };
        let site = game.site().clone();
        let humans = seats.iter().any(|s| s.kind == SeatKind::Human);
        let tokens = seat_tokens(&setup, &seats)?;
        let id = random_hex(8)?;
        let to_move = game.to_move();
        let ai_first = to_move.is_some_and(|c| {
            site.player_of(c)
                .and_then(|p| seats.get(p))
                .is_some_and(|s| s.kind == SeatKind::Ai)
        });
        let new = NewGame {
            id: &id,
            setup: &Setup {
                board: site.board().name.clone(),
                colours: site.order().to_vec(),
                ..setup.clone()
            },
            seats: seats
                .iter()
                .enumerate()
                .map(|(i, s)| {
                    (
                        site.colours_of(i),
                        s.kind,
                        s.level,
                        tokens[i].as_deref().map(hash_token).unwrap_or_default(),
                    )
                })
                .collect(),
            progress: Progress {
                status: if to_move.is_some() {
                    GameStatus::Open
                } else {
                    GameStatus::Finished
                },
                to_move,
                move_count: game.moves().len() as i64,
                ai_to_move: ai_first,
            },
            creator,
            now: self.now_ms(),
        };
        let first_human = to_move
            .and_then(|c| site.player_of(c))
            .filter(|&p| seats.get(p).is_some_and(|s| s.kind == SeatKind::Human));
        let clock = clock.map(|rule| Clock::start(rule, seats.len(), first_human, new.now));
        self.insert_new_game(&new, clock.as_ref(), humans, given.as_ref())
            .await?;
        if ai_first {
            self.queue.push(Job::new(&id, humans, creator));
        }
        Ok(created(&id, &setup, &seats, &site, &tokens))
    }

    /// The new game's rows in one transaction: the game, its clock, its board and rule, and
    /// for a game made from a position its moves so far; an AI-only game within the caps on
    /// AI-only games.
    async fn insert_new_game(
        &self,
        new: &NewGame<'_>,
        clock: Option<&Clock>,
        humans: bool,
        given: Option<&Given>,
    ) -> Result<(), GameError> {
        let limits = &self.limits;
        self.retrying(|left| async move {
            let mut w = self.store.begin_write(left).await?;
            if !humans {
                // AI-only games cost CPU without a person waiting: a few per address and in
                // all. Counted in the transaction that adds the game, after taking the lock
                // that orders such creations (on SQLite the insert's write lock, on
                // PostgreSQL an advisory lock), so that concurrent creations cannot all see
                // the same count and together pass the cap.
                Store::order_ai_only_creations(&mut w.tx).await?;
                Store::insert_game(&mut w.tx, new).await?;
                if let Some((mine, total)) = self.ai_only_over_caps(&mut w.tx, new.creator).await? {
                    // Dropping `w` rolls the insert back.
                    return Err(GameError::TooManyAiGames(format!(
                        "too many games without a human seat are open ({} from this address, {} in all; \
                         at most {} and {}); try again when one ends",
                        mine - 1,
                        total - 1,
                        limits.ai_only_per_creator,
                        limits.ai_only_total
                    )));
                }
            } else {
                Store::insert_game(&mut w.tx, new).await?;
            }
            if let Some(c) = clock {
                Store::write_clock_in(&mut w.tx, new.id, c).await?;
            }
            Store::set_board_and_rule(&mut w.tx, new.id, new.setup).await?;
            if let Some(given) = given {
                given.insert(&mut w.tx, new.id, new.now).await?;
            }
            w.tx.commit().await?;
            Ok(())
        })
        .await
    }
}
