"""Helpers shared by every Python suite (Tests/Interop, Tests/API, Tests/Adversarial, Tests/Container,
bench/load): the built-in scenario's values, a siwa-mock process, a well-behaved client and the
runners' common flags. Standard library only.

Runners find this package through the venv bootstrap (Tests/pysupport/venv.sh puts Tests/pysupport on
each venv's path) or, for the standard-library runners, by adding Tests/pysupport to sys.path.
"""
