import { Button } from './Button';
import { useCounter } from '../hooks';

export const Toolbar = () => {
  const { count, increment } = useCounter(0);
  return (
    <div>
      <Button label={`+1 (${count})`} onClick={increment} />
      <Button label="reset" onClick={() => increment()} />
    </div>
  );
};
