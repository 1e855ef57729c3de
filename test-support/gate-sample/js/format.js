const spaced   =   {a:1}
module.exports = spaced
