/// mimalloc: less fragmentation than the system allocator on the index
/// build's many short-lived allocations, so a lower peak (README,
/// "Performance").
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    use research_board::ingest::worker;
    // The parser worker (see ingest::worker): before anything else, so that
    // no terminal or panic hook is set up in it.
    let mut args = std::env::args_os().skip(1);
    if args.next().is_some_and(|a| a == worker::SUBCOMMAND) {
        let rest: Vec<String> = args.map(|a| a.to_string_lossy().into_owned()).collect();
        std::process::exit(worker::worker_main(&rest));
    }
    worker::serve_from_this_binary();
    std::process::exit(research_board::cli::main());
}
