export default class Logger {
  constructor(name) {
    this.name = name;
  }

  info(message) {
    this.write('info', message);
  }

  write(level, message) {
    console.log(`[${level}] ${this.name}: ${message}`);
  }
}
