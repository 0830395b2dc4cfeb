use super::*;

fn job(game: &str, human: bool, creator: &str) -> Job {
    Job::new(game, human, creator)
}

/// `n` calm addresses (nothing used) each ask for an AI move and take a calm thread at once.
fn take_calm_threads(q: &Arc<AiQueue>, n: usize, now: Instant) -> Vec<Job> {
    (0..n)
        .map(|i| {
            q.push_at(job(&format!("c{i}"), true, &format!("calm-{i}")), now);
            let j = q.take(now).expect("a calm thread");
            assert_eq!(j.nicer, crate::search_thread::NICER / 2, "a calm thread's priority");
            j
        })
        .collect()
}

/// The games taken one after another, each done at once (no time passes).
fn drain(q: &Arc<AiQueue>, now: Instant) -> Vec<String> {
    std::iter::from_fn(|| q.take(now)).map(|j| j.game).collect()
}

/// Human games first; AI-only games on at most `workers - 1` threads.
#[test]
fn humans_first_then_ai_only_games_within_their_threads() {
    let now = Instant::now();
    let q = AiQueue::new(2);
    q.push_at(job("a", false, "x"), now);
    q.push_at(job("b", false, "y"), now);
    q.push_at(job("h", true, "z"), now);
    q.push_at(job("a", false, "x"), now); // once, however often asked
    assert_eq!(q.take(now).unwrap().game, "h");
    let a = q.take(now).unwrap();
    assert_eq!(a.game, "a");
    // One AI-only thread of two: b waits, though a thread is free.
    assert_eq!(q.take(now), None);
    q.push_at(job("a", false, "x"), now); // asked again while running: after b
    q.done_at(&a, now);
    assert_eq!(q.take(now).unwrap().game, "b");
}

/// With no CPU used yet: an address with nothing running before one with work running,
/// then one with nothing else waiting before one with more; among equals, the first
/// asked.
#[test]
fn turns_go_round_the_addresses_then_their_games() {
    let now = Instant::now();
    let q = AiQueue::new(8);
    for g in ["m1", "m2", "m3", "m4"] {
        q.push_at(job(g, true, "many"), now);
    }
    q.push_at(job("o1", true, "one"), now);
    q.push_at(job("t1", true, "two"), now);
    q.push_at(job("t2", true, "two"), now);
    assert_eq!(drain(&q, now), ["o1", "m1", "t1", "t2", "m2", "m3", "m4"]);
}

/// A flood holds both slots; a calm address's AI move starts at once on a calm thread, half
/// as far below the server's priority as the slots' searches, and nothing is cut. Its
/// second piece of work, asked while the first runs, is not calm: it waits its turn.
#[test]
fn a_calm_address_takes_a_calm_thread_and_nothing_is_cut() {
    let t0 = Instant::now();
    let q = AiQueue::new(2);
    for g in 0..3 {
        q.push_at(job(&format!("f{g}"), true, "flood"), t0);
        q.push_at(job(&format!("g{g}"), true, "flood2"), t0);
    }
    let first = q.take(t0).unwrap();
    let second = q.take(t0).unwrap();
    assert_eq!(first.nicer, crate::search_thread::NICER, "a slot's priority");
    assert_eq!(q.take(t0), None, "two slots");
    let t1 = t0 + Duration::from_secs(1);
    q.push_at(job("calm", true, "10.9.9.9"), t1);
    let calm = q.take(t1).expect("the calm move starts at once");
    assert_eq!(calm.game, "calm");
    assert_eq!(calm.nicer, crate::search_thread::NICER / 2);
    assert!(!first.stop.is_raised() && !second.stop.is_raised(), "nothing cut");
    q.push_at(job("calm2", true, "10.9.9.9"), t1);
    assert_eq!(q.take(t1), None, "the calm address's second move waits");
    assert!(!first.stop.is_raised() && !second.stop.is_raised(), "nothing cut");
}

/// A calm address's long search leaves its calm thread after [`CALM_HOLD`]: it counts as a
/// slot's, the next calm address gets the calm thread, and the slots take no new work
/// until they are below their number again.
#[test]
fn a_long_search_leaves_its_calm_thread() {
    let t0 = Instant::now();
    let q = AiQueue::new(1);
    q.push_at(job("f", true, "flood"), t0);
    let on_slot = q.take(t0).unwrap();
    let long = take_calm_threads(&q, 1, t0).pop().unwrap();
    let t1 = t0 + Duration::from_millis(100);
    q.push_at(job("d", true, "calm-b"), t1);
    assert_eq!(q.take(t1), None, "100 ms into its search, the calm thread is held");
    assert!(
        !on_slot.stop.is_raised() && !long.stop.is_raised(),
        "single searches are not cut"
    );
    let t2 = t0 + CALM_HOLD + Duration::from_millis(50);
    q.recheck_at(t2);
    let next = q.take(t2).expect("the calm thread is free again");
    assert_eq!((next.game.as_str(), next.nicer), ("d", crate::search_thread::NICER / 2));
    q.push_at(job("g", true, "flood2"), t2);
    assert_eq!(q.take(t2), None, "the slot and the long search fill the slots");
    q.done_at(&long, t2);
    assert_eq!(q.take(t2), None, "one slot, still held");
    q.done_at(&on_slot, t2);
    assert_eq!(q.take(t2).unwrap().game, "g");
}

