"""What the example programs share (not a program of its own: examples/python/common/start.py)."""
