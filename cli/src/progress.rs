//! Progress on stderr for the long runs (`eval` with a model, `prune --questions`, `audit --questions`): done/total, rate and ETA, drawn only when stderr is a terminal, so CI logs and pipes stay clean.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// A bar over `total` steps, or one that draws nothing.
pub struct Progress(ProgressBar);

impl Progress {
    /// A bar for `total` steps of `what` (`questions`); hidden unless stderr is a terminal and there is more than one step.
    pub fn new(total: usize, what: &str) -> Progress {
        let shown = total > 1 && std::io::stderr().is_terminal();
        let bar = if shown {
            ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr())
        } else {
            ProgressBar::hidden()
        };
        if let Ok(style) = ProgressStyle::with_template(&format!(
            "{{bar:30}} {{pos}}/{{len}} {what}, {{rate}}, ETA {{eta}}  {{wide_msg}}"
        )) {
            let rate = |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let per_sec = state.per_sec();
                let _ = if state.pos() == 0 || per_sec <= 0.0 {
                    write!(w, "-/s")
                } else if per_sec >= 1.0 {
                    write!(w, "{per_sec:.1}/s")
                } else {
                    write!(w, "{:.1}s each", 1.0 / per_sec.max(1e-9))
                };
            };
            bar.set_style(style.progress_chars("=> ").with_key("rate", rate));
        }
        Progress(bar)
    }

    /// `message` (say, the question) beside the bar while the step runs.
    pub fn step(&self, message: &str) {
        let one_line: String = message
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .take(60)
            .collect();
        self.0.set_message(one_line);
    }

    /// One step done.
    pub fn done(&self) {
        self.0.inc(1);
    }

    /// Runs `f` with the bar cleared (for output on the same terminal), then redraws it.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.0.suspend(f)
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}
