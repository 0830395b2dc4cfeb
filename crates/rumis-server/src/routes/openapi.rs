//! The server's OpenAPI document, written from the code: the paths from the handlers'
//! `#[utoipa::path]` annotations (beside each handler, with its parameters, bodies, answers
//! and security), the schemas from the types those name (the wire types of `rumis-wire`
//! and the lessons', derived with their feature `contract`; the request bodies beside their
//! handlers). `docs/server-openapi.yaml` is [`document`] as YAML: the test `openapi`
//! (`tests/server/openapi.rs`) fails when the checked-in file differs, and writes it with
//! `UPDATE_CONTRACT=1`.
//!
//! What no annotation says is added here, once for every operation: the `Error` answer
//! of any other status (`default`: the edge's and the guard's refusals), the error codes
//! (`crate::error::ERROR_CODES`), the two bearer schemes and the events' union.

use serde_json::{json, Value};
use utoipa::OpenApi;

use super::described::{ListStatus, LobbyMessage, PuzzleName};
use crate::wire;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "rumis game server",
        version = "1",
        description = "The API of `rumis serve` (crates/rumis-server). Prose, the WebSocket events \
                       and the storage are in docs/server-api.md; this document gives the HTTP \
                       shapes. Paths outside /api/ serve the built web app (index.html for any \
                       path that is not a file). Every operation may also answer any other \
                       4xx/5xx with the ErrorBody (\"default\"): 415 for a change without \
                       Content-Type application/json, 403 foreign_origin for a change from \
                       another origin, 429 (rate, searches, sockets), 408/414/431 from the HTTP \
                       layer, 503.",
    ),
    servers((url = "http://127.0.0.1:8080")),
    paths(
        super::ops::healthz,
        super::ops::readyz,
        super::metrics::handler,
        super::index,
        super::boards::boards,
        super::boards::check,
        super::boards::builtin_toml,
        super::boards::stones,
        super::games::create_game,
        super::games::list_games,
        super::games::get_game,
        super::games::delete_game,
        super::games::get_placements,
        super::games::submit_move,
        super::games::undo,
        super::games::resign,
        super::games::leave,
        super::games::hint,
        super::games::analysis,
        super::review::ask,
        super::review::read,
        crate::lessons::handler,
        super::puzzles::puzzle_cube,
        super::puzzles::puzzle_solution,
        super::training::daily,
        super::training::next,
        super::training::puzzle,
        super::training::attempt,
        super::games::get_record,
        super::game_events::events,
        super::lobby::new_player,
        super::lobby::me,
        super::lobby::presence,
        super::lobby::player,
        super::lobby::lobby,
        super::lobby::lobby_events,
        super::lobby::seek,
        super::lobby::quick,
        super::lobby::table,
        super::lobby::join,
        super::lobby::abort,
        super::lobby::rematch,
        super::lobby::decline_rematch,
        super::lobby::leaderboard,
    ),
    components(responses(wire::ErrorBody), schemas(wire::Snapshot, wire::GameEvent, LobbyMessage, PuzzleName, ListStatus))
)]
struct Api;

/// The bearer schemes the operations' `security` names.
fn security_schemes() -> Value {
    json!({
        "playerKey": {
            "type": "http",
            "scheme": "bearer",
            "description": "A player's key (32 hex digits), only ever in this header. It is also the token of every seat its player holds."
        },
        "seatToken": {
            "type": "http",
            "scheme": "bearer",
            "description": "A seat's token (32 hex digits); it may also be sent as \"token\" in the body."
        }
    })
}

/// The OpenAPI document of the routes, as JSON.
pub fn document() -> Value {
    let mut doc = serde_json::to_value(Api::openapi()).expect("the OpenAPI document serializes");
    let error = json!({ "$ref": "#/components/responses/ErrorBody" });
    if let Some(paths) = doc["paths"].as_object_mut() {
        for operation in paths
            .values_mut()
            .filter_map(Value::as_object_mut)
            .flat_map(|p| p.values_mut())
        {
            // (`get_mut`, not `[]`: indexing a JSON value to write inserts what is missing.)
            if let Some(responses) = operation.get_mut("responses").and_then(Value::as_object_mut) {
                responses.entry("default").or_insert_with(|| error.clone());
            }
            // An optional body (`request_body(content = Option<T>)`, `extract::OptionalBody`)
            // is absent or the object: utoipa's schema also allows JSON `null`, which the
            // server refuses.
            let content = operation.get_mut("requestBody").and_then(|b| b.get_mut("content"));
            if let Some(content) = content.and_then(Value::as_object_mut) {
                for media in content.values_mut() {
                    let object = media["schema"]["oneOf"]
                        .as_array()
                        .filter(|b| b.len() == 2 && b[0] == json!({ "type": "null" }))
                        .map(|b| b[1].clone());
                    if let Some(object) = object {
                        media["schema"] = object;
                    }
                }
            }
            // utoipa tags an operation with its handler's module path as written in
            // `paths(...)`; the tag is the part of the API, the module's own name.
            let tags = operation.get_mut("tags").and_then(Value::as_array_mut);
            for tag in tags.into_iter().flatten() {
                let part = match tag.as_str().and_then(|t| t.rsplit("::").next()) {
                    Some("super") | None => "index",
                    Some(part) => part,
                };
                *tag = json!(part);
            }
        }
    }
    let components = &mut doc["components"];
    components["securitySchemes"] = security_schemes();
    // The error answer names the schema rather than inlining a copy (utoipa's
    // `ToResponse`), so that what is said of the schema below holds for every answer.
    components["responses"]["ErrorBody"]["content"]["application/json"]["schema"] =
        json!({ "$ref": "#/components/schemas/ErrorBody" });
    // `error` is a `String` in the wire type; the codes are the server's.
    let codes = json!(crate::error::ERROR_CODES);
    let error_body = &mut components["schemas"]["ErrorBody"];
    // Its own fields come first, or, beside the flattened detail, in a part of an allOf.
    let at = if error_body.pointer("/properties/error").is_some() {
        "/properties/error".to_string()
    } else {
        let parts = error_body["allOf"].as_array().map_or(&[][..], Vec::as_slice);
        let part = parts
            .iter()
            .position(|p| p.pointer("/properties/error").is_some())
            .expect("ErrorBody has the property error");
        format!("/allOf/{part}/properties/error")
    };
    let code = error_body.pointer_mut(&at).expect("the property error");
    code["enum"] = codes;
    // utoipa writes an array of fixed length (`[u8; 3]`) without its length.
    let cube = &mut components["schemas"]["Cube"];
    cube["minItems"] = json!(3);
    cube["maxItems"] = json!(3);
    components["schemas"]["Event"] = json!({
        "description": "A message of GET /api/v1/games/{id}/events (WebSocket): a snapshot first, then the game's events, told by their \"type\".",
        "oneOf": [
            { "$ref": "#/components/schemas/Snapshot" },
            { "$ref": "#/components/schemas/GameEvent" }
        ]
    });
    doc
}
