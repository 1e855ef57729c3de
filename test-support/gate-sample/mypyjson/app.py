def total(xs: list[float]) -> float:
    return sum(xs)


ints: list[int] = [1, 2]
total(ints)


def name() -> str:
    return 42
