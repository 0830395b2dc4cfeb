//! What operating a database needs beside the games: whether it is ready (it answers, and
//! every migration this build knows is applied), the pool's use, the clocks waiting to run
//! out, and the maintenance of `rumis db` (backup, restore, check), which works on a
//! database by its URL without migrating it.

use std::time::Duration;

use sqlx::any::AnyPoolOptions;
use sqlx::{AnyPool, Row};

use super::{Store, MIGRATIONS};

/// How long a readiness check waits for the database.
const READY_WAIT: Duration = Duration::from_secs(2);

/// The migrations of this build that `applied` lacks (by version).
fn missing(applied: &[i64]) -> Vec<i64> {
    MIGRATIONS
        .iter()
        .map(|m| m.0)
        .filter(|v| !applied.contains(v))
        .collect()
}

/// The versions recorded as applied with success.
async fn applied(pool: &AnyPool) -> Result<Vec<i64>, sqlx::Error> {
    let rows = sqlx::query("SELECT version FROM _sqlx_migrations WHERE success = TRUE")
        .fetch_all(pool)
        .await?;
    rows.iter().map(|r| r.try_get::<i64, _>(0)).collect()
}

/// What is wrong with the migrations, if anything.
fn migrations_verdict(applied: &[i64]) -> Option<String> {
    let missing = missing(applied);
    (!missing.is_empty()).then(|| {
        let list: Vec<String> = missing.iter().map(i64::to_string).collect();
        format!("migrations not applied: {}", list.join(", "))
    })
}

impl Store {
    /// Why this database cannot serve now (`None`: it answers and is migrated).
    pub async fn not_ready(&self) -> Option<String> {
        match tokio::time::timeout(READY_WAIT, applied(&self.pool)).await {
            Err(_) => Some(format!("the database did not answer within {READY_WAIT:?}")),
            Ok(Err(e)) => Some(format!("the database: {e}")),
            Ok(Ok(versions)) => migrations_verdict(&versions),
        }
    }

    /// The pool's connections: (open, idle).
    pub fn pool_use(&self) -> (u32, usize) {
        (self.pool.size(), self.pool.num_idle())
    }

    /// Unfinished games whose clock runs (the timeout task's work ahead).
    pub async fn clocks_pending(&self) -> Result<i64, sqlx::Error> {
        sqlx::query("SELECT COUNT(*) FROM games WHERE due IS NOT NULL AND status = 'open'")
            .fetch_one(&self.pool)
            .await?
            .try_get(0)
    }
}

/// The SQLite file of a `sqlite:` URL (`sqlite://PATH`, `sqlite:PATH`, options dropped);
/// `None` for another database.
fn sqlite_path(url: &str) -> Option<std::path::PathBuf> {
    let rest = url.strip_prefix("sqlite:")?;
    let rest = rest.strip_prefix("//").unwrap_or(rest);
    let path = rest.split('?').next().unwrap_or(rest);
    (!path.is_empty() && path != ":memory:").then(|| path.into())
}

