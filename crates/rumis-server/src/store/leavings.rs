//! Storage of who plays each seat over a game: the colours that left it (resigned, ran out
//! of time, walked away: `retirements`), a seat the AI took over, and how many human
//! seats still play.

use rumis_core::Colour;
use sqlx::{AnyConnection, Row};

use super::{parse_colours, RetireRow, SeatKind, Store};
use crate::error::GameError;

impl Store {
    /// The colours that left a game, in the order they left.
    pub async fn read_retirements_in(conn: &mut AnyConnection, id: &str) -> Result<Vec<RetireRow>, GameError> {
        let rows = sqlx::query("SELECT after_move, colour, reason FROM retirements WHERE game = $1 ORDER BY seq")
            .bind(id)
            .fetch_all(&mut *conn)
            .await?;
        let mut out = Vec::new();
        for r in &rows {
            let colour: String = r.try_get("colour")?;
            out.push(RetireRow {
                after_move: r.try_get("after_move")?,
                colour: parse_colours(&colour)?
                    .first()
                    .copied()
                    .ok_or_else(|| GameError::internal("a stored retirement has no colour"))?,
                reason: r.try_get("reason")?,
            });
        }
        Ok(out)
    }

    /// Records a colour leaving the game after `after_move` moves.
    pub async fn insert_retirement_in(
        conn: &mut AnyConnection,
        id: &str,
        after_move: i64,
        colour: Colour,
        reason: &str,
        now: i64,
    ) -> Result<(), GameError> {
        sqlx::query(
            "INSERT INTO retirements (game, seq, after_move, colour, reason, created) \
             VALUES ($1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM retirements WHERE game = $2), $3, $4, $5, $6)",
        )
        .bind(id)
        .bind(id)
        .bind(after_move)
        .bind(colour.to_string())
        .bind(reason)
        .bind(now)
        .execute(&mut *conn)
        .await?;
        Ok(())
    }

    /// Removes the leavings after the first `moves` moves (a hot-seat undo took those back).
    pub async fn delete_retirements_after(conn: &mut AnyConnection, id: &str, moves: i64) -> Result<(), GameError> {
        sqlx::query("DELETE FROM retirements WHERE game = $1 AND after_move > $2")
            .bind(id)
            .bind(moves)
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    /// Who plays a seat from now on (the AI takes over a seat whose player left).
    pub async fn set_seat_kind_in(
        conn: &mut AnyConnection,
        id: &str,
        seat: usize,
        kind: SeatKind,
        level: u8,
    ) -> Result<(), GameError> {
        sqlx::query("UPDATE seats SET kind = $1, level = $2 WHERE game = $3 AND seat = $4")
            .bind(kind.name())
            .bind(level as i64)
            .bind(id)
            .bind(seat as i64)
            .execute(&mut *conn)
            .await?;
        Ok(())
    }

    /// The number of human seats a game has now (`games.humans`; 0: an AI-only game).
    pub async fn set_humans_in(conn: &mut AnyConnection, id: &str, humans: usize) -> Result<(), GameError> {
        sqlx::query("UPDATE games SET humans = $1 WHERE id = $2")
            .bind(humans as i64)
            .bind(id)
            .execute(&mut *conn)
            .await?;
        Ok(())
    }
}
