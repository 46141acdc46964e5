import sys

from unsugar.cli import main

sys.exit(main())
