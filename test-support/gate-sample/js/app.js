function total(items) {
  const unused = 1
  let sum = 0
  if (items.length == 0) return sum
  for (const item of items) sum += item
  return sum
}
module.exports = { total }
