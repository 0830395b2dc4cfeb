// Written by `UPDATE_CONTRACT=1 cargo test -p rumis-wire --test contract` from the
// types of crates/rumis-wire: change them, not this file.

/** A player's colour: red, yellow, green or blue. */
export type Colour = "R" | "Y" | "G" | "B";

/** A cube's letter: its colour, or `X` for a ruin. */
export type Letter = Colour | "X";

/**
 * `201` to `POST /games`.
 */
export type Created = { id: string, hot_seat: boolean, seats: Array<CreatedSeat>, ruins: Array<string>, state_url: string, events_url: string, record_url: string, };

/**
 * A seat in `201` to `POST /games`.
 */
export type CreatedSeat = { seat: number, colours: Array<Colour>, kind: "human" | "ai", level: number | null, token: string | null, };

/**
 * `201` to `POST /games/{id}/moves` (and `200` with the same body to the same move sent
 * again).
 */
export type MoveAck = { number: number, colour: Colour, placement: string, move_number: number, to_move: Colour | null, out: Array<Colour>, 
/**
 * Under the pass rule (rules §6): the colours that could not place after this move
 * and passed (they stay in).
 */
passed: Array<Colour>, over: boolean, };

/**
 * `200` to `POST /games/{id}/undo`.
 */
export type UndoAck = { removed: Array<number>, move_number: number, to_move: Colour | null, };

/**
 * `200` to `DELETE /games/{id}`.
 */
export type Deleted = { id: string, deleted: boolean, };

/**
 * `200` to `POST /games/{id}/resign`.
 */
export type ResignAck = { seat: number, 
/**
 * The colours this resignation put out (empty when they were out already).
 */
retired: Array<Colour>, to_move: Colour | null, over: boolean, };

/**
 * `200` to `POST /games/{id}/leave`.
 */
export type LeaveAck = { seat: number, kind: "human" | "ai", level: number, 
/**
 * `false`: the AI played the seat already; nothing changed.
 */
changed: boolean, };

/**
 * `200` to `GET /games/{id}`, and the snapshot of the events.
 */
export type GameState = { id: string, status: string, created: number, updated: number, hot_seat: boolean, site: SiteInfo, seats: Array<SeatInfo>, moves_played: number, at: number, move_number: number, to_move: Colour | null, seat_to_move: number | null, over: boolean, colours: Array<ColourInfo>, players: Array<number>, winners: Array<number> | null, 
/**
 * Once the game is over, each player's place (1 = first): by score, the players that
 * forfeited last (rules §5.1).
 */
places: Array<number> | null, 
/**
 * The players (seats) that forfeited so far: resigned, or ran out of time under the
 * "out" rule (rules §5.1).
 */
forfeited: Array<number>, moves: Array<MoveInfo>, last_move: LastMove | null, legal_moves: Array<string>, position: PositionInfo, 
/**
 * The game's clock, if it has one.
 */
clock: ClockInfo | null, 
/**
 * The colours that left the game (resigned, or ran out of time), in order.
 */
left: Array<LeftInfo>, 
/**
 * A game made from a position: where it began (`null` for a game from the start).
 */
from_position: FromPosition | null, };

/**
 * The setup part of a state.
 */
export type SiteInfo = { board: string, files: number, ranks: number, players: number, variant: string, colours: Array<Colour>, ruin_colour: Colour | null, ruins: Array<string>, hmax: number, 
/**
 * `out` or `pass`: what happens to a colour that cannot place (rules §6).
 */
stuck_rule: "out" | "pass", 
/**
 * Whether the board is one of the players' own, not a scenario.
 */
custom: boolean, 
/**
 * A board of one's own: its file, as the game was created with it.
 */
board_file: string | null, };

/**
 * A seat in a state (no token).
 */
export type SeatInfo = { seat: number, colours: Array<Colour>, kind: "human" | "ai", level: number | null, };

export type ColourInfo = { colour: Colour, name: string, seat: number | null, out: boolean, score: number | null, stones_left: Array<string>, };

export type MoveInfo = { number: number, colour: Colour, placement: string, created: number, 
/**
 * The colours that passed after this move (the pass rule, rules §6).
 */
passed: Array<Colour>, };

