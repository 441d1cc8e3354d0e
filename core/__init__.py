"""Platform-neutral heart of the bot: rules, AI, commands, sessions and their store."""
