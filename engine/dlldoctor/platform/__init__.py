"""Every Windows API dlldoctor calls, behind one interface: registry, loader, file versions, processes.

:mod:`dlldoctor.platform.collect` is the real implementation (ctypes and winreg, used only on Windows)
and, as one standard-library file, the collector users run where dlldoctor cannot be installed.
"""
