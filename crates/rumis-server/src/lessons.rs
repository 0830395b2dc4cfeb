//! `GET /api/v1/lessons`: the "How to play" page's positions and placements, judged by the
//! core (the list is the `rumis-lessons` crate's, shared with the WebAssembly engine).

use crate::error::ApiError;
use rumis_lessons::Lessons;

/// The handler: the lessons as JSON.
#[cfg_attr(feature = "openapi", utoipa::path(get, path = "/api/v1/lessons",
    summary = "The How-to-play examples, judged by the core (see docs/server-api.md)",
    responses((status = 200, description = "Positions and placements with the core's verdicts", body = Lessons))))]
pub async fn handler() -> Result<axum::Json<Lessons>, ApiError> {
    let answer = tokio::task::spawn_blocking(rumis_lessons::lessons)
        .await
        .map_err(|e| ApiError::internal(e.to_string()))?
        .map_err(ApiError::internal)?;
    Ok(axum::Json(answer))
}
