#!/usr/bin/env python3
"""Build the paper catalogue: `python build.py --help`."""

import sys

from catalogue.cli import main

if __name__ == "__main__":
    sys.exit(main())
