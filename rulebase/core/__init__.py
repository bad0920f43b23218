"""What every layer shares: the record model, the manifest, errors, eras, locks and worker processes."""
