pub trait Shape {
    fn area(&self) -> f64;

    fn scaled(&self, k: f64) -> f64 {
        self.area() * k * k
    }
}

pub struct Circle {
    pub r: f64,
}

impl Shape for Circle {
    fn area(&self) -> f64 {
        std::f64::consts::PI * self.r * self.r
    }
}

pub struct Square {
    side: f64,
}

impl Square {
    pub fn new(side: f64) -> Square {
        Square { side }
    }
}

impl Shape for Square {
    fn area(&self) -> f64 {
        self.side * self.side
    }

    fn scaled(&self, k: f64) -> f64 {
        Square::new(self.side * k).area()
    }
}
