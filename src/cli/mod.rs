//! Command-line interface: argument parsing and plain/JSON output.

mod citations;

use crate::embed::EmbedderKind;
use crate::index::Progress;
use crate::session::{Overrides, Session};
use crate::text::sanitize_for_terminal as clean;
use anyhow::Result;
use clap::{Args, Parser, Subcommand};
use std::path::{Path, PathBuf};

/// Largest draft `verify` reads.
const DRAFT_MAX: u64 = 64 << 20;

mod print;

#[derive(Parser, Debug)]
#[command(
    name = "research-board",
    version,
    about = "Ask questions of your sources; get verbatim quotes you can trust.",
    after_help = "Run without a subcommand to open the board on DIR. Options given before a \
                  subcommand apply to it when it takes them."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Sources folder to open in the board.
    dir: Option<PathBuf>,
    /// Board theme: dark, light, mono, or a theme file (TOML).
    #[arg(long, value_name = "NAME|FILE")]
    theme: Option<String>,
    /// Bibliography (BibTeX/BibLaTeX .bib or CSL-JSON .json): quotes are
    /// copied with their citation, and the board shows each work's author
    /// and year.
    #[arg(long, value_name = "FILE")]
    bibliography: Option<PathBuf>,
    #[command(flatten)]
    store: Store,
    #[command(flatten)]
    embed: Embed,
    #[command(flatten)]
    llm: Llm,
}

/// Where the index and the configuration are: every command.
#[derive(Args, Debug, Clone, Default, PartialEq)]
struct Store {
    /// Where the index lives (default: the platform data directory).
    #[arg(long, value_name = "DIR")]
    index_dir: Option<PathBuf>,
    /// Config file (TOML); default: research-board/config.toml in the platform config directory.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Allow the filesystem root or your home folder itself as the sources
    /// folder (refused by default: it would index the whole disk), and
    /// replace an index folder that holds another folder's index.
    #[arg(long)]
    force: bool,
}

/// The embedder (and the endpoint an `openai` embedder or the LLM calls):
/// every command that reads the sources.
#[derive(Args, Debug, Clone, Default, PartialEq)]
struct Embed {
    /// Embedder: builtin (default, semantic, offline), minilm (the full
    /// transformer; needs --model-dir and a build with --features minilm),
    /// openai (an /embeddings endpoint) or none (BM25 only).
    #[arg(long, value_name = "NAME")]
    embedder: Option<EmbedderKind>,
    /// all-MiniLM-L6-v2 model folder for --embedder minilm (env
    /// RESEARCH_BOARD_MINILM_DIR; get one with scripts/fetch-minilm.sh).
    #[arg(long, value_name = "DIR")]
    model_dir: Option<PathBuf>,
    /// OpenAI-compatible base URL for the LLM and the openai embedder, e.g.
    /// http://127.0.0.1:8080/v1 (env OPENAI_BASE_URL).
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,
}

/// The extractor and its LLM: the commands that answer questions.
#[derive(Args, Debug, Clone, Default, PartialEq)]
struct Llm {
    /// Extractor: extractive (default, offline) or llm (OpenAI-compatible).
    #[arg(long, value_name = "NAME")]
    engine: Option<crate::config::EngineKind>,
    /// LLM model name (env OPENAI_MODEL).
    #[arg(long, value_name = "NAME")]
    model: Option<String>,
    /// Do not let the LLM rerank candidates (the gate uses retrieval scores).
    #[arg(long)]
    no_rerank: bool,
    /// How the LLM gives quotes: snippets (it copies the text; default) or
    /// pointers (it names numbered sentences, the text is the source's).
    #[arg(long, value_name = "MODE")]
    extraction: Option<crate::provider::ExtractionMode>,
    /// Also write the whole pipeline of every query to the debug log.
    #[arg(long)]
    debug: bool,
}

