//! Whether the PostgreSQL tests run: they do when `RUMIS_TEST_POSTGRES_URL` is set as the
//! tests are built (a PostgreSQL role that may create databases); without it they are
//! built ignored, and the test output says so ("ignored, needs RUMIS_TEST_POSTGRES_URL")
//! rather than passing without having run. Changing the variable rebuilds this crate.
///
/// `sqlx::migrate!` embeds `migrations/` in the crate, but rustc does not know those files
/// are read; rerunning this script when the folder changes rebuilds the crate, so a new or
/// changed migration is never left out of a build.
fn main() {
    println!("cargo::rerun-if-changed=migrations");
    println!("cargo::rerun-if-env-changed=RUMIS_TEST_POSTGRES_URL");
    println!("cargo::rustc-check-cfg=cfg(rumis_postgres_tests)");
    if std::env::var_os("RUMIS_TEST_POSTGRES_URL").is_some_and(|url| !url.is_empty()) {
        println!("cargo::rustc-cfg=rumis_postgres_tests");
    }
}
