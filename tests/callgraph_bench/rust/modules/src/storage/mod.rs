mod memory;

pub use self::memory::Store;
