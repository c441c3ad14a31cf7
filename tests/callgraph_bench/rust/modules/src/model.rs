#[derive(Debug, Clone)]
pub struct Item {
    pub name: String,
    pub qty: u32,
}

impl Item {
    pub fn new(name: &str, qty: u32) -> Self {
        Item { name: name.to_string(), qty }
    }

    pub fn is_empty(&self) -> bool {
        self.qty == 0
    }
}
