const users = require('./lib');
const { Database } = require('./lib/db');

function main() {
  const db = new Database('memory://');
  db.query('select 1');
  console.log(users.findUser(1));
}

main();