/**
 * The move just before `at`, with the cubes it took.
 */
export type LastMove = { number: number, colour: Colour, placement: string, cubes: Array<[number, number, number]>, };

export type PositionInfo = { cube_count: number, columns: Array<ColumnInfo>, };

export type ColumnInfo = { cell: string, x: number, y: number, limit: number, height: number, top: Letter | null, cubes: Array<Letter>, };

/**
 * A colour that left the game (resigned, or ran out of time), in a state.
 */
export type LeftInfo = { colour: Colour, after_move: number, reason: string | null, };

/**
 * Where a game made from a position began (`POST /api/v1/games` with `moves`): the moves
 * it was given at its creation (its first moves, played before it began) and the server
 * game they are the start of, if one. Such a game is never rated.
 */
export type FromPosition = { moves: number, 
/**
 * The server game whose first `moves` moves these are (checked at creation).
 */
game: string | null, };

/**
 * A game's clock in its state and in `clock` events: the rule, the server's time `now`
 * and each seat's time left at `now` (the running seat's goes on running from then).
 */
export type ClockInfo = { kind: "realtime" | "correspondence", initial_ms: number, increment_ms: number, per_move_ms: number, on_timeout: "out" | "ai", ai_level: number | null, now: number, running_seat: number | null, seats: Array<SeatClock>, };

/**
 * A seat's time left in a clock.
 */
export type SeatClock = { seat: number, remaining_ms: number, };

/**
 * `200` to `GET /games/{id}/placements`.
 */
export type Placements = { move_number: number, colour: Colour | null, placements: Array<Placement>, };

/**
 * A placement with the cubes it would occupy (`/placements`, hints).
 */
export type Placement = { placement: string, stone: string, orientation: number, cubes: Array<[number, number, number]>, };

/**
 * `200` to `GET /games`.
 */
export type GameList = { status: string, games: Array<Summary>, };

/**
 * A game in `GET /games`.
 */
export type Summary = { id: string, board: string, players: number, variant: string, status: string, to_move: Colour | null, moves_played: number, move_number: number, created: number, updated: number, 
/**
 * On a board of the players' own (its name is `board`).
 */
custom: boolean, };

/**
 * `200` to `POST /games/{id}/hint`: a placement for the colour to move, with the search's
 * figures.
 */
export type Hint = { colour: Colour, 
/**
 * The mover's mean reward over the whole search: 0 (last, by far) to 1 (first, by far).
 */
estimate: number, simulations: number, level: number, placement: string, stone: string, orientation: number, cubes: Array<[number, number, number]>, };

/**
 * `200` to `GET /games/{id}/analysis`.
 */
export type Analysis = { colours: Array<Colour>, moves_played: number, simulations: number, 
/**
 * Per position, each colour's win estimate.
 */
estimates: Array<{ [key in string]: number }>, moves: Array<MoveLoss>, worst: Array<number>, };

/**
 * A move of an analysis and what it lost for its colour.
 */
export type MoveLoss = { number: number, colour: Colour, placement: string, loss: number, };

/**
 * `200` (done) or `202` (under way) to `POST` and `GET /games/{id}/review`.
 */
export type ReviewProgress = { game: string, 
/**
 * `queued` (waiting for the AI's threads), `running` or `done`.
 */
status: "queued" | "running" | "done", 
/**
 * Searches done and searches known to be needed so far (the count grows by one for
 * each move whose best was not the move played).
 */
done: number, total: number, simulations: number, 
/**
 * Once `done`.
 */
review: GameReview | null, };

/**
 * A finished review: the engine's `review` answer, and the `review` of the server's.
 */
export type GameReview = { colours: Array<Colour>, moves_played: number, 
/**
 * Simulations per position searched.
 */
simulations: number, 
/**
 * Per position, from the start to after the last move, each colour's win estimate
 * (the graph).
 */
estimates: Array<{ [key in string]: number }>, moves: Array<ReviewedMove>, 
/**
 * By the order of play.
 */
summaries: Array<ReviewSummary>, thresholds: ReviewThresholds, };

/**
 * A move reviewed.
 */
