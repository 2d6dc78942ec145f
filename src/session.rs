//! One session over a sources folder: the only entry points the CLI and the
//! board call.
//!
//! [`Session::open`] settles the configuration (config file, then the
//! environment, then [`Overrides`] from the command line), builds the
//! embedder and the engine once, and works out where the index and the
//! audit log live. It then owns the index handle: [`Session::update`]
//! brings the index up to date, [`Session::ask`] runs the pipeline and
//! writes the audit record, [`Session::verify`] checks quotes. The board
//! keeps one `Arc<Session>` and calls these from its workers; the CLI calls
//! them directly, so both give the same outcome for the same question.

use crate::citing::Loaded;
use crate::config::{Config, EngineKind};
use crate::embed::{self, Embedder, EmbedderKind};
use crate::eval::{EvalReport, QuestionSet};
use crate::index::{self, Index, Progress, UpdateOptions, UpdateReport};
use crate::pipeline::{self, Engine, QueryOutcome};
use crate::provider::Cancel;
use crate::verify::{QuoteInput, QuoteResult};
use anyhow::{Result, bail};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

/// What the command line may change, as plain values.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    /// Config file; default: the platform config directory's.
    pub config_file: Option<PathBuf>,
    /// Where the index lives; default: the platform data directory.
    pub index_dir: Option<PathBuf>,
    pub embedder: Option<EmbedderKind>,
    /// all-MiniLM-L6-v2 model folder for the minilm embedder.
    pub model_dir: Option<PathBuf>,
    pub engine: Option<EngineKind>,
    pub base_url: Option<String>,
    pub model: Option<String>,
    /// Do not let the LLM rerank.
    pub no_rerank: bool,
    /// How the LLM gives quotes.
    pub extraction: Option<crate::provider::ExtractionMode>,
    /// Chunks kept after retrieval.
    pub top_k: Option<usize>,
    /// Allow the filesystem root or the home folder as the sources folder,
    /// and replace an index folder that holds another folder's index.
    pub force: bool,
    /// The audit log also gets the whole outcome of every question.
    pub debug: bool,
    /// Bibliography file; default: `[cite] bibliography` of the config.
    pub bibliography: Option<PathBuf>,
}

/// A question's outcome with the index generation that answered it.
pub struct Answered {
    pub outcome: QueryOutcome,
    pub index: Arc<Index>,
    /// Why the audit record could not be written (not fatal).
    pub audit_error: Option<String>,
}

/// See the module documentation.
pub struct Session {
    config: Config,
    sources: PathBuf,
    index_dir: PathBuf,
    log_dir: Option<PathBuf>,
    force: bool,
    debug: bool,
    embedder: Option<Arc<dyn Embedder>>,
    engine: Box<dyn Engine>,
    /// The index generation questions go to; replaced after an update.
    index: RwLock<Option<Arc<Index>>>,
    /// The bibliography tied to the sources of that index generation.
    citations: Mutex<Option<(Arc<Index>, Arc<Loaded>)>>,
    warnings: Vec<String>,
}

impl Session {
    /// Check the sources folder and settle the configuration, the embedder
    /// and the engine. Touches no index yet.
    pub fn open(sources: &Path, o: &Overrides) -> Result<Session> {
        check_sources(sources, o.force)?;
        let mut config = settle(o)?;
        if let Some(b) = &o.bibliography {
            config.cite.bibliography = Some(b.clone());
        }
        let mut embed_settings = embed::EmbedSettings::new(&config.embed, &config.llm);
        if let Some(d) = &o.model_dir {
            embed_settings.minilm_dir = Some(d.clone());
        }
        let embedder = embed::build_with(config.embedder, &embed_settings)?.map(Arc::from);
        let (engine, warnings) = pipeline::build_engine(&config)?;
        let index_dir = match &o.index_dir {
            Some(d) => d.clone(),
            None => index::default_dir(sources)?,
        };
        Ok(Session {
            config,
            sources: sources.to_path_buf(),
            index_dir,
            log_dir: crate::audit::log_dir(o.index_dir.as_deref()),
            force: o.force,
            debug: o.debug,
            embedder,
            engine,
            index: RwLock::new(None),
            citations: Mutex::new(None),
            warnings,
        })
    }

