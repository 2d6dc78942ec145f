//! Command-line interface: argument parsing and plain/JSON output.

mod citations;

use crate::config::Config;
use crate::embed::{self, Embedder, EmbedderKind};
use crate::index::{self, Index, Progress, UpdateOptions, UpdateReport};
use crate::pipeline::QueryOutcome;
use anyhow::{Result, bail};
use clap::{Args, Parser, Subcommand};
use std::io::Write;
use std::path::{Path, PathBuf};

#[derive(Parser, Debug)]
#[command(
    name = "research-board",
    version,
    about = "Ask questions of your sources; get verbatim quotes you can trust."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Sources folder to open.
    dir: Option<PathBuf>,
    /// Board theme: dark, light, mono, or a theme file (TOML).
    #[arg(long, value_name = "NAME|FILE")]
    theme: Option<String>,
    #[command(flatten)]
    common: Common,
}

#[derive(Args, Debug, Clone, Default)]
struct Common {
    /// Where the index lives (default: the platform data directory).
    #[arg(long, global = true, value_name = "DIR")]
    index_dir: Option<PathBuf>,
    /// Config file (TOML); default: research-board/config.toml in the platform config directory.
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Embedder: builtin (default, semantic, offline), minilm (the full
    /// transformer; needs --model-dir), openai (an /embeddings endpoint) or
    /// none (BM25 only).
    #[arg(long, global = true, value_name = "NAME")]
    embedder: Option<EmbedderKind>,
    /// all-MiniLM-L6-v2 model folder for --embedder minilm (env
    /// RESEARCH_BOARD_MINILM_DIR; get one with scripts/fetch-minilm.sh).
    #[arg(long, global = true, value_name = "DIR")]
    model_dir: Option<PathBuf>,
    /// Also write the whole pipeline of every query to the debug log.
    #[arg(long, global = true)]
    debug: bool,
    /// Extractor: extractive (default, offline) or llm (OpenAI-compatible).
    #[arg(long, global = true, value_name = "NAME")]
    engine: Option<crate::config::EngineKind>,
    /// LLM base URL, e.g. http://127.0.0.1:8080/v1 (env OPENAI_BASE_URL).
    #[arg(long, global = true, value_name = "URL")]
    base_url: Option<String>,
    /// LLM model name (env OPENAI_MODEL).
    #[arg(long, global = true, value_name = "NAME")]
    model: Option<String>,
    /// Do not let the LLM rerank candidates (the gate uses retrieval scores).
    #[arg(long, global = true)]
    no_rerank: bool,
    /// Allow the filesystem root or your home folder itself as the sources
    /// folder (refused by default: it would index the whole disk), and
    /// replace an index folder that holds another folder's index.
    #[arg(long, global = true)]
    force: bool,
    /// Bibliography (BibTeX/BibLaTeX .bib or CSL-JSON .json): verify checks
    /// each quote's citation against the work it names.
    #[arg(long, global = true, value_name = "FILE")]
    bibliography: Option<PathBuf>,
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

struct Ctx {
    config: Config,
    /// --force: replace an index built for another folder.
    force: bool,
    embedder: Option<Box<dyn Embedder>>,
    llm: Option<(crate::llm::LlmClient, crate::llm::Prompts)>,
}

impl Ctx {
    fn new(common: &Common) -> Result<Ctx> {
        let mut config = Config::load(common.config.as_deref())?;
        if let Some(k) = common.embedder {
            config.embedder = k;
        }
        config.settle();
        if let Some(e) = common.engine {
            config.engine = e;
        }
        if common.no_rerank {
            config.rerank = false;
        }
        // Environment over the config file, flags over both.
        config.llm = config.llm.clone().from_env();
        if let Some(u) = &common.base_url {
            config.llm.base_url = u.clone();
        }
        if let Some(m) = &common.model {
            config.llm.model = m.clone();
        }
        let mut embed_settings = embed::EmbedSettings::new(&config.embed, &config.llm);
        if let Some(d) = &common.model_dir {
            embed_settings.minilm_dir = Some(d.clone());
        }
        let embedder = embed::build_with(config.embedder, &embed_settings)?;
        let llm = match config.engine {
            crate::config::EngineKind::Extractive => None,
            crate::config::EngineKind::Llm => {
                let client = crate::llm::LlmClient::new(config.llm.clone())?;
                let (prompts, warnings) = crate::llm::Prompts::for_config(&config.llm);
                for w in warnings {
                    eprintln!("warning: {w}");
                }
                Some((client, prompts))
            }
        };
        Ok(Ctx {
            config,
            force: common.force,
            embedder,
            llm,
        })
    }

    fn embedder(&self) -> Option<&dyn Embedder> {
        self.embedder.as_deref()
    }

    fn engine(&self) -> crate::pipeline::Engine<'_> {
        match &self.llm {
            Some((client, prompts)) => crate::pipeline::Engine::Llm {
                client,
                prompts,
                rerank: self.config.rerank,
                cancel: None,
            },
            None => crate::pipeline::Engine::Extractive,
        }
    }
}

fn index_dir(common: &Common, sources: &Path) -> Result<PathBuf> {
    match &common.index_dir {
        Some(d) => Ok(d.clone()),
        None => index::default_dir(sources),
    }
}

fn check_sources(dir: &Path, force: bool) -> Result<()> {
    if !dir.exists() {
        bail!("the sources folder {} does not exist", dir.display());
    }
    if !dir.is_dir() {
        bail!("{} is not a folder", dir.display());
    }
    if !force {
        let real = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        let home = directories::BaseDirs::new().map(|b| b.home_dir().to_path_buf());
        let home = home.map(|h| h.canonicalize().unwrap_or(h));
        if real.parent().is_none() {
            bail!(
                "{} is the root of the filesystem: indexing it would read the whole disk. \
                 Point research-board at the folder that holds your sources, or pass --force",
                dir.display()
            );
        }
        if home.as_deref() == Some(real.as_path()) {
            bail!(
                "{} is your home folder: indexing it would read everything you own. \
                 Point research-board at the folder that holds your sources, or pass --force",
                dir.display()
            );
        }
    }
    Ok(())
}

fn update(ctx: &Ctx, sources: &Path, idx: &Path, show_progress: bool) -> Result<UpdateReport> {
    let opts = UpdateOptions {
        chunk: ctx.config.chunk,
        limits: ctx.config.limits.limits(),
        replace_other_sources: ctx.force,
    };
    let mut last = String::new();
    let mut progress = |p: Progress| {
        if !show_progress && !matches!(p, Progress::Rebuilding { .. }) {
            return;
        }
        let line = match p {
            Progress::Reading {
                done,
                total,
                chunks,
            } => format!("reading files {done}/{total} ({chunks} new chunks)"),
            Progress::Embedding { done, total } => format!("embedding {done}/{total}"),
            Progress::BuildingGraph { vectors } => {
                format!("building the vector graph ({vectors} vectors)")
            }
            Progress::Committing => "committing".into(),
            Progress::Rebuilding { damaged } => {
                // Said even when quiet: the user should know.
                eprintln!(
                    "warning: the index file {} is damaged; rebuilding the index",
                    crate::text::sanitize_for_terminal(&damaged.display().to_string(), false)
                );
                return;
            }
        };
        if line != last {
            eprint!("\r\x1b[K{line}");
            last = line;
        }
    };
    let report = index::update(sources, idx, &opts, ctx.embedder(), &mut progress);
    if show_progress && !last.is_empty() {
        eprint!("\r\x1b[K");
    }
    report
}

/// Bring the index up to date before a question; when the index folder
/// cannot be written (a read-only mount, another process indexing) but an
/// index is there, say so and answer from it as it is.
fn update_or_keep(ctx: &Ctx, sources: &Path, idx: &Path, show_progress: bool) -> Result<()> {
    let Err(e) = update(ctx, sources, idx, show_progress) else {
        return Ok(());
    };
    // An I/O error (a read-only folder, permissions, the lock held by
    // another process), not a refusal such as another folder's index.
    let cannot_write = e
        .chain()
        .any(|c| c.downcast_ref::<std::io::Error>().is_some());
    if cannot_write && Index::open(idx).is_ok() {
        eprintln!(
            "warning: cannot update the index in {} ({}); answering from the index as it is",
            idx.display(),
            crate::text::sanitize_for_terminal(&format!("{e:#}"), false)
        );
        return Ok(());
    }
    Err(e)
}

fn run(cli: Cli) -> Result<i32> {
    let common = cli.common.clone();
    match cli.command {
        None => {
            let Some(dir) = cli.dir else {
                use clap::CommandFactory;
                Cli::command().print_help()?;
                return Ok(2);
            };
            check_sources(&dir, common.force)?;
            let ctx = Ctx::new(&common)?;
            let index_dir = index_dir(&common, &dir)?;
            crate::tui::run(crate::tui::Options {
                sources: dir,
                log_dir: crate::audit::log_dir(common.index_dir.as_deref()),
                index_dir,
                config: ctx.config,
                embedder: ctx.embedder,
                theme: cli.theme,
                debug: common.debug,
                llm: ctx.llm,
            })?;
            Ok(0)
        }
        Some(Command::Index { dir, json }) => {
            check_sources(&dir, common.force)?;
            let ctx = Ctx::new(&common)?;
            let idx = index_dir(&common, &dir)?;
            let report = update(&ctx, &dir, &idx, !json && atty_stderr())?;
            if json {
                emit_json(&report)?;
            } else {
                print_index_report(&report);
            }
            Ok(0)
        }
        Some(Command::Ask {
            dir,
            question,
            json,
            top_k,
            no_update,
        }) => {
            check_sources(&dir, common.force)?;
            let mut ctx = Ctx::new(&common)?;
            if let Some(k) = top_k {
                if k == 0 {
                    bail_usage("--top-k must be at least 1")?;
                }
                ctx.config.retrieve.top_k = k;
            }
            let idx = index_dir(&common, &dir)?;
            if !no_update {
                update_or_keep(&ctx, &dir, &idx, !json && atty_stderr())?;
            }
            let index = Index::open(&idx)?;
            check_embedder(&index, &ctx)?;
            let outcome = crate::pipeline::ask_with(
                &index,
                ctx.embedder(),
                &ctx.config,
                &question,
                &ctx.engine(),
            )?;
            log_outcome(&outcome, common.debug, common.index_dir.as_deref());
            if json {
                emit_json(&outcome)?;
            } else {
                print_outcome(&outcome, common.debug);
            }
            Ok(0)
        }
        Some(Command::Verify { dir, quotes, json }) => {
            check_sources(&dir, common.force)?;
            let ctx = Ctx::new(&common)?;
            let text = std::fs::read_to_string(&quotes)
                .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", quotes.display()))?;
            let inputs = crate::verify::parse_input(&text, ctx.config.validate.min_words)?;
            let idx = index_dir(&common, &dir)?;
            update_or_keep(&ctx, &dir, &idx, !json && atty_stderr())?;
            let index = Index::open(&idx)?;
            check_embedder(&index, &ctx)?;
            let bib = citations::load(common.bibliography.as_deref(), &ctx.config.cite, &index)?;
            let citing = bib.as_ref().map(|b| b.citing());
            let results = crate::verify::verify_with(
                &index,
                ctx.embedder(),
                &inputs,
                &ctx.config,
                citing.as_ref(),
            )?;
            citations::hint_without_bibliography(&results, bib.is_some());
            if json {
                emit_json(&results)?;
            } else {
                print_verify(&results);
            }
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
        }) => {
            if split.as_deref().is_some_and(|s| s != "dev" && s != "test") {
                bail_usage("--split must be dev or test")?;
            }
            if let Some(claims) = claims {
                let config = Config::load(common.config.as_deref())?;
                let report = crate::eval::run_claims(&claims, split.as_deref(), &config)?;
                if let Some(f) = &report_file {
                    std::fs::write(f, serde_json::to_string_pretty(&report)?)
                        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", f.display()))?;
                }
                if json {
                    emit_json(&report)?;
                } else {
                    print_claims(&report);
                }
                return Ok(0);
            }
            let questions = questions.expect("clap requires --questions without --claims");
            check_sources(&dir, common.force)?;
            let mut ctx = Ctx::new(&common)?;
            if let Some(k) = top_k {
                ctx.config.retrieve.top_k = k.max(1);
            }
            let set = crate::eval::QuestionSet::load(&questions)?.only_split(split.as_deref());
            let idx = index_dir(&common, &dir)?;
            update_or_keep(&ctx, &dir, &idx, !json && atty_stderr())?;
            let index = Index::open(&idx)?;
            check_embedder(&index, &ctx)?;
            let report = crate::eval::run(
                &index,
                ctx.embedder(),
                &ctx.config,
                &set,
                sweep,
                &ctx.engine(),
            )?;
            if let Some(f) = &report_file {
                std::fs::write(f, serde_json::to_string_pretty(&report)?)
                    .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", f.display()))?;
            }
            if json {
                emit_json(&report)?;
            } else {
                print_eval(&report);
            }
            Ok(0)
        }
    }
}

