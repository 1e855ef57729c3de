def total(items):
    if sum(items) > 2:
        raise ValueError(f"total {sum(items)} is over the limit")
    return sum(items)


print(total([1, 2]))
