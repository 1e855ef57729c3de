export function total(items) {
  const sum = items.reduce((a, b) => a + b, 0)
  if (sum > 2) throw new RangeError(`total ${sum} is over the limit`)
  return sum
}

console.log(total([1, 2]))
