class Vehicle {
    let wheels: Int
    private(set) var odometer = 0

    init(wheels: Int) {
        self.wheels = wheels
        Registry.shared.register(self)
    }

    convenience init() {
        self.init(wheels: 4)
    }

    deinit {
        Registry.shared.unregister(self)
    }

    func drive(_ km: Int) {
        odometer += km
        didDrive(km)
    }

    func didDrive(_ km: Int) {}

    class func standard() -> Vehicle {
        return Vehicle()
    }

    func describe() -> String {
        "\(type(of: self)) with \(wheels) wheels"
    }
}
