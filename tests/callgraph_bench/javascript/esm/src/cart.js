import { price, TAX } from './pricing.js';
import Logger from './logger.js';

const log = new Logger('cart');

export class Cart {
  constructor() {
    this.items = [];
  }

  add(item) {
    this.items.push(item);
    log.info(`added ${item.sku}`);
    return this;
  }

  total() {
    return this.items.reduce((sum, item) => sum + price(item), 0) * (1 + TAX);
  }
}

export default function checkout(cart) {
  const amount = cart.total();
  log.info(`checkout ${amount}`);
  return amount;
}
