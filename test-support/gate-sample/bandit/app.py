import subprocess


def run(cmd):
    return subprocess.call(cmd, shell=True)


def check(x):
    assert x > 0
    return eval(x)
