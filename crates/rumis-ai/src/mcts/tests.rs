use std::sync::Arc;

use rumis_core::{Colour, Game, Move, Rng, Site};

use super::playout::PlayoutPolicy;
use super::search::{descend, guarded_choice};
use super::tree::{Node, TreeSearch};
use super::watch::Watch;
use super::*;
use crate::eval::{self, Weights};
use crate::player::Player;
use crate::priors::{self, PriorModel};
use crate::test_game as game;
use rumis_core::Variant;

mod learned;

/// The choice gives way to a placement that leaves room when the most visited one walls
/// the mover in, if it has half the visits; late in the game, or with the guard off, the
/// most visited stands.
#[test]
fn the_choice_keeps_out_of_walls() {
    let mut g = game("coricancha", 4, Variant::Standard);
    for m in ["I4@g8,h8,i8,j8", "L4@i5,j5,j6,j7", "O4@i3,i4,j3,j4"] {
        g.play_text(m).unwrap();
    }
    let (site, pos) = (g.site(), g.position());
    let blue = g.to_move().unwrap();
    let parse = |t: &str| rumis_core::notation::parse_move(site, pos, t).unwrap();
    let (corner, standing) = (parse("O4@i1,i2,j1,j2"), parse("A4@h1,i1,i2x2"));
    let moves = |second: u32| vec![(corner, 100, 0.62), (standing, second, 0.64)];
    assert_eq!(guarded_choice(site, pos, blue, &moves(60), 6), 1);
    assert_eq!(guarded_choice(site, pos, blue, &moves(50), 6), 1);
    assert_eq!(guarded_choice(site, pos, blue, &moves(49), 6), 0, "too few visits");
    assert_eq!(guarded_choice(site, pos, blue, &moves(60), 0), 0, "the guard off");
    assert_eq!(guarded_choice(site, pos, blue, &moves(60), 7), 0, "none leaves seven");
    let reversed = vec![(standing, 100, 0.64), (corner, 90, 0.62)];
    assert_eq!(guarded_choice(site, pos, blue, &reversed, 6), 0);
}

/// The selection that stops at the first unvisited child chooses as the one looking at
/// every child: checked at every selection of searches along random games (the kept
/// trees reused from move to move) on boards of two, three and four players, with the
/// hand-made priors (two-player games re-evaluate priors in place at nodes visited
/// often: those look at every child) and the learned ones.
#[test]
fn the_selection_stops_early_yet_chooses_the_same() {
    oracle::set(true);
    for (board, players, learned) in [
        ("chullpa", 2, false),
        ("tambo", 2, true),
        ("pisac", 3, false),
        ("coricancha", 4, false),
        ("chullpa", 4, true),
    ] {
        let mut p = Mcts::new(MctsConfig {
            simulations: Some(300),
            endgame_stones: 0,
            priors: if learned {
                PriorSource::Learned(Arc::new(PriorModel::builtin().clone()))
            } else {
                PriorSource::Scenario
            },
            seed: 7,
            ..MctsConfig::default()
        });
        let mut g = game(board, players, Variant::Standard);
        while let Some(m) = p.choose(&g) {
            g.play(m).unwrap();
        }
        assert!(p.games_seen > 10, "{board} {players}");
    }
    oracle::set(false);
}

/// A raised stop flag ends a search after its first simulation, whatever its budget; a
/// search that shares no flag with it runs its budget.
#[test]
fn a_raised_stop_flag_cuts_the_search_short() {
    let g = game("chullpa", 2, Variant::Standard);
    let stop = Stop::default();
    stop.raise();
    let config = MctsConfig {
        simulations: Some(100_000),
        endgame_stones: 0,
        reuse: false,
        stop: stop.clone(),
        ..MctsConfig::default()
    };
    let r = Mcts::new(config.clone()).search(&g).unwrap();
    assert_eq!(r.simulations, 1);
    let r = Mcts::new(MctsConfig {
        simulations: Some(100),
        stop: Stop::default(),
        ..config
    })
    .search(&g)
    .unwrap();
    assert_eq!(r.simulations, 100);
}

