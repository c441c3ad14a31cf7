use crate::model::Item;
use crate::storage::Store;

pub fn summary(store: &Store) -> String {
    format!("{} items: {}", store.total(), store.names().join(", "))
}

pub fn names_of(items: &[Item]) -> Vec<String> {
    items.iter().map(|i| i.name.clone()).collect()
}