export type ReviewedMove = { 
/**
 * 1-based.
 */
number: number, colour: Colour, played: Placement, 
/**
 * The best placement the search found at the position before the move (the move
 * played when the search chose it).
 */
best: Placement, 
/**
 * The mover's win estimate (0..1) after the move played and after the best.
 */
played_value: number, best_value: number, 
/**
 * `best_value - played_value`, at least 0.
 */
loss: number, 
/**
 * `inaccuracy`, `mistake` or `blunder`; none when the loss is below the thresholds.
 */
mark: "inaccuracy" | "mistake" | "blunder" | null, };

/**
 * What a colour's moves cost it over the game.
 */
export type ReviewSummary = { colour: Colour, moves: number, inaccuracies: number, mistakes: number, blunders: number, 
/**
 * The mean loss of its moves (0..1).
 */
average_loss: number, 
/**
 * 0..100.
 */
accuracy: number, };

/**
 * The losses (0..1) from which a move is marked.
 */
export type ReviewThresholds = { inaccuracy: number, mistake: number, blunder: number, };

/**
 * A puzzle to solve: `200` to `GET /training/daily`, `/training/next` and `/training/{id}`.
 */
export type TrainingPuzzle = { id: string, 
/**
 * The scenario's name (`Chullpa`) and the player count.
 */
board: string, players: number, 
/**
 * The colour to move: the one whose placement is the answer.
 */
to_move: Colour, 
/**
 * The puzzle's rating now (Glicko-2), rounded.
 */
rating: number, 
/**
 * `exact` (proved by the endgame solver) or `searched` (by two searches).
 */
kind: "exact" | "searched", 
/**
 * The daily puzzle's day (`YYYY-MM-DD`, UTC), when this is the daily puzzle.
 */
daily: string | null, 
/**
 * The position, as a game's state (its moves so far included).
 */
state: GameState, 
/**
 * Every placement the colour to move may make: one of them is the answer.
 */
placements: Placements, 
/**
 * The asking player's puzzle rating (a player's key sent; the engine: the one kept in
 * this browser).
 */
you: TrainingRating | null, 
/**
 * Whether the asking player has tried this puzzle before (then an attempt is not
 * rated).
 */
tried: boolean, };

/**
 * A puzzle rating (Glicko-2) and its attempts counted.
 */
export type TrainingRating = { rating: number, deviation: number, volatility: number, 
/**
 * Rated attempts (a player's first attempt at each puzzle).
 */
attempts: number, };

/**
 * A placement of an attempt's result and what it is worth to the colour to move.
 */
export type TrainingPlacement = { placement: Placement, 
/**
 * The mover's reward after it (0..1): under perfect play (`exact`), or a search's
 * estimate (`searched`).
 */
value: number, 
/**
 * `exact`: the mover's place at the end under perfect play (1 = first), whether it is
 * shared, and the score margin over the best other player (negative: behind).
 */
place: number | null, shared: boolean | null, margin: number | null, };

/**
 * A rating before and after an attempt (the same when it was not rated).
 */
export type TrainingChange = { before: number, after: number, };

/**
 * `200` to `POST /training/{id}/attempt`: the engine's `training_attempt` answer too.
 */
export type TrainingResult = { puzzle: string, 
/**
 * The placement given is the puzzle's best.
 */
solved: boolean, played: TrainingPlacement, best: TrainingPlacement, 
/**
 * `exact` or `searched`: how the values were found.
 */
kind: "exact" | "searched", 
/**
 * The result in words (English); the app words it from the fields above.
 */
reason: string, 
/**
 * The puzzle's themes (kebab case: `block-out`, `height-limit`, `last-stone`,
 * `stay-in`, `keep-the-win`, `best-score`).
 */
themes: Array<string>, 
/**
 * Whether this attempt counted for the ratings: a player's first at this puzzle.
 */
rated: boolean, 
/**
 * The player's puzzle rating after it (none without a player's key), and its change.
 */
you: TrainingRating | null, change: TrainingChange | null, 
/**
 * The puzzle's rating, before and after.
 */
puzzle_rating: TrainingChange, };