/// Print `value` as pretty JSON on stdout. A closed pipe (`| head`) ends
/// the program quietly with success, as ripgrep does, instead of a panic.
fn emit_json<T: serde::Serialize>(value: &T) -> Result<()> {
    let text = serde_json::to_string_pretty(value)?;
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{text}").and_then(|_| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        r => Ok(r?),
    }
}

/// The audit log is always on; a failure to write it is reported, not fatal.
fn log_outcome(o: &QueryOutcome, debug: bool, index_dir: Option<&Path>) {
    if let Some(dir) = crate::audit::log_dir(index_dir)
        && let Err(e) = crate::audit::record(&dir, o, debug)
    {
        eprintln!(
            "warning: cannot write the audit log in {}: {e:#}",
            dir.display()
        );
    }
}

fn print_verify(results: &[crate::verify::QuoteResult]) {
    use crate::text::sanitize_for_terminal as clean;
    let mut out = std::io::stdout().lock();
    for r in results {
        let line = r.line.map(|l| format!("line {l}: ")).unwrap_or_default();
        let _ = writeln!(
            out,
            "{line}{:?} ({:?}, similarity {:.2})",
            r.verdict, r.status, r.similarity
        );
        let _ = writeln!(out, "    “{}”", clean(&r.quote, false));
        if let (Some(id), Some(loc)) = (&r.source_id, &r.location) {
            let loc = if loc.is_empty() {
                r.source_title.as_deref().unwrap_or("")
            } else {
                loc
            };
            // The place an author cites ("p. 12", "line 412"), else the
            // char span.
            let span = match &r.place {
                Some(p) => format!(", {p}"),
                None => r
                    .spans
                    .first()
                    .map(|s| format!(" [chars {}–{} of {}]", s.start, s.end, s.chunk_id))
                    .unwrap_or_default(),
            };
            let _ = writeln!(
                out,
                "    in {} — {}{}",
                clean(id, false),
                clean(loc, false),
                span
            );
        }
        if r.status != crate::validate::Status::Validated {
            let _ = writeln!(out, "    {}", clean(&r.note, false));
            if let Some(t) = &r.copy_text {
                let _ = writeln!(out, "    source text: “{}”", clean(t, false));
            }
        }
        citations::print_result(&mut out, r);
    }
    let n = |s: crate::validate::Status| results.iter().filter(|r| r.status == s).count();
    let _ = writeln!(
        out,
        "\n{} quotes: {} validated, {} flagged, {} not found",
        results.len(),
        n(crate::validate::Status::Validated),
        n(crate::validate::Status::Flagged),
        n(crate::validate::Status::Dropped)
    );
    citations::print_summary(&mut out, results);
}

