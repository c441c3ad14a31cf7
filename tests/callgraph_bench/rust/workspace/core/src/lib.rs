pub mod text;

pub fn normalize(s: &str) -> String {
    text::collapse(&s.to_lowercase())
}
