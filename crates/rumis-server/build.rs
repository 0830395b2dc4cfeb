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
//! - **The web app inside the binary**, with the `embed-web` feature only (scripts/release,
//!   scripts/start): every file of the built app (`web/dist`, or the folder
//!   `RUMIS_EMBED_WEB_DIR` names) listed into `$OUT_DIR/web_app.rs` by `include_bytes!`,
//!   each with its `.br`/`.gz` copies and an ETag. A feature rather than "whatever
//!   `web/dist` holds": a build that did not ask for the app (every test build, a fresh
//!   clone without npm) never embeds one, stale or not, and one that asked for it and finds
//!   no built app stops with what to run.
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo::rerun-if-changed=migrations");
    list_migrations();
    println!("cargo::rerun-if-env-changed=RUMIS_TEST_POSTGRES_URL");
    println!("cargo::rustc-check-cfg=cfg(rumis_postgres_tests)");
    if std::env::var_os("RUMIS_TEST_POSTGRES_URL").is_some_and(|url| !url.is_empty()) {
        println!("cargo::rustc-cfg=rumis_postgres_tests");
    }
    if std::env::var_os("CARGO_FEATURE_EMBED_WEB").is_some() {
        embed_web();
    }
}

/// Writes `$OUT_DIR/web_app.rs`: `&[EmbeddedFile]` sorted by path, the compressed copies
/// beside each file rather than files of their own.
fn embed_web() {
    println!("cargo::rerun-if-env-changed=RUMIS_EMBED_WEB_DIR");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let root = manifest.join("../..");
    let root = root.canonicalize().unwrap_or(root);
    // Relative to the workspace's root, where the scripts run.
    let dir = match std::env::var_os("RUMIS_EMBED_WEB_DIR").filter(|d| !d.is_empty()) {
        Some(d) => root.join(d),
        None => root.join("web/dist"),
    };
    // Cargo looks through a folder given here for any change.
    println!("cargo::rerun-if-changed={}", dir.display());
    if !dir.join("index.html").is_file() {
        panic!(
            "the embed-web feature puts the built web app into the binary, but {} holds no \
             index.html: build the app first (npm --prefix web ci && npm --prefix web run build), \
             or build without the feature",
            dir.display()
        );
    }
    let mut files = Vec::new();
    walk(&dir, &mut files);
    let mut entries = Vec::new();
    for path in &files {
        let rel = path.strip_prefix(&dir).expect("a file of the folder");
        let rel: Vec<&str> = rel
            .components()
            .map(|c| c.as_os_str().to_str().expect("the web app's file names are UTF-8"))
            .collect();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if name.ends_with(".br") || name.ends_with(".gz") {
            continue;
        }
        let body = std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        let copy = |ext: &str| {
            let p = PathBuf::from(format!("{}.{ext}", path.display()));
            if p.is_file() {
                format!("Some(include_bytes!({:?}))", p.display().to_string())
            } else {
                "None".to_string()
            }
        };
        let key = rel.join("/");
        entries.push((
            key.clone(),
            format!(
                "    EmbeddedFile {{ path: {:?}, body: include_bytes!({:?}), br: {}, gz: {}, etag: \"{:016x}\" }},\n",
                key,
                path.display().to_string(),
                copy("br"),
                copy("gz"),
                fnv1a(&body)
            ),
        ));
    }
    // Sorted as the paths' text: the server looks a path up by binary search.
    entries.sort();
    let out = format!("&[\n{}]\n", entries.into_iter().map(|e| e.1).collect::<String>());
    let file = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("web_app.rs");
    std::fs::write(file, out).expect("writing the list of the web app's files");
}

/// Every file under `dir`, sorted by path (links followed: the build's output has none).
fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("a folder entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, files);
        } else {
            files.push(path);
        }
    }
}

/// The content's fingerprint for its ETag (64-bit FNV-1a: a validator, not a defence).
fn fnv1a(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
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
