export function sendSms(to, body) {
  return { to, body: body.slice(0, 160) };
}
