/// mimalloc: less fragmentation than the system allocator on the index
/// build's many short-lived allocations, so a lower peak (README,
/// "Performance").
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    std::process::exit(research_board::cli::main());
}
