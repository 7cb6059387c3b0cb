"""Python generators for qhasm (standard library only)."""
