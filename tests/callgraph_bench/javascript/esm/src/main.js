import checkout, { Cart } from './cart.js';

const cart = new Cart().add({ sku: 'a', unit: 2, qty: 3 });
console.log(checkout(cart));
