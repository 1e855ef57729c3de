def total(items):
    return sum(items)
print(total([1, 2])
