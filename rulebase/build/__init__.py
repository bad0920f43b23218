"""Building an index generation: the builder, the Whoosh writer, the archive's build cache and the code digest."""
