// Written by `UPDATE_CONTRACT=1 cargo test --profile test-run -p rumis-wasm --test protocol` from the
// types of crates/rumis-wasm/src/protocol.rs: change them, not this file.

import type { Analysis, BoardChecked, Boards, Colour, ErrorBody, GameReview, GameState, Hint, Letter, Placements, PuzzleSolution, PuzzleState, Stones, TrainingPuzzle, TrainingRating, TrainingResult } from "../wire";

/**
 * A request to the engine: `{"cmd": NAME, ...the command's fields}`.
 */
export type EngineRequest = { "cmd": "new" } & NewRequest | { "cmd": "read_record" } & ReadRecordRequest | { "cmd": "state" } & StateRequest | { "cmd": "placements" } & RecordRequest | { "cmd": "legal" } & RecordRequest | { "cmd": "play" } & PlayRequest | { "cmd": "undo" } & UndoRequest | { "cmd": "ai" } & AiRequest | { "cmd": "hint" } & HintRequest | { "cmd": "analysis" } & AnalysisRequest | { "cmd": "review" } & ReviewRequest | { "cmd": "playouts" } & PlayoutsRequest | { "cmd": "perft" } & PerftRequest | { "cmd": "engine" } | { "cmd": "puzzle" } & PuzzleRequest | { "cmd": "puzzle_solution" } & PuzzleSolutionRequest | { "cmd": "lessons" } | { "cmd": "boards" } | { "cmd": "stones" } | { "cmd": "check_board" } & CheckBoardRequest | { "cmd": "board_toml" } & BoardTomlRequest | { "cmd": "training_pick" } & TrainingPickRequest | { "cmd": "training_puzzle" } & TrainingPuzzleRequest | { "cmd": "training_attempt" } & TrainingAttemptRequest;

/**
 * `new`: a game on a built-in scenario (`board`) or on a board file (`board_file`).
 */
export type NewRequest = { 
/**
 * A built-in scenario by name, or else
 */
board?: string, 
/**
 * a board file's text (rules §3), as the server's `board_file`.
 */
board_file?: string, players: number, variant?: string, 
/**
 * The order of play as letters, e.g. "YR"; the first colours of R, Y, G, B if absent.
 */
colours?: string, 
/**
 * `out` (the rulebooks', when absent) or `pass` (rules §6's house rule).
 */
stuck_rule?: string, 
/**
 * Ruinas: the seed of the random ruins (rules §6), unless `ruins` are given.
 */
ruins_seed?: number, 
/**
 * Ruinas: the ruins as placements, in order.
 */
ruins?: Array<string>, };

/**
 * `read_record`: a record's text (rules §7).
 */
export type ReadRecordRequest = { text: string, };

/**
 * `state`: a game, in the frame the app knows it in.
 */
export type StateRequest = { record: string, 
/**
 * Only the first `at` moves (all when absent).
 */
at?: number, 
/**
 * Who sits at each player's place (index = player); people when absent.
 */
seats?: Array<Seat>, hot_seat?: boolean, 
/**
 * The game's id in this browser, which the state carries.
 */
id?: string, };

/**
 * Who sits at a player's place: `"human"` or `"ai"` with a level.
 */
export type Seat = { kind: "human" | "ai", level?: number | null, };

/**
 * `placements`, `legal`: a game.
 */
export type RecordRequest = { record: string, };

/**
 * `play`: a placement in notation for the colour to move.
 */
export type PlayRequest = { record: string, 
/**
 * Required (refused without: `bad_request`, "play needs a placement").
 */
placement: string, };

/**
 * `undo`: a game and who sits where.
 */
export type UndoRequest = { record: string, 
/**
 * Who sits at each player's place; without, the last move is taken back.
 */
seats?: Array<Seat>, };

/**
 * `ai`: a game and a level.
 */
export type AiRequest = { record: string, 
/**
 * 1 to 9. Required (refused without: `bad_request`, "ai needs a level (1 to 9)").
 */
level: number, 
/**
 * The seed of the engine's choices (1 when absent).
 */
seed?: number, };

/**
 * `hint`: a game, the level of the search (4 to 9; 6 when absent) and its seed (1).
 */
export type HintRequest = { record: string, level?: number, seed?: number, };

/**
 * `analysis`: a game, and the simulations per position (200 when absent).
 */
export type AnalysisRequest = { record: string, count?: number, };

/**
 * `review`: a game, and the simulations per position (10 000, level 8's budget and the
 * server's, when absent; at most 100 000).
 */
