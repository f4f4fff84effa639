from dlldoctor.cli import run

run()