/// A flood: ten addresses, each with a minute of CPU used lately, have three human
/// games each in the line and hold both threads; they do not cut each other's searches.
/// When the calm threads are taken too, one more calm address's AI move cuts one
/// flooder's search (the one that used most), not both, and the calm game gets the
/// thread it frees, ahead of the 27 flood games asked before it.
#[test]
fn a_calm_address_goes_next_and_a_flooders_search_is_cut_for_it() {
    let t0 = Instant::now();
    let q = AiQueue::new(2);
    for a in 0..10 {
        q.lock().used_before(&format!("10.0.0.{a}"), 60.0, t0);
    }
    for round in 0..3 {
        for a in 0..10 {
            q.push_at(job(&format!("f{a}-{round}"), true, &format!("10.0.0.{a}")), t0);
        }
    }
    let first = q.take(t0).unwrap();
    let second = q.take(t0).unwrap();
    assert_eq!(q.take(t0), None, "two threads");
    let t1 = t0 + Duration::from_secs(30);
    q.done_at(&first, t1);
    let third = q.take(t1).unwrap();
    assert!(
        !second.stop.is_raised() && !third.stop.is_raised(),
        "flooders do not cut each other"
    );
    let t2 = t1 + Duration::from_secs(1);
    take_calm_threads(&q, 2, t2);
    assert!(
        !second.stop.is_raised() && !third.stop.is_raised(),
        "calm threads cut nothing"
    );
    q.push_at(job("calm", true, "10.9.9.9"), t2);
    assert!(
        second.stop.is_raised(),
        "the search of the flooder that used most is cut"
    );
    assert!(!third.stop.is_raised(), "one cut for one calm address");
    q.done_at(&second, t2);
    assert_eq!(q.take(t2).unwrap().game, "calm");
}

/// An address past [`CALM_USE`] (a player whose AI replies at level 9 cost seconds)
/// cuts only a search whose address used twice as much: not when the flood's search is
/// fresh, but at a second look once it has run a while (before the second look, the
/// calm work waited for the whole search).
#[test]
fn a_second_look_cuts_a_flood_search_that_has_grown() {
    let t0 = Instant::now();
    let q = AiQueue::new(1);
    q.lock().used_before("calm", 1.5, t0);
    for g in 0..3 {
        q.push_at(job(&format!("f{g}"), true, "flood"), t0);
    }
    let running = q.take(t0).unwrap();
    let t1 = t0 + Duration::from_millis(20);
    q.push_at(job("calm", true, "calm"), t1);
    assert_eq!(q.take(t1), None, "past CALM_USE: no calm thread");
    assert!(!running.stop.is_raised(), "the flood's search has used 20 ms");
    let t2 = t0 + Duration::from_millis(2_900);
    q.recheck_at(t2);
    assert!(!running.stop.is_raised(), "2.9 s: not twice the calm address's 1.5");
    let t3 = t2 + RECHECK_EVERY;
    q.recheck_at(t3);
    assert!(running.stop.is_raised(), "3.0 s: more than twice 1.5");
    q.done_at(&running, t3);
    assert_eq!(q.take(t3).unwrap().game, "calm");
}

/// At a flood's start the flood's searches are fresh, and a calm player who had used a
/// little CPU (a few level-1 replies and hints: 120 ms) waited until they had used twice
/// as much (120–350 ms against 10 quiet). Under [`CALM_USE`] it cuts one at once (when
/// the calm threads are taken).
#[test]
fn a_calm_address_cuts_a_fresh_flood_search_at_once() {
    let t0 = Instant::now();
    let q = AiQueue::new(2);
    q.lock().used_before("calm", 0.12, t0);
    for g in 0..3 {
        q.push_at(job(&format!("f{g}"), true, "flood"), t0);
        q.push_at(job(&format!("g{g}"), true, "flood2"), t0);
    }
    let first = q.take(t0).unwrap();
    let second = q.take(t0).unwrap();
    assert!(
        !first.stop.is_raised() && !second.stop.is_raised(),
        "flooders do not cut each other"
    );
    let t1 = t0 + Duration::from_millis(5);
    take_calm_threads(&q, 2, t1);
    q.push_at(job("calm", true, "calm"), t1);
    assert_eq!(
        [&first, &second].iter().filter(|j| j.stop.is_raised()).count(),
        1,
        "one search cut for the calm address, 5 ms into the flood"
    );
    let cut = if first.stop.is_raised() { first } else { second };
    q.done_at(&cut, t1);
    assert_eq!(q.take(t1).unwrap().game, "calm");
}

