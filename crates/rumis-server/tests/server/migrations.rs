//! The schema's migrations, listed from `migrations/` by `build.rs` and run by sqlx's
//! `Migrator`: a database migrated when the server
//! still listed its migrations by hand (descriptions with `_`, the same texts) is accepted
//! as it is and keeps its games; one whose applied migration's text differs is refused.

use crate::common;

on_both_databases!(
    a_database_migrated_by_the_hand_made_list_is_accepted,
    a_database_with_a_changed_migration_is_refused,
    players_of_one_name_keep_it_and_nobody_new_takes_it
);

use std::borrow::Cow;

use common::*;
use serde_json::json;
use sqlx::any::AnyPoolOptions;
use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::{AnyPool, Row, SqlSafeStr};

/// The list as `store.rs` held it before `sqlx::migrate!`: (version, description, text).
const HAND_MADE: [(i64, &str, &str); 5] = [
    (1, "games", include_str!("../../migrations/0001_games.sql")),
    (2, "lifecycle", include_str!("../../migrations/0002_lifecycle.sql")),
    (3, "players", include_str!("../../migrations/0003_players.sql")),
    (4, "clocks", include_str!("../../migrations/0004_clocks.sql")),
    (
        5,
        "custom_boards",
        include_str!("../../migrations/0005_custom_boards.sql"),
    ),
];

/// A connection to the database at `url` (a SQLite file is made if missing).
async fn connect(url: &str) -> AnyPool {
    sqlx::any::install_default_drivers();
    let url = if url.starts_with("sqlite:") {
        format!("{url}?mode=rwc")
    } else {
        url.to_string()
    };
    AnyPoolOptions::new().max_connections(1).connect(&url).await.unwrap()
}

/// The database at `url` migrated as the server migrated it before, with no game yet.
async fn migrated_by_hand(url: &str) -> AnyPool {
    let pool = connect(url).await;
    let migrations = HAND_MADE
        .iter()
        .map(|&(v, d, text)| Migration::new(v, Cow::Borrowed(d), MigrationType::Simple, text.into_sql_str(), false))
        .collect();
    Migrator::with_migrations(migrations).run(&pool).await.unwrap();
    pool
}

async fn a_database_migrated_by_the_hand_made_list_is_accepted(db: String) {
    let pool = migrated_by_hand(&db).await;
    pool.close().await;
    let server = start(config(&db)).await;
    let created = create(server.addr, json!({ "board": "chullpa", "players": 2 })).await;
    let id = created["id"].as_str().unwrap().to_string();
    server.stop().await;
    // Nothing was applied again, and the game is there after a restart.
    let server = start(config(&db)).await;
    assert_eq!(state(server.addr, &id).await["move_number"], 1);
    server.stop().await;
    let pool = connect(&db).await;
    let rows = sqlx::query("SELECT version, description FROM _sqlx_migrations ORDER BY version")
        .fetch_all(&pool)
        .await
        .unwrap();
    let applied: Vec<(i64, String)> = rows.iter().map(|r| (r.get(0), r.get(1))).collect();
    let want: Vec<(i64, String)> = HAND_MADE.iter().map(|&(v, d, _)| (v, d.to_string())).collect();
    assert_eq!(
        applied[..HAND_MADE.len()],
        want[..],
        "the hand-made ones kept as they were"
    );
    // The migrations written since were applied once each, by sqlx.
    let files = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/migrations"))
        .unwrap()
        .count();
    assert_eq!(applied.len(), files, "{applied:?}");
    pool.close().await;
}

async fn a_database_with_a_changed_migration_is_refused(db: String) {
    let pool = migrated_by_hand(&db).await;
    // As if migration 5 had been applied from another text.
    sqlx::query("UPDATE _sqlx_migrations SET checksum = $1 WHERE version = 5")
        .bind(vec![0u8; 48])
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    match rumis_server::start(config(&db)).await {
        Ok(_) => panic!("a database with a changed migration was accepted"),
        Err(e) => assert!(e.to_string().contains("migrat"), "{e}"),
    }
}

/// The database at `url` with the migrations before `version` applied, from `migrations/`.
async fn migrated_before(url: &str, version: i64) -> AnyPool {
    let pool = connect(url).await;
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/migrations");
    let mut files: Vec<(i64, String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            let (v, rest) = name.split_once('_').unwrap();
            let text = std::fs::read_to_string(format!("{dir}/{name}")).unwrap();
            (
                v.parse().unwrap(),
                rest.trim_end_matches(".sql").replace('_', " "),
                text,
            )
        })
        .filter(|(v, _, _)| *v < version)
        .collect();
    files.sort();
    let migrations = files
        .into_iter()
        .map(|(v, d, text)| {
            Migration::new(
                v,
                Cow::Owned(d),
                MigrationType::Simple,
                sqlx::AssertSqlSafe(text).into_sql_str(),
                false,
            )
        })
        .collect();
    Migrator::with_migrations(migrations).run(&pool).await.unwrap();
    pool
}

/// Names became unique (migration 9): players who shared a name before keep it, and their
/// pages; nobody new can take it, in any case.
async fn players_of_one_name_keep_it_and_nobody_new_takes_it(db: String) {
    let pool = migrated_before(&db, 9).await;
    for (id, name, created) in [
        ("00000000000000a1", "Ana", 1),
        ("00000000000000a2", "ANA", 2),
        ("00000000000000b1", "Ben", 3),
    ] {
        sqlx::query(
            "INSERT INTO players (id, name, key_hash, rating, uncertainty, rated_games, created, seen) \
             VALUES ($1, $2, $3, 25.0, 8.333, 0, $4, $4)",
        )
        .bind(id)
        .bind(name)
        .bind(format!("hash-{id}"))
        .bind(created as i64)
        .execute(&pool)
        .await
        .unwrap();
    }
    pool.close().await;
    let server = start(config(&db)).await;
    let addr = server.addr;
    for (id, name) in [
        ("00000000000000a1", "Ana"),
        ("00000000000000a2", "ANA"),
        ("00000000000000b1", "Ben"),
    ] {
        let page = get(addr, &format!("/api/v1/players/{id}")).await;
        assert_eq!(page.status, 200, "{}", page.text());
        assert_eq!(page.json()["name"], name);
    }
    for taken in ["ana", "BEN"] {
        let r = post(addr, "/api/v1/players", None, &json!({ "name": taken })).await;
        assert_eq!(
            (r.status, r.json()["error"].clone()),
            (409, json!("name_taken")),
            "{taken}"
        );
    }
    let r = post(addr, "/api/v1/players", None, &json!({ "name": "Cid" })).await;
    assert_eq!(r.status, 201, "{}", r.text());
    server.stop().await;
}
