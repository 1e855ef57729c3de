import sys

VALUE = 1
import json