/**
 * The first message of a game's WebSocket, and the one after events may have been missed:
 * `{ "type": "snapshot", "state": ... }`.
 */
export type Snapshot = { "type": "snapshot", state: GameState, };

/**
 * The events of a game's WebSocket (besides `snapshot`), by `type`. (Read back from
 * PostgreSQL's notifications too.)
 */
export type GameEvent = { "type": "move", game: string, number: number, colour: Colour, placement: string, by: "human" | "ai", move_number: number, to_move: Colour | null, 
/**
 * The colours that passed after this move (the pass rule, rules §6).
 */
passed: Array<Colour>, } | { "type": "out", game: string, colour: Colour, after_move: number, } | { "type": "game_over", game: string, after_move: number, scores: Array<Score>, winners: Array<number>, 
/**
 * Each player's place, 1 = first, the players that forfeited last (rules §5.1).
 */
places: Array<number>, 
/**
 * The players (seats) that forfeited: resigned, or ran out of time (rules §5.1).
 */
forfeited: Array<number>, } | { "type": "undo", game: string, removed: Array<number>, move_number: number, to_move: Colour | null, } | { "type": "ai_thinking", game: string, colour: Colour, move_number: number, level: number, } | { "type": "deleted", game: string, } | { "type": "abandoned", game: string, } | { "type": "seated", game: string, seat: number, player: string | null, name: string | null, started: boolean, } | { "type": "filled", game: string, seats: Array<number>, level: number, } | { "type": "aborted", game: string, } | { "type": "rematch_offered", game: string, rematch: string, by: string, } | { "type": "rematch_declined", game: string, rematch: string, by: string, } | { "type": "expired", game: string, idle_ms: number, } | { "type": "rated", game: string, } | { "type": "lobby_changed" } | { "type": "clock", game: string, clock: ClockInfo, } | { "type": "resigned", game: string, seat: number, colours: Array<Colour>, after_move: number, } | { "type": "timeout", game: string, seat: number, colours: Array<Colour>, rule: "out" | "ai", level: number | null, after_move: number, } | { "type": "seat_changed", game: string, seat: number, kind: "human" | "ai", level: number | null, reason: string, };

/**
 * A colour's score in `game_over`.
 */
export type Score = { colour: Colour, score: number, };

/**
 * `200` to `GET /boards`.
 */
export type Boards = { boards: Array<BoardInfo>, };

/**
 * A scenario in `GET /boards`.
 */
export type BoardInfo = { name: string, aliases: Array<string>, files: number, ranks: number, hmax: PerCount<number>, columns: PerCount<number>, provenance: "printed-rules" | "reconstruction", source: string, layouts: PerCount<Layout>, 
/**
 * Sourced facts about the board (its file's `[[evidence]]`).
 */
evidence: Array<EvidenceInfo>, };

/**
 * A value for each player count, keyed `"2"`, `"3"`, `"4"`.
 */
export type PerCount<T> = { "2": T, "3": T, "4": T, };

export type Layout = { hmax: number, cells: Array<LayoutCell>, };

/**
 * A buildable cell of a board for a player count (frames applied).
 */
export type LayoutCell = { cell: string, x: number, y: number, printed: number | null, limit: number, };

export type EvidenceInfo = { fact: string, source: string, constraints: Array<ConstraintInfo>, };

/**
 * A constraint as a board file writes it, with the core's words for it.
 */
export type ConstraintInfo = { "kind": "min_cells", players: number, value: number, text: string, } | { "kind": "hmax", players: number, value: number, text: string, } | { "kind": "reaches_level", players: number, value: number, text: string, } | { "kind": "frames_for", counts: Array<number>, text: string, };

/**
 * `200` to `POST /boards/check`.
 */
export type BoardChecked = { board: CheckedBoard, };

/**
 * A board as the editor needs it: every field of its file, and what the core derives from
 * it for each player count.
 */
export type CheckedBoard = { name: string, aliases: Array<string>, provenance: "printed-rules" | "reconstruction", source: string, files: number, ranks: number, footprint: Array<FootprintCell>, hmax: PerCount<number>, frames: PerCount<FrameInfo | null>, columns: PerCount<number>, volume: PerCount<number>, layouts: PerCount<Layout>, evidence: Array<EvidenceInfo>, };

