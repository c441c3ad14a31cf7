struct Mechanic {
    static let `default` = Mechanic(name: "Sam")
    let name: String

    func inspect(_ vehicle: Vehicle) {
        let report = vehicle.describe()
        Registry.shared.note(report)
    }
}

final class Registry {
    static let shared = Registry()
    private var items: [ObjectIdentifier: String] = [:]
    private var notes: [String] = []

    private init() {}

    func register(_ vehicle: Vehicle) {
        items[ObjectIdentifier(vehicle)] = vehicle.describe()
    }

    func unregister(_ vehicle: Vehicle) {
        items[ObjectIdentifier(vehicle)] = nil
    }

    func note(_ text: String) {
        notes.append(text)
    }
}
