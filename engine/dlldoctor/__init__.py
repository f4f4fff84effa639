"""dlldoctor: find out why a Windows DLL does not load in a Python process."""

__version__ = "0.1.0"