/**
 * A footprint cell in a checked board (its printed height, if any).
 */
export type FootprintCell = { cell: string, x: number, y: number, printed: number | null, };

/**
 * A red frame: its text and its file and rank ranges.
 */
export type FrameInfo = { text: string, files: [number, number], ranks: [number, number], };

/**
 * `200` to `GET /stones`.
 */
export type Stones = { stones: Array<StoneInfo>, };

/**
 * A stone in `GET /stones`: each orientation's cells, and where a quarter turn about x, y
 * or z takes it.
 */
export type StoneInfo = { code: string, size: number, orientations: Array<Array<[number, number, number]>>, turns: Array<[number, number, number]>, };

/**
 * `200` to `POST /puzzles/cube`.
 */
export type PuzzleState = { size: [number, number, number], volume: number, filled: number, solved: boolean, stuck: boolean, stones_left: Array<string>, placed: Array<Placed>, placements: Array<Placement>, };

/**
 * A stone in a puzzle box.
 */
export type Placed = { placement: string, stone: string, cubes: Array<[number, number, number]>, };

/**
 * `200` to `GET /puzzles/{name}`.
 */
export type PuzzleSolution = { name: string, size: [number, number, number], record: string | null, steps: Array<Step>, };

/**
 * A stone of a solution, with its colour.
 */
export type Step = { colour: Colour, placement: string, cubes: Array<[number, number, number]>, };

/**
 * `201` to `POST /players`: the only answer that ever holds the key.
 */
export type NewPlayer = { id: string, name: string, key: string, rating: Rating, player_url: string, };

/**
 * A rating as shown: `rating` on the Elo-like scale (1500 for a new player), from the
 * Weng-Lin `mu` and `sigma` it is computed from.
 */
export type Rating = { rating: number, mu: number, sigma: number, games: number, 
/**
 * Fewer rated games than it takes for the rating to mean much.
 */
provisional: boolean, };

/**
 * A player as others see it.
 */
export type PlayerRef = { id: string, name: string, rating: number, provisional: boolean, };

/**
 * `200` to `GET /players/{id}` and `GET /players/me`.
 */
export type PlayerPage = { id: string, name: string, rating: Rating, created: number, 
/**
 * Games waiting for players or in play.
 */
open: Array<PlayerGame>, 
/**
 * Games finished, aborted or abandoned.
 */
finished: Array<PlayerGame>, };

/**
 * A game on a player's page.
 */
export type PlayerGame = { game: string, board: string, players: number, variant: string, status: string, rated: boolean, 
/**
 * A rated game against the AI alone in which a hint was asked for.
 */
assisted: boolean, seat: number | null, seats: Array<TableSeat>, moves_played: number, updated: number, record_url: string, rating_change: RatingDelta | null, 
/**
 * A rated game that finished but was not counted, and why: `too_few_moves` (it ended
 * in a forfeit before every player had made two moves) or `same_pair_today` (two of
 * its players had three rated games together that day already).
 */
not_counted: "too_few_moves" | "same_pair_today" | null, };

/**
 * A rated game's effect on a player.
 */
export type RatingDelta = { place: number, before: number, after: number, };

/**
 * `200` to `GET /lobby`, and the lobby socket's `lobby` message.
 */
export type Lobby = { 
/**
 * Games waiting for players, newest first.
 */
seeks: Array<Table>, 
/**
 * Lobby games in play, to watch.
 */
playing: Array<Table>, };

/**
 * A game as the lobby shows it (`GET /games/{id}/table`, the lobby's lists).
 */
