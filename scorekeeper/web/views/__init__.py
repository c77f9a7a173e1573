"""One blueprint a feature."""
