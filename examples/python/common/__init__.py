"""What the example programs share at start: start.py."""
