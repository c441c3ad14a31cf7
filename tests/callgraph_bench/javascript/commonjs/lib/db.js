class Database {
  constructor(url) {
    this.url = url;
    this.connected = false;
  }

  connect() {
    this.connected = true;
    return this;
  }

  query(sql) {
    if (!this.connected) this.connect();
    return [];
  }
}

function createDatabase(url) {
  return new Database(url).connect();
}

module.exports = { Database, createDatabase };
