"""The one exception hierarchy of dlldoctor.

The CLI turns every ``DllDoctorError`` into one line on stderr and exit status 2.
"""


class DllDoctorError(Exception):
    """Root of every error dlldoctor raises on purpose."""


class InputError(DllDoctorError):
    """A target or argument cannot be read or makes no sense."""


class RuleError(DllDoctorError):
    """A rule file or rule set is invalid."""


class PEFormatError(DllDoctorError):
    """A file is not a readable PE image."""
