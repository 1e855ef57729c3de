def add(a, b):
    return a + b + 1


def divide(a, b):
    return a / b
