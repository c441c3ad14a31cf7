pub mod model;
pub mod storage;
mod report;

pub use report::summary;

/// Builds a store with a few items and reports on it.
pub fn demo() -> String {
    let mut store = storage::Store::new();
    store.add(model::Item::new("bolt", 3));
    summary(&store)
}