    /// Load what the first question needs and an index update does not —
    /// the token counter's tables and the embedding model — on another
    /// core, for a caller about to ask (the board, `ask`, `eval`), so that
    /// the first answer does not wait for them (about 100 ms together) while
    /// the index opens. A failure here is met again, and reported, where
    /// the thing is used.
    pub fn warm_up(&self) {
        let embedder = self.embedder.clone();
        let _ = std::thread::Builder::new()
            .name("warm-up".into())
            .spawn(move || {
                crate::text::count_tokens("");
                if let Some(e) = embedder {
                    let _ = e.embed(&[""]);
                }
            });
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    pub fn sources(&self) -> &Path {
        &self.sources
    }

    pub fn index_dir(&self) -> &Path {
        &self.index_dir
    }

    /// Where the audit log goes ([`crate::audit::log_dir`]).
    pub fn log_dir(&self) -> Option<&Path> {
        self.log_dir.as_deref()
    }

    pub fn debug(&self) -> bool {
        self.debug
    }

    pub fn embedder(&self) -> Option<&dyn Embedder> {
        self.embedder.as_deref()
    }

    /// Things the user should know about the setup (a prompt file that
    /// could not be read).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Bring the index up to date with the folder. Questions asked
    /// meanwhile go to the previous generation; the next [`Session::index`]
    /// opens the new one.
    pub fn update(&self, progress: &mut dyn FnMut(Progress)) -> Result<UpdateReport> {
        self.update_with(progress, false)
    }

    /// [`Session::update`], reading every index file to check it first
    /// (the `index` command): a damaged one is rebuilt, whatever its size
    /// and time say.
    pub fn update_checked(&self, progress: &mut dyn FnMut(Progress)) -> Result<UpdateReport> {
        self.update_with(progress, true)
    }

    fn update_with(
        &self,
        progress: &mut dyn FnMut(Progress),
        check_all: bool,
    ) -> Result<UpdateReport> {
        let opts = UpdateOptions {
            chunk: self.config.chunk,
            limits: self.config.limits.limits(),
            replace_other_sources: self.force,
            delta_max_floats: None,
            check_all,
        };
        let report = index::update(
            &self.sources,
            &self.index_dir,
            &opts,
            self.embedder(),
            progress,
        )
        .map_err(|e| {
            if disk_full(&e) {
                let kept = if Index::open(&self.index_dir).is_ok() {
                    "the index is kept as it was before this update"
                } else {
                    "no index was written"
                };
                e.context(format!(
                    "the disk holding the index folder {} is full; {kept}: free some space and \
                     run it again",
                    self.index_dir.display()
                ))
            } else {
                e
            }
        })?;
        *self.index.write().unwrap_or_else(|e| e.into_inner()) = None;
        Ok(report)
    }

    /// [`Session::update`], except that when the index folder cannot be
    /// written (a read-only mount, a full disk, another process indexing)
    /// but an index
    /// is there, the index is kept as it is: `Ok(Some(why))`.
    pub fn update_or_keep(&self, progress: &mut dyn FnMut(Progress)) -> Result<Option<String>> {
        let Err(e) = self.update(progress) else {
            return Ok(None);
        };
        // An I/O error (a read-only folder, permissions, the lock held by
        // another process), not a refusal such as another folder's index.
        let cannot_write = disk_full(&e)
            || e.chain()
                .any(|c| c.downcast_ref::<std::io::Error>().is_some());
        if cannot_write && self.index().is_ok() {
            return Ok(Some(format!(
                "cannot update the index in {} ({e:#}); answering from the index as it is",
                self.index_dir.display()
            )));
        }
        Err(e)
    }

    /// The index from an earlier run, when there is one built with this
    /// session's embedder: it answers while an update runs.
    pub fn previous(&self) -> Option<Arc<Index>> {
        self.index().ok()
    }

    /// The current index generation, opened on first use; an error when
    /// it was built with another embedder than this session's.
    pub fn index(&self) -> Result<Arc<Index>> {
        if let Some(i) = self
            .index
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
        {
            return Ok(i.clone());
        }
        let index = Index::open(&self.index_dir)?;
        // Another folder's index would answer with that folder's words.
        if let Ok(here) = self.sources.canonicalize()
            && index.manifest.sources != here.to_string_lossy()
        {
            return Err(crate::index::another_folders_index(
                &self.index_dir,
                &index.manifest.sources,
                "choose another --index-dir, or run `research-board index` with --force to replace it",
            ));
        }
        let want = self.embedder().map(|e| e.id().to_string());
        if index.manifest.embedder != want {
            bail!(
                "the index was built with embedder {:?} but {:?} is selected; run `research-board index` to re-embed",
                index.manifest.embedder.as_deref().unwrap_or("none"),
                want.as_deref().unwrap_or("none")
            );
        }
        let index = Arc::new(index);
        *self.index.write().unwrap_or_else(|e| e.into_inner()) = Some(index.clone());
        Ok(index)
    }

    /// Run the pipeline once for `question` and write its audit record.
    /// Setting `cancel` abandons the question's network calls.
    pub fn ask(&self, question: &str, cancel: Option<&Cancel>) -> Result<Answered> {
        let index = self.index()?;
        let outcome = pipeline::ask_with(
            &index,
            self.embedder(),
            &self.config,
            question,
            self.engine.as_ref(),
            cancel,
        )?;
        let mut outcome = outcome;
        stale_quotes_flagged(&mut outcome, &index);
        let citation_error = match self.citations() {
            Ok(Some(l)) => crate::citing::cite_answer(&mut outcome, &index, &l)
                .err()
                .map(|e| format!("cannot cite the quotes: {e:#}")),
            Ok(None) => None,
            Err(e) => Some(format!("{e:#}")),
        };
        if let Some(e) = citation_error {
            outcome.works = Some(pipeline::AnswerWorks {
                error: Some(e),
                ..Default::default()
            });
        }
        let audit_error = self.log_dir.as_ref().and_then(|dir| {
            crate::audit::record(dir, &outcome, self.debug)
                .err()
                .map(|e| format!("cannot write the audit log in {}: {e:#}", dir.display()))
        });
        Ok(Answered {
            outcome,
            index,
            audit_error,
        })
    }

    /// The bibliography (`--bibliography`, else `[cite] bibliography`) tied
    /// to the sources of the current index generation, read once per
    /// generation; None when none is set.
    pub fn citations(&self) -> Result<Option<Arc<Loaded>>> {
        let Some(path) = self.config.cite.bibliography.clone() else {
            return Ok(None);
        };
        let index = self.index()?;
        let mut cache = self.citations.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((i, l)) = cache.as_ref()
            && Arc::ptr_eq(i, &index)
        {
            return Ok(Some(l.clone()));
        }
        let loaded = crate::citing::load(&path, self.config.cite.style.as_deref(), &index)
            .map_err(|e| anyhow::anyhow!("bibliography {}: {e:#}", path.display()))?;
        let loaded = Arc::new(loaded);
        *cache = Some((index, loaded.clone()));
        Ok(Some(loaded))
    }

    /// Check quotes (from JSON lines or a draft) against the whole index,
    /// and their citations against `citing` (a bibliography tied to the
    /// sources) when given; `draft`: the draft's own source id, when it is
    /// kept among the sources ([`crate::verify::verify_with`]).
    pub fn verify(
        &self,
        quotes: &[QuoteInput],
        citing: Option<&crate::verify::Citing<'_>>,
        draft: Option<&str>,
    ) -> Result<Vec<QuoteResult>> {
        let index = self.index()?;
        crate::verify::verify_with(&index, self.embedder(), quotes, &self.config, citing, draft)
    }

    /// Run a question set through the pipeline (retrieval and refusals).
    pub fn eval(&self, set: &QuestionSet, sweep: bool) -> Result<EvalReport> {
        let index = self.index()?;
        crate::eval::run(
            &index,
            self.embedder(),
            &self.config,
            set,
            sweep,
            self.engine.as_ref(),
        )
    }
}

/// A quote validated against the index's text of a file that has changed
/// since (the index could not be updated: another process held it, the
/// folder is read-only, `--no-update`) is flagged, not validated.
fn stale_quotes_flagged(outcome: &mut pipeline::QueryOutcome, index: &Index) {
    for s in &mut outcome.snippets {
        s.read_as = index.read_as(&s.source_id);
    }
    outcome.flag_changed_files();
}

/// The configuration: the file, then the environment, then the overrides.
fn settle(o: &Overrides) -> Result<Config> {
    let mut config = Config::load(o.config_file.as_deref())?;
    if let Some(k) = o.embedder {
        config.embedder = k;
    }
    config.settle();
    if let Some(e) = o.engine {
        config.engine = e;
    }
    if o.no_rerank {
        config.rerank = false;
    }
    config.llm = config.llm.clone().from_env();
    if let Some(u) = &o.base_url {
        config.llm.base_url = u.clone();
    }
    if let Some(m) = &o.model {
        config.llm.model = m.clone();
    }
    if let Some(x) = o.extraction {
        config.llm.extraction = x;
    }
    if let Some(k) = o.top_k {
        config.retrieve.top_k = k.max(1);
    }
    Ok(config)
}

/// Refuse what cannot be a sources folder, and (without `force`) the
/// filesystem root and the home folder, which would index the whole disk.
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

/// An error that comes of a full disk (or quota), however deep in the
/// chain and whether or not the library kept the I/O error as its source.
fn disk_full(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>().is_some_and(|io| {
            matches!(
                io.kind(),
                std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded
            )
        }) || {
            let t = c.to_string();
            t.contains("No space left on device") || t.contains("Disk quota exceeded")
        }
    })
}

#[cfg(test)]
mod tests {
    use super::disk_full;

    #[test]
    fn a_full_disk_is_told_however_the_library_reports_it() {
        let io = std::io::Error::from(std::io::ErrorKind::StorageFull);
        assert!(disk_full(&anyhow::Error::new(io).context("commit")));
        let text = anyhow::anyhow!("An IO error occurred: 'No space left on device (os error 28)'");
        assert!(disk_full(&text.context("writing segment")));
        let other = std::io::Error::from(std::io::ErrorKind::PermissionDenied);
        assert!(!disk_full(&anyhow::Error::new(other)));
    }
}