/// `others_prior_weight` weighs the priors at the other sides' nodes alone: of two
/// children, one with the better prior and a poor mean, the other the reverse, the
/// selection takes the better mean at the searching side's node and, with a large
/// weight, the better prior at another side's.
#[test]
fn the_others_priors_weigh_at_their_nodes_only() {
    let g = game("pisac", 3, Variant::Standard);
    let site = g.site();
    let own = g.position().to_move(site).unwrap();
    let other = *site.order().iter().find(|&&c| c != own).unwrap();
    let moves = g.legal_moves();
    let pick = |weight: f32, mover: Colour| {
        let cfg = MctsConfig {
            others_prior_weight: weight,
            ..MctsConfig::default()
        };
        let mut root = Node::new(moves[0], 0);
        root.visits = 200;
        root.expanded = true;
        root.first_child = 1;
        root.children = 2;
        let child = |m: Move, prior: f32, reward: f32| {
            let mut c = Node {
                prior,
                reward,
                visits: 100,
                ..Node::new(m, mover.index() as u8)
            };
            c.refresh(cfg.prior_visits);
            c
        };
        let nodes = vec![root, child(moves[1], 1.0, 10.0), child(moves[2], 0.2, 90.0)];
        let mut tree = TreeSearch::new(site, &cfg, 1, nodes);
        tree.own = Some(own);
        tree.best_child(0)
    };
    // Prior 1.0, mean 0.1 (child 1) against prior 0.2, mean 0.9 (child 2), 10 prior
    // visits: (10 + 10) / 110 against (90 + 2) / 110 as it stands.
    assert_eq!(pick(1.0, own), 2);
    assert_eq!(pick(1.0, other), 2);
    assert_eq!(pick(100.0, own), 2);
    // 1 000 prior visits at the other's node: (10 + 1000) / 1100 against (90 + 200) / 1100.
    assert_eq!(pick(100.0, other), 1);
}

/// ...and only in games of at least `others_model_from` colours.
#[test]
fn the_others_model_holds_from_its_player_count() {
    let g = game("pisac", 3, Variant::Standard);
    let site = g.site();
    let own = g.position().to_move(site).unwrap();
    for (from, weight) in [(0, 100.0), (3, 100.0), (4, 1.0)] {
        let cfg = MctsConfig {
            others_prior_weight: 100.0,
            room_estimate: RoomEstimateAt::Others,
            others_model_from: from,
            ..MctsConfig::default()
        };
        let mut tree = TreeSearch::new(site, &cfg, 1, vec![Node::new(g.legal_moves()[0], 0)]);
        tree.own = Some(own);
        let at = if weight == 1.0 {
            RoomEstimateAt::Nowhere
        } else {
            RoomEstimateAt::Others
        };
        assert_eq!(
            (tree.others_prior_weight, tree.room_estimate),
            (weight, at),
            "from {from}"
        );
    }
}