fn bail_usage(msg: &str) -> Result<()> {
    eprintln!("error: {msg}");
    std::process::exit(2);
}

fn check_embedder(index: &Index, ctx: &Ctx) -> Result<()> {
    let want = ctx.embedder().map(|e| e.id().to_string());
    if index.manifest.embedder != want {
        bail!(
            "the index was built with embedder {:?} but {:?} is selected; run `research-board index` to re-embed",
            index.manifest.embedder.as_deref().unwrap_or("none"),
            want.as_deref().unwrap_or("none")
        );
    }
    Ok(())
}

fn atty_stderr() -> bool {
    use std::io::IsTerminal;
    std::io::stderr().is_terminal()
}

fn print_index_report(r: &UpdateReport) {
    let mut out = std::io::stdout().lock();
    if r.files_seen == 0 {
        eprintln!(
            "warning: no files in this folder; add your notes, articles, PDFs or Word files \
             (.md .txt .rst .html .pdf .docx) and run index again"
        );
    }
    if r.up_to_date {
        let _ = writeln!(
            out,
            "Index is up to date: {} files, {} chunks ({:.0} ms).",
            r.files_unchanged, r.chunks_total, r.elapsed_ms
        );
    } else {
        let _ = writeln!(
            out,
            "Indexed {} files ({} unchanged, {} removed): {} chunks, {} new, in {:.0} ms.",
            r.files_indexed,
            r.files_unchanged,
            r.files_removed,
            r.chunks_total,
            r.chunks_added,
            r.elapsed_ms
        );
    }
    let _ = writeln!(out, "Index: {}", r.index_dir.display());
    if !r.guessed_encodings.is_empty() {
        let _ = writeln!(
            out,
            "Read {} files in a guessed encoding (no mark or declaration said which):",
            r.guessed_encodings.len()
        );
        for (id, enc) in &r.guessed_encodings {
            let _ = writeln!(
                out,
                "  {}: {enc}",
                crate::text::sanitize_for_terminal(id, false)
            );
        }
    }
    if !r.skipped.is_empty() {
        let _ = writeln!(out, "Skipped {} files:", r.skipped.len());
        for s in &r.skipped {
            let _ = writeln!(
                out,
                "  {}: {}",
                crate::text::sanitize_for_terminal(&s.source_id, false),
                s.reason
            );
        }
    }
}