impl Store {
    /// These options, filled in from those given before the subcommand.
    fn or(self, top: &Store) -> Store {
        Store {
            index_dir: self.index_dir.or_else(|| top.index_dir.clone()),
            config: self.config.or_else(|| top.config.clone()),
            force: self.force || top.force,
        }
    }
}

impl Embed {
    fn or(self, top: &Embed) -> Embed {
        Embed {
            embedder: self.embedder.or(top.embedder),
            model_dir: self.model_dir.or_else(|| top.model_dir.clone()),
            base_url: self.base_url.or_else(|| top.base_url.clone()),
        }
    }
}

impl Llm {
    fn or(self, top: &Llm) -> Llm {
        Llm {
            engine: self.engine.or(top.engine),
            model: self.model.or_else(|| top.model.clone()),
            no_rerank: self.no_rerank || top.no_rerank,
            extraction: self.extraction.or(top.extraction),
            debug: self.debug || top.debug,
        }
    }
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Build or update the index of a sources folder.
    Index {
        /// The folder that holds your sources.
        dir: PathBuf,
        /// Print the report as JSON.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        store: Store,
        #[command(flatten)]
        embed: Embed,
    },
    /// Run the whole pipeline once and print the outcome.
    Ask {
        /// The folder that holds your sources.
        dir: PathBuf,
        /// Your question, in quotes.
        question: String,
        /// Print the whole QueryOutcome as JSON.
        #[arg(long)]
        json: bool,
        /// Chunks kept after retrieval (3–5 recommended).
        #[arg(long, value_name = "N")]
        top_k: Option<usize>,
        /// Use the index as it is, without checking the folder for changes.
        #[arg(long)]
        no_update: bool,
        /// Bibliography (BibTeX/BibLaTeX .bib or CSL-JSON .json): each
        /// validated quote of a work in it is cited in the configured style.
        #[arg(long, value_name = "FILE")]
        bibliography: Option<PathBuf>,
        #[command(flatten)]
        store: Store,
        #[command(flatten)]
        embed: Embed,
        #[command(flatten)]
        llm: Llm,
    },
    /// Check quotes (JSON lines, or a Markdown/text draft) against the sources.
    Verify {
        /// The folder that holds your sources.
        dir: PathBuf,
        /// JSON lines {"quote": "...", "source": "optional"} or a draft.
        #[arg(long, value_name = "FILE")]
        quotes: PathBuf,
        /// Print the results as JSON.
        #[arg(long)]
        json: bool,
        /// Use the index as it is, without checking the folder for changes.
        #[arg(long)]
        no_update: bool,
        /// Bibliography (BibTeX/BibLaTeX .bib or CSL-JSON .json): check each
        /// quote's citation against the work it names.
        #[arg(long, value_name = "FILE")]
        bibliography: Option<PathBuf>,
        #[command(flatten)]
        store: Store,
        #[command(flatten)]
        embed: Embed,
    },
    /// Evaluate retrieval and refusals on a question file, or the claim
    /// support judge on labelled pairs (--claims).
    Eval {
        /// The folder that holds your sources.
        dir: PathBuf,
        /// Question set (JSON: see eval/questions.json).
        #[arg(long, value_name = "FILE", required_unless_present = "claims")]
        questions: Option<PathBuf>,
        /// Labelled (claim, quote) pairs (JSON: see eval/claims.json): print
        /// the support judge's confusion matrix, recall, precision and F1.
        #[arg(long, value_name = "FILE", conflicts_with = "questions")]
        claims: Option<PathBuf>,
        /// Print the whole report as JSON.
        #[arg(long)]
        json: bool,
        /// Also sweep the gate's thresholds (for calibration).
        #[arg(long)]
        sweep: bool,
        /// Chunks kept after retrieval (recall is counted at this k).
        #[arg(long, value_name = "N")]
        top_k: Option<usize>,
        /// Only the questions of this split: dev (calibrate on it) or test
        /// (report it).
        #[arg(long, value_name = "dev|test")]
        split: Option<String>,
        /// Also write the whole report as JSON to this file (to compare runs).
        #[arg(long, value_name = "FILE")]
        report: Option<PathBuf>,
        #[command(flatten)]
        store: Store,
        #[command(flatten)]
        embed: Embed,
        #[command(flatten)]
        llm: Llm,
    },
}

