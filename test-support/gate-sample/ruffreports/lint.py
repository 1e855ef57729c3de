import os
x = y


def f():
    l = 1