export type ReviewRequest = { record: string, simulations?: number, 
/**
 * At most this many searches in this call (the whole review when absent). The review
 * under way is kept between calls while they ask for the same record and budget, so
 * that a page can show its progress; another record starts afresh.
 */
searches?: number, };

/**
 * `playouts`: how many random games from the game's position (100 when absent, at most
 * a million), and their seed (1).
 */
export type PlayoutsRequest = { record: string, count?: number, seed?: number, };

/**
 * `perft`: how many placements deep (1 when absent, at most 3: the browser has no time
 * limit to cut a deep count short).
 */
export type PerftRequest = { record: string, depth?: number, };

/**
 * `puzzle`: the box's size (`3x3x3` when absent) and the stones placed in it, in order.
 */
export type PuzzleRequest = { size?: string, moves: Array<string>, };

/**
 * `puzzle_solution`: `cube3` or `tower5`.
 */
export type PuzzleSolutionRequest = { name: string, };

/**
 * `check_board`: a board file's text, and its name for the messages (`board.toml`).
 */
export type CheckBoardRequest = { toml: string, file?: string, };

/**
 * `board_toml`: a scenario's name.
 */
export type BoardTomlRequest = { name: string, };

/**
 * `training_pick`: the daily puzzle of `day` when it is given, else the next one for a
 * player of `rating` who tried `tried`, as `filter` says.
 */
export type TrainingPickRequest = { candidates: Array<Candidate>, 
/**
 * Days since 1970-01-01 (UTC).
 */
day?: number, rating?: number, tried?: Array<string>, filter?: Filter, 
/**
 * Which of the nearest puzzles (any number; the page's random one).
 */
seed?: number, };

/**
 * `training_puzzle`: a shipped puzzle (one of `training.json`'s files: its scenario and
 * player count, and the puzzle), with what the page knows of its player.
 */
export type TrainingPuzzleRequest = { board: string, players: number, puzzle: Puzzle, 
/**
 * The daily puzzle's date, when it is that.
 */
daily?: string, 
/**
 * The player's puzzle rating kept in this browser.
 */
you?: TrainingRating, tried?: boolean, };

/**
 * `training_attempt`: an answer to a shipped puzzle; rated when the player's rating is
 * given and they had not tried the puzzle.
 */
export type TrainingAttemptRequest = { board: string, players: number, puzzle: Puzzle, placement: string, you?: TrainingRating, tried?: boolean, };

export type Puzzle = { 
/**
 * `board-players-` and the position's hash: the same position is one puzzle.
 */
id: string, 
/**
 * The placements so far, in the record notation (rules §7).
 */
moves: Array<string>, 
/**
 * The colour to move, by its letter.
 */
to_move: string, 
/**
 * The one best placement.
 */
best: string, themes: Array<Theme>, rating: number, deviation: number, volatility: number, proof: Proof, 
/**
 * Where the position comes from (the game's description).
 */
source: string, };

/**
 * Why the best placement is best, decided from the position.
 */
export type Theme = "block-out" | "height-limit" | "last-stone" | "stay-in" | "keep-the-win" | "best-score";

/**
 * The proof that the best placement is the one: the mover's values (reward, 0..1) of the
 * best and of the runner-up.
 */
export type Proof = { "kind": "exact", value: number, second: number, margin: number, 
/**
 * Positions the solver searched.
 */
nodes: number, } | { "kind": "searched", simulations: number, seeds: [number, number], value: [number, number], second: [number, number], margin: [number, number], };

/**
 * A puzzle as it is chosen: its id, scenario, player count, rating and themes.
 */
export type Candidate = { id: string, 
/**
 * The scenario's name as records write it (`Chullpa`).
 */
board: string, players: number, rating: number, themes: Array<Theme>, };

/**
 * What the next puzzle must be: a scenario (any case), a player count, a theme.
 */
export type Filter = { scenario?: string, players?: number, theme?: Theme, };

/**
 * `new`'s answer.
 */
export type NewAnswer = { record: string, state: GameState, };

/**
 * `read_record`'s answer: the record as the core writes it, and what it is a game of.
 */
export type ReadRecordAnswer = { record: string, board: string, players: number, variant: string, 
/**
 * How many moves it has.
 */
moves: number, over: boolean, };

/**
 * `legal`'s answer.
 */
export type LegalAnswer = { legal: Array<string>, };

/**
 * `play`'s answer: the record after the move, the move, and who is to move.
 */
