//! The protocol's contract: `web/src/engine/protocol.ts`, the web app's types for every
//! request to the engine and each command's answer. `tests/protocol.rs` fails when the
//! checked-in file differs from what this writes, and writes it with `UPDATE_CONTRACT=1`.

use std::collections::BTreeSet;

use ts_rs::{Config, Dependency, TypeVisitor, TS};

use super::*;

/// Where the TypeScript types go, from the workspace's root.
pub const TYPESCRIPT_FILE: &str = "web/src/engine/protocol.ts";

/// The command that writes the file again.
pub const WRITE_COMMAND: &str = "UPDATE_CONTRACT=1 cargo test --profile test-run -p rumis-wasm --test protocol";

/// Appends `T`'s declaration, with its documentation, and notes its name and what it names.
fn declare<T: TS + ?Sized + 'static>(
    cfg: &Config,
    out: &mut String,
    local: &mut BTreeSet<String>,
    named: &mut BTreeSet<String>,
) {
    out.push('\n');
    if let Some(docs) = T::docs() {
        out.push_str(&docs);
    }
    out.push_str("export ");
    out.push_str(&T::decl(cfg));
    out.push('\n');
    local.insert(T::ident(cfg));
    named.extend(T::dependencies(cfg).into_iter().map(|d| d.ts_name));
}

/// Collects the names of the types visited (the answers).
struct Names<'a>(&'a Config, &'a mut BTreeSet<String>);

impl TypeVisitor for Names<'_> {
    fn visit<T: TS + 'static + ?Sized>(&mut self) {
        if let Some(dep) = Dependency::from_ty::<T>(self.0) {
            self.1.insert(dep.ts_name);
        }
    }
}

/// `web/src/engine/protocol.ts`: the requests, the answers of this crate's own, and the map
/// from a command to its answer; the answers that are the server's shapes are imported from
/// `web/src/wire.ts` (rumis-wire's contract).
pub fn typescript() -> String {
    // As the wire's contract: the integers are JSON numbers well within a double's 53 bits.
    let cfg = Config::new().with_large_int("number");
    let mut body = String::new();
    let mut local = BTreeSet::new();
    let mut named = BTreeSet::new();
    macro_rules! declare_all {
        ($($t:ty),* $(,)?) => { $(declare::<$t>(&cfg, &mut body, &mut local, &mut named);)* };
    }
    declare_all!(
        // The requests.
        Request,
        NewRequest,
        ReadRecordRequest,
        StateRequest,
        Seat,
        RecordRequest,
        PlayRequest,
        UndoRequest,
        AiRequest,
        HintRequest,
        AnalysisRequest,
        ReviewRequest,
        PlayoutsRequest,
        PerftRequest,
        PuzzleRequest,
        PuzzleSolutionRequest,
        CheckBoardRequest,
        BoardTomlRequest,
        TrainingPickRequest,
        TrainingPuzzleRequest,
        TrainingAttemptRequest,
        // The puzzles as the static app ships them (rumis_ai::puzzles).
        rumis_ai::puzzles::Puzzle,
        rumis_ai::puzzles::Theme,
        rumis_ai::puzzles::Proof,
        rumis_ai::puzzles::pick::Candidate,
        rumis_ai::puzzles::pick::Filter,
        // The answers that are the engine's own.
        NewAnswer,
        ReadRecordAnswer,
        LegalAnswer,
        PlayAnswer,
        UndoAnswer,
        AiAnswer,
        PlayoutsAnswer,
        ReviewAnswer,
        PerftAnswer,
        EngineAnswer,
        BoardTomlAnswer,
        TrainingPickAnswer,
        // The lessons of "How to play" (the server's `GET /lessons` answers them too).
        rumis_lessons::Lessons,
        rumis_lessons::LessonExample,
        rumis_lessons::LessonScore,
        rumis_lessons::LessonBoard,
        rumis_lessons::LessonCell,
        rumis_lessons::ColourCubes,
        rumis_lessons::RuleDetail,
        rumis_lessons::ColourScore,
    );
    visit_answers(&mut Names(&cfg, &mut named));
    body.push_str("\n/** Each command's answer (a refusal is an `EngineFailure`). */\nexport type EngineAnswers = {\n");
    for (cmd, answer) in answer_types(&cfg) {
        body.push_str(&format!("  {cmd}: {answer};\n"));
    }
    body.push_str(
        "};\n\n/** A command's name. */\nexport type EngineCommand = EngineRequest[\"cmd\"];\n\n\
         /** The request of a command. */\n\
         export type RequestOf<C extends EngineCommand> = Extract<EngineRequest, { cmd: C }>;\n\n\
         /** A refused request: the server's error body (a refused board file's `file`, `line` and\n \
         * `message` too). */\nexport type EngineFailure = ErrorBody;\n",
    );
    // Every name the declarations use that they do not declare is a wire type; and the
    // colours and letters, and the error body, which the overrides and the footer name.
    named.extend(["Colour", "Letter", "ErrorBody"].map(String::from));
    let imports: Vec<String> = named.difference(&local).cloned().collect();
    format!(
        "// Written by `{WRITE_COMMAND}` from the\n\
         // types of crates/rumis-wasm/src/protocol.rs: change them, not this file.\n\n\
         import type {{ {} }} from \"../wire\";\n{body}",
        imports.join(", ")
    )
}
