import os


def used():
    return 1


def unused_helper():
    return 2


print(used())
