"""The lobby: open tables, invitations and the public matchmaking queue ("Play now")."""
