export function render(body) {
  return `<p>${escape(body)}</p>`;
}

function escape(s) {
  return s.replace(/</g, '&lt;');
}
