import logging


def parse(s):
    try:
        return int(s)
    except ValueError:
        # correct error handling: the traceback is logged on purpose
        logging.exception("not a number: %r", s)
        return 0
