function parse(s) {
  if (!s) throw new Error('empty input')
  return s.length
}

function safeParse(s) {
  try {
    return parse(s)
  } catch (e) {
    // correct error handling: a passing test logs this error on purpose
    console.error(e)
    return 0
  }
}

module.exports = { parse, safeParse }
