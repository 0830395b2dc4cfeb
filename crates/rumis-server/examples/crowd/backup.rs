//! `--backup-at SECS` (issue 51): a backup of the run's SQLite database taken with
//! `rumis db backup` while the load goes on, restored with `rumis db restore` after the run,
//! and checked: every move acknowledged (201) before the backup began is in it.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use sqlx::Row;

/// The moves acknowledged before the backup began, and how the backup went.
pub struct Taken {
    /// Seconds into the move phase at which it began.
    pub at: f64,
    /// (game id, move number) of every move acknowledged before it began.
    pub acked: Vec<(String, u32)>,
    pub file: PathBuf,
    /// The time `rumis db backup` took (the load going on meanwhile).
    pub took: Duration,
    /// Its failure, if it failed.
    pub failed: Option<String>,
}

/// `rumis ARGS`: its output, or what it said when it failed.
fn rumis(bin: &str, args: &[&str]) -> Result<String, String> {
    let out = Command::new(bin)
        .args(args)
        .output()
        .map_err(|e| format!("cannot run {bin}: {e}"))?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if out.status.success() {
        Ok(text)
    } else {
        Err(format!("rumis {}: {}", args.join(" "), text.trim()))
    }
}

/// Takes the backup of the database at `url` into `file` (blocking: run it off the runtime).
pub fn take(bin: &str, url: &str, file: &Path, at: f64, acked: Vec<(String, u32)>) -> Taken {
    let started = Instant::now();
    let failed = rumis(bin, &["db", "backup", file.to_str().unwrap(), "--database-url", url]).err();
    Taken {
        at,
        acked,
        file: file.to_path_buf(),
        took: started.elapsed(),
        failed,
    }
}

/// Every (game, number) of the `moves` table of a SQLite database, read only.
async fn stored_moves(path: &Path) -> Result<HashSet<(String, u32)>, String> {
    sqlx::any::install_default_drivers();
    let url = format!("sqlite://{}?mode=ro", path.display());
    let pool = sqlx::any::AnyPoolOptions::new()
        .max_connections(1)
        .connect(&url)
        .await
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let rows = sqlx::query("SELECT game, number FROM moves")
        .fetch_all(&pool)
        .await
        .map_err(|e| format!("cannot read the moves of {}: {e}", path.display()))?;
    pool.close().await;
    rows.iter()
        .map(|r| {
            let game: String = r.try_get(0)?;
            let number: i64 = r.try_get(1)?;
            Ok((game, number as u32))
        })
        .collect::<Result<_, sqlx::Error>>()
        .map_err(|e| format!("a move of {}: {e}", path.display()))
}

/// Restores the backup into a new database beside it and checks that it holds every move
/// acknowledged before the backup began: the lines to print, `Err` if any is missing (or
/// the backup or the restore failed).
pub async fn check(bin: &str, taken: &Taken) -> Result<Vec<String>, Vec<String>> {
    let head = format!("backup at {}s", taken.at);
    if let Some(e) = &taken.failed {
        return Err(vec![format!("{head}: the backup failed: {e}")]);
    }
    let restored = taken.file.with_file_name("restored.db");
    let restore_url = format!("sqlite://{}", restored.display());
    let file = taken.file.to_str().unwrap().to_string();
    let said = {
        let bin = bin.to_string();
        let url = restore_url.clone();
        tokio::task::spawn_blocking(move || rumis(&bin, &["db", "restore", &file, "--database-url", &url]))
            .await
            .map_err(|e| vec![format!("{head}: {e}")])?
    }
    .map_err(|e| vec![format!("{head}: the restore failed: {e}")])?;
    let integrity = said
        .lines()
        .find(|l| l.starts_with("integrity"))
        .unwrap_or("integrity: ?");
    let stored = stored_moves(&restored)
        .await
        .map_err(|e| vec![format!("{head}: {e}")])?;
    let k = taken.acked.len();
    let missing: Vec<&(String, u32)> = taken.acked.iter().filter(|m| !stored.contains(*m)).collect();
    let detail = format!(
        "the backup took {:.0} ms while the moves went on; restored with rumis db restore ({integrity})",
        taken.took.as_secs_f64() * 1000.0
    );
    if missing.is_empty() {
        Ok(vec![
            format!(
                "{head}: {k} moves acknowledged before it began, all {k} in the backup ({} moves in it)",
                stored.len()
            ),
            format!("  {detail}"),
        ])
    } else {
        let shown: Vec<String> = missing.iter().take(10).map(|(g, n)| format!("{g} #{n}")).collect();
        Err(vec![
            format!(
                "{head}: {k} moves acknowledged before it began, {} of them missing from the backup ({} moves in it): {}{}",
                missing.len(),
                stored.len(),
                shown.join(", "),
                if missing.len() > shown.len() { ", …" } else { "" }
            ),
            format!("  {detail}"),
        ])
    }
}
