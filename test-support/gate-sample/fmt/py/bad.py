import sys
import os


def main( ):
    return os.sep+sys.platform
