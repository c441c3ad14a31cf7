import { render } from '../templates/index.js';

export function sendMail(to, body) {
  return transport(to, render(body));
}

function transport(to, text) {
  return { to, text };
}
