let car = Car(model: "Roadster")
car.drive(120)
let truck = Truck(wheels: 6)
truck.load()
let bike = Bike()
let old = Vehicle.standard()
old.drive(5)
for vehicle in Car.fleet(of: 3) {
    vehicle.service()
}
print(bike.describe(), truck.describe())