/// Hints and AI moves share the line: a calm address's hint takes the calm thread at once,
/// and the next calm address's hint the next free thread ahead of a flood of AI moves;
/// then the flood's next move.
#[tokio::test]
async fn hints_and_ai_moves_share_one_line() {
    let t0 = Instant::now();
    let q = AiQueue::new(1);
    for g in 0..5 {
        q.push_at(job(&format!("f{g}"), true, "flood"), t0);
    }
    let running = q.take(t0).unwrap();
    let mut first = q.ask_at("calm-1", true, t0);
    let on_calm_thread = first.try_recv().expect("a calm thread at once");
    assert_eq!(on_calm_thread.nicer(), crate::search_thread::NICER / 2);
    assert!(!running.stop.is_raised(), "nothing cut for it");
    let mut hint = q.ask_at("calm", true, t0);
    assert!(hint.try_recv().is_err(), "the only thread is taken");
    assert!(
        running.stop.is_raised(),
        "the calm address has used nothing: the flood's search is cut for it"
    );
    // (Within CALM_HOLD: the first hint stays on its calm thread.)
    let t1 = t0 + Duration::from_millis(100);
    q.done_at(&running, t1);
    assert_eq!(q.take(t1), None, "the hint holds the thread");
    let slot = hint.try_recv().expect("the hint has the thread");
    drop(slot);
    assert_eq!(q.take(t1 + Duration::from_millis(100)).unwrap().game, "f1");
}

/// Ten addresses with two hints under way each (one running or waiting, one waiting,
/// as the guard allows) and CPU used lately do not keep a calm address behind them: it
/// has used less, so it goes first; when the calm threads are taken, one flooder's
/// running hint is cut for it.
#[tokio::test]
async fn a_calm_hint_goes_before_hints_of_busy_addresses() {
    let t0 = Instant::now();
    let q = AiQueue::new(2);
    let mut slots = Vec::new();
    let mut waiting = Vec::new();
    for a in 0..10 {
        q.lock().used_before(&format!("10.0.0.{a}"), 60.0, t0);
    }
    for _ in 0..2 {
        for a in 0..10 {
            let mut rx = q.ask_at(&format!("10.0.0.{a}"), true, t0);
            match rx.try_recv() {
                Ok(slot) => slots.push(slot),
                Err(_) => waiting.push(rx),
            }
        }
    }
    assert_eq!(slots.len(), 2);
    let stops: Vec<Stop> = slots.iter().map(Slot::stop).collect();
    assert!(stops.iter().all(|s| !s.is_raised()), "flooders do not cut each other");
    let t1 = t0 + Duration::from_secs(10);
    let mut calm_threads: Vec<Slot> = (0..2)
        .map(|i| {
            q.ask_at(&format!("calm-{i}"), true, t1)
                .try_recv()
                .expect("a calm thread")
        })
        .collect();
    assert!(stops.iter().all(|s| !s.is_raised()), "calm threads cut nothing");
    let mut calm = q.ask_at("10.9.9.9", true, t1);
    assert!(calm.try_recv().is_err());
    assert_eq!(
        stops.iter().filter(|s| s.is_raised()).count(),
        1,
        "one hint cut for the calm address"
    );
    slots.retain(|s| !s.stop().is_raised()); // the cut hint ends
    assert!(calm.try_recv().is_ok(), "the calm hint has the thread it freed");
    calm_threads.clear();
}

/// A move's search ended: its thread goes to the next work while its move is written,
/// and the game is not taken again before it is done.
#[test]
fn a_thread_is_free_once_the_search_ends() {
    let now = Instant::now();
    let q = AiQueue::new(1);
    // Both past CALM_USE: no calm thread for either.
    q.lock().used_before("x", 2.0, now);
    q.lock().used_before("y", 2.0, now);
    q.push_at(job("a", true, "x"), now);
    q.push_at(job("b", true, "y"), now);
    let a = q.take(now).unwrap();
    assert_eq!(q.take(now), None, "one thread");
    q.searched_at(&a, now);
    let b = q.take(now).expect("the thread is free while a's move is written");
    assert_eq!(b.game, "b");
    q.push_at(job("a", true, "x"), now); // asked again while its move is written
    assert_eq!(q.take(now), None, "b holds the thread; a is not in the line twice");
    q.done_at(&a, now);
    q.done_at(&b, now);
    assert_eq!(q.take(now).unwrap().game, "a");
    assert_eq!(q.take(now), None);
}

/// AI-only games over the caps run only when nothing else waits, on one thread.
#[test]
fn games_over_the_caps_go_last_on_one_thread() {
    let now = Instant::now();
    let q = AiQueue::new(3);
    for g in ["o1", "o2"] {
        q.over_cap(g);
        q.push_at(job(g, false, "x"), now);
    }
    q.push_at(job("a", false, "y"), now);
    q.push_at(job("h", true, "z"), now);
    assert_eq!(drain(&q, now), ["h", "a", "o1"]);
}

/// Without workers, AI moves wait; hints still get threads.
#[tokio::test]
async fn without_workers_hints_still_run() {
    let now = Instant::now();
    let q = AiQueue::new(0);
    q.push_at(job("g", true, "x"), now);
    assert_eq!(q.take(now), None);
    let mut hint = q.ask_at("x", true, now);
    assert!(hint.try_recv().is_ok());
}
