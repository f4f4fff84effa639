import sys

from dlldoctor.cli import main

sys.exit(main())