export type Table = { game: string, status: string, board: string, players: number, variant: string, 
/**
 * The game came through the lobby (seek, quick play, rematch): it may be rematched.
 */
lobby: boolean, rated: boolean, 
/**
 * A rated game against the AI alone in which a hint was asked for.
 */
assisted: boolean, quick: boolean, 
/**
 * The game's clock as the state shows it (for a seek: the rule, and nobody's time
 * running yet); `null`: untimed.
 */
clock: ClockInfo | null, 
/**
 * Quick play: when the free seats get the AI (ms since the epoch), and at what level.
 */
fill_at: number | null, fill_level: number | null, seats: Array<TableSeat>, free_seats: number, moves_played: number, can_abort: boolean, 
/**
 * An aborted game: why it was called off (aborted by a seated player, expired while
 * its creator was gone, a rematch declined); `null` for any other game, and for one
 * called off before the server kept the reason.
 */
called_off: "aborted" | "expired" | "rematch_declined" | null, rematch: string | null, rematch_of: string | null, created: number, updated: number, state_url: string, };

/**
 * A seat at a table: who sits there (or that it is free, or offered to a player).
 */
export type TableSeat = { seat: number, colours: Array<Colour>, kind: "human" | "ai", level: number | null, 
/**
 * `taken` (a player or a guest holds it), `free`, `offered` (a rematch waits for
 * that player) or `ai`.
 */
state: "taken" | "free" | "offered" | "ai", player: PlayerRef | null, };

/**
 * `201` to joining, seeking, quick play and rematch: the seat this player holds now. The
 * player's key moves for it (no other token).
 */
export type Seated = { game: string, seat: number, colours: Array<Colour>, status: string, started: boolean, state_url: string, events_url: string, };

/**
 * `200` to `POST /players/me/presence`: the player is seen now; their waiting games expire
 * when they are not seen for `seek_idle_ms`.
 */
export type Presence = { player: string, seen: number, seek_idle_ms: number, };

/**
 * `200` to `POST /games/{id}/rematch/decline`: the rematch offered after game `game` is
 * called off.
 */
export type DeclineAck = { game: string, rematch: string, status: string, };

/**
 * `200` to `POST /games/{id}/abort`.
 */
export type AbortAck = { game: string, status: string, };

/**
 * `200` to `GET /ratings`.
 */
export type Leaderboard = { entries: Array<LeaderboardEntry>, 
/**
 * Distinct opponents (players, or AI levels) a player must have met in rated games to
 * be listed.
 */
min_opponents: number, };

/**
 * A line of the leaderboard: a player, or an AI level on the same scale.
 */
export type LeaderboardEntry = { place: number, kind: "player" | "ai", id: string | null, name: string | null, level: number | null, rating: number, provisional: boolean, games: number | null, };

/**
 * Every 4xx and 5xx answer: a stable code, a sentence, and for some codes a detail.
 */
export type ErrorBody = { 
/**
 * A stable code (the server's document lists them).
 */
error: string, 
/**
 * What went wrong, in a sentence (English).
 */
reason: string, 
/**
 * `429` and `503`: when to try again (also in `Retry-After`).
 */
retry_after_seconds?: number, 
/**
 * `stale_move_number`: the next move's number; `illegal_move` of a game made from a
 * position (`moves`): the move refused.
 */
move_number?: number, 
/**
 * `not_your_turn`: whose turn it is (`null`: nobody's).
 */
to_move?: Colour | null, 
/**
 * `bad_move` of a puzzle: which of the moves sent.
 */
index?: number, 
/**
 * `bad_board`: where in the file, and what.
 */
file?: string, line?: number, message?: string, 
/**
 * `waiting_for_players`: how many seats are still free.
 */
free_seats?: number, };

/**
 * The details some errors carry (absent fields are not sent).
 */
export type ErrorDetail = { 
/**
 * `429` and `503`: when to try again (also in `Retry-After`).
 */
retry_after_seconds?: number, 
/**
 * `stale_move_number`: the next move's number; `illegal_move` of a game made from a
 * position (`moves`): the move refused.
 */
move_number?: number, 
/**
 * `not_your_turn`: whose turn it is (`null`: nobody's).
 */
to_move?: Colour | null, 
/**
 * `bad_move` of a puzzle: which of the moves sent.
 */
index?: number, 
/**
 * `bad_board`: where in the file, and what.
 */
file?: string, line?: number, message?: string, 
/**
 * `waiting_for_players`: how many seats are still free.
 */
free_seats?: number, };

/**
 * `200` to `GET /api/v1`.
 */
export type Index = { name: string, api: number, endpoints: Array<string>, };
