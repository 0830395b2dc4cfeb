//! A round's two halves by route: its setup, and what must follow its reset write where
//! it committed.

use super::*;

/// A round's setup: the request it resets, the WebSockets of the games that request changes
/// (each past its snapshot), and what the round looks at afterwards (the games' ids, or the
/// players' keys).
// long: one arm a route, fourteen.
pub(super) async fn setup(addr: SocketAddr, route: Route) -> (Reset, Vec<Ws>, Vec<String>) {
    match route {
        Route::Create => {
            let body = json!({ "board": "chullpa", "players": 3,
            "seats": [{ "kind": "ai", "level": 1 }, { "kind": "human" }, { "kind": "human" }] });
            let known: Vec<String> = open_three_player_games(addr).await.into_iter().collect();
            let reset = Reset {
                method: "POST",
                path: "/api/v1/games".into(),
                key: None,
                body: Some(body),
            };
            (reset, Vec::new(), known)
        }
        Route::Seek => {
            let p = new_player(addr, "Seeker").await;
            let body = json!({ "board": "chullpa", "players": 2, "seats": [{ "kind": "me" }, { "kind": "open" }] });
            (
                Reset::post("/api/v1/lobby/seeks".into(), &p, Some(body)),
                Vec::new(),
                vec![p],
            )
        }
        Route::QuickNew => {
            let p = new_player(addr, "Quick").await;
            (
                Reset::post("/api/v1/lobby/quick".into(), &p, Some(quick_body())),
                Vec::new(),
                vec![p],
            )
        }
        Route::QuickJoin => {
            let host = new_player(addr, "Host").await;
            let v = expect(
                "the host's quick play",
                201,
                post(addr, "/api/v1/lobby/quick", Some(&host), &quick_body()).await,
            );
            assert_eq!(v["status"], "waiting", "{v}");
            let id = s(&v["game"]);
            let b = new_player(addr, "Quick").await;
            let ws = vec![subscribed(addr, &id).await];
            (
                Reset::post("/api/v1/lobby/quick".into(), &b, Some(quick_body())),
                ws,
                vec![id, host],
            )
        }
        Route::Join => {
            let host = new_player(addr, "Host").await;
            let body = json!({ "board": "chullpa", "players": 3,
            "seats": [{ "kind": "ai", "level": 1 }, { "kind": "me" }, { "kind": "open" }] });
            let v = expect(
                "a seek",
                201,
                post(addr, "/api/v1/lobby/seeks", Some(&host), &body).await,
            );
            let id = s(&v["game"]);
            let b = new_player(addr, "Joiner").await;
            let ws = vec![subscribed(addr, &id).await];
            (Reset::post(format!("/api/v1/games/{id}/join"), &b, None), ws, vec![id])
        }
        Route::Rematch => {
            // A finished lobby game of the host and an AI (the seat its other player left):
            // the rematch starts at once, the AI's seat first to move.
            let host = new_player(addr, "Host").await;
            let b = new_player(addr, "Leaver").await;
            let id = seek2(addr, &host).await;
            let join = format!("/api/v1/games/{id}/join");
            expect("a join", 201, post(addr, &join, Some(&b), &json!({})).await);
            let leave = format!("/api/v1/games/{id}/leave");
            expect(
                "a leaving",
                200,
                post(addr, &leave, Some(&b), &json!({ "level": 1 })).await,
            );
            let resign = format!("/api/v1/games/{id}/resign");
            let v = expect("a resignation", 200, post(addr, &resign, Some(&host), &json!({})).await);
            assert_eq!(v["over"], true, "{v}");
            let ws = vec![subscribed(addr, &id).await];
            (
                Reset::post(format!("/api/v1/games/{id}/rematch"), &host, None),
                ws,
                vec![id],
            )
        }
        Route::Decline => {
            let host = new_player(addr, "Host").await;
            let b = new_player(addr, "Decliner").await;
            let id = seek2(addr, &host).await;
            let join = format!("/api/v1/games/{id}/join");
            expect("a join", 201, post(addr, &join, Some(&b), &json!({})).await);
            let resign = format!("/api/v1/games/{id}/resign");
            expect("a resignation", 200, post(addr, &resign, Some(&host), &json!({})).await);
            let rematch = format!("/api/v1/games/{id}/rematch");
            let v = expect("a rematch", 201, post(addr, &rematch, Some(&host), &json!({})).await);
            let re = s(&v["game"]);
            let ws = vec![subscribed(addr, &id).await, subscribed(addr, &re).await];
            (
                Reset::post(format!("/api/v1/games/{id}/rematch/decline"), &b, None),
                ws,
                vec![id, re],
            )
        }
        Route::Abort => {
            let host = new_player(addr, "Host").await;
            let id = seek2(addr, &host).await;
            let ws = vec![subscribed(addr, &id).await];
            (
                Reset::post(format!("/api/v1/games/{id}/abort"), &host, None),
                ws,
                vec![id],
            )
        }
        Route::Resign | Route::Leave | Route::Delete | Route::Undo => {
            let body = match route {
                Route::Resign => json!({ "board": "chullpa", "players": 3,
                "seats": [{ "kind": "human" }, { "kind": "ai", "level": 1 }, { "kind": "human" }] }),
                Route::Leave => json!({ "board": "chullpa", "players": 2,
                "seats": [{ "kind": "human" }, { "kind": "ai", "level": 1 }] }),
                Route::Undo => json!({ "board": "chullpa", "players": 2, "hot_seat": true }),
                _ => json!({ "board": "chullpa", "players": 2 }),
            };
            let created = create(addr, body).await;
            let id = s(&created["id"]);
            let token = tokens(&created)[0].clone().unwrap();
            let path = format!("/api/v1/games/{id}");
            let reset = match route {
                Route::Resign => Reset::post(format!("{path}/resign"), &token, Some(json!({}))),
                Route::Leave => Reset::post(format!("{path}/leave"), &token, Some(json!({ "level": 1 }))),
                Route::Undo => {
                    let r = play(addr, &id, Some(&token), "L4@a1,a2,a3,b1", 1).await;
                    expect("a move", 201, r);
                    Reset::post(
                        format!("{path}/undo"),
                        &token,
                        Some(json!({ "expected_move_number": 2 })),
                    )
                }
                _ => Reset {
                    method: "DELETE",
                    path,
                    key: Some(token),
                    body: None,
                },
            };
            (reset, vec![subscribed(addr, &id).await], vec![id])
        }
        Route::NewPlayer => {
            let reset = Reset {
                method: "POST",
                path: "/api/v1/players".into(),
                key: None,
                body: Some(json!({ "name": fresh("Ghost") })),
            };
            (reset, Vec::new(), Vec::new())
        }
        Route::Presence => {
            let p = new_player(addr, "Present").await;
            (
                Reset::post("/api/v1/players/me/presence".into(), &p, None),
                Vec::new(),
                Vec::new(),
            )
        }
    }
}

