//! The figures as `rumis bench` prints them: a table, or JSON with how they were taken.

use serde::Serialize;

use super::Figure;
use rumis_core::CodePath;

pub(super) fn fmt_num(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.3}")
    }
}

pub(super) fn table(figures: &[Figure]) -> String {
    let head = ["figure", "median", "min", "max", "unit", "path", "target", "met"];
    let rows: Vec<[String; 8]> = figures
        .iter()
        .map(|f| {
            [
                f.name.clone(),
                fmt_num(f.median()),
                fmt_num(f.min()),
                fmt_num(f.max()),
                f.unit.to_string(),
                f.path.map_or("-", CodePath::name).to_string(),
                f.target.map(|t| format!(">= {}", fmt_num(t))).unwrap_or_default(),
                match f.meets() {
                    Some(true) => "yes".into(),
                    Some(false) => "NO".into(),
                    None => String::new(),
                },
            ]
        })
        .collect();
    let mut w = head.map(str::len);
    for r in &rows {
        for (i, c) in r.iter().enumerate() {
            w[i] = w[i].max(c.chars().count());
        }
    }
    let line = |cells: &[String]| {
        let mut s = String::new();
        for (i, c) in cells.iter().enumerate() {
            let pad = w[i] - c.chars().count();
            if (1..=3).contains(&i) {
                s.push_str(&" ".repeat(pad));
                s.push_str(c);
            } else {
                s.push_str(c);
                s.push_str(&" ".repeat(pad));
            }
            s.push_str("  ");
        }
        s.trim_end().to_string() + "\n"
    };
    let mut out = line(&head.map(String::from));
    for r in &rows {
        out.push_str(&line(r));
    }
    out
}

/// `rumis bench --json`: the figures with how they were taken.
#[derive(Serialize)]
struct Report<'a> {
    best_path: &'static str,
    repetitions: usize,
    clock: &'a str,
    figures: Vec<FigureJson<'a>>,
}

#[derive(Serialize)]
struct FigureJson<'a> {
    figure: &'a str,
    median: f64,
    min: f64,
    max: f64,
    unit: &'a str,
    path: Option<&'static str>,
    target: Option<f64>,
    met: Option<bool>,
    samples: &'a [f64],
}

pub(super) fn json(figures: &[Figure], reps: usize, clock: &str) -> String {
    let report = Report {
        best_path: CodePath::active().name(),
        repetitions: reps,
        clock,
        figures: figures
            .iter()
            .map(|f| FigureJson {
                figure: &f.name,
                median: f.median(),
                min: f.min(),
                max: f.max(),
                unit: f.unit,
                path: f.path.map(CodePath::name),
                target: f.target,
                met: f.meets(),
                samples: &f.samples,
            })
            .collect(),
    };
    serde_json::to_string(&report).expect("figures are plain numbers and strings")
}