fn print_outcome(o: &QueryOutcome, debug: bool) {
    use crate::text::sanitize_for_terminal as clean;
    let mut out = std::io::stdout().lock();
    let g = &o.gate;
    let mut sources: Vec<&str> = o
        .candidates
        .iter()
        .filter(|c| c.kept)
        .map(|c| c.source_id.as_str())
        .collect();
    sources.sort_unstable();
    sources.dedup();
    let verdict = match g.decision {
        crate::gate::Decision::Pass => "answered",
        crate::gate::Decision::Refuse => "refused",
    };
    let _ = writeln!(
        out,
        "Gate: {verdict}: {}",
        clean(&g.in_words(&o.unknown_names, sources.len()), false)
    );
    if debug {
        // The numbers behind the decision, for calibration.
        let nums: Vec<String> = g
            .numbers
            .iter()
            .map(|(k, v)| format!("{k}={v:.4}"))
            .collect();
        let _ = writeln!(out, "      ({:?} tier; {})", g.tier, nums.join(", "));
    }
    let _ = writeln!(out, "Confidence: {:?}", o.answer.confidence);
    let _ = writeln!(out);
    let _ = writeln!(out, "{}", clean(&o.answer.text, true));
    for c in o.answer.claims.iter().filter(|c| c.flagged()) {
        let why = match (c.issue, c.support) {
            (Some(i), _) => i.describe().to_string(),
            (None, Some(s)) if s.unsupported() => format!(
                "{} ({})",
                match s {
                    crate::support::Support::Contradicts => "contradicted by its quote",
                    _ => "its quote does not support it",
                },
                c.support_reason.as_deref().unwrap_or("")
            ),
            (None, _) => c
                .inconsistent_with
                .iter()
                .map(|(n, why)| format!("inconsistent with claim {n} ({why})"))
                .collect::<Vec<_>>()
                .join("; "),
        };
        let _ = writeln!(out, "  ⚑ {}: {}", clean(&why, false), clean(&c.text, false));
    }
    if !o.snippets.is_empty() {
        let _ = writeln!(
            out,
            "\nQuotes: {} validated, {} flagged, {} dropped",
            o.counts.validated, o.counts.flagged, o.counts.dropped
        );
        for s in &o.snippets {
            let _ = writeln!(
                out,
                "[{}] {:?} ({:?}, similarity {:.2}) {} — {}{}",
                s.n,
                s.verdict,
                s.status,
                s.similarity,
                clean(&s.source_title, false),
                clean(&s.location, false),
                s.place
                    .as_deref()
                    .map(|p| format!(" ({p})"))
                    .unwrap_or_default()
            );
            let _ = writeln!(
                out,
                "    “{}”",
                clean(s.copy_text.as_deref().unwrap_or(&s.content), false)
            );
            if s.status != crate::validate::Status::Validated {
                let _ = writeln!(out, "    {}", clean(&s.note, false));
            }
            if s.model_source_title.is_some() || s.model_source_location.is_some() {
                let _ = writeln!(
                    out,
                    "    (the model said: {} — {})",
                    clean(s.model_source_title.as_deref().unwrap_or("-"), false),
                    clean(s.model_source_location.as_deref().unwrap_or("-"), false)
                );
            }
        }
    }
}