/// Where the settings say, a node's children get their priors from the estimated room,
/// counted best estimate first until the best count reaches the next estimate (or the
/// cap), the rest moved by the counts' mean difference; elsewhere from the columns
/// covered. Counted so, the best prior is the greedy evaluation's best, found with a
/// few counts.
#[test]
fn the_room_is_estimated_where_the_settings_say() {
    for (board, players, seed) in [("coricancha", 4, 8), ("chullpa", 3, 9), ("tambo", 3, 10)] {
        let mut g = game(board, players, Variant::Standard);
        let mut rng = Rng::new(seed);
        for _ in 0..6 {
            let moves = g.legal_moves();
            g.play(moves[rng.below(moves.len())]).unwrap();
        }
        let site = g.site().clone();
        let pos = g.position().clone();
        let mover = pos.to_move(&site).unwrap();
        let other = *site.order().iter().find(|&&c| c != mover).unwrap();
        let moves = g.legal_moves();
        let w = Weights::default();
        let mut room = eval::RoomEstimate::default();
        room.prepare(&site, &pos, mover);
        let estimated: Vec<f32> = moves
            .iter()
            .map(|&m| eval::estimated(&w, &site, &pos, m, mover, &room))
            .collect();
        let greedy: Vec<f32> = moves.iter().map(|&m| eval::evaluate(&site, &pos, m)).collect();
        let quick: Vec<f32> = moves.iter().map(|&m| eval::quick(&w, &site, &pos, m, mover)).collect();
        for (i, (&e, &c)) in estimated.iter().zip(&greedy).enumerate() {
            assert!(
                e >= c - 1e-4,
                "{board}: {} estimated {e} below {c}",
                g.notation(moves[i])
            );
        }
        for most in [64, 2] {
            // The oracle: best estimate first (ties in the order of the moves).
            let mut order: Vec<usize> = (0..moves.len()).collect();
            order.sort_by(|&a, &b| estimated[b].total_cmp(&estimated[a]));
            let (mut best, mut counted) = (f32::MIN, 0);
            for &i in &order {
                if counted == most || estimated[i] <= best {
                    break;
                }
                best = best.max(greedy[i]);
                counted += 1;
            }
            let shift = order[..counted].iter().map(|&i| greedy[i] - estimated[i]).sum::<f32>() / counted as f32;
            let mut with_counts: Vec<f32> = estimated.iter().map(|e| (e + shift).min(best - 1e-3)).collect();
            for &i in &order[..counted] {
                with_counts[i] = greedy[i];
            }
            if most == 64 {
                assert!(counted < 64, "{board}: {counted} counted");
                let top = greedy.iter().copied().fold(f32::MIN, f32::max);
                assert_eq!(best, top, "{board}: the counts did not reach the greedy choice");
            }
            // (Where the search models the mover: `modelled`, which the watch of the
            // game sets; the searching side's own nodes follow the settings alone.)
            for (at, own, modelled, want) in [
                (RoomEstimateAt::Others, other, true, &with_counts),
                (RoomEstimateAt::Others, other, false, &quick),
                (RoomEstimateAt::Others, mover, true, &quick),
                (RoomEstimateAt::Everywhere, mover, true, &with_counts),
                (RoomEstimateAt::Everywhere, mover, false, &with_counts),
                (RoomEstimateAt::Everywhere, other, false, &quick),
                (RoomEstimateAt::Nowhere, other, true, &quick),
            ] {
                let cfg = MctsConfig {
                    room_estimate: at,
                    room_counted_best: most,
                    room_in_priors: Some(false),
                    ..MctsConfig::default()
                };
                let mut tree = TreeSearch::new(&site, &cfg, 1, vec![Node::new(moves[0], 0)]);
                tree.own = Some(own);
                tree.modelled[mover.index()] = modelled;
                tree.path = vec![0, 0];
                tree.expand(0, &pos, mover);
                let top = want.iter().copied().fold(f32::MIN, f32::max);
                let children = &tree.nodes[1..];
                assert_eq!(children.len(), moves.len());
                for c in children {
                    let i = moves.iter().position(|&m| m == c.mv).unwrap();
                    let prior = crate::math::exp((want[i] - top) / cfg.prior_temperature);
                    assert!(
                        (c.prior - prior).abs() < 1e-4,
                        "{board} {at:?} {modelled} {most}: {} {} against {prior}",
                        g.notation(c.mv),
                        c.prior
                    );
                }
            }
        }
    }
}

/// The watch of the game: a colour is modelled as a greedy player while nine in ten of
/// its moves (one counted before any) were the greedy evaluation's choice; the
/// searching colour's own moves are not looked at; another game starts afresh.
#[test]
fn the_others_are_modelled_while_they_play_greedily() {
    let mut g = game("tambo", 3, Variant::Standard);
    let site = g.site_arc().clone();
    let order = site.order().to_vec();
    let (own, greedy, other) = (order[0], order[1], order[2]);
    let mut watch = Watch::default();
    assert_eq!(watch.modelled(), [true; 4], "before any move");
    // `other` plays the greedy evaluation's worst placement once, then greedily.
    let mut missed = false;
    for ply in 0..12 {
        let Some(mover) = g.to_move() else { break };
        let moves = g.legal_moves();
        let values: Vec<f32> = moves.iter().map(|&m| eval::evaluate(&site, g.position(), m)).collect();
        let by = |better: bool| {
            let i = (0..moves.len())
                .reduce(|a, b| if (values[b] > values[a]) == better { b } else { a })
                .unwrap();
            moves[i]
        };
        let worst_differs =
            values.iter().copied().fold(f32::MAX, f32::min) < values.iter().copied().fold(f32::MIN, f32::max) - 1e-3;
        let m = if mover == own {
            // The searching colour's moves do not count, even far from greedy ones.
            by(false)
        } else if mover == other && !missed && worst_differs {
            missed = true;
            by(false)
        } else {
            by(true)
        };
        g.play(m).unwrap();
        if ply % 4 == 3 {
            // Looked at a few moves at a time, as a search does between its moves.
            watch.update(&g, own);
        }
    }
    watch.update(&g, own);
    assert!(missed, "the test's colour never had a worse placement");
    let k = |c: Colour| c.index();
    assert_eq!(watch.seen[k(own)], 0);
    assert_eq!(watch.greedy[k(greedy)], watch.seen[k(greedy)]);
    assert_eq!(watch.greedy[k(other)] + 1, watch.seen[k(other)]);
    let modelled = watch.modelled();
    assert!(modelled[k(greedy)] && !modelled[k(other)], "{watch:?}");
    // Another game: the count starts afresh.
    let fresh = game("tambo", 3, Variant::Standard);
    watch.update(&fresh, own);
    assert_eq!((watch.seen, watch.modelled()), ([0; 4], [true; 4]));
}

