import sys

from distlbm.cli import main

sys.exit(main())
