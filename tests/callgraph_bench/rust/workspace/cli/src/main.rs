use app_core::normalize;
use app_core::text::{self, collapse};

fn main() {
    let input = std::env::args().nth(1).unwrap_or_default();
    println!("{}", normalize(&input));
    println!("{}", collapse(&input));
    println!("{}", text::collapse("a  b"));
}