/// Two-player games (two sides, also with four colours) search the two-player budget
/// when there is one; games of three or four players the other.
#[test]
fn two_player_games_have_their_own_budget() {
    for (board, players, variant, want) in [
        ("chullpa", 2, Variant::Standard, 120),
        ("chullpa", 2, Variant::TwoPlayerFourColors, 120),
        ("pisac", 3, Variant::Standard, 70),
        ("coricancha", 4, Variant::Standard, 70),
    ] {
        let g = game(board, players, variant);
        for threads in [1, 2] {
            let mut p = Mcts::new(MctsConfig {
                simulations: Some(70),
                two_player_simulations: Some(120),
                threads,
                ..MctsConfig::default()
            });
            assert_eq!(p.search(&g).unwrap().simulations, want, "{board} {players} {variant}");
        }
    }
}

/// Positions along a random game of each setup, with the game so far.
fn positions_along(board: &str, players: usize, seed: u64) -> Vec<Game> {
    let mut g = game(board, players, Variant::Standard);
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while !g.is_over() {
        out.push(g.clone());
        let moves = g.legal_moves();
        g.play(moves[rng.below(moves.len())]).unwrap();
    }
    out
}

/// With priors, a search of one simulation visits the child with the best prior, which
/// at the root is the greedy evaluation's best move (on Coricancha, whose settings
/// leave the room out of the priors, the best by the columns covered).
#[test]
fn one_simulation_plays_the_greedy_move() {
    for (board, players) in [("chullpa", 2), ("coricancha", 4), ("tambo", 2)] {
        for g in positions_along(board, players, 3).iter().step_by(3) {
            let mut p = Mcts::new(MctsConfig {
                simulations: Some(1),
                endgame_stones: 0,
                ..MctsConfig::default()
            });
            let chosen = p.choose(g).unwrap();
            let me = g.position().to_move(g.site()).unwrap();
            let value = |m| match board {
                "coricancha" => eval::quick(&eval::Weights::default(), g.site(), g.position(), m, me),
                _ => eval::evaluate(g.site(), g.position(), m),
            };
            let best = g.legal_moves().into_iter().map(value).fold(f32::MIN, f32::max);
            assert_eq!(value(chosen), best, "{board}: {}", g.notation(chosen));
        }
    }
}

/// Children's priors come from the greedy evaluation at the root and, in a two-player
/// game, at every node visited more than `full_prior_after` times; elsewhere, and on
/// Coricancha everywhere (its scenario settings), from the columns covered.
#[test]
fn full_priors_where_the_search_goes_back_often() {
    for (board, players) in [
        ("tambo", 2),
        ("chullpa", 2),
        ("pisac", 3),
        ("coricancha", 4),
        ("coricancha", 2),
    ] {
        let room = board != "coricancha";
        let games = positions_along(board, players, 5);
        let (mut full, mut quick) = (0, 0);
        for g in [&games[0], &games[games.len() / 3], &games[games.len() / 2]] {
            let cfg = MctsConfig {
                simulations: Some(2_000),
                endgame_stones: 0,
                ..MctsConfig::default()
            };
            let after = cfg.full_prior_after;
            let mut p = Mcts::new(cfg);
            p.search(g).unwrap();
            let tree = &p.kept.as_ref().unwrap().trees[0];
            let site = g.site();
            // Every expanded node with its position.
            let mut stack = vec![(0usize, g.position().clone())];
            while let Some((i, pos)) = stack.pop() {
                let n = tree[i];
                if !n.expanded || n.children == 0 {
                    continue;
                }
                let me = pos.to_move(site).unwrap();
                let children = &tree[n.first_child as usize..(n.first_child + n.children) as usize];
                let is_full = room && (i == 0 || (players == 2 && n.visits > after));
                let value = |m| {
                    if is_full {
                        eval::evaluate(site, &pos, m)
                    } else {
                        eval::quick(&eval::Weights::default(), site, &pos, m, me)
                    }
                };
                let top = children.iter().map(|c| value(c.mv)).fold(f32::MIN, f32::max);
                for c in children {
                    let want = crate::math::exp((value(c.mv) - top) / 2.0);
                    assert!(
                        (c.prior - want).abs() < 1e-4,
                        "{board}: node {i} visits {} full {is_full}: prior {} want {want}",
                        n.visits,
                        c.prior
                    );
                }
                if i != 0 {
                    *(if is_full { &mut full } else { &mut quick }) += 1;
                }
                for (k, c) in children.iter().enumerate() {
                    let mut next = pos.clone();
                    next.play_unchecked(site, c.mv);
                    stack.push((n.first_child as usize + k, next));
                }
            }
        }
        // Both kinds occur below the root in two-player games, only quick ones beyond
        // and on Coricancha.
        assert!(quick > 0, "{board}");
        assert_eq!(full > 0, players == 2 && room, "{board}: {full} nodes with full priors");
    }
}

