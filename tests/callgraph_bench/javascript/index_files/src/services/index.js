export { sendMail } from './mail.js';
export * from './sms.js';
