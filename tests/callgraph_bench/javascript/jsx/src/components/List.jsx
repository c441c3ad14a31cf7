import { Item } from './Item.jsx';
import { sortBy } from '../lib/sort.js';

export function List({ items }) {
  const sorted = sortBy(items, 'name');
  return (
    <ul>
      {sorted.map((it) => (
        <Item key={it.id} item={it} />
      ))}
    </ul>
  );
}
