local unused = 1
local function total(items)
  local sum = 0
  for _, v in ipairs(items) do sum = sum + v end
  return sum + missing
end
return total