fn print_claims(r: &crate::eval::ClaimsReport) {
    let mut out = std::io::stdout().lock();
    let labels = ["entails", "partial", "contradicts", "irrelevant"];
    let _ = writeln!(out, "{} pairs, accuracy {:.3}", r.pairs, r.accuracy);
    let _ = writeln!(out, "\nconfusion (rows: label, columns: judged)");
    let _ = writeln!(
        out,
        "  {:<12} {}",
        "",
        labels.map(|l| format!("{l:>11}")).join("")
    );
    for gold in labels {
        let row = r.confusion.get(gold);
        let cells =
            labels.map(|g| format!("{:>11}", row.and_then(|x| x.get(g)).copied().unwrap_or(0)));
        let _ = writeln!(out, "  {gold:<12} {}", cells.join(""));
    }
    let d = &r.hallucinated;
    let _ = writeln!(
        out,
        "\nunsupported claims (contradicts + irrelevant): recall {:.3}, precision {:.3}, F1 {:.3}",
        d.recall, d.precision, d.f1
    );
    let t = &r.topical;
    let _ = writeln!(
        out,
        "topically close only:                         recall {:.3}, precision {:.3}, F1 {:.3}",
        t.recall, t.precision, t.f1
    );
    for (how, rec) in &r.recall_by_how {
        let _ = writeln!(out, "  recall, {how:<16} {rec:.3}");
    }
}

