//! `rumis db`: a server's database kept safe — a backup while the server runs, a restore
//! into a new database, and a check (docs/hosting.md, "Backups").

use std::path::PathBuf;

#[derive(clap::Args)]
pub struct DbUrl {
    /// The database: sqlite://PATH or postgres://...
    #[arg(long, value_name = "URL", default_value = "sqlite://./rumis.db")]
    database_url: String,
}

#[derive(clap::Subcommand)]
pub enum DbCommand {
    /// Copy a SQLite database, also while a server runs on it, into FILE (which must not
    /// exist): every move committed before the copy began is in it. PostgreSQL: use pg_dump.
    Backup {
        file: PathBuf,
        #[command(flatten)]
        db: DbUrl,
    },
    /// Check a backup, then copy it to a new SQLite database (--database-url, which must not
    /// exist) to start a server on.
    Restore {
        file: PathBuf,
        #[command(flatten)]
        db: DbUrl,
    },
    /// Check a database: SQLite's integrity check, and every migration of this build applied.
    Check {
        #[command(flatten)]
        db: DbUrl,
    },
}

/// The lines to print.
pub fn run(cmd: &DbCommand) -> Result<Vec<String>, String> {
    match cmd {
        DbCommand::Backup { file, db } => {
            rumis_server::db::backup(&db.database_url, file)?;
            Ok(vec![format!("backed up {} to {}", db.database_url, file.display())])
        }
        DbCommand::Restore { file, db } => {
            let mut lines = rumis_server::db::restore(file, &db.database_url)?;
            lines.push(format!("restored {} to {}", file.display(), db.database_url));
            Ok(lines)
        }
        DbCommand::Check { db } => rumis_server::db::check(&db.database_url),
    }
}
