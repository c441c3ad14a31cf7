export function useCounter(start: number) {
  let count = start;
  const increment = () => {
    count = bump(count);
  };
  return { count, increment };
}

export function bump(n: number): number {
  return n + 1;
}
