import os


def f():
    return undefined_name
