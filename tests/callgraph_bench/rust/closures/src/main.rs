mod parse;

use parse::{parse_line, Record};

fn load(lines: &[&str]) -> Vec<Record> {
    lines.iter().filter_map(|l| parse_line(l)).collect()
}

fn apply<F: Fn(i64) -> i64>(xs: &[i64], f: F) -> Vec<i64> {
    xs.iter().map(|&x| f(x)).collect()
}

fn double(x: i64) -> i64 {
    x * 2
}

fn main() {
    let records = load(&["a,1", "b,2"]);
    let values: Vec<i64> = records.iter().map(|r| r.value()).collect();
    let doubled = apply(&values, double);
    let shifted = apply(&doubled, |x| double(x) + 1);
    println!("{:?}", shifted);
}
