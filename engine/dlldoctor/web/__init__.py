"""The web page and JSON API of ``dlldoctor serve``: a paste (or a bundle) in, explain's answer out.

``app`` builds the Starlette application (routes), ``answers`` turns a request's text or bundle into the
same answer ``dlldoctor explain`` gives, ``page`` writes the HTML, ``limits`` holds what a public
deployment needs (a body cap, a time cap, security headers, an access log without query strings), and
``serve`` runs it on uvicorn. Starlette, uvicorn and python-multipart come with ``pip install
dlldoctor[web]``; nothing here is imported by the other commands.
"""
