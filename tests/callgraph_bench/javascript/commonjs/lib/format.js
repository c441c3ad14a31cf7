function user(u) {
  return `${u.id}: ${name(u)}`;
}

function name(u) {
  return u.name.trim();
}

module.exports = { user, name };
