fn main() {
    std::process::exit(research_board::cli::main());
}
