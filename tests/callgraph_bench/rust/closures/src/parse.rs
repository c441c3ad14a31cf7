pub struct Record {
    pub key: String,
    raw: String,
}

impl Record {
    pub fn value(&self) -> i64 {
        self.raw.parse().unwrap_or(0)
    }
}

pub fn parse_line(line: &str) -> Option<Record> {
    let (key, raw) = split_pair(line)?;
    Some(Record { key: key.to_string(), raw: raw.to_string() })
}

fn split_pair(line: &str) -> Option<(&str, &str)> {
    line.split_once(',')
}
