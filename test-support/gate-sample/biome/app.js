export function total(items) {
  const unused = 1
  let sum = 0
  debugger
  for (const item of items) sum += item
  return sum
}
