final class Car: Vehicle {
    let model: String

    init(model: String) {
        self.model = model
        super.init(wheels: 4)
    }

    override func didDrive(_ km: Int) {
        super.didDrive(km)
        if odometer > 10_000 {
            service()
        }
    }

    func service() {
        Mechanic.default.inspect(self)
    }

    override func describe() -> String {
        model + ": " + super.describe()
    }

    static func fleet(of count: Int) -> [Car] {
        (0..<count).map { Car(model: "Model \($0)") }
    }
}

class Truck: Vehicle {
    func load() {
        drive(1)
    }
}

class Bike: Vehicle {
    init() {
        super.init(wheels: 2)
    }
}
