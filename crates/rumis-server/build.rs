//! Two things decided as the crate is built:
//!
//! - **The schema's migrations**, `migrations/NNNN_name.sql`, listed into
//!   `$OUT_DIR/migrations.rs` (version, description, text by `include_str!`), which
//!   `store.rs` hands to sqlx's `Migrator`. This is what `sqlx::migrate!` does; doing it here
//!   spares the build sqlx's proc-macro crate, which compiles sqlx's drivers and tokio a
//!   second time for the host (70 CPU-seconds of a clean test build, issue #19). The folder
//!   is the one list: a file added is embedded, and the script reruns when the folder
//!   changes. A name that does not read `NNNN_name.sql` stops the build.
//! - **Whether the PostgreSQL tests run**: they do when `RUMIS_TEST_POSTGRES_URL` is set as
//!   the tests are built (a PostgreSQL role that may create databases); without it they are
//!   built ignored, and the test output says so ("ignored, needs RUMIS_TEST_POSTGRES_URL")
//!   rather than passing without having run. Changing the variable rebuilds this crate.
use std::path::PathBuf;

fn main() {
    println!("cargo::rerun-if-changed=migrations");
    list_migrations();
    println!("cargo::rerun-if-env-changed=RUMIS_TEST_POSTGRES_URL");
    println!("cargo::rustc-check-cfg=cfg(rumis_postgres_tests)");
    if std::env::var_os("RUMIS_TEST_POSTGRES_URL").is_some_and(|url| !url.is_empty()) {
        println!("cargo::rustc-cfg=rumis_postgres_tests");
    }
}

/// Writes `$OUT_DIR/migrations.rs`: `&[(version, description, text)]` in version order, the
/// description as sqlx's own macro makes it (the name with `_` read as a space).
fn list_migrations() {
    let dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"))
        .join("migrations");
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("the migrations folder") {
        let path = entry.expect("a migrations folder entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
            .to_string();
        // Simple migrations only: no `.up.sql`/`.down.sql` pairs (a dot in the stem).
        let parsed = name
            .strip_suffix(".sql")
            .filter(|stem| !stem.contains('.'))
            .and_then(|stem| stem.split_once('_'))
            .and_then(|(version, description)| Some((version.parse::<i64>().ok()?, description.replace('_', " "))));
        let Some((version, description)) = parsed else {
            panic!("migrations/{name}: a migration is named NNNN_name.sql");
        };
        found.push((version, description, path));
    }
    found.sort_by_key(|m| m.0);
    if let Some(w) = found.windows(2).find(|w| w[0].0 == w[1].0) {
        panic!("two migrations have version {}", w[0].0);
    }
    let mut out = String::from("&[\n");
    for (version, description, path) in &found {
        out += &format!(
            "    ({version}, {description:?}, include_str!({:?})),\n",
            path.display().to_string()
        );
    }
    out += "]\n";
    let file = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("migrations.rs");
    std::fs::write(file, out).expect("writing the list of migrations");
}
