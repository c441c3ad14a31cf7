const { createDatabase } = require('./db');
const format = require('./format');

function listUsers() {
  const db = createDatabase('sqlite://users');
  return db.query('select * from users').map(format.user);
}

function findUser(id) {
  return listUsers().find((u) => u.id === id);
}

exports.listUsers = listUsers;
exports.findUser = findUser;
