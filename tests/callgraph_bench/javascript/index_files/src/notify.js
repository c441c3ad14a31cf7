import * as services from './services';

export function notifyAll(user, message) {
  services.sendMail(user.email, message);
  services.sendSms(user.phone, message);
}
