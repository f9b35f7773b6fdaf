"""Chat: lobby and table chat lines, mutes and reports."""