fn print_eval(r: &crate::eval::EvalReport) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(
        out,
        "{} questions ({} answerable, {} unanswerable)",
        r.questions, r.answerable, r.unanswerable
    );
    let _ = writeln!(out, "recall@{}:          {:.3}", r.k, r.recall_at_k);
    let _ = writeln!(out, "MRR:                {:.3}", r.mrr);
    let _ = writeln!(out, "quote recall:       {:.3}", r.quote_recall);
    if let Some(a) = r.refusal_accuracy_off_topic {
        let _ = writeln!(out, "refusal (off-topic): {a:.3}");
    }
    if let Some(a) = r.refusal_accuracy_near_miss {
        let _ = writeln!(out, "refusal (near-miss): {a:.3}");
    }
    let _ = writeln!(out, "refusal accuracy:   {:.3}", r.refusal_accuracy);
    let _ = writeln!(out, "false-refusal rate: {:.3}", r.false_refusal_rate);
    let _ = writeln!(out, "verbatim rate:      {:.3}", r.verbatim_rate);
    let verdicts: Vec<String> = r.verdicts.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let _ = writeln!(out, "engine:             {}", r.engine);
    let _ = writeln!(out, "verdicts:           {}", verdicts.join(", "));
    let _ = writeln!(
        out,
        "validated but not in source: {}",
        r.validated_not_in_source
    );
    let _ = writeln!(out, "mean query time:    {:.1} ms", r.mean_query_ms);
    for (kind, s) in &r.by_kind {
        let recall = s
            .recall
            .map(|x| format!("{x:.3}"))
            .unwrap_or_else(|| "-".into());
        let _ = writeln!(
            out,
            "  {kind:<12} n={:<3} recall={recall} refused={}",
            s.questions, s.refused
        );
    }
    let _ = writeln!(out);
    for q in &r.results {
        let flag = match (q.should_refuse, q.refused, q.recall_hit) {
            (true, true, _) => "ok  ",
            (true, false, _) => "MISS",
            (false, true, _) => "FREF",
            (false, false, Some(false)) => "NORC",
            _ => "ok  ",
        };
        let _ = writeln!(
            out,
            "{flag} {:<5} {:<10} ev={:.2} rank={:<4} {:<22} {}",
            q.id,
            q.kind,
            q.top_evidence,
            q.expected_rank
                .map(|r| r.to_string())
                .unwrap_or_else(|| "-".into()),
            q.reason,
            q.question
        );
    }
    if let Some(rows) = &r.fusion_sweep {
        let _ = writeln!(out, "\nfusion sweep (recall@{} of retrieval alone):", r.k);
        for row in rows {
            let name = match row.bm25_weight {
                Some(w) => format!("convex, bm25 weight {w:.1}"),
                None => "reciprocal-rank fusion".into(),
            };
            let _ = writeln!(out, "  {name:<26} {:.3}", row.recall_at_k);
        }
    }
    if let Some(rows) = &r.sweep {
        let _ = writeln!(
            out,
            "\nsweep (best refusal accuracy at each false-refusal rate):"
        );
        let _ = writeln!(
            out,
            "  names name_share unknown_penalty vector_weight min_top_score refusal_accuracy false_refusal_rate"
        );
        let mut best: Vec<&crate::eval::SweepRow> = Vec::new();
        for row in rows {
            match best
                .iter_mut()
                .find(|b| b.false_refusal_rate == row.false_refusal_rate)
            {
                Some(b) if b.refusal_accuracy >= row.refusal_accuracy => {}
                Some(b) => *b = row,
                None => best.push(row),
            }
        }
        best.sort_by(|a, b| a.false_refusal_rate.total_cmp(&b.false_refusal_rate));
        for row in best {
            let _ = writeln!(
                out,
                "  {:<5} {:.2} {:.2} {:.2} {:.2} {:.3} {:.3}",
                row.refuse_unknown_names,
                row.unknown_names_min_share,
                row.unknown_penalty,
                row.vector_weight,
                row.min_top_score,
                row.refusal_accuracy,
                row.false_refusal_rate
            );
        }
    }
}