export type PlayAnswer = { record: string, 
/**
 * The move's number (1 for the first).
 */
number: number, colour: Colour, 
/**
 * The placement, as the core writes it.
 */
placement: string, to_move: Colour | null, 
/**
 * The colours this move put out, in the order of play.
 */
out: Array<Colour>, over: boolean, };

/**
 * `undo`'s answer: the record after, and the numbers of the moves taken back.
 */
export type UndoAnswer = { record: string, removed: Array<number>, };

/**
 * `ai`'s answer: the placement chosen and the simulations searched (0 at levels 1 to 3).
 */
export type AiAnswer = { placement: string, simulations: number, };

/**
 * `playouts`' answer: the games played and their plies in all.
 */
export type PlayoutsAnswer = { games: number, plies: number, };

/**
 * `review`'s answer: the searches done and known to be needed so far, and the review
 * once complete.
 */
export type ReviewAnswer = { done: number, total: number, review: GameReview | null, };

/**
 * `perft`'s answer.
 */
export type PerftAnswer = { depth: number, leaves: number, };

/**
 * `engine`'s answer: the generator's code path (`simd128` in a module compiled with
 * WebAssembly SIMD, else `scalar`; natively the CPU's widest), and whether the module
 * uses relaxed SIMD (`i8x16.relaxed_swizzle`).
 */
export type EngineAnswer = { code_path: string, relaxed_simd: boolean, };

/**
 * `board_toml`'s answer: the scenario's board file.
 */
export type BoardTomlAnswer = { toml: string, };

/**
 * The puzzle chosen (none when the filter admits none), and a daily puzzle's date.
 */
export type TrainingPickAnswer = { id: string | null, date: string | null, };

/**
 * `200` to `GET /lessons`.
 */
export type Lessons = { examples: Array<LessonExample>, scores: Array<LessonScore>, };

/**
 * A placement judged by the core, on a position drawn in 3D.
 */
export type LessonExample = { id: string, board: LessonBoard, players: number, moves: Array<string>, structure: Array<ColourCubes>, colour: Letter, placement: string, stone: string, cubes: Array<[number, number, number]>, legal: boolean, rule: string | null, detail: RuleDetail, reason: string | null, };

/**
 * A position scored by the core.
 */
export type LessonScore = { id: string, board: LessonBoard, players: number, moves: Array<string>, structure: Array<ColourCubes>, colours: Array<ColourScore>, };

/**
 * A lesson's board: its buildable cells for the lesson's player count.
 */
export type LessonBoard = { name: string, files: number, ranks: number, hmax: number, cells: Array<LessonCell>, };

/**
 * A cell of a lesson's board: where it is, the height printed on it (if any) and how
 * high it may be built.
 */
export type LessonCell = { x: number, y: number, printed: number | null, limit: number, };

/**
 * A colour's cubes in a structure (`X` for ruins).
 */
export type ColourCubes = { colour: Letter, cubes: Array<[number, number, number]>, };

/**
 * What a refused placement's rule names (absent fields are not sent).
 */
export type RuleDetail = { stone?: string, column?: string, height?: number, needed?: number, level?: number, colour?: string, };

/**
 * A colour's score in a scored position.
 */
export type ColourScore = { colour: Letter, seen: number, stones_left: number, score: number | null, };

/** Each command's answer (a refusal is an `EngineFailure`). */
export type EngineAnswers = {
  new: NewAnswer;
  read_record: ReadRecordAnswer;
  state: GameState;
  placements: Placements;
  legal: LegalAnswer;
  play: PlayAnswer;
  undo: UndoAnswer;
  ai: AiAnswer;
  hint: Hint;
  analysis: Analysis;
  review: ReviewAnswer;
  playouts: PlayoutsAnswer;
  perft: PerftAnswer;
  engine: EngineAnswer;
  puzzle: PuzzleState;
  puzzle_solution: PuzzleSolution;
  lessons: Lessons;
  boards: Boards;
  stones: Stones;
  check_board: BoardChecked;
  board_toml: BoardTomlAnswer;
  training_pick: TrainingPickAnswer;
  training_puzzle: TrainingPuzzle;
  training_attempt: TrainingResult;
};

/** A command's name. */
export type EngineCommand = EngineRequest["cmd"];

/** The request of a command. */
export type RequestOf<C extends EngineCommand> = Extract<EngineRequest, { cmd: C }>;

/** A refused request: the server's error body (a refused board file's `file`, `line` and
 * `message` too). */
export type EngineFailure = ErrorBody;