/// Whether the reset write committed (`None`: no answer shows it), and, where it did, whether
/// all that follows a commit happened: what did not is added to `problems`.
// long: one arm a route, fourteen.
#[allow(clippy::too_many_arguments)]
pub(super) async fn followed(
    addr: SocketAddr,
    feed: &Feed,
    route: Route,
    mark: usize,
    reset: &Reset,
    ws: &mut [Ws],
    ids: Vec<String>,
    problems: &mut Vec<String>,
) -> Option<bool> {
    let key = reset.key.clone().unwrap_or_default();
    match route {
        Route::NewPlayer | Route::Presence => None,
        Route::Create => {
            let known: HashSet<String> = ids.into_iter().collect();
            let new = within(COMMIT_LIMIT, || async {
                open_three_player_games(addr).await.difference(&known).next().cloned()
            })
            .await;
            if let Some(id) = &new {
                if !ai_moved(addr, id).await {
                    problems.push(format!("game {id} was created, its AI seat never moved"));
                }
            }
            Some(new.is_some())
        }
        Route::Seek | Route::QuickNew => {
            let new = within(COMMIT_LIMIT, || async { open_games_of(addr, &key).await.pop() }).await;
            if let Some(id) = &new {
                if !feed.sent_since(mark, |v| listed(v, "seeks", id)).await {
                    problems.push(format!("{route:?} {id} committed, never in the lobby feed's seeks"));
                }
                let lobby = expect("the lobby", 200, get(addr, "/api/v1/lobby").await);
                if !listed(&lobby, "seeks", id) {
                    problems.push(format!("{route:?} {id} committed, not in the lobby: {lobby}"));
                }
                // Out of the way of the next round (quick play would join it).
                let abort = format!("/api/v1/games/{id}/abort");
                expect("an abort", 200, post(addr, &abort, Some(&key), &json!({})).await);
            }
            Some(new.is_some())
        }
        Route::QuickJoin | Route::Join => {
            let id = &ids[0];
            let started = within(COMMIT_LIMIT, || async {
                (table(addr, id).await["status"] == "open").then_some(())
            })
            .await
            .is_some();
            if started {
                match event_within(&mut ws[0], "seated", FOLLOW_LIMIT).await {
                    Some(e) if e["started"] == true => {}
                    other => problems.push(format!("{id}: no seated event ({other:?})")),
                }
                if !feed.sent_since(mark, |v| listed(v, "playing", id)).await {
                    problems.push(format!("{id} started, never in the lobby feed's games in play"));
                }
                if route == Route::Join && !ai_moved(addr, id).await {
                    problems.push(format!("{id} started, its AI seat never moved"));
                }
            }
            if route == Route::QuickJoin {
                // Out of the way of the next round: the host's game, joined or not.
                let abort = format!("/api/v1/games/{id}/abort");
                expect("an abort", 200, post(addr, &abort, Some(&ids[1]), &json!({})).await);
            }
            Some(started)
        }
        Route::Rematch => {
            let id = &ids[0];
            let re = within(COMMIT_LIMIT, || async {
                table(addr, id).await["rematch"].as_str().map(String::from)
            })
            .await;
            if let Some(re) = &re {
                if event_within(&mut ws[0], "rematch_offered", FOLLOW_LIMIT)
                    .await
                    .is_none()
                {
                    problems.push(format!("{id}: no rematch_offered event"));
                }
                let st = state(addr, re).await;
                if st["status"] != "open" {
                    problems.push(format!("rematch {re} is {}, not open", st["status"]));
                }
                if !ai_moved(addr, re).await {
                    problems.push(format!("rematch {re}: its AI seat never moved"));
                }
                if !feed.sent_since(mark, |v| listed(v, "playing", re)).await {
                    problems.push(format!("rematch {re} never in the lobby feed's games in play"));
                }
            }
            Some(re.is_some())
        }
        Route::Decline | Route::Abort => {
            let id = ids.last().unwrap();
            let aborted = within(COMMIT_LIMIT, || async {
                (table(addr, id).await["status"] == "aborted").then_some(())
            })
            .await
            .is_some();
            if aborted {
                // Declined: the finished game hears it, and the rematch is aborted.
                let heard: &[(usize, &str)] = match route {
                    Route::Decline => &[(0, "rematch_declined"), (1, "aborted")],
                    _ => &[(0, "aborted")],
                };
                for &(i, kind) in heard {
                    if event_within(&mut ws[i], kind, FOLLOW_LIMIT).await.is_none() {
                        problems.push(format!("{id} aborted, no {kind} event on socket {i}"));
                    }
                }
                if !feed
                    .sent_since(mark, |v| v["seeks"].is_array() && !listed(v, "seeks", id))
                    .await
                {
                    problems.push(format!("{id} aborted, still in the lobby feed's seeks"));
                }
            }
            Some(aborted)
        }
        Route::Resign | Route::Leave | Route::Delete | Route::Undo => {
            let id = &ids[0];
            let done = within(COMMIT_LIMIT, || async {
                let r = get(addr, &format!("/api/v1/games/{id}")).await;
                let st = r.json();
                let done = match route {
                    Route::Resign => st["forfeited"].as_array().is_some_and(|f| !f.is_empty()),
                    Route::Leave => st["seats"][0]["kind"] == "ai",
                    Route::Delete => r.status == 404,
                    _ => st["moves_played"] == 0,
                };
                done.then_some(())
            })
            .await
            .is_some();
            if done {
                let kind = match route {
                    Route::Resign => "resigned",
                    Route::Leave => "seat_changed",
                    Route::Delete => "deleted",
                    _ => "undo",
                };
                if event_within(&mut ws[0], kind, FOLLOW_LIMIT).await.is_none() {
                    problems.push(format!("{id}: {route:?} committed, no {kind} event"));
                }
                if matches!(route, Route::Resign | Route::Leave) && !ai_moved(addr, id).await {
                    problems.push(format!("{id}: {route:?} committed, the AI seat to move never moved"));
                }
            }
            Some(done)
        }
    }
}
