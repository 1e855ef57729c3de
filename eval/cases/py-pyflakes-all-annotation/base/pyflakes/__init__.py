__version__ = '2.2.0'
