"""dlldoctor: find out why a Windows DLL does not load in a Python process."""

__version__ = "0.1.0"

# The project's home; rule pages are under docs/rules/ there (one page per category, an anchor per rule).
REPOSITORY = "https://github.com/dlldoctor/dlldoctor"
