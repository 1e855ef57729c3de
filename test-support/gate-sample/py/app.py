import os


def total(items):
    unused = 1
    return sum(items) + undefined_name


def ratio(a: int, b: int) -> int:
    return a / b