/// Entry point: returns the process exit code (0 ok, 1 runtime error, 2 usage).
pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            1
        }
    }
}

/// The settings of a command as [`Session`] overrides.
fn overrides(store: &Store, embed: &Embed, llm: &Llm) -> Overrides {
    Overrides {
        config_file: store.config.clone(),
        index_dir: store.index_dir.clone(),
        embedder: embed.embedder,
        model_dir: embed.model_dir.clone(),
        engine: llm.engine,
        base_url: embed.base_url.clone(),
        model: llm.model.clone(),
        no_rerank: llm.no_rerank,
        extraction: llm.extraction,
        top_k: None,
        force: store.force,
        debug: llm.debug,
        bibliography: None,
    }
}

/// Options given before a subcommand that it does not take are a usage
/// error, not silently ignored.
fn refuse_unused(cli: &Cli, takes_llm: bool, takes_bib: bool) -> Result<()> {
    if cli.theme.is_some() {
        bail_usage("--theme is for the board (no subcommand)")?;
    }
    if !takes_bib && cli.bibliography.is_some() {
        bail_usage("--bibliography is for ask, verify and the board")?;
    }
    if !takes_llm && cli.llm != Llm::default() {
        bail_usage("--engine, --model, --no-rerank and --debug are for ask, eval and the board")?;
    }
    Ok(())
}

/// Open a session over `dir`, saying what the user should know about it.
fn session(dir: &Path, o: &Overrides) -> Result<Session> {
    let s = Session::open(dir, o)?;
    for w in s.warnings() {
        eprintln!("warning: {w}");
    }
    Ok(s)
}

/// Index progress as a bar on stderr (phase, done/total, time left) when
/// `show` (a terminal); a damaged index being rebuilt is said even when
/// quiet. Call the second closure when the update ends.
fn progress_printer(show: bool) -> (impl FnMut(Progress), impl FnOnce()) {
    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
    let bar = ProgressBar::with_draw_target(
        Some(0),
        if show {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        },
    );
    let counted = ProgressStyle::with_template("{msg:32} [{bar:30}] {pos}/{len} · {eta} left")
        .expect("a valid template")
        .progress_chars("=> ");
    let spinner = ProgressStyle::with_template("{spinner} {msg}").expect("a valid template");
    bar.set_style(spinner.clone());
    let done_bar = bar.clone();
    let mut phase = 0u8;
    let progress = move |p: Progress| {
        // A new phase starts its own count and time estimate.
        let mut enter = |n: u8, style: &ProgressStyle| {
            if phase != n {
                phase = n;
                bar.reset();
                bar.set_style(style.clone());
            }
        };
        match p {
            Progress::Rebuilding { damaged } => {
                bar.suspend(|| {
                    eprintln!(
                        "warning: the index file {} is damaged; rebuilding the index",
                        clean(&damaged.display().to_string(), false)
                    )
                });
            }
            Progress::Reading {
                done,
                total,
                chunks,
            } => {
                enter(1, &counted);
                bar.set_length(total as u64);
                bar.set_position(done as u64);
                bar.set_message(format!("reading files ({chunks} new chunks)"));
            }
            Progress::Embedding { done, total } => {
                enter(2, &counted);
                bar.set_length(total as u64);
                bar.set_position(done as u64);
                bar.set_message("embedding chunks");
            }
            Progress::BuildingGraph { vectors } => {
                enter(3, &spinner);
                bar.set_message(format!("building the vector graph ({vectors} vectors)"));
                bar.tick();
            }
            Progress::Committing => {
                enter(4, &spinner);
                bar.set_message("committing");
                bar.tick();
            }
        }
    };
    (progress, move || done_bar.finish_and_clear())
}

