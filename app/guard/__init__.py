"""Guards against hostile input: rate limits and message checks."""
