pub fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub(crate) fn words(s: &str) -> usize {
    collapse(s).split(' ').count()
}