/// A text as an SQL string literal.
fn literal(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

/// A pool on an existing database, read as it is (no migration, no file created).
async fn connect(url: &str) -> Result<AnyPool, String> {
    sqlx::any::install_default_drivers();
    if let Some(path) = sqlite_path(url) {
        if !path.is_file() {
            return Err(format!("there is no database at {}", path.display()));
        }
    }
    AnyPoolOptions::new()
        .max_connections(1)
        .acquire_timeout(super::ACQUIRE_TIMEOUT)
        .after_connect(|conn, _| {
            Box::pin(async move {
                if conn.backend_name().eq_ignore_ascii_case("sqlite") {
                    let busy = format!("PRAGMA busy_timeout = {}", super::BUSY_TIMEOUT.as_millis() * 10);
                    sqlx::query(sqlx::AssertSqlSafe(busy)).execute(&mut *conn).await?;
                }
                Ok(())
            })
        })
        .connect(url)
        .await
        .map_err(|e| format!("cannot open the database {}: {e}", super::redact(url)))
}

/// `rumis db check`: SQLite's integrity check, and every migration of this build applied.
/// The lines to print, or what is wrong.
pub async fn check(url: &str) -> Result<Vec<String>, String> {
    let pool = connect(url).await?;
    let mut lines = Vec::new();
    let mut wrong = Vec::new();
    if sqlite_path(url).is_some() {
        let rows = sqlx::query("PRAGMA integrity_check")
            .fetch_all(&pool)
            .await
            .map_err(|e| format!("cannot check the database's integrity: {e}"))?;
        let said: Vec<String> = rows.iter().filter_map(|r| r.try_get::<String, _>(0).ok()).collect();
        if said == ["ok"] {
            lines.push("integrity: ok".to_string());
        } else {
            wrong.push(format!("integrity: {}", said.join("; ")));
        }
    } else {
        lines.push("integrity: not checked here (PostgreSQL checks its own pages)".to_string());
    }
    let versions = applied(&pool)
        .await
        .map_err(|e| format!("cannot read the migrations applied (is this a rumis database?): {e}"))?;
    match migrations_verdict(&versions) {
        None => lines.push(format!("migrations: all {} applied", MIGRATIONS.len())),
        Some(v) => wrong.push(v),
    }
    let games: i64 = sqlx::query("SELECT COUNT(*) FROM games")
        .fetch_one(&pool)
        .await
        .and_then(|r| r.try_get(0))
        .map_err(|e| format!("cannot count the games: {e}"))?;
    let moves: i64 = sqlx::query("SELECT COUNT(*) FROM moves")
        .fetch_one(&pool)
        .await
        .and_then(|r| r.try_get(0))
        .map_err(|e| format!("cannot count the moves: {e}"))?;
    lines.push(format!("games: {games}, moves: {moves}"));
    pool.close().await;
    if wrong.is_empty() {
        Ok(lines)
    } else {
        lines.extend(wrong);
        Err(lines.join("\n"))
    }
}

/// `rumis db backup FILE`: a consistent copy of an SQLite database in use (`VACUUM INTO`
/// reads it in one transaction, so it holds every move committed before it began and
/// none half-written). FILE must not exist.
pub async fn backup(url: &str, file: &std::path::Path) -> Result<(), String> {
    if sqlite_path(url).is_none() {
        return Err(
            "rumis db backup copies SQLite databases; back a PostgreSQL database up with pg_dump (docs/hosting.md)"
                .into(),
        );
    }
    if file.exists() {
        return Err(format!("{} exists already; give a new file", file.display()));
    }
    let target = file.to_str().ok_or("the backup's file name is not UTF-8")?;
    let pool = connect(url).await?;
    let r = sqlx::query(sqlx::AssertSqlSafe(format!("VACUUM INTO {}", literal(target))))
        .execute(&pool)
        .await;
    pool.close().await;
    r.map(|_| ())
        .map_err(|e| format!("cannot back up into {}: {e}", file.display()))
}

/// `rumis db restore FILE`: a backup, checked first, copied to a new SQLite database at
/// `url` (which must not exist: a database in use is never overwritten).
pub async fn restore(file: &std::path::Path, url: &str) -> Result<Vec<String>, String> {
    let Some(target) = sqlite_path(url) else {
        return Err("rumis db restore writes SQLite databases; restore a PostgreSQL dump with pg_restore or psql (docs/hosting.md)".into());
    };
    if target.exists() {
        return Err(format!(
            "the database {} exists already; restore into a new file (and start the server on it)",
            target.display()
        ));
    }
    let source = format!(
        "sqlite://{}?mode=ro",
        file.to_str().ok_or("the backup's file name is not UTF-8")?
    );
    let lines = check(&source)
        .await
        .map_err(|e| format!("the backup {} is not sound:\n{e}", file.display()))?;
    let target_text = target.to_str().ok_or("the database's file name is not UTF-8")?;
    let pool = connect(&source).await?;
    let r = sqlx::query(sqlx::AssertSqlSafe(format!("VACUUM INTO {}", literal(target_text))))
        .execute(&pool)
        .await;
    pool.close().await;
    r.map_err(|e| format!("cannot write {}: {e}", target.display()))?;
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sqlite_url_names_its_file() {
        assert_eq!(sqlite_path("sqlite://./rumis.db"), Some("./rumis.db".into()));
        assert_eq!(sqlite_path("sqlite:/tmp/a.db?mode=rwc"), Some("/tmp/a.db".into()));
        assert_eq!(sqlite_path("postgres://u@h/db"), None);
        assert_eq!(sqlite_path("sqlite::memory:"), None);
    }

    #[test]
    fn a_quote_in_a_file_name_stays_in_the_literal() {
        assert_eq!(literal("it's.db"), "'it''s.db'");
    }

    #[test]
    fn missing_migrations_are_named() {
        let all: Vec<i64> = MIGRATIONS.iter().map(|m| m.0).collect();
        assert_eq!(migrations_verdict(&all), None);
        let v = migrations_verdict(&all[..all.len() - 1]).unwrap();
        assert!(v.contains(&all[all.len() - 1].to_string()), "{v}");
    }
}
