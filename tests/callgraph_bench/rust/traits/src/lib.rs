pub mod shapes;

use shapes::{Circle, Shape, Square};

pub trait Describe {
    fn name(&self) -> String;

    fn describe(&self) -> String {
        format!("a {}", self.name())
    }
}

impl Describe for Circle {
    fn name(&self) -> String {
        String::from("circle")
    }
}

pub fn total_area(shapes: &[Box<dyn Shape>]) -> f64 {
    shapes.iter().map(|s| s.area()).sum()
}

pub fn biggest<S: Shape>(a: S, b: S) -> f64 {
    a.area().max(b.area())
}

pub fn run() -> f64 {
    let c = Circle { r: 1.0 };
    let s = Square::new(2.0);
    println!("{}", c.describe());
    total_area(&[Box::new(Circle { r: 2.0 }), Box::new(s)]) + biggest(c, Circle { r: 3.0 })
}