/// Informed playouts play, of the placements the policy draws, the one the learned
/// model scores best: with a model that only likes stones lying over many columns, the
/// playouts' stones cover more columns than the policy's alone; without learned priors
/// the setting changes nothing.
#[test]
fn informed_playouts_follow_the_learned_model() {
    let games = positions_along("coricancha", 4, 6);
    let site = games[0].site().clone();
    let mut weights = [0.0f32; priors::FEATURES];
    weights[8] = 50.0; // columns
    let model = Arc::new(PriorModel {
        full: weights,
        quick: weights,
    });
    let mean_columns = |priors: PriorSource, informed_plies: usize| {
        let cfg = MctsConfig {
            priors,
            informed_plies,
            playout_candidates: 4,
            ..MctsConfig::default()
        };
        let mut tree = TreeSearch::new(&site, &cfg, 5, Vec::new());
        let (mut sum, mut n) = (0usize, 0usize);
        for g in games.iter().step_by(4) {
            for _ in 0..20 {
                let mut pos = g.position().clone();
                tree.played.clear();
                tree.playout(&mut pos);
                assert!(pos.is_over());
                sum += tree
                    .played
                    .iter()
                    .map(|&(_, m)| site.template(m).len as usize)
                    .sum::<usize>();
                n += tree.played.len();
            }
        }
        assert!(n > 0);
        sum as f64 / n as f64
    };
    let learned = || PriorSource::Learned(model.clone());
    let (policy, informed) = (mean_columns(learned(), 0), mean_columns(learned(), usize::MAX));
    assert!(
        informed > policy + 0.15,
        "informed {informed:.2}, the policy's {policy:.2}"
    );
    assert_eq!(
        mean_columns(PriorSource::Hand, usize::MAX),
        mean_columns(PriorSource::Hand, 0)
    );
}

/// Answering playouts cover a column of the last move at least half the time when they
/// can; the plain policy much less often; both pick only legal placements.
#[test]
fn playouts_answer_the_last_move() {
    for (board, players) in [("chullpa", 2), ("coricancha", 4)] {
        let games = positions_along(board, players, 8);
        let site = games[0].site().clone();
        let mut set = rumis_core::MoveSet::new();
        let mut rng = Rng::new(4);
        let (mut answering, mut plain, mut picks) = (0, 0, 0);
        for g in games.iter().skip(2) {
            let last = *g.moves().last().unwrap();
            let t = site.template(last);
            let covers = |m: Move| {
                let u = site.template(m);
                u.columns[..u.len as usize]
                    .iter()
                    .any(|c| t.columns[..t.len as usize].contains(c))
            };
            let n = g.position().legal_set(&site, &mut set);
            if !g.legal_moves().into_iter().any(covers) {
                continue;
            }
            for (answer, count) in [(true, &mut answering), (false, &mut plain)] {
                let mut policy = PlayoutPolicy::new(&site, true, answer);
                for _ in 0..200 {
                    let m = policy.pick(&site, &set, n, Some(last), &mut rng);
                    assert!(set.contains(site.gen_tables(), m));
                    *count += covers(m) as u32;
                }
            }
            picks += 200;
        }
        assert!(picks > 0);
        let (a, p) = (answering as f64 / picks as f64, plain as f64 / picks as f64);
        assert!(a >= 0.5 && a > p + 0.2, "{board}: answering {a:.2}, plain {p:.2}");
    }
}

#[test]
fn same_seed_one_thread_same_game() {
    let play = || {
        let mut g = game("chullpa", 2, Variant::Standard);
        let mut p = Mcts::new(MctsConfig {
            simulations: Some(200),
            seed: 11,
            ..MctsConfig::default()
        });
        while let Some(m) = p.choose(&g) {
            g.play(m).unwrap();
        }
        g.moves().to_vec()
    };
    assert_eq!(play(), play());
}

