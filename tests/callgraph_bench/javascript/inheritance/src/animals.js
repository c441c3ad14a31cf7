export class Animal {
  constructor(name) {
    this.name = name;
  }

  speak() {
    return `${this.name} makes ${this.sound()}`;
  }

  sound() {
    return 'a sound';
  }

  static create(kind, name) {
    return kind === 'dog' ? new Dog(name) : new Cat(name);
  }
}

export class Dog extends Animal {
  sound() {
    return 'woof';
  }

  fetch() {
    return `${this.speak()} and fetches`;
  }
}

export class Cat extends Animal {
  constructor(name, indoor = true) {
    super(name);
    this.indoor = indoor;
  }

  speak() {
    return `${super.speak()} (${this.indoor ? 'indoor' : 'outdoor'})`;
  }
}