/// Bring the index up to date before a question; when it cannot be
/// written but an index is there, say so and answer from it as it is.
fn update_or_keep(s: &Session, show_progress: bool) -> Result<()> {
    let (mut progress, done) = progress_printer(show_progress);
    let kept = s.update_or_keep(&mut progress);
    done();
    if let Some(why) = kept? {
        eprintln!("warning: {}", clean(&why, false));
    }
    Ok(())
}

fn run(mut cli: Cli) -> Result<i32> {
    let command = cli.command.take();
    let takes_llm = matches!(command, Some(Command::Ask { .. } | Command::Eval { .. }));
    let takes_bib = matches!(command, Some(Command::Ask { .. } | Command::Verify { .. }));
    if command.is_some() {
        refuse_unused(&cli, takes_llm, takes_bib)?;
    }
    match command {
        None => {
            let mut o = overrides(&cli.store, &cli.embed, &cli.llm);
            o.bibliography = cli.bibliography.clone();
            let Some(dir) = cli.dir else {
                use clap::CommandFactory;
                Cli::command().print_help()?;
                return Ok(2);
            };
            let s = session(&dir, &o)?;
            s.warm_up();
            crate::tui::run(s, cli.theme)?;
            Ok(0)
        }
        Some(Command::Index {
            dir,
            json,
            store,
            embed,
        }) => {
            let o = overrides(
                &store.or(&cli.store),
                &embed.or(&cli.embed),
                &Llm::default(),
            );
            let s = session(&dir, &o)?;
            let (mut progress, done) = progress_printer(!json && atty_stderr());
            let report = s.update_checked(&mut progress);
            done();
            let report = report?;
            if json {
                print::emit_json(&report)?;
            } else {
                print::print_index_report(&report);
            }
            Ok(0)
        }
        Some(Command::Ask {
            dir,
            question,
            json,
            top_k,
            no_update,
            bibliography,
            store,
            embed,
            llm,
        }) => {
            if top_k == Some(0) {
                bail_usage("--top-k must be at least 1")?;
            }
            let llm = llm.or(&cli.llm);
            let mut o = overrides(&store.or(&cli.store), &embed.or(&cli.embed), &llm);
            o.top_k = top_k;
            o.bibliography = bibliography.or(cli.bibliography.clone());
            let s = session(&dir, &o)?;
            s.warm_up();
            if !no_update {
                update_or_keep(&s, !json && atty_stderr())?;
            }
            let answered = s.ask(&question, None)?;
            let cite_error = answered
                .outcome
                .works
                .as_ref()
                .and_then(|w| w.error.clone());
            for e in [&answered.audit_error, &cite_error].into_iter().flatten() {
                eprintln!("warning: {}", clean(e, false));
            }
            if json {
                print::emit_json(&answered.outcome)?;
            } else {
                print::print_outcome(&answered.outcome, llm.debug, &print::Links::new(&dir));
            }
            Ok(0)
        }
        Some(Command::Verify {
            dir,
            quotes,
            json,
            no_update,
            bibliography,
            store,
            embed,
        }) => {
            let mut o = overrides(
                &store.or(&cli.store),
                &embed.or(&cli.embed),
                &Llm::default(),
            );
            o.bibliography = bibliography.or(cli.bibliography.clone());
            let s = session(&dir, &o)?;
            // A draft (or a pipe, `/dev/stdin`), bounded: `/dev/zero` is no draft.
            let mut bytes = Vec::new();
            std::fs::File::open(&quotes)
                .and_then(|f| {
                    std::io::Read::read_to_end(
                        &mut std::io::Read::take(f, DRAFT_MAX + 1),
                        &mut bytes,
                    )
                })
                .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", quotes.display()))?;
            if bytes.len() as u64 > DRAFT_MAX {
                anyhow::bail!("{} is larger than a draft (64 MB)", quotes.display());
            }
            let text = String::from_utf8(bytes)
                .map_err(|_| anyhow::anyhow!("{} is not UTF-8 text", quotes.display()))?;
            let min_words = s.config().validate.min_words;
            let inputs = crate::verify::parse_input(&text, min_words)?;
            if !no_update {
                update_or_keep(&s, !json && atty_stderr())?;
            }
            let bib = s.citations()?;
            if let (Some(l), Some(path)) = (&bib, &s.config().cite.bibliography) {
                citations::report(l, path);
            }
            let citing = bib.as_ref().map(|b| b.citing());
            // A draft kept among the sources would confirm its own quotes.
            let draft = std::fs::canonicalize(&quotes)
                .ok()
                .zip(std::fs::canonicalize(&dir).ok())
                .filter(|(q, d)| q.starts_with(d))
                .map(|(q, d)| crate::ingest::source_id(&d, &q));
            if draft.is_some() {
                eprintln!(
                    "note: {} is inside the sources folder; its own text is not used to check its quotes",
                    crate::text::sanitize_for_terminal(&quotes.display().to_string(), false)
                );
            }
            let results = s.verify(&inputs.check, citing.as_ref(), draft.as_deref())?;
            citations::hint_without_bibliography(&results, bib.is_some());
            if json {
                print::emit_json(&results)?;
            } else {
                print::print_verify(&results, &print::Links::new(&dir));
            }
            print::print_too_short(&inputs.too_short, min_words, json);
            // For a pre-commit hook or CI over a manuscript: 3 when any
            // quote is not validated or any citation does not check (1 and
            // 2 mean error and bad usage).
            Ok(if crate::verify::all_pass(&results) {
                0
            } else {
                3
            })
        }
        Some(Command::Eval {
            dir,
            questions,
            json,
            sweep,
            top_k,
            split,
            report: report_file,
            claims,
            store,
            embed,
            llm,
        }) => {
            let store = store.or(&cli.store);
            let mut o = overrides(&store, &embed.or(&cli.embed), &llm.or(&cli.llm));
            if split.as_deref().is_some_and(|s| s != "dev" && s != "test") {
                bail_usage("--split must be dev or test")?;
            }
            let write_report = |json: String| -> Result<()> {
                if let Some(f) = &report_file {
                    std::fs::write(f, json)
                        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", f.display()))?;
                }
                Ok(())
            };
            if let Some(claims) = claims {
                let config = crate::config::Config::load(store.config.as_deref())?;
                let report = crate::eval::run_claims(&claims, split.as_deref(), &config)?;
                write_report(serde_json::to_string_pretty(&report)?)?;
                if json {
                    print::emit_json(&report)?;
                } else {
                    print::print_claims(&report);
                }
                return Ok(0);
            }
            let questions = questions.expect("clap requires --questions without --claims");
            o.top_k = top_k;
            let s = session(&dir, &o)?;
            s.warm_up();
            let set = crate::eval::QuestionSet::load(&questions)?.only_split(split.as_deref());
            // No figure of an empty set means anything (recall would read
            // 1.0): an error, so a threshold check cannot pass on nothing.
            if set.questions.is_empty() {
                anyhow::bail!(
                    "{} holds no questions{}: nothing to evaluate",
                    questions.display(),
                    split
                        .as_deref()
                        .map(|s| format!(" of the {s} split"))
                        .unwrap_or_default()
                );
            }
            update_or_keep(&s, !json && atty_stderr())?;
            let report = s.eval(&set, sweep)?;
            write_report(serde_json::to_string_pretty(&report)?)?;
            if json {
                print::emit_json(&report)?;
            } else {
                print::print_eval(&report);
            }
            Ok(0)
        }
    }
}

fn bail_usage(msg: &str) -> Result<()> {
    eprintln!("error: {msg}");
    std::process::exit(2);
}

fn atty_stderr() -> bool {
    use std::io::IsTerminal;
    std::io::stderr().is_terminal()
}