#[test]
fn the_tree_is_kept_below_the_moves_played() {
    let mut g = game("chullpa", 2, Variant::Standard);
    let mut p = Mcts::new(MctsConfig {
        simulations: Some(2_000),
        seed: 5,
        ..MctsConfig::default()
    });
    let r = p.search(&g).unwrap();
    g.play(r.best).unwrap();
    // The reply the tree explored most below the best move.
    let old = p.kept.as_ref().unwrap().trees[0].clone();
    let best = descend(&old, &[r.best]).unwrap();
    let n = old[best];
    assert!(n.expanded);
    let reply = (n.first_child..n.first_child + n.children)
        .max_by_key(|&i| old[i as usize].visits)
        .map(|i| old[i as usize])
        .unwrap();
    g.play(reply.mv).unwrap();
    let (trees, reused) = p.trees_for(&g, 1);
    assert_eq!(reused, reply.visits as u64);
    assert!(reused > 0);
    // The re-rooted tree is whole: every child range lies inside it, and the visits of
    // the root's children add up to at most the root's.
    let t = &trees[0];
    for node in t {
        if node.expanded {
            assert!((node.first_child + node.children) as usize <= t.len());
            assert!(node.first_child > 0);
        }
    }
    if t[0].expanded {
        let sum: u32 = (t[0].first_child..t[0].first_child + t[0].children)
            .map(|i| t[i as usize].visits)
            .sum();
        assert!(sum <= t[0].visits);
    }
    // A search from there starts with what the tree knew, and its best move is legal.
    let r2 = p.search(&g).unwrap();
    assert!(g.legal_moves().contains(&r2.best));
    // Another game: nothing is kept for it.
    let other = game("chullpa", 2, Variant::Standard);
    let mut q = Mcts::new(MctsConfig {
        simulations: Some(300),
        ..MctsConfig::default()
    });
    q.search(&g).unwrap();
    let (_, reused) = q.trees_for(&other, 1);
    assert_eq!(reused, 0);
}

/// Simulations in pairs (where the core generates two games at once; elsewhere the same
/// searches run one at a time): a search repeats for its seed, spends an odd budget
/// exactly, and takes its virtual losses back — the root's visits are the simulations, no
/// node's children have more visits than it, and every kept mean is the formula's (the
/// test build's selection checks them too). Levels 4-8's search and level 9's, Chullpa
/// with 2 and 4 players.
#[test]
fn paired_simulations_repeat_and_take_their_virtual_losses_back() {
    use super::tree::run_tree;
    use rumis_core::{CodePath, Position};
    for (players, level9) in [(2, false), (4, false), (4, true)] {
        let g = game("chullpa", players, Variant::Standard);
        let site = g.site();
        let base = if level9 {
            MctsConfig::default().level_nine()
        } else {
            MctsConfig::default()
        };
        let cfg = MctsConfig {
            simulations: Some(301),
            paired_playouts: true,
            ..base
        };
        let paired = TreeSearch::new(site, &cfg, 3, Vec::new()).pair.is_some();
        assert_eq!(paired, rumis_core::generates_together(site, CodePath::active()));
        let run = || {
            let root = Position::new(site);
            run_tree(
                site,
                &root,
                &cfg,
                3,
                Some(301),
                None,
                vec![Node::new(Move::default(), 0)],
                [false; 4],
            )
        };
        let ((stats, sims, sums), nodes) = run();
        let ((again, sims_again, sums_again), _) = run();
        let what = format!("chullpa {players}p, level 9 {level9}, paired {paired}");
        assert_eq!(sims, 301, "{what}");
        assert_eq!((&stats, sims, sums), (&again, sims_again, sums_again), "{what}");
        assert_eq!(nodes[0].visits, 301, "{what}");
        for n in &nodes {
            if n.expanded {
                let children = &nodes[n.first_child as usize..(n.first_child + n.children) as usize];
                assert!(children.iter().map(|c| c.visits).sum::<u32>() <= n.visits, "{what}");
            }
        }
        for n in &nodes[1..] {
            let pv = cfg.prior_visits;
            let mean = (n.reward + pv * n.prior) / (n.visits as f32 + pv);
            assert_eq!(n.mean.to_bits(), mean.to_bits(), "{what}");
        }
    }
}
