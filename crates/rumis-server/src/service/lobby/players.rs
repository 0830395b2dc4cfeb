//! Players: a name and a key. The key is made here, given once, and kept only as its hash.

use std::sync::Arc;

use super::pages::rating_of;
use super::{check_name, name_key};
use crate::error::GameError;
use crate::game::{hash_token, random_hex};
use crate::ratings;
use crate::service::Games;
use crate::store::{PlayerRow, Store};
use rumis_wire as wire;

impl Games {
    /// A new player: the key is in this answer and nowhere else, ever; only its hash is
    /// stored. Runs in a task of its own, like every write.
    pub async fn new_player(self: &Arc<Self>, name: &str) -> Result<wire::NewPlayer, GameError> {
        let name = name.to_string();
        self.detached("new player", move |this| async move { this.write_player(&name).await })
            .await
    }

    async fn write_player(&self, name: &str) -> Result<wire::NewPlayer, GameError> {
        let name = check_name(name)?;
        let key = random_hex(16)?;
        let row = PlayerRow {
            id: random_hex(8)?,
            name,
            rating: ratings::START.0,
            uncertainty: ratings::START.1,
            rated_games: 0,
            created: self.now_ms(),
        };
        let hash = hash_token(&key);
        let folded = name_key(&row.name);
        let (row, hash, folded) = (&row, &hash, &folded);
        self.retrying(|_| async move { self.store.insert_player(row, folded, hash).await })
            .await?;
        Ok(wire::NewPlayer {
            id: row.id.clone(),
            name: row.name.clone(),
            key,
            rating: rating_of(row),
            player_url: format!("/api/v1/players/{}", row.id),
        })
    }

    /// The player a key belongs to.
    pub async fn player_for_key(&self, key: Option<&str>) -> Result<PlayerRow, GameError> {
        let key = key.ok_or(GameError::MissingKey)?;
        self.store
            .player_by_key_hash(&hash_token(key))
            .await?
            .ok_or(GameError::WrongKey)
    }

    /// The key's player, inside a write; they are seen now (their waiting games stay).
    pub(super) async fn player_in(
        &self,
        conn: &mut sqlx::AnyConnection,
        key: Option<&str>,
    ) -> Result<PlayerRow, GameError> {
        let key = key.ok_or(GameError::MissingKey)?;
        let p = Store::player_by_key_hash_in(conn, &hash_token(key))
            .await?
            .ok_or(GameError::WrongKey)?;
        Store::touch_player_in(conn, &p.id, self.now_ms()).await?;
        Ok(p)
    }

    /// The presence ping: the key's player is here now, so their waiting games do not
    /// expire (see [`super::SEEK_IDLE`]). Runs in a task of its own, like every write.
    pub async fn presence(self: &Arc<Self>, key: Option<&str>) -> Result<wire::Presence, GameError> {
        let key = key.map(String::from);
        self.detached("presence", move |this| async move {
            this.write_presence(key.as_deref()).await
        })
        .await
    }

    async fn write_presence(&self, key: Option<&str>) -> Result<wire::Presence, GameError> {
        let p = self.player_for_key(key).await?;
        let now = self.now_ms();
        let id = &p.id;
        self.retrying(|_| async move { self.store.touch_player(id, now).await })
            .await?;
        Ok(wire::Presence {
            player: p.id.clone(),
            seen: now,
            seek_idle_ms: self.limits.seek_idle.as_millis() as i64,
        })
    }
}
