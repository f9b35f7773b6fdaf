"""Match history, profiles, leaderboards."""
