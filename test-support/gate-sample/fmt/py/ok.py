import os


def main():
    return os.sep
