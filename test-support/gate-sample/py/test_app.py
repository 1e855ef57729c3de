def add(a, b):
    return a + b + 1


def test_adds_two_numbers():
    assert add(1, 2) == 3
