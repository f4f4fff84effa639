"""The Wine tier: run the loader harness under Wine on generated layouts and compare with dlldoctor.

``runner`` drives Wine (a private prefix, the harness build, one harness process per layout, its output
parsed), ``layouts`` declares the layouts, ``compare`` turns a dlldoctor tree and a harness run into the
checks the tier makes. See docs/loader-model.md for what is compared and why.
"""
