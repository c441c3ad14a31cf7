use std::collections::HashMap;

pub struct Cache<K, V> {
    map: HashMap<K, V>,
    hits: Counter,
}

pub struct Counter {
    n: u64,
}

impl Counter {
    fn bump(&mut self) {
        self.n += 1;
    }

    pub fn get(&self) -> u64 {
        self.n
    }
}

impl<K: std::hash::Hash + Eq, V: Clone> Cache<K, V> {
    pub fn new() -> Self {
        Cache { map: HashMap::new(), hits: Counter { n: 0 } }
    }

    pub fn get_or_insert(&mut self, key: K, make: impl FnOnce() -> V) -> V {
        if let Some(v) = self.map.get(&key) {
            self.hits.bump();
            return v.clone();
        }
        let v = make();
        self.map.insert(key, v.clone());
        v
    }

    pub fn hit_count(&self) -> u64 {
        self.hits.get()
    }
}

pub trait Store<T> {
    fn put(&mut self, item: T);
    fn all(&self) -> Vec<T>;
}

pub struct VecStore<T> {
    items: Vec<T>,
}

impl<T: Clone> Store<T> for VecStore<T> {
    fn put(&mut self, item: T) {
        self.items.push(item);
    }

    fn all(&self) -> Vec<T> {
        self.items.clone()
    }
}

pub fn fill<S: Store<u32>>(store: &mut S, n: u32) -> usize {
    for i in 0..n {
        store.put(i);
    }
    store.all().len()
}

fn expensive() -> String {
    "value".to_string()
}

pub fn demo() -> u64 {
    let mut cache: Cache<&str, String> = Cache::new();
    cache.get_or_insert("a", expensive);
    cache.get_or_insert("a", || expensive());
    let mut store = VecStore { items: vec![] };
    fill(&mut store, 3);
    store.put(9);
    cache.hit_count()
}
