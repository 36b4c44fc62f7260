"""The fakes the command line's demo runs on and the test kit hands out: a
clock that moves when told, a scripted phraser and scripted sources.

They sit below both :mod:`vouched._cli` (the offline demo uses them) and
:mod:`vouched.testing` (which re-exports them and runs the command line), so
neither package imports the other in a loop.
"""
