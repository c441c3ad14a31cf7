use crate::model::Item;

pub struct Store {
    items: Vec<Item>,
}

impl Store {
    pub fn new() -> Self {
        Store { items: Vec::new() }
    }

    pub fn add(&mut self, item: Item) {
        if !item.is_empty() {
            self.items.push(item);
        }
    }

    pub fn total(&self) -> u32 {
        self.items.iter().map(|i| i.qty).sum()
    }

    pub fn names(&self) -> Vec<String> {
        super::super::report::names_of(&self.items)
    }
}
