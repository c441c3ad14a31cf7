import { Animal, Dog, Cat } from './animals.js';

export function tour() {
  const rex = new Dog('rex');
  const tom = new Cat('tom', false);
  const any = Animal.create('dog', 'spot');
  return [rex.fetch(), tom.speak(), any.speak(), rex.sound()];
}
