import os  # F401
x = y      # F821
match 42:  # invalid-syntax
    case _: ...
